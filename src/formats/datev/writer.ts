import {
  addCents,
  negateCents,
  sidesOf,
  subtractCents,
  taxIncluded,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import type { Skr } from '../options.js';
import { rateOnDay } from './reader.js';
import {
  AUTOMATIC,
  AUTOMATIC_OFF,
  CARRIED_ACCOUNTS,
  RETAINED_EARNINGS,
  STATED_CODE,
  TAX_KEYS,
  VAT_ACCOUNTS,
} from './skr.js';
import { type AuditBooks, type AuditEntry } from '../audit/books.js';
import {
  compactDay,
  cut,
  decimalComma,
  entryDescription,
  numbersOnly,
  type AuditFileWriter,
  type WriterOptions,
} from '../audit/writer.js';

/**
 * A DATEV Buchungsstapel (DATEV-Format, `EXTF`, header version 700, category 21, format version
 * 13), as a Steuerberater imports it into DATEV Rechnungswesen:
 *
 * - `EXTF_Buchungsstapel_<from>_<to>.csv`, Windows-1252 (a character it has not is replaced and
 *   said), `;` between fields, CR LF, texts in double quotes (a quote doubled), decimal comma;
 * - the 31-field header: the Beraternummer and Mandantennummer (`--datev-consultant`,
 *   `--datev-client`), the fiscal year's first day (WJ-Beginn), the Sachkontenlänge (the number
 *   of digits of the longest account code, at least 4; at most 8), the range (Datum vom/bis: one
 *   fiscal year at most), the currency, the SKR (`--skr 03|04`, default 03);
 * - the 125 column headings of format version 13, then one booking a row: `Umsatz` always
 *   positive, `S` (the amount debits `Konto`), `Konto` against `Gegenkonto`, `Belegdatum` TTMM,
 *   `Belegfeld 1` the entry's number (1, 2, … in date order), `Buchungstext` (60 characters) the
 *   line's description, else the entry's memo; the amounts as booked, and a row on an automatic
 *   account of the SKR (SKR03 8400, 3400, …: DATEV would add the VAT it implies) carries
 *   BU-Schlüssel 40, which turns the automatic off — except a line coded USt19, USt7, VSt19 or
 *   VSt7 with its VAT line, which is one gross row with its tax key (see `taxedLines`); any other
 *   coded line's code goes in the row's Beleginfo (`STATED_CODE`), which DATEV keeps as
 *   information and books' reader reads back;
 * - an entry of more than two lines becomes rows that each balance, sharing its Belegfeld 1, by
 *   one rule: its debit lines and its credit lines, each in their order, are paired from the
 *   first of each, a row taking the smaller of the two amounts left and the line that is used up
 *   giving way to the next (a sale of 119.00 to Bank against 100.00 Revenue and 19.00 VAT is two
 *   rows: Bank/Revenue 100.00, Bank/VAT 19.00);
 * - the balances carried in (Saldenvorträge, Belegfeld 1 `EB`) on the range's first day, each
 *   balance-sheet account against 9000 Saldenvorträge Sachkonten (9008, 9009 or 9090 where the
 *   chart uses 9000), the earlier years' result on 0860 Gewinnvortrag / 0868 Verlustvortrag (SKR04
 *   2970 / 2978) or `--retained-earnings`.
 *
 * Account numbers are written without leading zeros, as DATEV writes them; a code that is not a
 * number cannot be written (refused, naming it).
 */

const HEADINGS = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
  'Postensperre',
  'Diverse Adressnummer',
  'Geschäftspartnerbank',
  'Sachverhalt',
  'Zinssperre',
  'Beleglink',
  ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => [`Beleginfo - Art ${n}`, `Beleginfo - Inhalt ${n}`]),
  'KOST1 - Kostenstelle',
  'KOST2 - Kostenstelle',
  'Kost-Menge',
  'EU-Land u. UStID (Bestimmung)',
  'EU-Steuersatz (Bestimmung)',
  'Abw. Versteuerungsart',
  'Sachverhalt L+L',
  'Funktionsergänzung L+L',
  'BU 49 Hauptfunktionstyp',
  'BU 49 Hauptfunktionsnummer',
  'BU 49 Funktionsergänzung',
  ...Array.from({ length: 20 }, (_, i) => [
    `Zusatzinformation - Art ${i + 1}`,
    `Zusatzinformation- Inhalt ${i + 1}`,
  ]).flat(),
  'Stück',
  'Gewicht',
  'Zahlweise',
  'Forderungsart',
  'Veranlagungsjahr',
  'Zugeordnete Fälligkeit',
  'Skontotyp',
  'Auftragsnummer',
  'Buchungstyp',
  'USt-Schlüssel (Anzahlungen)',
  'EU-Land (Anzahlungen)',
  'Sachverhalt L+L (Anzahlungen)',
  'EU-Steuersatz (Anzahlungen)',
  'Erlöskonto (Anzahlungen)',
  'Herkunft-Kz',
  'Buchungs GUID',
  'KOST-Datum',
  'SEPA-Mandatsreferenz',
  'Skontosperre',
  'Gesellschaftername',
  'Beteiligtennummer',
  'Identifikationsnummer',
  'Zeichnernummer',
  'Postensperre bis',
  'Bezeichnung SoBil-Sachverhalt',
  'Kennzeichen SoBil-Buchung',
  'Festschreibung',
  'Leistungsdatum',
  'Datum Zuord. Steuerperiode',
  'Fälligkeit',
  'Generalumkehr (GU)',
  'Steuersatz',
  'Land',
  'Abrechnungsreferenz',
  'BVV-Position',
  'EU-Land u. UStID (Ursprung)',
  'EU-Steuersatz (Ursprung)',
  'Abw. Skontokonto',
];

/** The columns after Buchungstext, left empty. */
const EMPTY_AFTER_TEXT = ';'.repeat(HEADINGS.length - 14);

/** The fields after Buchungstext: empty, or the row's codes in Beleginfo 1 and 2. */
function afterText(codes: { debit?: string | undefined; credit?: string | undefined }): string {
  if (!codes.debit && !codes.credit) return EMPTY_AFTER_TEXT;
  const pair = (art: string, code: string | undefined) =>
    code ? `;${quoted(art)};${quoted(code)}` : ';;';
  // Postensperre … Beleglink (six fields), then Beleginfo - Art/Inhalt 1 and 2, then the rest.
  return `;;;;;;${pair(STATED_CODE.debit, codes.debit)}${pair(STATED_CODE.credit, codes.credit)}${';'.repeat(HEADINGS.length - 24)}`;
}

/** The Sachkontenlänge: digits of the longest code, 4 to 8. */
export const accountLength = (books: AuditBooks) =>
  Math.max(4, ...books.accounts.map((a) => number(a.code).length));

/** An account number as DATEV writes it: no leading zeros. */
function number(code: string): string {
  return code.replace(/^0+(?=\d)/, '');
}

/** The account carried balances are booked against: the first of 9000, 9008, … the chart leaves free. */
function carriedAccount(books: AuditBooks): string | undefined {
  const used = new Set(books.accounts.map((a) => number(a.code)));
  const scale = '0'.repeat(accountLength(books) - 4);
  return CARRIED_ACCOUNTS.map((code) => `${code}${scale}`).find((code) => !used.has(code));
}

/** A text field: quoted, a quote doubled. */
const quoted = (value: string) => `"${value.replaceAll('"', '""')}"`;

/** The rows of an entry that balance each: debit lines against credit lines, first to first. */
export function pairedRows<
  L extends { code: string; debit: Cents; credit: Cents; description: string },
>(
  lines: readonly L[],
): {
  debitCode: string;
  creditCode: string;
  amount: Cents;
  description: string;
  debit: L;
  credit: L;
}[] {
  const indexed = lines.map((l, index) => ({ ...l, index }));
  const debits = indexed.filter((l) => l.debit > 0).map((l) => ({ ...l, left: l.debit }));
  const credits = indexed.filter((l) => l.credit > 0).map((l) => ({ ...l, left: l.credit }));
  const rows = [];
  let d = 0;
  let c = 0;
  while (d < debits.length && c < credits.length) {
    const debit = debits[d]!;
    const credit = credits[c]!;
    const taken = debit.left < credit.left ? debit.left : credit.left;
    rows.push({
      debitCode: debit.code,
      creditCode: credit.code,
      amount: taken,
      description: debit.description.trim() || credit.description.trim(),
      debit: lines[debit.index]!,
      credit: lines[credit.index]!,
    });
    debit.left = subtractCents(debit.left, taken);
    credit.left = subtractCents(credit.left, taken);
    if (debit.left === 0) d += 1;
    if (credit.left === 0) c += 1;
  }
  return rows;
}

export const datevWriter: AuditFileWriter = {
  format: 'datev',
  title: 'DATEV Buchungsstapel (EXTF 700)',
  encoding: 'windows-1252',
  charset: 'the DATEV Buchungsstapel (Windows-1252)',
  currency: 'EUR',
  retainedEarnings: (options: WriterOptions, carried: Cents) =>
    RETAINED_EARNINGS[options.datev?.skr ?? '03'][carried > 0 ? 'loss' : 'profit'],
  oneFiscalYear: true,
  needsOrgNumber: false,
  fileName: (books) => `EXTF_Buchungsstapel_${compactDay(books.from)}_${compactDay(books.to)}.csv`,
  refusal(books) {
    const notNumbers = numbersOnly('DATEV', books);
    if (notNumbers !== undefined) return notNumbers;
    const length = accountLength(books);
    if (length > 8)
      return `DATEV's G/L accounts have at most 8 digits (Sachkontenlänge), and account ${books.accounts.find((a) => number(a.code).length === length)!.code} has ${length}`;
    if (books.openings.length > 0 && carriedAccount(books) === undefined)
      return `the chart uses ${CARRIED_ACCOUNTS.join(', ')}, the accounts DATEV books carried balances against: there is none left for the balances on ${books.from}`;
    return undefined;
  },
  notes(books) {
    const length = accountLength(books);
    // A code as long as the others with its leading zeros (0400) comes back as it is.
    const shorter = books.accounts.filter((a) => a.code.length < length);
    const notes = [];
    if (shorter.length > 0)
      notes.push(
        `DATEV: the Sachkontenlänge is ${length} (the longest account code); ${shorter.length} shorter codes (${shorter[0]!.code}…) are read back by DATEV with leading zeros`,
      );
    if (books.totals.lines > 99_999)
      notes.push(
        'DATEV: more than 99,999 lines in one Buchungsstapel; DATEV recommends one file a booking period (export a month at a time with --from and --to)',
      );
    return notes;
  },
  async write(books, put, text, options) {
    const datev = options.datev!;
    const length = accountLength(books);
    const t = (value: string, max: number) => quoted(cut(text.text(value), max));
    const created = options.createdAt.toISOString().replace(/[-:TZ.]/g, '');
    const header = [
      '"EXTF"',
      '700',
      '21',
      '"Buchungsstapel"',
      '13',
      created,
      '',
      '"BO"',
      t(options.software.name, 25),
      '""',
      String(datev.consultant),
      String(datev.client),
      compactDay(books.fiscalYear.startDate),
      String(length),
      compactDay(books.from),
      compactDay(books.to),
      t(books.entity.name, 30),
      '""',
      '1',
      '0',
      '0',
      quoted(options.currency),
      '',
      '""',
      '',
      '',
      quoted(datev.skr),
      '',
      '',
      '""',
      '""',
    ];
    await put(`${header.join(';')}\r\n${HEADINGS.join(';')}\r\n`);

    const ttmm = (day: string) => `${day.slice(8, 10)}${day.slice(5, 7)}`;
    const automatic = AUTOMATIC[datev.skr];
    const row: RowWriter = (
      debitCode,
      creditCode,
      cents,
      day,
      voucher,
      description,
      taxed,
      codes = {},
    ) => {
      const [debit, credit] = [number(debitCode), number(creditCode)];
      // A taxed row: the taxed account is the Gegenkonto (the one DATEV's key is of), its side
      // by S or H; no key on the automatic account of the code's rate, which computes it itself.
      if (taxed) {
        const [konto, gegenkonto] = taxed.side === 'credit' ? [debit, credit] : [credit, debit];
        const key = automatic[number(taxed.code)] ? '' : taxed.key;
        // Konto is the untaxed side: its S or H is the row's; a code of it goes with its side.
        const kontoCode = taxed.side === 'credit' ? codes.debit : codes.credit;
        return `${decimalComma(cents)};"${taxed.side === 'credit' ? 'S' : 'H'}";"";;;"";${konto};${gegenkonto};"${key}";${ttmm(day)};${quoted(voucher)};"";;${t(description, 60)}${afterText(taxed.side === 'credit' ? { debit: kontoCode } : { credit: kontoCode })}\r\n`;
      }
      const key = automatic[debit] || automatic[credit] ? AUTOMATIC_OFF : '';
      return `${decimalComma(cents)};"S";"";;;"";${debit};${credit};"${key}";${ttmm(day)};${quoted(voucher)};"";;${t(description, 60)}${afterText(codes)}\r\n`;
    };

    if (books.openings.length > 0) {
      const carried = carriedAccount(books)!;
      let rows = '';
      for (const opening of books.openings) {
        const side = sidesOf(opening.amount);
        rows +=
          side.debit > 0
            ? row(opening.code, carried, side.debit, books.from, 'EB', 'Saldenvortrag')
            : row(carried, opening.code, side.credit, books.from, 'EB', 'Saldenvortrag');
      }
      await put(rows);
    }
    const vatAccountCodes = books.vatAccountCodes ?? new Set<string>();
    for await (const entry of books.entries())
      await put(entryRows(entry, row, datev.skr, vatAccountCodes));
  },
};

/** A row's tax key: the taxed line's account, its side, the BU-Schlüssel. */
interface TaxedRow {
  code: string;
  side: 'debit' | 'credit';
  key: string;
}

type RowWriter = (
  debitCode: string,
  creditCode: string,
  cents: Cents,
  day: string,
  voucher: string,
  text: string,
  taxed?: TaxedRow,
  /** The codes of the row's lines DATEV computes no key for (Beleginfo, `STATED_CODE`). */
  codes?: { debit?: string | undefined; credit?: string | undefined },
) => string;

/** The BU-Schlüssel of each code of books' German preset DATEV computes: 2, 3, 8, 9. */
const KEY_OF_CODE = new Map(
  Object.entries(TAX_KEYS).map(([key, { side, rate }]) => [`${side}${rate}`, key]),
);

type Line = AuditEntry['lines'][number];

/**
 * The entry's lines as DATEV books them: a line coded USt19, USt7, VSt19 or VSt7 (books' German
 * preset) and the VAT line of its code become one gross line with the code's BU-Schlüssel
 * (3, 2, 9, 8), which DATEV splits again — where DATEV would split it to the cent (the rate of
 * the day, 16 % and 5 % from July to December 2020) and the VAT is on the SKR's VAT account of
 * the code (1776 of SKR03's 19 %, …), so what DATEV and books' reader make of the row is what
 * the books hold. Any other coded line is written as booked: a Buchungsstapel carries a code
 * only as the tax key DATEV computes.
 */
function taxedLines(
  entry: AuditEntry,
  skr: Skr,
  vatAccountCodes: ReadonlySet<string>,
): { lines: Line[]; taxed: Map<Line, TaxedRow & { vat: Cents }> } {
  const taxed = new Map<Line, TaxedRow & { vat: Cents }>();
  const merged = new Set<Line>();
  const lines: Line[] = [];
  for (const line of entry.lines) {
    const key = line.taxCode && KEY_OF_CODE.get(line.taxCode);
    if (!key || vatAccountCodes.has(line.code)) continue;
    const { side, rate } = TAX_KEYS[key]!;
    const ofCode = entry.lines.filter((l) => l.taxCode === line.taxCode);
    const vatLines = ofCode.filter((l) => vatAccountCodes.has(l.code));
    const vatLine = vatLines[0];
    const automaticRule = AUTOMATIC[skr][number(line.code)];
    if (
      ofCode.length !== 2 ||
      vatLines.length !== 1 ||
      number(vatLine!.code) !== VAT_ACCOUNTS[skr][`${side} ${rate}`] ||
      (automaticRule !== undefined && (automaticRule.side !== side || automaticRule.rate !== rate))
    )
      continue;
    const net = subtractCents(line.debit, line.credit);
    const vat = subtractCents(vatLine!.debit, vatLine!.credit);
    const gross = addCents(net, vat);
    if (net === 0 || Math.sign(net) !== Math.sign(gross)) continue;
    if (taxIncluded(gross, rateOnDay(rate, entry.date)) !== vat) continue;
    const whole = sidesOf(gross);
    const grossLine = { ...line, debit: whole.debit, credit: whole.credit };
    taxed.set(grossLine, { code: line.code, side: net > 0 ? 'debit' : 'credit', key, vat });
    merged.add(line).add(vatLine!);
    lines.push(grossLine);
  }
  return { lines: [...entry.lines.filter((l) => !merged.has(l)), ...lines], taxed };
}

function entryRows(
  entry: AuditEntry,
  row: RowWriter,
  skr: Skr,
  vatAccountCodes: ReadonlySet<string>,
): string {
  const fallback = entryDescription(entry);
  const write = (rows: ReturnType<typeof pairedRows<Line>>, taxed: Map<Line, TaxedRow>) =>
    rows
      .map((paired) =>
        row(
          paired.debitCode,
          paired.creditCode,
          paired.amount,
          entry.date,
          String(entry.number),
          paired.description || fallback,
          taxed.get(paired.debit) ?? taxed.get(paired.credit),
          {
            debit: taxed.has(paired.debit) ? undefined : paired.debit.taxCode,
            credit: taxed.has(paired.credit) ? undefined : paired.credit.taxCode,
          },
        ),
      )
      .join('');
  const { lines, taxed } = taxedLines(entry, skr, vatAccountCodes);
  if (taxed.size === 0) return write(pairedRows(entry.lines), taxed);
  // Each taxed line's rows must split to its VAT, and face no other taxed or automatic line.
  const rows = pairedRows(lines);
  const splits = rows.every((paired) => {
    const taxedSides = [paired.debit, paired.credit].filter((l) => taxed.has(l));
    const other = taxed.has(paired.debit) ? paired.credit : paired.debit;
    return (
      taxedSides.length < 2 && !(taxedSides.length === 1 && AUTOMATIC[skr][number(other.code)])
    );
  });
  const vatOfRows = new Map<Line, Cents>();
  for (const paired of rows)
    for (const l of [paired.debit, paired.credit]) {
      const of = taxed.get(l);
      if (!of) continue;
      const rate = TAX_KEYS[of.key]!.rate;
      const part = taxIncluded(paired.amount, rateOnDay(rate, entry.date));
      vatOfRows.set(l, addCents(vatOfRows.get(l) ?? ZERO_CENTS, part));
    }
  const exact = [...taxed].every(([l, of]) => {
    const vat = vatOfRows.get(l) ?? ZERO_CENTS;
    return vat === (of.vat < 0 ? negateCents(of.vat) : of.vat);
  });
  return splits && exact ? write(rows, taxed) : write(pairedRows(entry.lines), new Map());
}
