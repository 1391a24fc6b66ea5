import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import {
  absCents,
  addCents,
  formatCents,
  InvalidAmountError,
  negateCents,
  parseAmountText,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import {
  accountKey,
  type AccountKind,
  type LedgerEntry,
  type LedgerLine,
  type Problem,
} from '../ledgerCsv.js';

/*
 * What the readers of the audit files tax law asks for (SAF-T, XAF, SIE, DATEV) share: a chart
 * that types its accounts, opening and closing balances per account, and the file's own control
 * figures, against which the import is checked.
 */

/** An account of an audit file's chart; balances debit-positive, in cents. */
export interface AuditAccount {
  code: string;
  name: string;
  type: AccountType | undefined;
  /** What the file states of it when no type is known: balance sheet, or profit and loss. */
  kind?: AccountKind;
  opening?: Cents;
  closing?: Cents;
  /** The file line where the account is described. */
  fileLine: number;
}

/** What an audit file's reader found beside its entries, for the import to say. */
export interface AuditFacts extends OpeningFacts {
  /** The version of the format the file says it is in (`3.2`, `1.30`), when it says. */
  version?: string;
  /** What typed the accounts of its chart, and how many each (said in that order). */
  typedBy: Map<string, number>;
  journals: number;
  transactions: number;
  lines: number;
  zeroLines: number;
  accounts: number;
  firstDay: string | undefined;
  /**
   * What the file states against itself that does not stop the import (a closing balance its
   * opening balance and lines do not make, a count that is not its lines'), by file line.
   */
  contradictions: { fileLine: number; message: string }[];
  /** Closing balances stated by the file, by account code (debit-positive). */
  closingBalances: Map<string, Cents>;
  /** Lines, transactions or years the file holds that are not the books' (counted, said). */
  leftOut: string[];
}

/** One more account typed by `how`, as `typedBy` tallies them. */
export function tallyTyped(facts: AuditFacts, how: string): void {
  facts.typedBy.set(how, (facts.typedBy.get(how) ?? 0) + 1);
}

/** Facts before anything is read. */
export const newAuditFacts = (): AuditFacts => ({
  typedBy: new Map(),
  journals: 0,
  transactions: 0,
  lines: 0,
  zeroLines: 0,
  accounts: 0,
  openingBalances: 0,
  firstDay: undefined,
  contradictions: [],
  closingBalances: new Map(),
  leftOut: [],
});

/** An audit file's amount: a decimal point, and no grouping. */
export function auditAmount(
  text: string,
  fileLine: number,
  what: string,
  report: (problem: Problem) => void,
  decimalComma = false,
): Cents | undefined {
  try {
    return parseAmountText(text.trim(), { decimalComma }) ?? ZERO_CENTS;
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    report({ fileLine, message: `${what} ${error.message}` });
    return undefined;
  }
}

/** One line of an entry on `account` (no code: ''): debit-positive `cents`. */
export function auditLine(
  line: {
    fileLine: number;
    date: string;
    entry: string;
    description: string;
    memo: string;
  },
  account: Pick<AuditAccount, 'code' | 'name' | 'type' | 'kind'>,
  cents: Cents,
): LedgerLine {
  return {
    fileLine: line.fileLine,
    date: line.date,
    account: accountKey(account.code || undefined, account.name),
    accountCode: account.code || undefined,
    accountName: account.name,
    accountType: account.type,
    ...(account.type !== undefined && { typeInferred: true as const }),
    ...(account.type === undefined && account.kind !== undefined && { accountKind: account.kind }),
    debitCents: cents > 0 ? cents : ZERO_CENTS,
    creditCents: cents < 0 ? negateCents(cents) : ZERO_CENTS,
    description: line.description,
    memo: line.memo,
    classes: [],
    entry: line.entry,
  };
}

/** Debits less credits of `lines`. */
export const netOf = (lines: readonly LedgerLine[]): Cents =>
  lines.reduce<Cents>(
    (sum, line) => addCents(sum, subtractCents(line.debitCents, line.creditCents)),
    ZERO_CENTS,
  );

/**
 * A transaction's lines as one entry, when its date is a day and they balance; else it is
 * reported (naming it, its date field, its lines; `what` says what the file calls it) and there
 * is none.
 */
export function balancedEntry(
  transaction: { fileLine: number; entry: string; date: string; memo: string },
  lines: LedgerLine[],
  lastLine: number,
  report: (problem: Problem) => void,
  names: { what?: string; dateField: string },
): LedgerEntry | undefined {
  const what = names.what ?? 'transaction';
  if (!isCalendarDay(transaction.date)) {
    report({
      fileLine: transaction.fileLine,
      message: `${what} ${transaction.entry}: ${names.dateField} "${transaction.date}" is not a date (YYYY-MM-DD)`,
    });
    return undefined;
  }
  if (lines.length === 0) return undefined;
  const left = netOf(lines);
  if (left !== 0) {
    report({
      fileLine: transaction.fileLine,
      message: `${what} ${transaction.entry} (lines ${transaction.fileLine}-${lastLine}) does not balance: ${formatCents(left)} left over`,
    });
    return undefined;
  }
  return { ...transaction, lines };
}

/** What a reader's opening entry did, for the import to say. */
export interface OpeningFacts {
  /** Accounts whose opening balance is in the entry. */
  openingBalances: number;
  /** What `--offset-account` took of opening balances that do not net (debit-positive). */
  offsetTook?: Cents;
  /** The file line of the opening entry (its first account's). */
  openingLine?: number;
}

/**
 * The opening balances as one entry on `day`, what it did said in `facts`. Balances that do
 * not net to zero are a problem stating the difference, unless `offsetAccount` takes it (typed
 * Equity, so that `--create-missing-accounts` can make it).
 */
export function openingEntry(
  facts: OpeningFacts,
  accounts: Iterable<AuditAccount>,
  day: string,
  offsetAccount: string | undefined,
  report: (problem: Problem) => void,
): LedgerEntry | undefined {
  const entry = 'opening balances';
  const side = (fileLine: number) => ({
    fileLine,
    date: day,
    entry,
    description: 'Opening balance',
    memo: 'Opening balance',
  });
  const lines: LedgerLine[] = [];
  for (const account of accounts) {
    if (account.opening) lines.push(auditLine(side(account.fileLine), account, account.opening));
  }
  if (lines.length === 0) return undefined;
  const first = lines[0]!.fileLine;
  const left = netOf(lines);
  const balances = lines.length;
  if (left !== 0) {
    if (offsetAccount === undefined) {
      report({
        fileLine: first,
        message: `the opening balances do not net to zero: debits exceed credits by ${formatCents(left)}; pass --offset-account ACCOUNT to take the difference (made as Equity with --create-missing-accounts)`,
      });
      return undefined;
    }
    facts.offsetTook = negateCents(left);
    // Named as the user named it (by code or name), as every reader's offset side is.
    lines.push({
      ...auditLine(
        side(first),
        { code: '', name: offsetAccount, type: 'Equity' },
        facts.offsetTook,
      ),
      account: offsetAccount,
      accountCode: undefined,
      accountName: undefined,
    });
  }
  facts.openingBalances = balances;
  facts.openingLine = first;
  return { fileLine: first, entry, date: day, memo: 'Opening balances', lines };
}

/**
 * The accounts whose stated closing balance is not their opening balance and lines: the file
 * contradicting itself, said with both figures.
 */
export function contradictions(
  accounts: Iterable<AuditAccount>,
  movements: ReadonlyMap<string, Cents>,
): { fileLine: number; message: string }[] {
  const said: { fileLine: number; message: string }[] = [];
  for (const account of accounts) {
    if (account.closing === undefined) continue;
    const made = addCents(account.opening ?? ZERO_CENTS, movements.get(account.code) ?? ZERO_CENTS);
    if (made !== account.closing) {
      said.push({
        fileLine: account.fileLine,
        message: `account ${account.code} ${account.name}: the file states a closing balance of ${formatCents(account.closing)}, its opening balance and lines make ${formatCents(made)} (the file contradicts itself; its lines are imported)`,
      });
    }
  }
  return said;
}

/** A control figure as the file states it, with its line. */
export interface StatedFigure {
  text: string;
  line: number;
}

/** What the file is told of when its own control figures disagree with its lines. */
const disagree = (what: string, stated: string, made: string, fileLine: number): Problem => ({
  fileLine,
  message: `the file states ${what} ${stated}, its lines make ${made}: the file is cut or was changed`,
});

/**
 * A count the file states against what its lines make: when they differ it is said (in
 * `said`), not refused — money decides, through the totals. `transactions`, when given, is the
 * number of transactions, named when the count is that (a producer wrote it there).
 */
export function checkStatedCount(
  what: string,
  stated: StatedFigure | undefined,
  made: number,
  said: { fileLine: number; message: string }[],
  transactions?: number,
): void {
  if (stated === undefined || stated.text === String(made)) return;
  const why =
    transactions !== undefined && stated.text === String(transactions)
      ? ` (${stated.text} is its number of transactions)`
      : '';
  said.push({
    fileLine: stated.line,
    message: `the file states ${what} ${stated.text}, its lines make ${made}${why}: a count, said and not refused; its totals decide`,
  });
}

/** A total the file states against what its lines make: a problem when they differ. */
export function checkStatedTotal(
  what: string,
  stated: StatedFigure | undefined,
  made: Cents,
  report: (problem: Problem) => void,
): void {
  if (stated === undefined) return;
  const cents = auditAmount(stated.text, stated.line, what, report);
  if (cents !== undefined && cents !== made)
    report(disagree(what, formatCents(cents), formatCents(made), stated.line));
}

/** A tax amount a file rounds to whole units is still the VAT line's: a unit, in cents. */
const ONE_UNIT = 100;

/**
 * Audit files state a line's tax on the line it is the tax of (SAF-T's TaxInformation, XAF's
 * `vat`: the code and the tax amount, debit-positive where the file says its side); the line
 * that posts the VAT itself often carries none. Each stated amount's code goes to the uncoded
 * line of the entry of that size, and where no line is, the sum of the code's amounts (an
 * invoice of many lines and one VAT line of them all, as Exact and Unit4 Multivers write it):
 * first to the cent, then within a unit (Skatteetaten's own example states a TaxAmount of 40729
 * for a VAT line of 40,729.75), so a close amount of another code never takes the line.
 */
export function codeVatLines(
  lines: readonly LedgerLine[],
  taxes: readonly { code: string; cents: Cents }[],
): void {
  if (taxes.length === 0) return;
  const take = (code: string, cents: number, within: number): boolean => {
    let nearest: LedgerLine | undefined;
    let distance = Number.POSITIVE_INFINITY;
    for (const l of lines) {
      if (l.taxCode !== undefined) continue;
      const apart = Math.abs(absCents(subtractCents(l.debitCents, l.creditCents)) - cents);
      if (apart <= within && apart < distance) {
        nearest = l;
        distance = apart;
      }
    }
    if (nearest) nearest.taxCode = code;
    return nearest !== undefined;
  };
  for (const within of [0, ONE_UNIT]) {
    const left = new Map<string, { cents: number; amounts: number }>();
    for (const { code, cents } of taxes) {
      const sum = left.get(code) ?? { cents: 0, amounts: 0 };
      left.set(code, { cents: sum.cents + cents, amounts: sum.amounts + 1 });
    }
    for (const { code, cents } of taxes)
      if (take(code, Math.abs(cents), within)) {
        const sum = left.get(code)!;
        left.set(code, { cents: sum.cents - cents, amounts: sum.amounts - 1 });
      }
    for (const [code, { cents, amounts }] of left)
      if (amounts > 1) take(code, Math.abs(cents), within);
  }
}
