import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { memoryPages, validateXML } from 'xmllint-wasm';

/*
 * Each audit file checked by its format's own rules, written here from the specifications in
 * ../shared/spec/formats (not from our writers): the XML ones by the official XSD through
 * libxml2 (xmllint-wasm), the text ones rule by rule. Each returns the problems found, `[]` when
 * none, so a failing test names them.
 */

const FORMATS = new URL('../../../shared/spec/formats/', import.meta.url).pathname;
export const SAFT_XSD = `${FORMATS}saft-no/Norwegian_SAF-T_Financial_Schema_v_1.30.xsd`;
export const XAF_XSD = `${FORMATS}xaf-nl/XmlAuditfileFinancieel3.2.xsd`;

/** libxml2's validation of `file` against `xsd`: its messages. */
export async function xsdProblems(file: string, xsd: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'file.xml', contents: readFileSync(file, 'utf8') }],
    schema: [readFileSync(xsd, 'utf8')],
    maxMemoryPages: 1 * memoryPages.GiB,
  });
  return result.valid ? [] : result.errors.slice(0, 20).map((error) => error.rawMessage);
}

const cents = (text: string) => Math.round(Number(text) * 100);

/**
 * Article A47 A-1 (VII, XII) and the DGFiP validator's checks (fec-fr/NOTES.md): the 18 columns
 * in order, tab-separated, every line as wide as the header; `AAAAMMJJ` dates; decimal commas
 * without grouping; the required values; no `|` in a tab-separated file; one side per line;
 * each EcritureNum balanced, on one date and journal, numbered 1, 2, … in date order.
 */
export function fecProblems(file: string): string[] {
  const problems: string[] = [];
  const bytes = readFileSync(file);
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').compare(bytes) !== 0) problems.push('not UTF-8');
  if (!/FEC20\d{6}/.test(file)) problems.push(`file name ${file} lacks FEC and a closing date`);
  if (text.includes('|')) problems.push('a | in a tab-separated file');
  const lines = text.split(/\r\n/);
  if (lines.at(-1) === '') lines.pop();
  else problems.push('the last line does not end with CR LF');
  const header = lines[0]!.split('\t');
  const expected =
    'JournalCode JournalLib EcritureNum EcritureDate CompteNum CompteLib CompAuxNum CompAuxLib PieceRef PieceDate EcritureLib Debit Credit EcritureLet DateLet ValidDate Montantdevise Idevise';
  if (header.join(' ') !== expected) problems.push(`header: ${header.join(' ')}`);
  const entries = new Map<
    string,
    { debit: number; credit: number; date: string; journal: string }
  >();
  let lastNumber = 0;
  let lastDate = '';
  lines.slice(1).forEach((line, index) => {
    const at = `line ${index + 2}`;
    const f = line.split('\t');
    if (f.length !== 18) return problems.push(`${at}: ${f.length} fields`);
    const [
      journal,
      journalLib,
      number,
      date,
      account,
      accountLib,
      ,
      ,
      piece,
      pieceDate,
      label,
      debit,
      credit,
      ,
      ,
      validDate,
    ] = f as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    for (const [name, value] of Object.entries({
      journal,
      journalLib,
      number,
      date,
      account,
      accountLib,
      piece,
      pieceDate,
      label,
      validDate,
    }))
      if (value.trim() === '') problems.push(`${at}: ${name} empty`);
    for (const day of [date, pieceDate, validDate])
      if (!/^(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(day))
        problems.push(`${at}: date ${day}`);
    for (const amount of [debit, credit])
      if (!/^\d+,\d{2}$/.test(amount)) problems.push(`${at}: amount ${amount}`);
    const d = cents(debit.replace(',', '.'));
    const c = cents(credit.replace(',', '.'));
    if ((d === 0) === (c === 0)) problems.push(`${at}: debit ${debit} and credit ${credit}`);
    if (!/^\d{3}/.test(account))
      problems.push(`${at}: CompteNum ${account} does not begin with three digits`);
    const n = Number(number);
    if (n !== lastNumber && n !== lastNumber + 1)
      problems.push(`${at}: EcritureNum ${number} after ${lastNumber}`);
    if (date < lastDate) problems.push(`${at}: ${date} after ${lastDate}`);
    lastNumber = n;
    lastDate = date;
    const entry = entries.get(number) ?? { debit: 0, credit: 0, date, journal };
    if (entry.date !== date || entry.journal !== journal)
      problems.push(`${at}: entry ${number} on two dates or journals`);
    entry.debit += d;
    entry.credit += c;
    entries.set(number, entry);
  });
  for (const [number, entry] of entries)
    if (entry.debit !== entry.credit) problems.push(`entry ${number} does not balance`);
  return problems;
}

/** The records SIE 4B requires of a type 4E file, in CP437 (sie-se/NOTES.md), vouchers balanced. */
export function sieProblems(file: string): { problems: string[]; text: string } {
  const problems: string[] = [];
  const text = iconv.decode(readFileSync(file), 'cp437');
  const lines = text.split('\r\n');
  if (lines[0] !== '#FLAGGA 0') problems.push(`first line ${lines[0]}`);
  for (const label of [
    '#PROGRAM',
    '#FORMAT PC8',
    '#GEN',
    '#SIETYP 4',
    '#FNAMN',
    '#RAR 0',
    '#KONTO',
    '#KTYP',
    '#IB 0',
    '#UB 0',
    '#RES 0',
    '#VER',
    '#TRANS',
  ])
    if (!lines.some((line) => line.startsWith(`${label} `) || line === label))
      problems.push(`no ${label}`);
  let voucher: { line: number; sum: number } | undefined;
  lines.forEach((line, index) => {
    if ([...line].some((c) => c.charCodeAt(0) < 0x20 && c !== '\t'))
      problems.push(`line ${index + 1}: a control character`);
    if (line.startsWith('#VER ')) voucher = { line: index + 1, sum: 0 };
    const trans = /^#TRANS (\d+) \{\} (-?\d+(?:\.\d{1,2})?) (\d{8}) "/.exec(line);
    if (line.startsWith('#TRANS') && !trans) problems.push(`line ${index + 1}: ${line}`);
    if (trans && voucher) voucher.sum += cents(trans[2]!);
    if (line === '}' && voucher) {
      if (voucher.sum !== 0) problems.push(`the #VER on line ${voucher.line} does not balance`);
      voucher = undefined;
    }
    for (const amount of line.match(/(?<= )[+-]?\d+\.\d+(?= |$)/g) ?? [])
      if (amount.startsWith('+')) problems.push(`line ${index + 1}: a plus sign`);
  });
  return { problems, text };
}

/**
 * A DATEV Buchungsstapel as DATEV-Format describes it (datev-de/NOTES.md): Windows-1252, CR LF;
 * the 31-field EXTF header of version 700 (Buchungsstapel, format version 13); 125 headings;
 * each row 125 fields, its amount positive with a decimal comma, S or H, numeric accounts,
 * Belegdatum TTMM within the header's period, Belegfeld 1 of DATEV's characters.
 */
export function datevProblems(file: string): {
  problems: string[];
  header: string[];
  rows: string[][];
} {
  const problems: string[] = [];
  const text = iconv.decode(readFileSync(file), 'windows-1252');
  if (!/^EXTF_/.test(file.split('/').at(-1)!)) problems.push('the file name does not start EXTF_');
  const lines = text.split('\r\n');
  if (lines.at(-1) === '') lines.pop();
  else problems.push('the last line does not end with CR LF');
  if (lines.some((line) => line.includes('\n'))) problems.push('a bare LF');
  const header = lines[0]!.split(';');
  if (header.length !== 31) problems.push(`the header has ${header.length} fields`);
  const [
    kennzeichen,
    version,
    category,
    name,
    formatVersion,
    created,
    ,
    ,
    ,
    ,
    consultant,
    client,
    yearStart,
    length,
    from,
    to,
  ] = header;
  if (
    kennzeichen !== '"EXTF"' ||
    version !== '700' ||
    category !== '21' ||
    name !== '"Buchungsstapel"' ||
    formatVersion !== '13'
  )
    problems.push(`header ${header.slice(0, 5).join(';')}`);
  if (!/^\d{17}$/.test(created!)) problems.push(`Erzeugt am ${created}`);
  if (!(Number(consultant) >= 1001 && Number(consultant) <= 9_999_999))
    problems.push(`Beraternummer ${consultant}`);
  if (!(Number(client) >= 1 && Number(client) <= 99_999))
    problems.push(`Mandantennummer ${client}`);
  if (!(Number(length) >= 4 && Number(length) <= 8)) problems.push(`Sachkontenlänge ${length}`);
  for (const day of [yearStart, from, to])
    if (!/^\d{8}$/.test(day!)) problems.push(`header date ${day}`);
  if (!(yearStart! <= from! && from! <= to!)) problems.push(`period ${yearStart} ${from} ${to}`);
  const headings = lines[1]!.split(';');
  if (
    headings.length !== 125 ||
    headings[0] !== 'Umsatz (ohne Soll/Haben-Kz)' ||
    headings[124] !== 'Abw. Skontokonto'
  )
    problems.push(`headings: ${headings.length}`);
  const rows = lines.slice(2).map((line) => line.split(';'));
  rows.forEach((row, index) => {
    const at = `row ${index + 3}`;
    if (row.length !== 125) return problems.push(`${at}: ${row.length} fields`);
    const [amount, side, , , , , konto, gegenkonto, , belegdatum, beleg] = row as string[];
    if (!/^\d{1,10},\d{2}$/.test(amount!) || amount === '0,00')
      problems.push(`${at}: Umsatz ${amount}`);
    if (side !== '"S"' && side !== '"H"') problems.push(`${at}: Soll/Haben ${side}`);
    if (!/^\d{1,9}$/.test(konto!) || !/^\d{1,9}$/.test(gegenkonto!))
      problems.push(`${at}: Konto ${konto} ${gegenkonto}`);
    if (!/^\d{4}$/.test(belegdatum!)) problems.push(`${at}: Belegdatum ${belegdatum}`);
    if (!/^"[A-Za-z0-9$&%*+\-/]{1,36}"$/.test(beleg!)) problems.push(`${at}: Belegfeld 1 ${beleg}`);
  });
  return { problems, header, rows };
}
