import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { InvalidAmountError, parseAmountText, ZERO_CENTS } from '../../core/money.js';
import { eachRecord, namedColumns, type NamedColumns } from './csvRecords.js';
import {
  accountKey,
  EntryGrouper,
  type LedgerEntry,
  type LedgerLine,
  type Problem,
  ZeroEntries,
} from './ledgerCsv.js';

/**
 * The French Fichier des Écritures Comptables (FEC, article A47 A-1 of the Livre des procédures
 * fiscales): one line per posting, tab- or pipe-separated, with the columns JournalCode,
 * JournalLib, EcritureNum, EcritureDate, CompteNum, CompteLib, CompAuxNum, CompAuxLib, PieceRef,
 * PieceDate, EcritureLib, Debit, Credit, EcritureLet, DateLet, ValidDate, Montantdevise, Idevise.
 *
 * - An entry is the lines of one EcritureNum within its journal (numbers may restart per
 *   journal), dated EcritureDate (`YYYYMMDD`).
 * - Debit and Credit are written with a decimal comma (`1234,56`); some software writes a point,
 *   which is read too when it cannot be a thousands separator.
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

/** The entries of a FEC; problems go to `report`. */
export async function* readFec(
  file: string,
  /** `delimiter`: tab or `|`, as its header line uses (see fecDelimiter). */
  options: { encoding?: string; delimiter: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: FecFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const facts: FecFacts = { entries: 0, zeroLines: 0 };
  const zeros = new ZeroEntries();
  const ready: LedgerEntry[] = [];
  const grouper = new EntryGrouper(true, (entry) => ready.push(entry), report);
  let columns: NamedColumns | undefined;
  let hash = '';
  for await (const { record, fileLine } of eachRecord(
    file,
    {
      encoding: options.encoding,
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
      columns = namedColumns(record, (h) => h.trim().toLowerCase());
      const missing = [
        'journalcode',
        'ecriturenum',
        'ecrituredate',
        'comptenum',
        'debit',
        'credit',
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
    const match = /^(\d{4})(\d{2})(\d{2})$/.exec(dateText);
    const date = match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
    if (!date || !isCalendarDay(date)) {
      report({ fileLine, message: `EcritureDate "${dateText}" is not a date (YYYYMMDD)` });
      continue;
    }
    let debit;
    let credit;
    try {
      debit = fecAmount(field('debit')) ?? ZERO_CENTS;
      credit = fecAmount(field('credit')) ?? ZERO_CENTS;
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
