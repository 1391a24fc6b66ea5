import iconv from 'iconv-lite';

/*
 * Export files written here, from the formats' published descriptions (../shared/spec/formats/),
 * for every variant they allow: the readers are tried against these, not only against the few
 * real files we hold. Each writer takes one small ledger (`Books`) and the variant; what the
 * file must read to is computed from the same ledger by `netOf`, which shares nothing with books.
 */

export interface BookAccount {
  code: string;
  name: string;
  /** Balance sheet (B) or profit and loss (P). */
  kind: 'B' | 'P';
}

export interface BookTransaction {
  id: string;
  date: string;
  memo: string;
  /** Cents, debit positive; they sum to zero. */
  postings: { code: string; cents: number; text?: string; vat?: XafVat[] }[];
}

/** A trLine's `vat` (XAF): the code, its percentage, the VAT (cents, as written) and its side. */
export interface XafVat {
  id: string;
  perc: number;
  cents: number;
  tp: 'D' | 'C' | 'd' | 'c';
}

export interface Books {
  accounts: BookAccount[];
  /** Opening balances, cents, debit positive; they net to zero. */
  openings: Record<string, number>;
  transactions: BookTransaction[];
  start: string;
  end: string;
}

/** Each account's balance at the end, in cents (debit positive): what an import must make. */
export function netOf(books: Books): Map<string, number> {
  const net = new Map<string, number>();
  const add = (code: string, cents: number) => net.set(code, (net.get(code) ?? 0) + cents);
  for (const [code, cents] of Object.entries(books.openings)) add(code, cents);
  for (const tx of books.transactions) for (const p of tx.postings) add(p.code, p.cents);
  for (const [code, cents] of net) if (cents === 0) net.delete(code);
  return net;
}

/** A ledger with two, three and four lines per entry, names beyond ASCII, one name twice. */
export function sampleBooks(codes: Record<string, string> = {}): Books {
  const c = (code: string) => codes[code] ?? code;
  return {
    start: '2025-01-01',
    end: '2025-12-31',
    accounts: [
      { code: c('1510'), name: 'Kundfordringar', kind: 'B' },
      { code: c('1511'), name: 'Kundfordringar', kind: 'B' },
      { code: c('1930'), name: 'Företagskonto', kind: 'B' },
      { code: c('2081'), name: 'Aktiekapital', kind: 'B' },
      { code: c('2611'), name: 'Utgående moms 25%', kind: 'B' },
      { code: c('3001'), name: 'Försäljning', kind: 'P' },
      { code: c('5010'), name: 'Lokalhyra', kind: 'P' },
      { code: c('7010'), name: 'Gehälter', kind: 'P' },
    ],
    openings: { [c('1930')]: 5_000_000, [c('2081')]: -5_000_000 },
    transactions: [
      {
        id: '1',
        date: '2025-01-15',
        memo: 'Faktura 1',
        postings: [
          { code: c('1510'), cents: 1_250_000 },
          { code: c('3001'), cents: -1_000_000 },
          { code: c('2611'), cents: -250_000 },
        ],
      },
      {
        id: '2',
        date: '2025-02-01',
        memo: 'Betalning',
        postings: [
          { code: c('1930'), cents: 1_250_000 },
          { code: c('1510'), cents: -1_250_000 },
        ],
      },
      {
        id: '3',
        date: '2025-02-28',
        memo: 'Hyra "februari"',
        postings: [
          { code: c('5010'), cents: 800_000 },
          { code: c('1930'), cents: -800_000 },
        ],
      },
      {
        id: '4',
        date: '2025-03-10',
        memo: 'Łódź; Gehälter & Hyra',
        postings: [
          { code: c('7010'), cents: 1_234_567 },
          { code: c('5010'), cents: 10_050 },
          { code: c('1511'), cents: 62_500 },
          { code: c('1930'), cents: -1_307_117 },
        ],
      },
    ],
  };
}

const name = (books: Books, code: string) => books.accounts.find((a) => a.code === code)!.name;
const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Cents as a decimal with a point (`-1234.56`). */
export const decimal = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const comma = (cents: number) => decimal(cents).replace('.', ',');
const lines = (books: Books) => books.transactions.flatMap((t) => t.postings);
const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0);

/* ---------------------------------------------------------------- SAF-T Financial (Norway) */

export interface SaftVariant {
  version: '1.10' | '1.20' | '1.30';
  /** How accounts are typed: StandardAccountID (1.10/1.20), grouping (1.30), or nothing. */
  typing: 'standard' | 'grouping' | 'none';
  /** A namespace prefix (`n1:`) or the default namespace. */
  prefix: string;
  /** What a producer writes in NumberOfEntries, when not the count. */
  numberOfEntries?: number;
  totalDebitOff?: number;
  /** The standard account or grouping of each code. */
  standard?: Record<string, string>;
  grouping?: Record<string, [string, string]>;
}

export function saftFile(books: Books, variant: SaftVariant): string {
  const p = variant.prefix;
  const t = (tag: string, text: string | number) => `<${p}${tag}>${xml(String(text))}</${p}${tag}>`;
  const net = netOf(books);
  const accounts = books.accounts.map((a) => {
    const opening = books.openings[a.code] ?? 0;
    const closing = net.get(a.code) ?? 0;
    const typing =
      variant.typing === 'standard'
        ? t('StandardAccountID', variant.standard?.[a.code] ?? a.code.slice(0, 2))
        : variant.typing === 'grouping'
          ? t('GroupingCategory', variant.grouping![a.code]![0]) +
            t('GroupingCode', variant.grouping![a.code]![1])
          : '';
    return `<${p}Account>${t('AccountID', a.code)}${t('AccountDescription', a.name)}${typing}${t('AccountType', 'GL')}${opening >= 0 ? t('OpeningDebitBalance', decimal(opening)) : t('OpeningCreditBalance', decimal(-opening))}${closing >= 0 ? t('ClosingDebitBalance', decimal(closing)) : t('ClosingCreditBalance', decimal(-closing))}</${p}Account>`;
  });
  const debit = sumOf(
    lines(books)
      .filter((l) => l.cents > 0)
      .map((l) => l.cents),
  );
  const transactions = books.transactions.map(
    (tx) =>
      `<${p}Transaction>${t('TransactionID', tx.id)}${t('Period', Number(tx.date.slice(5, 7)))}${t('PeriodYear', tx.date.slice(0, 4))}${t('TransactionDate', tx.date)}${t('Description', tx.memo)}${t('SystemEntryDate', tx.date)}${t('GLPostingDate', tx.date)}${tx.postings
        .map(
          (l, i) =>
            `<${p}Line>${t('RecordID', i + 1)}${t('AccountID', l.code)}${t('Description', l.text ?? tx.memo)}<${p}${l.cents > 0 ? 'DebitAmount' : 'CreditAmount'}>${t('Amount', decimal(Math.abs(l.cents)))}</${p}${l.cents > 0 ? 'DebitAmount' : 'CreditAmount'}>${variant.version === '1.30' ? `<${p}TaxInformation>${t('TaxType', 'MVA')}${t('TaxCode', '3')}<${p}DebitTaxAmount>${t('Amount', '0.00')}</${p}DebitTaxAmount></${p}TaxInformation>` : ''}</${p}Line>`,
        )
        .join('\n')}</${p}Transaction>`,
  );
  const ns = p === '' ? 'xmlns' : `xmlns:${p.slice(0, -1)}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<${p}AuditFile ${ns}="urn:StandardAuditFile-Taxation-Financial:NO">
<${p}Header>${t('AuditFileVersion', variant.version)}${t('AuditFileCountry', 'NO')}${t('AuditFileDateCreated', '2026-01-05')}${t('SoftwareCompanyName', 'Test')}${t('SoftwareID', 'Test')}${t('SoftwareVersion', '1')}<${p}Company>${t('RegistrationNumber', '999999999')}${t('Name', 'Övningsbolaget AS')}</${p}Company>${t('DefaultCurrencyCode', 'NOK')}<${p}SelectionCriteria>${t('SelectionStartDate', books.start)}${t('SelectionEndDate', books.end)}</${p}SelectionCriteria>${t('TaxAccountingBasis', 'A')}</${p}Header>
<${p}MasterFiles><${p}GeneralLedgerAccounts>
${accounts.join('\n')}
</${p}GeneralLedgerAccounts></${p}MasterFiles>
<${p}GeneralLedgerEntries>
${t('NumberOfEntries', variant.numberOfEntries ?? books.transactions.length)}
${t('TotalDebit', decimal(debit + (variant.totalDebitOff ?? 0)))}
${t('TotalCredit', decimal(debit))}
<${p}Journal>${t('JournalID', 'GL')}${t('Description', 'General')}${t('Type', 'GL')}
${transactions.join('\n')}
</${p}Journal>
</${p}GeneralLedgerEntries>
</${p}AuditFile>
`;
}

/* ---------------------------------------------------- XML Auditfile Financieel (Netherlands) */

export const XAF_NAMESPACES = {
  '3.1': 'http://www.auditfiles.nl/XAF/3.1',
  '3.2': 'http://www.auditfiles.nl/XAF/3.2',
  '3.2.1':
    'http://www.odb.belastingdienst.nl/Belastingdienst/BCPP/1.0/structures/XmlAuditfileFinancieel3.2.1',
  '4.0':
    'http://www.odb.belastingdienst.nl/Belastingdienst/BCPP/1.1/structures/XmlauditfileXAF_4.0',
} as const;

export interface XafVariant {
  version: keyof typeof XAF_NAMESPACES;
  /** Where the RGS code goes, if anywhere. */
  rgsIn: 'RGScode' | 'taxonomy' | 'leadReference' | 'none';
  rgs?: Record<string, string>;
  /** The opening balance as an openingBalance section (with or without opBalDate). */
  opening: 'dated' | 'undated';
  /** A zero line written without amntTp (XAF 3.1 producers). */
  zeroLineWithoutSide?: boolean;
  /** linesCount holds the number of transactions (a producer's mistake). */
  linesCountOfTransactions?: boolean;
  totalDebitOff?: number;
  encoding?: 'UTF-8' | 'ISO-8859-1';
}

export function xafFile(books: Books, variant: XafVariant): Buffer {
  const t = (tag: string, text: string | number) => `<${tag}>${xml(String(text))}</${tag}>`;
  const accounts = books.accounts.map((a) => {
    const rgs = variant.rgs?.[a.code];
    const typing =
      rgs === undefined
        ? ''
        : variant.rgsIn === 'RGScode'
          ? t('RGScode', rgs)
          : variant.rgsIn === 'leadReference'
            ? t('leadCode', 'producer-group-7') + t('leadReference', rgs)
            : variant.rgsIn === 'taxonomy'
              ? `<taxonomy>${t('taxoRef', 'http://www.nltaxonomie.nl/rgs/nt11/rgs/20160919.a/dictionary/rekeningen')}<entryPoint>${t('entryPointRef', 'rgs')}${t('conceptRef', rgs)}</entryPoint></taxonomy>`
              : '';
    const before = variant.version === '4.0' ? '' : '';
    return `<ledgerAccount>${t('accID', a.code)}${t('accDesc', a.name)}${t('accTp', a.kind)}${before}${typing}</ledgerAccount>`;
  });
  const openings = Object.entries(books.openings);
  const openingDebit = sumOf(openings.filter(([, c]) => c > 0).map(([, c]) => c));
  const obLines = openings.map(
    ([code, cents], i) =>
      `<obLine>${t('nr', i + 1)}${t('accID', code)}${t('amnt', decimal(Math.abs(cents)))}${t('amntTp', cents > 0 ? 'D' : 'C')}</obLine>`,
  );
  if (variant.zeroLineWithoutSide)
    obLines.push(
      `<obLine>${t('nr', obLines.length + 1)}${t('accID', books.accounts[0]!.code)}${t('amnt', '0.00')}</obLine>`,
    );
  const all = lines(books);
  const debit = sumOf(all.filter((l) => l.cents > 0).map((l) => l.cents));
  const txs = books.transactions.map(
    (tx) =>
      `<transaction>${t('nr', tx.id)}${t('desc', tx.memo)}${t('periodNumber', Number(tx.date.slice(5, 7)))}${t('trDt', tx.date)}${tx.postings
        .map(
          (l, i) =>
            `<trLine>${t('nr', i + 1)}${t('accID', l.code)}${t('docRef', `F${tx.id}`)}${t('effDate', tx.date)}${t('desc', l.text ?? tx.memo)}${t('amnt', decimal(Math.abs(l.cents)))}${t('amntTp', l.cents > 0 ? 'D' : 'C')}${(l.vat ?? []).map((v) => `<vat>${t('vatID', v.id)}${t('vatPerc', v.perc.toFixed(2))}${t('vatAmnt', decimal(v.cents))}${t('vatAmntTp', v.tp)}</vat>`).join('')}</trLine>`,
        )
        .join('')}</transaction>`,
  );
  const header =
    variant.version === '4.0'
      ? `<header>${t('fiscalYear', books.start.slice(0, 4))}${t('startDate', books.start)}${t('endDate', books.end)}${t('curCode', 'EUR')}${t('dateCreated', '2026-01-05')}${t('softwareDesc', 'Test')}${t('softwareVersion', '1')}</header>`
      : `<header>${t('fiscalYear', books.start.slice(0, 4))}${t('startDate', books.start)}${t('endDate', books.end)}${t('curCode', 'EUR')}${t('dateCreated', '2026-01-05')}${t('softwareDesc', 'Test')}${t('softwareVersion', '1')}</header>`;
  const company =
    variant.version === '4.0'
      ? `${t('Commercenr', '12345678')}${t('companyName', 'Øvelse B.V.')}`
      : `${t('companyIdent', '1')}${t('companyName', 'Øvelse B.V.')}`;
  const text = `<?xml version="1.0" encoding="${variant.encoding ?? 'UTF-8'}"?>
<auditfile xmlns="${XAF_NAMESPACES[variant.version]}">
${header}
<company>${company}${t('taxRegistrationCountry', 'NL')}${t('taxRegIdent', 'NL001')}
<generalLedger>
${accounts.join('\n')}
</generalLedger>
<openingBalance>${variant.opening === 'dated' ? t('opBalDate', books.start) : ''}${t('linesCount', obLines.length)}${t('totalDebit', decimal(openingDebit))}${t('totalCredit', decimal(openingDebit))}
${obLines.join('\n')}
</openingBalance>
<transactions>${t('linesCount', variant.linesCountOfTransactions ? books.transactions.length : all.length)}${t('totalDebit', decimal(debit + (variant.totalDebitOff ?? 0)))}${t('totalCredit', decimal(debit))}
<journal>${t('jrnID', 'M')}${t('desc', 'Memoriaal')}${t('jrnTp', 'M')}
${txs.join('\n')}
</journal>
</transactions>
</company>
</auditfile>
`;
  return variant.encoding === 'ISO-8859-1' ? iconv.encode(text, 'latin1') : Buffer.from(text);
}

/* ------------------------------------------------------------------------- SIE 4 (Sweden) */

export interface SieVariant {
  type: '4E' | '4I';
  encoding: 'cp437' | 'utf-8' | 'windows-1252';
  /** `#KTYP` for every account. */
  ktyp?: boolean;
  /** Object lists on #TRANS: `{}`, `{1 "100"}`, or none at all. */
  objects: 'empty' | 'dimension' | 'omitted';
  /** An added row (#RTRANS with its repeating #TRANS) and a struck one (#BTRANS). */
  changes?: boolean;
  eol: '\n' | '\r\n';
  /** Separate fields by tabs. */
  tabs?: boolean;
  /** #UB written equal to #IB on every account (a program does). */
  closingAsOpening?: boolean;
}

const sieQuote = (text: string) => `"${text.replace(/"/g, '\\"')}"`;
const KTYP_OF = (account: BookAccount) =>
  account.kind === 'B'
    ? account.code.startsWith('2')
      ? 'S'
      : 'T'
    : account.code.startsWith('3')
      ? 'I'
      : 'K';

export function sieFile(books: Books, variant: SieVariant): Buffer {
  const sep = variant.tabs ? '\t' : ' ';
  const row = (...fields: string[]) => fields.join(sep);
  const ymd = (day: string) => day.replace(/-/g, '');
  const out: string[] = [
    '#FLAGGA 0',
    row('#PROGRAM', sieQuote('Test'), '1.0'),
    '#FORMAT PC8',
    row('#GEN', '20260105'),
    '#SIETYP 4',
    row('#FNAMN', sieQuote('Övningsbolaget AB')),
  ];
  if (variant.type === '4E') out.push(row('#RAR', '0', ymd(books.start), ymd(books.end)));
  for (const a of books.accounts) {
    out.push(row('#KONTO', a.code, sieQuote(a.name)));
    if (variant.ktyp) out.push(row('#KTYP', a.code, KTYP_OF(a)));
  }
  if (variant.type === '4E') {
    const net = netOf(books);
    for (const a of books.accounts) {
      const opening = books.openings[a.code] ?? 0;
      if (a.kind === 'B') {
        out.push(row('#IB', '0', a.code, decimal(opening)));
        out.push(
          row(
            '#UB',
            '0',
            a.code,
            decimal(variant.closingAsOpening ? opening : (net.get(a.code) ?? 0)),
          ),
        );
      } else out.push(row('#RES', '0', a.code, decimal(net.get(a.code) ?? 0)));
    }
  }
  for (const tx of books.transactions) {
    out.push(row('#VER', 'A', tx.id, ymd(tx.date), sieQuote(tx.memo)), '{');
    for (const l of tx.postings) {
      const objects =
        variant.objects === 'empty'
          ? ['{}']
          : variant.objects === 'dimension'
            ? ['{1 "100" 6 "P1"}']
            : [];
      out.push(
        row('#TRANS', l.code, ...objects, decimal(l.cents), '""', sieQuote(l.text ?? tx.memo)),
      );
    }
    if (variant.changes) {
      const [first] = tx.postings;
      const objects = variant.objects === 'omitted' ? [] : ['{}'];
      // A row struck out, then the same amount added back: the voucher still balances.
      out.push(row('#BTRANS', first!.code, ...objects, decimal(first!.cents)));
      out.push(row('#RTRANS', first!.code, ...objects, decimal(-first!.cents)));
      out.push(row('#TRANS', first!.code, ...objects, decimal(-first!.cents)));
      out.push(row('#RTRANS', first!.code, ...objects, decimal(first!.cents)));
      out.push(row('#TRANS', first!.code, ...objects, decimal(first!.cents)));
    }
    out.push('}');
  }
  return iconv.encode(out.join(variant.eol) + variant.eol, variant.encoding);
}

/* ------------------------------------------------------------- DATEV Buchungsstapel (Germany) */

export interface DatevVariant {
  version: 510 | 700;
  /** Sachkontenlänge, 4 to 8. */
  length: number;
  skr: '03' | '04' | '';
  encoding: 'windows-1252' | 'utf-8';
  /** Write text fields as DATEV's own sample does: `" "Text" "`. */
  strayQuotes?: boolean;
}

/** One booking: an amount from Konto (S: debited) against Gegenkonto. */
export interface DatevBooking {
  cents: number;
  konto: string;
  gegenkonto: string;
  date: string;
  text: string;
  beleg: string;
  /** BU-Schlüssel. */
  key?: string;
}

/** The header of each version: 510 (Formatversion 7) and 700 (Formatversion 13, 31 fields). */
export function datevFile(
  bookings: DatevBooking[],
  variant: DatevVariant,
  period: { from: string; to: string },
): Buffer {
  const ymd = (day: string) => day.replace(/-/g, '');
  const header =
    variant.version === 700
      ? `"EXTF";700;21;"Buchungsstapel";13;20260105120000000;;"RE";"";"";29098;55003;${ymd(period.from.slice(0, 4) + '-01-01')};${variant.length};${ymd(period.from)};${ymd(period.to)};"Buchungsstapel";"WD";1;0;0;"EUR";;"";;;"${variant.skr}";;;"";""`
      : `"EXTF";510;21;"Buchungsstapel";7;20260105120000000;;"SV";"Admin";"";55003;63021;${ymd(period.from.slice(0, 4) + '-01-01')};${variant.length};${ymd(period.from)};${ymd(period.to)};"Kasse";"";1;0;0;"EUR";;"KP";;"";;;"";"";`;
  const columns =
    'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Kurs;Basis-Umsatz;WKZ Basis-Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);BU-Schlüssel;Belegdatum;Belegfeld 1;Belegfeld 2;Skonto;Buchungstext';
  const text = (value: string) =>
    variant.strayQuotes ? `" "${value}" "` : `"${value.replace(/"/g, '""')}"`;
  const rows = bookings.map((b) =>
    [
      comma(Math.abs(b.cents)),
      b.cents >= 0 ? '"S"' : '"H"',
      '""',
      '',
      '',
      '""',
      b.konto,
      b.gegenkonto,
      `"${b.key ?? ''}"`,
      `${b.date.slice(8, 10)}${b.date.slice(5, 7)}`,
      `"${b.beleg}"`,
      '""',
      '',
      text(b.text),
    ].join(';'),
  );
  return iconv.encode([header, columns, ...rows].join('\r\n') + '\r\n', variant.encoding);
}

/* ------------------------------------------------------------ FEC (France, article A47 A-1) */

export interface FecVariant {
  delimiter: '\t' | '|';
  decimal: ',' | '.';
  amounts: 'debit-credit' | 'montant-sens';
  sens?: 'DC' | '+1-1';
  /** Fixed-length zones: amounts zero-padded, text space-padded. */
  padded?: boolean;
  encoding: 'utf-8' | 'latin9';
  dates: 'AAAAMMJJ' | 'ISO' | 'JJ/MM/AAAA';
  eol: '\n' | '\r\n';
  /** The 22 columns of the cash-basis table (VIII 7°). */
  cashColumns?: boolean;
}

export function fecFile(books: Books, variant: FecVariant): Buffer {
  const date = (day: string) =>
    variant.dates === 'AAAAMMJJ'
      ? day.replace(/-/g, '')
      : variant.dates === 'ISO'
        ? day
        : `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
  const amount = (cents: number) => {
    const text = variant.decimal === ',' ? comma(cents) : decimal(cents);
    return variant.padded ? text.padStart(15, '0') : text;
  };
  const pad = (text: string, width: number) => (variant.padded ? text.padEnd(width, ' ') : text);
  const head = [
    'JournalCode',
    'JournalLib',
    'EcritureNum',
    'EcritureDate',
    'CompteNum',
    'CompteLib',
    'CompAuxNum',
    'CompAuxLib',
    'PieceRef',
    'PieceDate',
    'EcritureLib',
    ...(variant.amounts === 'debit-credit' ? ['Debit', 'Credit'] : ['Montant', 'Sens']),
    'EcritureLet',
    'DateLet',
    'ValidDate',
    'Montantdevise',
    'Idevise',
    ...(variant.cashColumns ? ['DateRglt', 'ModeRglt', 'NatOp', 'IdClient'] : []),
  ];
  const rows: string[][] = [];
  let number = 0;
  const entry = (
    journal: string,
    day: string,
    memo: string,
    postings: { code: string; cents: number }[],
  ) => {
    number += 1;
    for (const p of postings) {
      const sides =
        variant.amounts === 'debit-credit'
          ? [p.cents > 0 ? amount(p.cents) : amount(0), p.cents < 0 ? amount(-p.cents) : amount(0)]
          : [
              amount(Math.abs(p.cents)),
              variant.sens === '+1-1' ? (p.cents > 0 ? '+1' : '-1') : p.cents > 0 ? 'D' : 'C',
            ];
      rows.push([
        pad(journal, 6),
        pad(journal === 'AN' ? 'A nouveaux' : 'Opérations diverses', 30),
        String(number),
        date(day),
        pad(p.code, 10),
        pad(name(books, p.code), 40),
        '',
        '',
        `P${number}`,
        date(day),
        pad(memo, 40),
        ...sides,
        '',
        '',
        date(day),
        '',
        '',
        ...(variant.cashColumns ? ['', '', '', ''] : []),
      ]);
    }
  };
  entry(
    'AN',
    books.start,
    'Report à nouveau',
    Object.entries(books.openings).map(([code, cents]) => ({ code, cents })),
  );
  for (const tx of books.transactions)
    entry('OD', tx.date, tx.memo.replace(/\|/g, '/'), tx.postings);
  const text =
    [head, ...rows].map((r) => r.join(variant.delimiter)).join(variant.eol) + variant.eol;
  return iconv.encode(text, variant.encoding === 'latin9' ? 'iso-8859-15' : 'utf-8');
}
