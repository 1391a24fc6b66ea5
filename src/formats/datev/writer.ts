import { type Cents, sidesOf, subtractCents } from '../../core/money.js';
import { AUTOMATIC, AUTOMATIC_OFF, CARRIED_ACCOUNTS, RETAINED_EARNINGS } from './skr.js';
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
 *   line's description, else the entry's memo; no tax key: the amounts are as booked, and a row on
 *   an automatic account of the SKR (SKR03 8400, 3400, …: DATEV would add the VAT it implies)
 *   carries BU-Schlüssel 40, which turns the automatic off;
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
export function pairedRows(
  lines: readonly { code: string; debit: Cents; credit: Cents; description: string }[],
): { debitCode: string; creditCode: string; amount: Cents; description: string }[] {
  const debits = lines.filter((l) => l.debit > 0).map((l) => ({ ...l, left: l.debit }));
  const credits = lines.filter((l) => l.credit > 0).map((l) => ({ ...l, left: l.credit }));
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
    const row = (
      debitCode: string,
      creditCode: string,
      cents: Cents,
      day: string,
      voucher: string,
      description: string,
    ) => {
      const [debit, credit] = [number(debitCode), number(creditCode)];
      const key = automatic[debit] || automatic[credit] ? AUTOMATIC_OFF : '';
      return `${decimalComma(cents)};"S";"";;;"";${debit};${credit};"${key}";${ttmm(day)};${quoted(voucher)};"";;${t(description, 60)}${EMPTY_AFTER_TEXT}\r\n`;
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
    for await (const entry of books.entries()) await put(entryRows(entry, row));
  },
};

function entryRows(
  entry: AuditEntry,
  row: (d: string, c: string, cents: Cents, day: string, voucher: string, text: string) => string,
): string {
  const fallback = entryDescription(entry);
  return pairedRows(entry.lines)
    .map((paired) =>
      row(
        paired.debitCode,
        paired.creditCode,
        paired.amount,
        entry.date,
        String(entry.number),
        paired.description || fallback,
      ),
    )
    .join('');
}
