/*
 * Bank statement files written from each format's description (not from our readers): ISO
 * 20022 camt.052/053/054 in every version, SWIFT MT940/MT942, OFX 1 and 2, BAI2, QIF and banks'
 * CSVs, across what each allows, from one model whose figures the tests compute themselves.
 */

export interface ModelEntry {
  booked: string;
  value?: string;
  /** Signed cents: money in positive. */
  cents: number;
  reference?: string;
  party?: string;
  text: string;
  status?: 'booked' | 'pending';
  /** Written as the reversal of an entry of the other side (the money moves as `cents` says). */
  reversal?: boolean;
}

export interface ModelStatement {
  account: string;
  currency: string;
  from: string;
  to: string;
  /** Signed cents. */
  opening: number;
  entries: ModelEntry[];
}

/** The closing balance the model's booked entries make. */
export const closingOf = (s: ModelStatement) =>
  s.opening + s.entries.filter((e) => e.status !== 'pending').reduce((sum, e) => sum + e.cents, 0);

const abs = (cents: number) => Math.abs(cents);
const point = (cents: number) =>
  `${Math.trunc(abs(cents) / 100)}.${String(abs(cents) % 100).padStart(2, '0')}`;
const comma = (cents: number) => point(cents).replace('.', ',');
const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

// ---------------------------------------------------------------------------------------------
// camt

export const CAMT_VERSIONS = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '10',
  '11',
  '12',
  '13',
];
export type CamtMessage = '052' | '053' | '054';

export interface CamtOptions {
  message: CamtMessage;
  version: string;
  /** Wrapped in a business application header's envelope. */
  envelope?: boolean;
  /** Elements written with a namespace prefix (`<camt:Stmt>`). */
  prefix?: string;
  /** Booking days as date-times. */
  dateTimes?: boolean;
  /** The balances given as the previous closing (PRCD) rather than the opening (OPBD). */
  previousClosing?: boolean;
  /** The electronic sequence number of the first statement. */
  sequence?: number;
}

export function camtFile(statements: ModelStatement[], options: CamtOptions): string {
  const v = Number(options.version);
  const ns = `urn:iso:std:iso:20022:tech:xsd:camt.${options.message}.001.${options.version}`;
  const p = options.prefix ? `${options.prefix}:` : '';
  const t = (name: string, body: string) => `<${p}${name}>${body}</${p}${name}>`;
  const container = {
    '052': 'BkToCstmrAcctRpt',
    '053': 'BkToCstmrStmt',
    '054': 'BkToCstmrDbtCdtNtfctn',
  }[options.message];
  const statementTag = { '052': 'Rpt', '053': 'Stmt', '054': 'Ntfctn' }[options.message];
  const day = (d: string, time = '10:15:00') =>
    options.dateTimes ? t('DtTm', `${d}T${time}+01:00`) : t('Dt', d);
  const balanceType = (code: string) =>
    v === 1 ? t('Tp', t('Cd', code)) : t('Tp', t('CdOrPrtry', t('Cd', code)));
  const balance = (code: string, cents: number, on: string) =>
    t(
      'Bal',
      balanceType(code) +
        `<${p}Amt Ccy="${statements[0]!.currency}">${point(cents)}</${p}Amt>` +
        t('CdtDbtInd', cents < 0 ? 'DBIT' : 'CRDT') +
        t('Dt', t('Dt', on)),
    );
  const party = (role: 'Dbtr' | 'Cdtr', name: string) =>
    t(role, v >= 8 ? t('Pty', t('Nm', xml(name))) : t('Nm', xml(name)));
  /** 001.01 puts a transaction's details in the entry itself; later versions in NtryDtls. */
  const transaction = (details: string) =>
    v === 1 ? t('TxDtls', details) : t('NtryDtls', t('TxDtls', details));
  const entry = (e: ModelEntry, currency: string) => {
    const side = e.cents < 0 ? 'DBIT' : 'CRDT';
    const status = e.status === 'pending' ? 'PDNG' : 'BOOK';
    return t(
      'Ntry',
      `<${p}Amt Ccy="${currency}">${point(e.cents)}</${p}Amt>` +
        t('CdtDbtInd', side) +
        (e.reversal ? t('RvslInd', 'true') : '') +
        t('Sts', v >= 8 ? t('Cd', status) : status) +
        t('BookgDt', day(e.booked)) +
        t('ValDt', t('Dt', e.value ?? e.booked)) +
        (e.reference ? t('AcctSvcrRef', xml(e.reference)) : '') +
        t(
          'BkTxCd',
          t('Domn', t('Cd', 'PMNT') + t('Fmly', t('Cd', 'RCDT') + t('SubFmlyCd', 'ESCT'))),
        ) +
        transaction(
          t('Refs', t('EndToEndId', 'NOTPROVIDED')) +
            // The transaction's own amount: required from 001.03 to 001.07, optional after.
            (v >= 3
              ? `<${p}Amt Ccy="${currency}">${point(e.cents)}</${p}Amt>` + t('CdtDbtInd', side)
              : '') +
            (e.party ? t('RltdPties', party(e.cents < 0 ? 'Cdtr' : 'Dbtr', e.party)) : '') +
            t('RmtInf', t('Ustrd', xml(e.text))),
        ),
    );
  };
  const body = statements
    .map((s, i) => {
      const booked = s.entries.filter((e) => e.status !== 'pending');
      const net = booked.reduce((sum, e) => sum + e.cents, 0);
      const summary =
        options.message === '054'
          ? ''
          : t(
              'TxsSummry',
              t(
                'TtlNtries',
                t('NbOfNtries', String(s.entries.length)) +
                  (v <= 3
                    ? t('TtlNetNtryAmt', point(net)) + t('CdtDbtInd', net < 0 ? 'DBIT' : 'CRDT')
                    : t(
                        'TtlNetNtry',
                        t('Amt', point(net)) + t('CdtDbtInd', net < 0 ? 'DBIT' : 'CRDT'),
                      )),
              ),
            );
      const dayBefore = new Date(Date.parse(`${s.from}T00:00:00Z`) - 86_400_000)
        .toISOString()
        .slice(0, 10);
      const balances =
        options.message === '054'
          ? ''
          : (options.previousClosing
              ? balance('PRCD', s.opening, dayBefore)
              : balance('OPBD', s.opening, s.from)) +
            balance(options.message === '052' ? 'ITBD' : 'CLBD', closingOf(s), s.to);
      return t(
        statementTag,
        t('Id', `S${i + 1}`) +
          t('ElctrncSeqNb', String((options.sequence ?? 1) + i)) +
          t('CreDtTm', `${s.to}T23:00:00`) +
          t('FrToDt', t('FrDtTm', `${s.from}T00:00:00`) + t('ToDtTm', `${s.to}T23:59:59`)) +
          t(
            'Acct',
            t(
              'Id',
              /^[A-Z]{2}\d{2}/.test(s.account)
                ? t('IBAN', s.account)
                : t('Othr', t('Id', s.account)),
            ) + t('Ccy', s.currency),
          ) +
          balances +
          summary +
          s.entries.map((e) => entry(e, s.currency)).join('\n'),
      );
    })
    .join('\n');
  const name = v === 1 ? `${container}V01` : container;
  const document = `<${p}Document xmlns${options.prefix ? `:${options.prefix}` : ''}="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n${t(
    name,
    t('GrpHdr', t('MsgId', 'M1') + t('CreDtTm', '2026-11-01T08:00:00')) + '\n' + body,
  )}\n</${p}Document>`;
  const wrapped = options.envelope
    ? `<BizMsgEnvlp><AppHdr xmlns="urn:iso:std:iso:20022:tech:xsd:head.001.001.02"><MsgDefIdr>camt.${options.message}.001.${options.version}</MsgDefIdr></AppHdr>${document}</BizMsgEnvlp>`
    : document;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${wrapped}\n`;
}

// ---------------------------------------------------------------------------------------------
// MT940 / MT942

export type Mt940Dialect = 'german' | 'dutch' | 'free';

export interface Mt940Options {
  /** SWIFT's blocks around each message. */
  blocks?: boolean;
  /** Each statement sent in this many pages (60F…62M, 60M…62M, …, 60M…62F). */
  pages?: number;
  dialect?: Mt940Dialect;
  /** An MT942 interim report: no balances, 90D/90C sums. */
  mt942?: boolean;
  /** Whole amounts written without decimals (`125,`). */
  bareCommas?: boolean;
  /**
   * The opening balance dated its first entry's day (the balance at that day's start), as some
   * banks write it; else, as SWIFT defines it, the day it was the closing balance (the day
   * before the statement's first).
   */
  openingOnFirstEntry?: boolean;
  /** Header lines of the bank's own before each message. */
  header?: string;
  eol?: '\r\n' | '\n';
}

const yymmdd = (day: string) => day.slice(2).replaceAll('-', '');
const mmdd = (day: string) => day.slice(5).replace('-', '');
const swiftAmount = (cents: number, bare = false) =>
  bare && abs(cents) % 100 === 0 ? `${Math.trunc(abs(cents) / 100)},` : comma(cents);
const swiftBalance = (tag: string, cents: number, day: string, currency: string, bare = false) =>
  `:${tag}:${cents < 0 ? 'D' : 'C'}${yymmdd(day)}${currency}${swiftAmount(cents, bare)}`;

function wrap65(text: string, first = 4): string[] {
  const lines: string[] = [];
  let rest = text;
  let width = 65 - first;
  while (rest.length > width) {
    lines.push(rest.slice(0, width));
    rest = rest.slice(width);
    width = 65;
  }
  lines.push(rest);
  return lines;
}

function information(e: ModelEntry, dialect: Mt940Dialect): string[] {
  if (dialect === 'german') {
    const fields = [
      `166?00GUTSCHR. UEBERWEISUNG?10931`,
      `?20EREF+${e.reference ?? 'NOTPROVIDED'}`,
      `?21SVWZ+${e.text.slice(0, 22)}`,
    ];
    if (e.text.length > 22) fields.push(`?22${e.text.slice(22, 49)}`);
    if (e.party) fields.push(`?32${e.party.slice(0, 27)}`);
    return wrap65(fields.join(''));
  }
  if (dialect === 'dutch')
    return wrap65(
      `/EREF/${e.reference ?? 'NOTPROVIDED'}/${e.party ? `BENM//NAME/${e.party}/` : ''}REMI/USTD//${e.text}/`,
    );
  return [e.party ? `${e.party} ${e.text}`.slice(0, 61) : e.text.slice(0, 61)];
}

export function mt940File(statements: ModelStatement[], options: Mt940Options = {}): string {
  const eol = options.eol ?? '\r\n';
  const dialect = options.dialect ?? 'german';
  const messages: string[] = [];
  statements.forEach((s, index) => {
    const pages = options.pages ?? 1;
    const per = Math.ceil(s.entries.length / pages) || 1;
    let running = s.opening;
    for (let page = 0; page < pages; page++) {
      const entries = s.entries.slice(page * per, (page + 1) * per);
      const lines: string[] = [];
      if (options.header) lines.push(options.header);
      lines.push(
        `:20:STMT${index + 1}P${page + 1}`,
        `:25:${s.account}${options.mt942 ? '' : ''}`,
        `:28C:${String(index + 100).padStart(5, '0')}/${page + 1}`,
      );
      const openDay =
        page === 0
          ? options.openingOnFirstEntry
            ? (s.entries[0]?.booked ?? s.from)
            : new Date(Date.parse(`${s.from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
          : (s.entries[page * per - 1]?.booked ?? s.from);
      if (options.mt942) {
        lines.push(`:34F:${s.currency}0,00`, `:13D:${yymmdd(s.to)}1800+0100`);
      } else
        lines.push(
          swiftBalance(
            page === 0 ? '60F' : '60M',
            running,
            openDay,
            s.currency,
            options.bareCommas,
          ),
        );
      for (const e of entries) {
        const mark = e.reversal ? (e.cents < 0 ? 'RC' : 'RD') : e.cents < 0 ? 'D' : 'C';
        lines.push(
          `:61:${yymmdd(e.value ?? e.booked)}${mmdd(e.booked)}${mark}${s.currency.charAt(2)}${swiftAmount(e.cents, options.bareCommas)}NTRF${e.reference ? 'CUSTREF' : 'NONREF'}${e.reference ? `//${e.reference}` : ''}`,
        );
        const info = information(e, dialect);
        lines.push(`:86:${info[0]}`, ...info.slice(1));
        if (e.status !== 'pending') running += e.cents;
      }
      const last = page === pages - 1;
      if (options.mt942) {
        const debits = entries.filter((e) => e.cents < 0);
        const credits = entries.filter((e) => e.cents > 0);
        lines.push(
          `:90D:${debits.length}${s.currency}${comma(debits.reduce((n, e) => n + e.cents, 0))}`,
          `:90C:${credits.length}${s.currency}${comma(credits.reduce((n, e) => n + e.cents, 0))}`,
        );
      } else {
        const closeDay = last ? s.to : (entries.at(-1)?.booked ?? s.to);
        lines.push(
          swiftBalance(last ? '62F' : '62M', running, closeDay, s.currency, options.bareCommas),
        );
      }
      const text = lines.join(eol);
      messages.push(
        options.blocks
          ? `{1:F01BANKDEFFXXXX0000000000}{2:O9401200261101BANKDEFFXXXX00000000002611011200N}{4:${eol}${text}${eol}-}`
          : `${text}${eol}-`,
      );
    }
  });
  return `${messages.join(eol)}${eol}`;
}

// ---------------------------------------------------------------------------------------------
// OFX

export interface OfxOptions {
  version: 1 | 2;
  card?: boolean;
  /** Quicken's QFX: INTU.BID in the sign-on. */
  qfx?: boolean;
  /** OFX 1's character set (the bytes are written in it by the caller). */
  charset?: '1252' | 'NONE';
}

export function ofxFile(s: ModelStatement, options: OfxOptions): string {
  const closed = options.version === 2;
  const leaf = (name: string, value: string) => `<${name}>${value}${closed ? `</${name}>` : ''}`;
  const day = (d: string) => `${d.replaceAll('-', '')}120000.000[-5:EST]`;
  const transactions = s.entries
    .map((e) =>
      [
        '<STMTTRN>',
        leaf('TRNTYPE', e.cents < 0 ? 'DEBIT' : 'CREDIT'),
        leaf('DTPOSTED', day(e.booked)),
        ...(e.value ? [leaf('DTAVAIL', day(e.value))] : []),
        leaf('TRNAMT', `${e.cents < 0 ? '-' : ''}${point(e.cents)}`),
        leaf('FITID', e.reference ?? `F${e.booked}${abs(e.cents)}`),
        ...(e.party ? [leaf('NAME', xml(e.party))] : []),
        leaf('MEMO', xml(e.text)),
        '</STMTTRN>',
      ].join('\n'),
    )
    .join('\n');
  const account = options.card
    ? `<CCACCTFROM>\n${leaf('ACCTID', s.account)}\n</CCACCTFROM>`
    : `<BANKACCTFROM>\n${leaf('BANKID', '121000248')}\n${leaf('ACCTID', s.account)}\n${leaf('ACCTTYPE', 'CHECKING')}\n</BANKACCTFROM>`;
  const [wrapper, response, statement] = options.card
    ? ['CREDITCARDMSGSRSV1', 'CCSTMTTRNRS', 'CCSTMTRS']
    : ['BANKMSGSRSV1', 'STMTTRNRS', 'STMTRS'];
  const body = [
    '<OFX>',
    '<SIGNONMSGSRSV1><SONRS>',
    `<STATUS>\n${leaf('CODE', '0')}\n${leaf('SEVERITY', 'INFO')}\n</STATUS>`,
    leaf('DTSERVER', day(s.to)),
    leaf('LANGUAGE', 'ENG'),
    ...(options.qfx ? [leaf('INTU.BID', '3000')] : []),
    '</SONRS></SIGNONMSGSRSV1>',
    `<${wrapper}><${response}>`,
    leaf('TRNUID', '1'),
    `<STATUS>\n${leaf('CODE', '0')}\n${leaf('SEVERITY', 'INFO')}\n</STATUS>`,
    `<${statement}>`,
    leaf('CURDEF', s.currency),
    account,
    '<BANKTRANLIST>',
    leaf('DTSTART', day(s.from)),
    leaf('DTEND', day(s.to)),
    transactions,
    '</BANKTRANLIST>',
    `<LEDGERBAL>\n${leaf('BALAMT', `${closingOf(s) < 0 ? '-' : ''}${point(closingOf(s))}`)}\n${leaf('DTASOF', day(s.to))}\n</LEDGERBAL>`,
    `</${statement}>`,
    `</${response}></${wrapper}>`,
    '</OFX>',
  ].join('\n');
  if (options.version === 1)
    return `OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:${options.charset ?? '1252'}\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n${body}\r\n`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n${body}\n`;
}

// ---------------------------------------------------------------------------------------------
// BAI2

export interface Bai2Options {
  /** Long records continued in 88 records. */
  continuations?: boolean;
  /** Several records to a physical line. */
  runOn?: boolean;
  /** Funds types with their further fields (S, V, D) on the transactions. */
  fundsTypes?: boolean;
  /** A control total that is not the amounts' sum. */
  wrongTotal?: boolean;
  /**
   * The balances stated only as available balances (040 opening, 045 closing), no ledger ones;
   * `untied` states a closing the entries do not make.
   */
  available?: 'tied' | 'untied';
}

/** One group per statement day (BAI2 reports a day): each statement's `from` is its as-of day. */
export function bai2File(statements: ModelStatement[], options: Bai2Options = {}): string {
  const records: string[] = ['01,121000248,BOOKS,261101,0800,1,80,,2/'];
  let fileTotal = 0;
  let groups = 0;
  let fileRecords = 1;
  for (const s of statements) {
    groups += 1;
    const group: string[] = [`02,BOOKS,121000248,1,${yymmdd(s.from)},2400,${s.currency},2/`];
    const credits = s.entries.filter((e) => e.cents > 0);
    const debits = s.entries.filter((e) => e.cents < 0);
    const sumCredits = credits.reduce((n, e) => n + e.cents, 0);
    const sumDebits = -debits.reduce((n, e) => n + e.cents, 0);
    const closing = closingOf(s);
    const sign = (cents: number) => `${cents < 0 ? '-' : '+'}${abs(cents)}`;
    const closingStated = options.available === 'untied' ? closing + 500 : closing;
    const summary = [
      `${options.available ? '040' : '010'},${sign(s.opening)},,`,
      `${options.available ? '045' : '015'},${sign(closingStated)},,`,
      `100,${sumCredits},${credits.length},`,
      `400,${sumDebits},${debits.length},`,
    ];
    let accountTotal = s.opening + closingStated + sumCredits + sumDebits;
    const account: string[] = [];
    if (options.continuations) {
      account.push(`03,${s.account},${s.currency},${summary.slice(0, 2).join(',')}/`);
      account.push(`88,${summary.slice(2).join(',')}/`);
    } else account.push(`03,${s.account},${s.currency},${summary.join(',')}/`);
    s.entries.forEach((e, i) => {
      const type = e.cents > 0 ? '195' : '495';
      accountTotal += abs(e.cents);
      const funds =
        !options.fundsTypes || i % 3 === 0
          ? '0'
          : i % 3 === 1
            ? `V,${yymmdd(e.value ?? e.booked)},1200`
            : `S,${abs(e.cents)},0,0`;
      const text = `${e.party ? `${e.party}, ` : ''}${e.text}`;
      // A text runs to the record's end; a `/` ends it where another record follows on its line.
      const end = options.runOn ? '/' : '';
      if (options.continuations && text.length > 20) {
        account.push(
          `16,${type},${abs(e.cents)},${funds},${e.reference ?? ''},,${text.slice(0, 20)}${end}`,
        );
        account.push(`88,${text.slice(20)}${end}`);
      } else
        account.push(`16,${type},${abs(e.cents)},${funds},${e.reference ?? ''},,${text}${end}`);
    });
    const stated = options.wrongTotal ? accountTotal + 100 : accountTotal;
    account.push(`49,${stated},${account.length + 1}/`);
    group.push(...account);
    group.push(`98,${stated},1,${group.length + 1}/`);
    fileTotal += stated;
    records.push(...group);
    fileRecords += group.length;
  }
  records.push(`99,${fileTotal},${groups},${fileRecords + 1}/`);
  if (options.runOn) {
    const joined: string[] = [];
    for (let i = 0; i < records.length; i += 3) joined.push(records.slice(i, i + 3).join(' '));
    return `${joined.join('\n')}\n`;
  }
  return `${records.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// QIF

export type QifDates =
  | "M/D'YY"
  | 'M/D/YY'
  | 'MM/DD/YYY'
  | 'MM/DD/YYYY'
  | 'DD/MM/YYYY'
  | 'DD.MM.YYYY'
  | 'YYYY-MM-DD'
  | 'spaced'
  | 'spaced-slash';

export interface QifOptions {
  dates: QifDates;
  card?: boolean;
  /** An `!Account` block naming the account, with its statement balance. */
  accountBlock?: boolean;
  /** Quicken's opening balance record first. */
  openingRecord?: boolean;
}

function qifDay(day: string, style: QifDates): string {
  const [y, m, d] = day.split('-') as [string, string, string];
  const M = String(Number(m));
  const D = String(Number(d));
  switch (style) {
    case "M/D'YY":
      return `${M}/${D}'${y.slice(2)}`;
    case 'M/D/YY':
      return `${M}/${D}/${y.slice(2)}`;
    case 'MM/DD/YYY':
      // Older Quicken's years since 1900: 099 is 1999, 126 is 2026.
      return `${m}/${d}/${String(Number(y) - 1900).padStart(3, '0')}`;
    case 'MM/DD/YYYY':
      return `${m}/${d}/${y}`;
    case 'DD/MM/YYYY':
      return `${d}/${m}/${y}`;
    case 'DD.MM.YYYY':
      return `${d}.${m}.${y}`;
    case 'YYYY-MM-DD':
      return day;
    case 'spaced':
      return `${M.padStart(2, ' ')}/${D.padStart(2, ' ')}'${y.slice(2)}`;
    case 'spaced-slash':
      return `${M.padStart(2, ' ')}/${D.padStart(2, ' ')}/${y.slice(2)}`;
  }
}

export function qifFile(s: ModelStatement, options: QifOptions): string {
  const kind = options.card ? 'CCard' : 'Bank';
  const lines: string[] = [];
  if (options.accountBlock)
    lines.push(
      '!Account',
      `N${s.account}`,
      `T${kind}`,
      `/${qifDay(s.to, options.dates)}`,
      `$${(closingOf(s) / 100).toFixed(2)}`,
      '^',
    );
  lines.push(`!Type:${kind}`);
  if (options.openingRecord)
    lines.push(
      `D${qifDay(s.from, options.dates)}`,
      `T${(s.opening / 100).toFixed(2)}`,
      'CX',
      'POpening Balance',
      `L[${s.account}]`,
      '^',
    );
  for (const e of s.entries) {
    lines.push(
      `D${qifDay(e.booked, options.dates)}`,
      `T${e.cents < 0 ? '-' : ''}${point(e.cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`,
    );
    if (e.reference) lines.push(`N${e.reference}`);
    if (e.party) lines.push(`P${e.party}`);
    lines.push(`M${e.text}`, '^');
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// A bank's CSV

export type CsvLanguage = 'en' | 'de' | 'nl' | 'fr' | 'es';
export interface BankCsvOptions {
  language: CsvLanguage;
  layout: 'signed' | 'debit-credit' | 'side';
  decimalComma?: boolean;
  newestFirst?: boolean;
  balance?: boolean;
  /** The bank's lines before the header, naming the account. */
  preamble?: boolean;
  dates?: 'YYYY-MM-DD' | 'DD.MM.YYYY' | 'MM/DD/YYYY' | 'DD/MM/YYYY';
}

const HEADERS: Record<CsvLanguage, Record<string, string>> = {
  en: {
    date: 'Date',
    amount: 'Amount',
    debit: 'Withdrawals',
    credit: 'Deposits',
    side: 'Dr/Cr',
    text: 'Description',
    party: 'Payee',
    ref: 'Reference',
    balance: 'Balance',
  },
  de: {
    date: 'Buchungstag',
    amount: 'Betrag',
    debit: 'Soll',
    credit: 'Haben',
    side: 'Soll/Haben',
    text: 'Verwendungszweck',
    party: 'Auftraggeber/Empfänger',
    ref: 'Kundenreferenz',
    balance: 'Saldo',
  },
  nl: {
    date: 'Datum',
    amount: 'Bedrag (EUR)',
    debit: 'Debet',
    credit: 'Credit',
    side: 'Af Bij',
    text: 'Mededelingen',
    party: 'Naam / Omschrijving',
    ref: 'Referentie',
    balance: 'Saldo na mutatie',
  },
  fr: {
    date: "Date d'opération",
    amount: 'Montant',
    debit: 'Débit',
    credit: 'Crédit',
    side: 'Sens',
    text: 'Libellé',
    party: 'Tiers',
    ref: 'Référence',
    balance: 'Solde',
  },
  es: {
    date: 'Fecha',
    amount: 'Importe',
    debit: 'Cargo',
    credit: 'Abono',
    side: 'D/C',
    text: 'Concepto',
    party: 'Beneficiario',
    ref: 'Referencia',
    balance: 'Saldo',
  },
};
const SIDE_WORDS: Record<CsvLanguage, [string, string]> = {
  en: ['DR', 'CR'],
  de: ['S', 'H'],
  nl: ['Af', 'Bij'],
  fr: ['D', 'C'],
  es: ['D', 'C'],
};

export function bankCsvFile(s: ModelStatement, options: BankCsvOptions): string {
  const h = HEADERS[options.language];
  const separator = options.decimalComma ? ';' : ',';
  const money = (cents: number, signed = true) => {
    const text = options.decimalComma ? comma(cents) : point(cents);
    return signed && cents < 0 ? `-${text}` : text;
  };
  const date = (day: string) => {
    const [y, m, d] = day.split('-');
    switch (options.dates ?? 'YYYY-MM-DD') {
      case 'DD.MM.YYYY':
        return `${d}.${m}.${y}`;
      case 'MM/DD/YYYY':
        return `${m}/${d}/${y}`;
      case 'DD/MM/YYYY':
        return `${d}/${m}/${y}`;
      default:
        return day;
    }
  };
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const header = [h.date!, h.party!, h.text!, h.ref!];
  if (options.layout === 'debit-credit') header.push(h.debit!, h.credit!);
  else if (options.layout === 'side') header.push(h.amount!, h.side!);
  else header.push(h.amount!);
  if (options.balance) header.push(h.balance!);
  let running = s.opening;
  const rows = s.entries.map((e) => {
    running += e.cents;
    const row = [date(e.booked), e.party ?? '', e.text, e.reference ?? ''];
    if (options.layout === 'debit-credit')
      row.push(e.cents < 0 ? money(-e.cents) : '', e.cents > 0 ? money(e.cents) : '');
    else if (options.layout === 'side')
      row.push(money(e.cents, false), SIDE_WORDS[options.language][e.cents < 0 ? 0 : 1]);
    else row.push(money(e.cents));
    if (options.balance) row.push(money(running));
    return row.map(quote).join(separator);
  });
  if (options.newestFirst) rows.reverse();
  const preamble = options.preamble
    ? [
        `${quote('Account')}${separator}${quote(s.account)}`,
        `${quote('Period')}${separator}${quote(`${s.from} - ${s.to}`)}`,
        '',
      ]
    : [];
  return `${[...preamble, header.map(quote).join(separator), ...rows].join('\r\n')}\r\n`;
}

// ---------------------------------------------------------------------------------------------
// Fixed-width records: CODA, Norma 43, CFONB 120

/** A record of `width` characters, each text at its 1-based position, blanks between. */
function fixedRecord(width: number, fields: Record<number, string>): string {
  const characters = Array.from({ length: width }, () => ' ');
  for (const [at, text] of Object.entries(fields))
    [...text].forEach((character, i) => {
      characters[Number(at) - 1 + i] = character;
    });
  return characters.join('');
}
const digitsOf = (value: number, width: number) => String(value).padStart(width, '0');
const ddmmyy = (day: string) => `${day.slice(8, 10)}${day.slice(5, 7)}${day.slice(2, 4)}`;
const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
/** Records joined by CRLF, or end to end where the bank writes no line breaks. */
const recordsText = (records: string[], lineBreaks: boolean) =>
  lineBreaks ? `${records.join('\r\n')}\r\n` : records.join('');

export interface CodaOptions {
  /** Record 1's account: 0 a Belgian number, 1 a foreign number, 2 a Belgian IBAN, 3 a foreign IBAN. */
  structure: 0 | 1 | 2 | 3;
  /** Texts that are Belgian references (`+++123/4567/89012+++`) written as structured (101). */
  structured?: boolean;
  /** The first entry written as a batch: its global (type 1) and two details (type 5). */
  collective?: boolean;
  /** Information records (31, 32: the party's name and address) after each entry with a party. */
  information?: boolean;
  /** A header and trailer (0 … 9) around each statement, rather than one around all. */
  filePerStatement?: boolean;
  lineBreaks?: boolean;
  /** The trailer's sum of debits a cent off. */
  wrongTrailer?: boolean;
  duplicate?: boolean;
}

/**
 * CODA 2 (Febelfin's standard 2.6): records of 128 characters. A statement's old balance is
 * dated the day before its first day, its new balance its last; texts run from the 21 record's
 * 53 characters into the 22's 53 and the 23's 43, the party's name in the 23.
 */
export function codaFile(statements: ModelStatement[], options: CodaOptions): string {
  const records: string[] = [];
  const amount = (cents: number) => digitsOf(abs(cents) * 10, 15);
  const sign = (cents: number) => (cents < 0 ? '1' : '0');
  const header = () =>
    fixedRecord(128, {
      1: '0',
      2: '0000',
      6: ddmmyy(statements[0]!.to),
      12: '725',
      15: '05',
      17: options.duplicate ? 'D' : ' ',
      25: 'BOOKS',
      35: 'BOOKS TEST CLIENT',
      61: 'KREDBEBB',
      72: '00123456789',
      128: '2',
    });
  let counted = 0;
  let debits = 0;
  let credits = 0;
  const trailer = () => {
    const record = fixedRecord(128, {
      1: '9',
      17: digitsOf(counted, 6),
      23: amount(options.wrongTrailer ? debits + 1 : debits),
      38: amount(credits),
      128: '2',
    });
    counted = 0;
    debits = 0;
    credits = 0;
    return record;
  };
  const push = (record: string) => {
    records.push(record);
    if (!/^[049]/.test(record)) counted += 1;
  };
  if (!options.filePerStatement) records.push(header());
  statements.forEach((s, number) => {
    if (options.filePerStatement) records.push(header());
    const structure = options.structure;
    const accountField: Record<number, string> =
      structure === 0
        ? { 6: s.account.slice(4), 19: s.currency, 22: '0', 23: 'BE' }
        : { 6: s.account, 40: s.currency };
    push(
      fixedRecord(128, {
        1: `1${structure}`,
        3: digitsOf(number + 1, 3),
        ...accountField,
        43: sign(s.opening),
        44: amount(s.opening),
        59: ddmmyy(dayBefore(s.from)),
        65: 'BOOKS TEST CLIENT',
        91: 'Business account',
        126: digitsOf(number + 1, 3),
      }),
    );
    s.entries.forEach((e, i) => {
      const sequence = digitsOf(i + 1, 4);
      const structured = options.structured && /^\+\+\+\d{3}\/\d{4}\/\d{5}\+\+\+$/.test(e.text);
      const text = structured ? '' : e.text;
      const needs22 = text.length > 53 || e.party !== undefined;
      const needs23 = text.length > 106 || e.party !== undefined;
      const info = options.information && e.party !== undefined;
      const batch = options.collective && i === 0;
      const movement = (detail: number, cents: number, type: string, globalisation: string) =>
        fixedRecord(128, {
          1: '21',
          3: sequence,
          7: digitsOf(detail, 4),
          11: e.reference ?? '',
          32: sign(cents),
          33: amount(cents),
          48: ddmmyy(e.value ?? e.booked),
          54: `${type}0150000`,
          62: structured ? `1101${e.text.replace(/\D/g, '')}` : `0${text.slice(0, 53)}`,
          116: ddmmyy(e.booked),
          122: digitsOf(number + 1, 3),
          125: globalisation,
          126: detail === 0 && needs22 ? '1' : '0',
          128: detail === 0 && info && !needs22 ? '1' : '0',
        });
      push(movement(0, e.cents, batch ? '1' : '0', batch ? '1' : '0'));
      if (e.cents < 0) debits += abs(e.cents);
      else credits += e.cents;
      if (needs22)
        push(
          fixedRecord(128, {
            1: '22',
            3: sequence,
            7: '0000',
            11: text.slice(53, 106),
            64: 'CUSTOMER-REF',
            99: 'GEBABEBB',
            126: needs23 ? '1' : '0',
            128: info && !needs23 ? '1' : '0',
          }),
        );
      if (needs23)
        push(
          fixedRecord(128, {
            1: '23',
            3: sequence,
            7: '0000',
            11: PARTY_ACCOUNT,
            45: 'EUR',
            48: e.party ?? '',
            83: text.slice(106, 149),
            126: '0',
            128: info ? '1' : '0',
          }),
        );
      if (info) {
        push(
          fixedRecord(128, {
            1: '31',
            3: sequence,
            7: '0001',
            11: e.reference ?? '',
            32: '00150000',
            40: `1001${e.party}`,
            126: '1',
            128: '0',
          }),
        );
        push(
          fixedRecord(128, {
            1: '32',
            3: sequence,
            7: '0001',
            11: 'Rue de la Loi 16',
            46: '1000 Brussel',
          }),
        );
      }
      if (batch) {
        // The batch's details: what it is made of, which the bank did not book again.
        const first = Math.trunc(e.cents / 3);
        push(movement(2, first, '5', '0'));
        push(movement(3, e.cents - first, '5', '1'));
      }
    });
    push(
      fixedRecord(128, {
        1: '8',
        2: digitsOf(number + 1, 3),
        ...(structure === 0
          ? { 5: s.account.slice(4), 18: s.currency, 21: '0', 22: 'BE' }
          : { 5: s.account, 39: s.currency }),
        42: sign(closingOf(s)),
        43: amount(closingOf(s)),
        58: ddmmyy(s.to),
        128: '0',
      }),
    );
    if (options.filePerStatement) records.push(trailer());
  });
  if (!options.filePerStatement) {
    records.push(
      fixedRecord(128, { 1: '4', 3: '0001', 7: '0000', 33: 'THANK YOU FOR BANKING WITH US' }),
    );
    records.push(trailer());
  }
  return recordsText(records, options.lineBreaks ?? true);
}

export interface Norma43Options {
  modality: 1 | 2 | 3;
  /**
   * The concept records in the SEPA form (Annex 4): a credit transfer's (concept 04) payer or
   * beneficiary in the first 66 characters of its 01; a direct debit (concept 03) its scheme and
   * creditor; the text from the 03's 13th character.
   */
  sepa?: boolean;
  /** The first entry made in US dollars: its 24 record. */
  foreignAmount?: boolean;
  /** The account's end stating one debit more than there are. */
  wrongTotals?: boolean;
}

/** Norma 43 (Cuaderno 43, 2012): records of 80 characters, an 11 … 33 per account, then 88. */
export function norma43File(statements: ModelStatement[], options: Norma43Options): string {
  const records: string[] = [];
  const amount = (cents: number) => digitsOf(abs(cents), 14);
  const key = (cents: number) => (cents < 0 ? '1' : '2');
  const currency = (code: string) => ({ EUR: '978', USD: '840', GBP: '826' })[code] ?? '999';
  for (const s of statements) {
    // ES IBAN: ES, two check digits, bank (4), branch (4), two control digits, account (10).
    const [bank, branch, account] = [
      s.account.slice(4, 8),
      s.account.slice(8, 12),
      s.account.slice(14),
    ];
    records.push(
      fixedRecord(80, {
        1: '11',
        3: bank,
        7: branch,
        11: account,
        21: yymmdd(s.from),
        27: yymmdd(s.to),
        33: key(s.opening),
        34: amount(s.opening),
        48: currency(s.currency),
        51: String(options.modality),
        52: 'BOOKS TEST CLIENT',
      }),
    );
    const tally = { debits: 0, debitSum: 0, credits: 0, creditSum: 0 };
    s.entries.forEach((e, i) => {
      const transfer = e.cents > 0 || !e.party;
      const common = options.sepa && e.party ? (transfer ? '04' : '03') : '99';
      records.push(
        fixedRecord(80, {
          1: '22',
          7: options.modality === 1 ? '    ' : '0418',
          11: yymmdd(e.booked),
          17: yymmdd(e.value ?? e.booked),
          23: common,
          25: '012',
          28: key(e.cents),
          29: amount(e.cents),
          43: digitsOf(i + 1, 10),
          53: options.modality === 3 ? '825467890138' : '',
          65: options.modality === 3 ? `INV-${i + 1}` : '',
        }),
      );
      if (e.cents < 0) {
        tally.debits += 1;
        tally.debitSum += abs(e.cents);
      } else {
        tally.credits += 1;
        tally.creditSum += e.cents;
      }
      if (options.sepa && e.party) {
        records.push(
          fixedRecord(
            80,
            common === '04'
              ? { 1: '2301', 5: e.party, 71: 'B12345678' }
              : { 1: '2301', 5: 'CORE', 9: e.party },
          ),
        );
        records.push(fixedRecord(80, { 1: '2302', 5: `E2E-${i + 1}`, 40: '' }));
        records.push(fixedRecord(80, { 1: '2303', 5: 'SUPP', 9: 'SUPP', 13: e.text.slice(0, 68) }));
        if (e.text.length > 68)
          records.push(fixedRecord(80, { 1: '2304', 5: e.text.slice(68, 140) }));
      } else
        // Two fields of 38 a record, the text run on from one into the next.
        for (let at = 0, data = 1; at < e.text.length && data <= 5; at += 76, data += 1)
          records.push(
            fixedRecord(80, { 1: `23${digitsOf(data, 2)}`, 5: e.text.slice(at, at + 76) }),
          );
      if (options.foreignAmount && i === 0)
        records.push(
          fixedRecord(80, { 1: '2401', 5: '840', 8: amount(Math.round(e.cents * 1.1)) }),
        );
    });
    const closing = closingOf(s);
    records.push(
      fixedRecord(80, {
        1: '33',
        3: bank,
        7: branch,
        11: account,
        21: digitsOf(tally.debits + (options.wrongTotals ? 1 : 0), 5),
        26: amount(tally.debitSum),
        40: digitsOf(tally.credits, 5),
        45: amount(tally.creditSum),
        59: key(closing),
        60: amount(closing),
        74: currency(s.currency),
      }),
    );
  }
  records.push(fixedRecord(80, { 1: '88', 3: '9'.repeat(18), 21: digitsOf(records.length, 6) }));
  return recordsText(records, true);
}

export interface Cfonb120Options {
  /** The amounts' decimals (position 20); 0 needs whole amounts. */
  decimals?: 0 | 2 | 3;
  /** Each day of a statement its own 01 … 07 (as banks send a statement a day). */
  daily?: boolean;
  /**
   * The party and the rest of a text in complements (05): `qualified` as since 2010 (NPY for a
   * payer, NBE for a beneficiary, LIB for text), `legacy` as text from position 41.
   */
  complements?: 'qualified' | 'legacy';
  lineBreaks?: boolean;
}

/** The account of every party of the fixed-width files (a CODA 23, a CFONB CBE or CPY). */
export const PARTY_ACCOUNT = 'BE68539007547034';

/** CFONB 120: records of 120 characters; a French RIB's bank, branch and account. */
export function cfonb120File(statements: ModelStatement[], options: Cfonb120Options = {}): string {
  const decimals = options.decimals ?? 2;
  const records: string[] = [];
  /** 13 digits and a last character of the last digit and the sign. */
  const amount = (cents: number) => {
    const units = decimals === 3 ? abs(cents) * 10 : decimals === 2 ? abs(cents) : abs(cents) / 100;
    const digits = digitsOf(units, 14);
    const last = Number(digits[13]);
    return `${digits.slice(0, 13)}${(cents < 0 ? '}JKLMNOPQR' : '{ABCDEFGHI')[last]}`;
  };
  for (const s of statements) {
    // FR IBAN: FR, two check digits, bank (5), branch (5), account (11), RIB key (2).
    const [bank, branch, account] = [
      s.account.slice(4, 9),
      s.account.slice(9, 14),
      s.account.slice(14, 25),
    ];
    const common = { 3: bank, 12: branch, 17: s.currency, 20: String(decimals), 22: account };
    const days = options.daily ? [...new Set(s.entries.map((e) => e.booked))].sort() : [s.to];
    let balance = s.opening;
    let openedOn = dayBefore(s.from);
    days.forEach((day, at) => {
      const closingDay = at === days.length - 1 ? s.to : day;
      const entries = options.daily ? s.entries.filter((e) => e.booked === day) : s.entries;
      records.push(
        fixedRecord(120, { 1: '01', ...common, 35: ddmmyy(openedOn), 91: amount(balance) }),
      );
      entries.forEach((e, i) => {
        // The label is the text's first words that fit its 31 characters; the rest a complement.
        const cut = e.text.length <= 31 ? e.text.length : e.text.lastIndexOf(' ', 31);
        const label = e.text.slice(0, cut);
        records.push(
          fixedRecord(120, {
            1: '04',
            ...common,
            8: '0001',
            33: e.cents < 0 ? '01' : '05',
            35: ddmmyy(e.booked),
            43: ddmmyy(e.value ?? e.booked),
            49: label,
            82: digitsOf(i + 1, 7),
            91: amount(e.cents),
            105: e.reference ?? '',
          }),
        );
        const complement = (fields: Record<number, string>) =>
          records.push(
            fixedRecord(120, {
              1: '05',
              ...common,
              8: '0001',
              33: '05',
              35: ddmmyy(e.booked),
              ...fields,
            }),
          );
        const rest = e.text.slice(cut).trim();
        if (options.complements === 'legacy') {
          if (rest) complement({ 41: rest });
        } else {
          if (rest) complement({ 46: 'LIB', 49: rest });
          if (e.party) complement({ 46: e.cents < 0 ? 'NBE' : 'NPY', 49: e.party });
          if (e.party) complement({ 46: e.cents < 0 ? 'CBE' : 'CPY', 49: PARTY_ACCOUNT });
          // The other party is the client: a payer of money out, a beneficiary of money in.
          if (e.party) complement({ 46: e.cents < 0 ? 'NPY' : 'NBE', 49: 'BOOKS TEST CLIENT' });
        }
        balance += e.cents;
      });
      records.push(
        fixedRecord(120, { 1: '07', ...common, 35: ddmmyy(closingDay), 91: amount(balance) }),
      );
      openedOn = closingDay;
    });
  }
  return recordsText(records, options.lineBreaks ?? true);
}
