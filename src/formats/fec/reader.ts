import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { absCents, InvalidAmountError, parseAmountText, ZERO_CENTS } from '../../core/money.js';
import {
  eachRecord,
  firstMegabyte,
  isUtf8Start,
  lettersOf,
  namedColumns,
  type NamedColumns,
} from '../common/csvRecords.js';
import {
  accountKey,
  EntryGrouper,
  type LedgerEntry,
  type LedgerLine,
  type Problem,
  ZeroEntries,
} from '../ledgerCsv.js';
import {
  count,
  firstLineOf,
  readExport,
  zeroWhole,
  type LedgerFormatDefinition,
} from '../format.js';

/**
 * The French Fichier des Écritures Comptables (FEC, article A47 A-1 of the Livre des procédures
 * fiscales): one line per posting, tab- or pipe-separated, with the columns JournalCode,
 * JournalLib, EcritureNum, EcritureDate, CompteNum, CompteLib, CompAuxNum, CompAuxLib, PieceRef,
 * PieceDate, EcritureLib, Debit, Credit, EcritureLet, DateLet, ValidDate, Montantdevise, Idevise
 * (the 21 and 22 columns of the cash-basis tables add DateRglt, ModeRglt, NatOp, IdClient).
 * Column names are matched as the DGFiP's validator matches them: any case, accents aside.
 *
 * - An entry is the lines of one EcritureNum within its journal (numbers may restart per
 *   journal), dated EcritureDate: `YYYYMMDD`, or as the validator also accepts it
 *   (`YYYY-MM-DD`, `DD/MM/YYYY`, `DD.MM.YYYY`, a time after it).
 * - Amounts are Debit and Credit, or Montant and Sens (`D`/`C`, `+1`/`-1`: VII 2°), written with
 *   a decimal comma (`1234,56`), padded with zeros in fixed-length zones, a sign first or last;
 *   some software writes a point, which is read too when it cannot be a thousands separator.
 * - The text is UTF-8, or ISO 8859-15 (Latin-9) where the bytes are not UTF-8, the two
 *   encodings the article allows besides ASCII (`--encoding` says otherwise).
 * - Accounts are CompteNum (the code) and CompteLib (the name); their type comes from the Plan
 *   Comptable Général: the class digit and, within it, the usual sub-accounts (below).
 */

/** Types by PCG account prefix; the longest prefix that fits wins. */
const PCG_TYPES: [string, AccountType][] = [
  ['1', 'Equity'],
  ['15', 'Other Liabilities'],
  ['16', 'Long-Term Loans'],
  ['17', 'Other Liabilities'],
  ['2', 'Fixed Assets'],
  ['20', 'Intangible Assets'],
  ['26', 'Investments'],
  ['27', 'Investments'],
  ['3', 'Inventory'],
  ['4', 'Other Current Liabilities'],
  ['40', 'Accounts Payable'],
  ['409', 'Other Current Assets'],
  ['41', 'Accounts Receivable'],
  ['419', 'Other Current Liabilities'],
  ['42', 'Payroll Liabilities'],
  ['43', 'Payroll Liabilities'],
  ['445', 'Other Current Liabilities'],
  ['4456', 'Other Current Assets'],
  ['46', 'Other Current Liabilities'],
  ['47', 'Other Current Liabilities'],
  ['486', 'Prepaid Expenses'],
  ['5', 'Cash'],
  ['50', 'Investments'],
  ['519', 'Short-Term Loans'],
  ['6', 'Operating Expenses'],
  ['60', 'COGS'],
  ['66', 'Other Expenses'],
  ['67', 'Other Expenses'],
  ['69', 'Tax Expenses'],
  ['7', 'Income'],
  ['76', 'Other Income'],
  ['77', 'Other Income'],
];
const BY_LENGTH = [...PCG_TYPES].sort((a, b) => b[0].length - a[0].length);

/** The type a PCG account number stands for, or undefined (class 8 and 9, or not a number). */
export function pcgType(accountNumber: string): AccountType | undefined {
  if (!/^[1-7]\d*$/.test(accountNumber)) return undefined;
  return BY_LENGTH.find(([prefix]) => accountNumber.startsWith(prefix))?.[1];
}

/** True when a header line is a FEC's. */
export function looksLikeFec(headerLine: string): boolean {
  return /journalcode/i.test(headerLine) && /ecriturenum/i.test(headerLine);
}

export interface FecFacts {
  /** The encoding read: UTF-8, or ISO 8859-15 told by bytes that are not UTF-8. */
  encoding: string;
  /** The amounts' columns: Debit and Credit, or Montant and Sens. */
  amounts: 'Debit and Credit' | 'Montant and Sens';
  entries: number;
  zeroLines: number;
  /** Entries made only of lines of zero, left out whole. */
  zeroEntries?: number;
}

/** A FEC amount: a decimal comma, or a point where it can only be a decimal one. */
function fecAmount(text: string) {
  const plain = text.trim();
  return /^-?\d+\.\d{1,2}$/.test(plain)
    ? parseAmountText(plain)
    : parseAmountText(plain, { decimalComma: true });
}

/**
 * A FEC date: `YYYYMMDD` as the article writes it, or `YYYY-MM-DD`, `DD/MM/YYYY`, `DD.MM.YYYY`,
 * `DD-MM-YYYY` (French order), a time after any, as the DGFiP's validator accepts them.
 */
export function fecDate(text: string): string | undefined {
  const plain = text.trim().replace(/[ T]\d{1,2}:\d{2}(:\d{2})?$/, '');
  const iso = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(plain);
  const french = /^(\d{2})[/.-](\d{2})[/.-](\d{4})$/.exec(plain);
  const day = iso
    ? `${iso[1]}-${iso[2]}-${iso[3]}`
    : french
      ? `${french[3]}-${french[2]}-${french[1]}`
      : undefined;
  return day && isCalendarDay(day) ? day : undefined;
}

/** The entries of a FEC; problems go to `report`. */
export async function* readFec(
  file: string,
  /** `delimiter`: tab or `|`, as its header line uses (see fecDelimiter). */
  options: { encoding?: string; delimiter: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: FecFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const encoding =
    options.encoding ?? (isUtf8Start(firstMegabyte(file)) ? undefined : 'iso-8859-15');
  const facts: FecFacts = {
    encoding:
      options.encoding !== undefined
        ? `${options.encoding} (--encoding)`
        : encoding === undefined
          ? 'UTF-8'
          : 'ISO 8859-15 (its bytes are not UTF-8)',
    amounts: 'Debit and Credit',
    entries: 0,
    zeroLines: 0,
  };
  const zeros = new ZeroEntries();
  const ready: LedgerEntry[] = [];
  const grouper = new EntryGrouper(true, (entry) => ready.push(entry), report);
  let columns: NamedColumns | undefined;
  let hash = '';
  for await (const { record, fileLine } of eachRecord(
    file,
    {
      encoding,
      delimiter: options.delimiter,
      quotesAreText: true,
    },
    onLine,
    (digest) => (hash = digest),
  )) {
    // What the records before this one completed goes out first.
    if (ready.length > 0) {
      facts.entries += ready.length;
      yield* ready;
      ready.length = 0;
    }
    if (!columns) {
      columns = namedColumns(record, lettersOf);
      if (!columns.has('debit') && columns.has('montant') && columns.has('sens'))
        facts.amounts = 'Montant and Sens';
      const missing = [
        'journalcode',
        'ecriturenum',
        'ecrituredate',
        'comptenum',
        ...(facts.amounts === 'Montant and Sens' ? [] : ['debit', 'credit']),
      ].filter((name) => !columns!.has(name));
      if (missing.length > 0) {
        report({ fileLine, message: `not a FEC: the header lacks ${missing.join(', ')}` });
        return;
      }
      continue;
    }
    if (record.every((f) => f.trim() === '')) continue;
    const field = (name: string) => columns!.cell(record, name);
    const dateText = field('ecrituredate');
    const date = fecDate(dateText);
    if (!date) {
      report({ fileLine, message: `EcritureDate "${dateText}" is not a date (YYYYMMDD)` });
      continue;
    }
    let debit;
    let credit;
    try {
      if (facts.amounts === 'Montant and Sens') {
        const amount = fecAmount(field('montant')) ?? ZERO_CENTS;
        const sens = field('sens').toUpperCase();
        if (!['D', 'C', '+1', '-1'].includes(sens)) {
          report({ fileLine, message: `Sens "${field('sens')}" is none of D, C, +1, -1` });
          continue;
        }
        const debitSide = (sens === 'D' || sens === '+1') === amount >= 0;
        debit = debitSide ? absCents(amount) : ZERO_CENTS;
        credit = debitSide ? ZERO_CENTS : absCents(amount);
      } else {
        debit = fecAmount(field('debit')) ?? ZERO_CENTS;
        credit = fecAmount(field('credit')) ?? ZERO_CENTS;
      }
    } catch (error) {
      if (!(error instanceof InvalidAmountError)) throw error;
      report({ fileLine, message: `the amount ${error.message}` });
      continue;
    }
    zeros.line(`${field('journalcode')} ${field('ecriturenum')}`, debit === 0 && credit === 0);
    if (debit === 0 && credit === 0) {
      facts.zeroLines += 1;
      continue;
    }
    const code = field('comptenum');
    const name = field('comptelib') || code;
    if (code === '') {
      report({ fileLine, message: 'CompteNum is empty' });
      continue;
    }
    const number = field('ecriturenum');
    const journal = field('journalcode');
    const label = field('ecriturelib');
    const line: LedgerLine = {
      fileLine,
      date,
      account: accountKey(code, name),
      accountCode: code,
      accountName: name,
      accountType: pcgType(code),
      ...(pcgType(code) !== undefined && { typeInferred: true as const }),
      debitCents: debit,
      creditCents: credit,
      description: [label, field('compauxlib')].filter(Boolean).join(' — '),
      memo: [field('pieceref'), label].filter(Boolean).join(' ').slice(0, 1000),
      classes: [],
      entry: `${journal} ${number}`,
    };
    grouper.add(line);
  }
  grouper.finish();
  facts.entries += ready.length;
  yield* ready;
  zeros.finish();
  onEnd(hash, { ...facts, zeroEntries: zeros.count });
}

/** A FEC is tab- or pipe-separated: whichever its header line uses. */
export function fecDelimiter(headerLine: string): string {
  return headerLine.includes('|') && !headerLine.includes('\t') ? '|' : '\t';
}

/** The French Fichier des Écritures Comptables. */
export const fec: LedgerFormatDefinition = {
  name: 'fec',
  title: 'FEC (Fichier des Écritures Comptables, France)',
  detect: (_head, firstLine) => looksLikeFec(firstLine),
  toldBy:
    'read as a FEC (Fichier des Écritures Comptables): its header has JournalCode and EcritureNum',
  encodingSaid: false,
  read: (file, head, options, result) =>
    readExport<FecFacts>(
      result,
      (...hooks) =>
        readFec(
          file,
          { encoding: options.encoding, delimiter: fecDelimiter(firstLineOf(head)) },
          ...hooks,
        ),
      (facts) => [
        `encoding ${facts.encoding}`,
        `FEC: ${count(facts.entries, 'entry', 'entries')}${facts.amounts === 'Debit and Credit' ? '' : ', amounts as Montant and Sens'}; accounts typed by their Plan Comptable Général class`,
        facts.zeroLines > 0 &&
          `FEC: ${count(facts.zeroLines, 'line', 'lines')} of zero left out${zeroWhole(facts.zeroEntries, 'entry', 'entries')}`,
      ],
    ),
};
