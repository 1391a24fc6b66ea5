import { isCalendarDay } from '../../core/calendar.js';
import {
  addCents,
  formatCents,
  negateCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { auditAmount, auditLine } from '../common/auditFile.js';
import { eachNamedRow, lettersOf } from '../common/csvRecords.js';
import type { LedgerEntry, Problem } from '../ledgerCsv.js';
import { namesOfSeveralCodes } from '../common/reportRows.js';
import { kmuType, swissTaxedSide } from './swissChart.js';
import { count, readExport, type LedgerFormatDefinition } from '../format.js';

/**
 * bexio's exports (Switzerland), `;`-separated (or as a workbook's sheet is written out), dates
 * `DD.MM.YYYY`, amounts with a point and thousands grouped as de-CH writes them (`1’000.00`,
 * `1'000.00`, a no-break space), or by a U+FFFD where a past re-encoding lost the `’`:
 *
 * - The journal (`Datum;Referenz;Soll;Haben;Beschreibung;Betrag;Buchungswährung;
 *   Umrechnungsfaktor;Betrag in Basiswährung;…`): one booking a row, from the `Soll` (debit)
 *   account to the `Haben` (credit) account, each written `6555 - Name`; the amount posted is
 *   `Betrag in Basiswährung` (the base currency; a foreign-currency row's `Betrag` is in its own).
 * - One account's ledger (`Kontonummer;Datum;…;GK;…;Soll;Haben;Saldo`): each row a booking of the
 *   account against the `GK` (counter) account, debit `Soll`, credit `Haben`, its running `Saldo`
 *   checked row by row.
 *
 * A row's VAT code (the journal's `MWST`, `UN77 (7.70%)`, its first word; the account ledger's
 * `Code`) goes to the side it taxes (`swissTaxedSide`): the VAT account, else the income or
 * expense, never the receivable, the payable or the bank.
 *
 * Accounts are typed by the Swiss SME chart (Kontenrahmen KMU); a name used under two codes is
 * named apart, `Darlehen (1140)`. Text whose characters a past
 * re-encoding already lost (U+FFFD in the file) is read as it is, and counted.
 */

export interface BexioFacts {
  layout: 'journal' | 'account ledger';
  bookings: number;
  zeroRows: number;
  /** Rows in another currency than the base, posted in the base currency. */
  foreignRows: number;
  /** Rows holding U+FFFD: characters lost before the file reached us. */
  lostCharacters: number;
  /** Of those, amounts with U+FFFD between digit groups: the separator `’` it replaced. */
  lostSeparators: number;
  /** Rows with a VAT code whose two accounts do not tell which it taxes: left uncoded. */
  untoldCodes: number;
}

/** The header of a bexio journal or account ledger. */
export function looksLikeBexio(headerLine: string): boolean {
  const names = headerLine.split(/[;,\t]/).map(lettersOf);
  const has = (name: string) => names.includes(name);
  return (
    has('datum') &&
    has('soll') &&
    has('haben') &&
    (has('betraginbasiswahrung') || (has('kontonummer') && has('gk') && has('saldo')))
  );
}

/** `6555 - Uebrige Büro-/Verwaltungsaufwand` as its code and name. */
export function bexioAccount(text: string): { code: string; name: string } {
  const match = /^(\d[\w.]*)\s+-\s+(.+)$/.exec(text.trim());
  return match
    ? { code: match[1]!, name: match[2]!.trim() }
    : { code: text.trim(), name: text.trim() };
}

/** `DD.MM.YYYY` (or `D.M.YYYY`; or YYYY-MM-DD, as a workbook's date cell is written) as a day. */
export function swissDate(text: string): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text.trim()))
    return isCalendarDay(text.trim()) ? text.trim() : undefined;
  const match = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text.trim());
  if (!match) return undefined;
  const day = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  return isCalendarDay(day) ? day : undefined;
}

/** The entries of a bexio journal or account ledger; problems go to `report`. */
export async function* readBexio(
  file: string,
  options: { encoding?: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: BexioFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const facts: BexioFacts = {
    layout: 'journal',
    bookings: 0,
    zeroRows: 0,
    foreignRows: 0,
    lostCharacters: 0,
    lostSeparators: 0,
    untoldCodes: 0,
  };
  const shared = await namesOfSeveralCodesIn(file, options);
  let hash = '';
  /** An account ledger's running balance, after the row before. */
  let saldo: Cents | undefined;
  for await (const { record, fileLine, columns, field } of eachNamedRow(
    file,
    { encoding: options.encoding },
    lettersOf,
    onLine,
    (digest) => (hash = digest),
  )) {
    if (columns.has('kontonummer') && columns.has('saldo')) facts.layout = 'account ledger';
    if (record.some((cell) => cell.includes('\uFFFD'))) {
      facts.lostCharacters += 1;
      facts.lostSeparators += record.filter((cell) => /\d\uFFFD\d{3}\b/.test(cell)).length;
    }
    const date = swissDate(field('datum'));
    if (!date) {
      report({ fileLine, message: `Datum "${field('datum')}" is not a date (DD.MM.YYYY)` });
      continue;
    }
    const reference = field('referenz');
    const text = field('beschreibung') || field('buchungstext') || field('text');
    const side = {
      fileLine,
      date,
      entry: `${reference || 'row'} (line ${fileLine})`,
      description: text,
      memo: [reference, text].filter(Boolean).join(' ').slice(0, 1000),
    };
    const typed = (text: string) => {
      const { code, name } = bexioAccount(text);
      return {
        code,
        name: shared.has(name.toLowerCase()) ? `${name} (${code})` : name,
        type: kmuType(code),
      };
    };
    let debitAccount: string;
    let creditAccount: string;
    let cents: Cents | undefined;
    if (facts.layout === 'journal') {
      const base = columns.has('betraginbasiswahrung');
      cents = auditAmount(
        base ? field('betraginbasiswahrung') : field('betrag'),
        fileLine,
        base ? 'Betrag in Basiswährung' : 'Betrag',
        report,
      );
      const currency = field('buchungswahrung');
      const baseCurrency = field('wahrunginbasiswahrung');
      if (currency !== '' && baseCurrency !== '' && currency !== baseCurrency)
        facts.foreignRows += 1;
      debitAccount = field('soll');
      creditAccount = field('haben');
    } else {
      const debit = auditAmount(field('soll'), fileLine, 'Soll', report);
      const credit = auditAmount(field('haben'), fileLine, 'Haben', report);
      const stated = auditAmount(field('saldo'), fileLine, 'Saldo', report);
      if (debit === undefined || credit === undefined || stated === undefined) continue;
      cents = subtractCents(debit, credit);
      const made = addCents(saldo ?? subtractCents(stated, cents), cents);
      if (made !== stated) {
        report({
          fileLine,
          message: `the running Saldo says ${formatCents(stated)}, the row before and this row's Soll and Haben make ${formatCents(made)}: a row is missing or was changed`,
        });
      }
      saldo = stated;
      // The account debited by a positive movement, the counter account the other side.
      debitAccount = cents >= 0 ? field('kontonummer') : field('gk');
      creditAccount = cents >= 0 ? field('gk') : field('kontonummer');
      cents = cents >= 0 ? cents : negateCents(cents);
    }
    if (cents === undefined) continue;
    if (cents === ZERO_CENTS) {
      facts.zeroRows += 1;
      continue;
    }
    if (debitAccount === '' || creditAccount === '') {
      report({
        fileLine,
        message:
          facts.layout === 'journal' ? 'Soll or Haben is empty' : 'Kontonummer or GK is empty',
      });
      continue;
    }
    facts.bookings += 1;
    const lines = [
      auditLine(side, typed(debitAccount), cents),
      auditLine(side, typed(creditAccount), negateCents(cents)),
    ];
    // The row's VAT code (`UN77 (7.70%)`; an account ledger's `Code`) to the side it taxes.
    const taxCode = /^\S+/.exec(field('mwst') || field('code'))?.[0];
    if (taxCode) {
      const taxed = swissTaxedSide(lines[0]!.accountCode!, lines[1]!.accountCode!);
      if (taxed) lines[taxed === 'debit' ? 0 : 1]!.taxCode = taxCode;
      else facts.untoldCodes += 1;
    }
    yield { fileLine, entry: side.entry, date, memo: side.memo, lines };
  }
  onEnd(hash, facts);
}

/**
 * The account names a bexio journal uses under more than one code (`1140 - Darlehen` and
 * `2400 - Darlehen`), found in a first pass over the file: such accounts are named apart as
 * `Name (code)`, as every reader does.
 */
async function namesOfSeveralCodesIn(
  file: string,
  options: { encoding?: string },
): Promise<Set<string>> {
  const accounts: { code: string; name: string }[] = [];
  for await (const { field, columns } of eachNamedRow(
    file,
    { encoding: options.encoding },
    lettersOf,
    () => {},
    () => {},
  )) {
    // An account ledger names its counter accounts by number alone: nothing to tell apart.
    if (!columns.has('betraginbasiswahrung') && columns.has('kontonummer')) break;
    for (const side of ['soll', 'haben'])
      if (field(side) !== '') accounts.push(bexioAccount(field(side)));
  }
  return namesOfSeveralCodes(accounts);
}

/** bexio's journal, or one account's ledger (Switzerland). */
export const bexio: LedgerFormatDefinition = {
  name: 'bexio',
  title: 'bexio journal or account ledger',
  detect: (_head, firstLine) => looksLikeBexio(firstLine),
  toldBy:
    'read as a bexio export: its header has Datum, Soll, Haben and Betrag in Basiswährung (a journal) or Kontonummer, GK and Saldo (an account ledger)',
  fromSheet: true,
  read: (file, _head, options, result) =>
    readExport<BexioFacts>(
      result,
      (...hooks) => readBexio(file, { encoding: options.encoding }, ...hooks),
      (facts) => [
        `bexio ${facts.layout}: ${count(facts.bookings, 'booking', 'bookings')}; accounts typed by the Swiss SME chart (Kontenrahmen KMU)`,
        facts.layout === 'journal' &&
          `bexio journal: amounts in the base currency (Betrag in Basiswährung)${facts.foreignRows > 0 ? `; ${count(facts.foreignRows, 'row is', 'rows are')} in another currency, its Betrag left aside` : ''}`,
        facts.layout === 'account ledger' &&
          'bexio account ledger: each row against its GK account; the running Saldo checked row by row',
        facts.lostCharacters > 0 &&
          `bexio: ${count(facts.lostCharacters, 'row holds', 'rows hold')} characters a past re-encoding already lost (U+FFFD, �), read as they are${facts.lostSeparators > 0 ? `; between digit groups of ${count(facts.lostSeparators, 'amount', 'amounts')} it stands for the group separator it replaced, and is read so` : ''}`,
        facts.zeroRows > 0 && `bexio: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
        facts.untoldCodes > 0 &&
          `bexio: ${count(facts.untoldCodes, 'row names', 'rows name')} a VAT code between two accounts that do not tell which it taxes (neither a VAT account nor income or expense): left uncoded`,
      ],
    ),
};
