import type {
  Account,
  AccountType,
  BankFeedConnection,
  BankTransaction,
  TaxReturn,
} from '../../api/index.js';
import type { CalendarDay } from '../../core/calendar.js';
import {
  absCents,
  addCents,
  answeredAmountToCents,
  formatCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { alikeTexts } from '../../core/duplicates.js';
import { nameKey } from '../../core/names.js';
import { namedPeriod } from '../../core/periods.js';
import type { AccountReconciliation } from './reconcile.js';

/*
 * The checks a firm runs on each client's books before it closes a month, as pure functions of
 * what the platform reports (reviewData.ts reads it). Each check says pass, fail, warn or
 * skipped (and why), how many things it found and which, and a hint of what to do; an entity
 * is ready to close when no check fails.
 */

export const CHECK_IDS = [
  'bank-feeds',
  'uncategorized',
  'suspense',
  'reconciled',
  'negative-cash',
  'wrong-side',
  'duplicates',
  'future-dated',
  'flux',
  'tax',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skipped';

export interface Check {
  id: CheckId;
  status: CheckStatus;
  count: number;
  /** What to look at, each in a line of its own. */
  items: string[];
  hint: string;
}

/** What a firm sets for its reviews (`books config set`): suspense accounts, flux thresholds. */
export interface ReviewSettings {
  /** Names of accounts that hold only what is not known yet (compared trimmed, in any case). */
  suspenseAccounts: readonly string[];
  /** A month moves too much past this share (in percent) of the average of the three before it… */
  fluxPercent: number;
  /** …and past this amount. */
  fluxAmount: Cents;
}

export const DEFAULT_SUSPENSE_ACCOUNTS = [
  'Uncategorized Income',
  'Uncategorized Expense',
  'Uncategorized Asset',
  'Suspense',
  'Ask My Accountant',
  'Opening Balance Equity',
];
const OPENING_BALANCE_EQUITY = 'opening balance equity';

/** A journal entry, bank transaction or opening balance of the period, as the ledger shows it. */
export interface PeriodEntry {
  id: string;
  date: CalendarDay;
  sourceType: string;
  memo: string;
  lines: { accountId: string; debit: Cents; credit: Cents; description: string }[];
}

/** Each bank or card account's reconciliation to the statements found for it. */
export type StatementFinding =
  | { account: Account; reconciliation: AccountReconciliation }
  | { account: Account; problem: string };

export interface ReviewData {
  period: { startDate: CalendarDay; endDate: CalendarDay };
  today: CalendarDay;
  bookkeepingStartDate: CalendarDay | null;
  chart: readonly Account[];
  /** Each account's balance at the period's end, debit less credit, by account id. */
  balances: ReadonlyMap<string, Cents>;
  /** Each income and expense account's movement in each of the four months to the period's end. */
  months: ReadonlyMap<string, readonly Cents[]>;
  /** Undefined: the platform has no sandbox control plane to tell them. */
  connections: readonly BankFeedConnection[] | undefined;
  transactions: readonly BankTransaction[] | undefined;
  entries: readonly PeriodEntry[];
  futureEntries: readonly { id: string; date: CalendarDay; memo: string }[];
  /** Undefined: no `--statements` directory was given. */
  statements: readonly StatementFinding[] | undefined;
  /** Statements found whose bank account is linked to none of the entity's accounts. */
  unlinkedStatements?: readonly string[];
  /**
   * The period's VAT return from the books; undefined: the entity keeps no tax codes (not
   * registered for VAT, or a platform without them).
   */
  taxReturn?: TaxReturn;
}

const ITEMS_KEPT = 50;
const PERCENT = 100;

function check(id: CheckId, failing: 'fail' | 'warn', items: string[], hint: string): Check {
  return {
    id,
    status: items.length === 0 ? 'pass' : failing,
    count: items.length,
    items: items.slice(0, ITEMS_KEPT),
    hint,
  };
}

const skipped = (id: CheckId, why: string): Check => ({
  id,
  status: 'skipped',
  count: 0,
  items: [],
  hint: why,
});

const label = (account: Pick<Account, 'code' | 'name'>) => `${account.code} ${account.name}`;

/** Sides an account of each type should not stand on: receivables in credit, payables in debit… */
const WRONG_SIDE: Partial<Record<AccountType, 'debit' | 'credit'>> = {
  'Accounts Receivable': 'credit',
  Inventory: 'credit',
  'Prepaid Expenses': 'credit',
  'Accounts Payable': 'debit',
  'Credit Cards': 'debit',
  'Payroll Liabilities': 'debit',
  'Short-Term Loans': 'debit',
  'Long-Term Loans': 'debit',
  Income: 'debit',
  'Other Income': 'debit',
  COGS: 'credit',
  'Operating Expenses': 'credit',
  'Other Expenses': 'credit',
  'Tax Expenses': 'credit',
};

/** Every check of the entity, in the order of CHECK_IDS. */
export function reviewChecks(data: ReviewData, settings: ReviewSettings): Check[] {
  return [
    bankFeeds(data),
    uncategorized(data),
    suspense(data, settings),
    reconciled(data),
    negativeCash(data),
    wrongSide(data),
    duplicates(data),
    futureDated(data),
    flux(data, settings),
    taxCheck(data),
  ];
}

/**
 * The period's VAT: its return ties to the VAT accounts (else each posting that keeps it from
 * tying fails the close), and every income and expense line carries a code (else a warning).
 */
function taxCheck(data: ReviewData): Check {
  const taxReturn = data.taxReturn;
  if (!taxReturn)
    return skipped('tax', 'the entity is not registered for VAT (books tax setup registers it)');
  const line = (p: TaxReturn['uncoded'][number]) =>
    `${p.date} ${p.accountCode} ${p.accountName} "${p.description}" (${p.journalEntryId})`;
  if (!taxReturn.ties)
    return check(
      'tax',
      'fail',
      [
        ...(taxReturn.vatAccountsMovement === taxReturn.declaredVat
          ? []
          : [
              `the VAT accounts moved ${taxReturn.vatAccountsMovement.toFixed(2)}, the coded postings declare ${taxReturn.declaredVat.toFixed(2)}`,
            ]),
        ...taxReturn.problems.map((p) => `${line(p)}: ${p.message}`),
      ],
      'code each VAT posting (or fix its amount) so the return ties: books tax return --period … names them',
    );
  return check(
    'tax',
    'warn',
    taxReturn.uncoded.map((p) => `${line(p)}: no tax code`),
    'an income or expense line without a tax code is in no box of the return: give it its code',
  );
}

/** Ready to close: no check fails. */
export const isReady = (checks: readonly Check[]) => checks.every((c) => c.status !== 'fail');

function bankFeeds(data: ReviewData): Check {
  if (data.connections === undefined || data.transactions === undefined)
    return skipped(
      'bank-feeds',
      'the platform has no sandbox control plane to list bank-feed connections',
    );
  const active = new Set(data.transactions.map((t) => t.financialAccountId));
  const items: string[] = [];
  for (const connection of data.connections) {
    const accounts = connection.financialAccounts.map((f) => f.name).join(', ');
    if (connection.status === 'broken') items.push(`${connection.bankName} (${accounts}): broken`);
    // Silent: connected before the period began, and none of its accounts brought anything in
    // it (a connection made since has not had the month to bring any).
    else if (
      connection.createdAt.slice(0, 10) < data.period.startDate &&
      !connection.financialAccounts.some((f) => active.has(f.id))
    )
      items.push(
        `${connection.bankName} (${accounts}): silent, no transaction from ${data.period.startDate} to ${data.period.endDate}`,
      );
  }
  return check(
    'bank-feeds',
    'fail',
    items,
    'reconnect the bank (books sandbox feed reconnect), or ask the client to',
  );
}

function uncategorized(data: ReviewData): Check {
  if (data.transactions === undefined)
    return skipped(
      'uncategorized',
      'the platform has no sandbox control plane to list bank transactions',
    );
  const items = data.transactions
    .filter((t) => t.status === 'uncategorized')
    .map(
      (t) => `${t.date} ${formatCents(answeredAmountToCents(t.amount))} ${t.description} (${t.id})`,
    );
  return check(
    'uncategorized',
    'fail',
    items,
    'decide them: books transactions review at a terminal, books transactions categorize (--auto takes the confident suggestions), or a rule (books rule create, then books rule apply)',
  );
}

function suspense(data: ReviewData, settings: ReviewSettings): Check {
  const names = new Set(settings.suspenseAccounts.map(nameKey));
  // Opening Balance Equity holds the opening balances until they are placed: in the books'
  // first month, not yet a fault.
  const firstMonth =
    data.bookkeepingStartDate !== null &&
    data.period.startDate <= namedPeriod(data.bookkeepingStartDate.slice(0, 7))!.endDate;
  const items: string[] = [];
  for (const account of data.chart) {
    const key = nameKey(account.name);
    if (!names.has(key)) continue;
    if (key === OPENING_BALANCE_EQUITY && firstMonth) continue;
    const balance = data.balances.get(account.id) ?? ZERO_CENTS;
    if (balance !== 0) items.push(`${label(account)}: ${sideOf(balance)}`);
  }
  return check(
    'suspense',
    'fail',
    items,
    'move each balance to the account it belongs to (books je create)',
  );
}

/** `1,234.00 debit`, `56.00 credit`. */
const sideOf = (balance: Cents) =>
  `${formatCents(absCents(balance))} ${balance > 0 ? 'debit' : 'credit'}`;

function reconciled(data: ReviewData): Check {
  if (data.statements === undefined)
    return skipped(
      'reconciled',
      'no --statements directory: the bank and card accounts were not reconciled',
    );
  const items: string[] = [];
  for (const finding of data.statements) {
    if ('problem' in finding) {
      items.push(`${label(finding.account)}: ${finding.problem}`);
      continue;
    }
    const { reconciliation: r } = finding;
    if (r.to < data.period.endDate)
      items.push(
        `${label(finding.account)}: the statements reach ${r.to}, not ${data.period.endDate}`,
      );
    else if (!r.reconciled)
      items.push(
        `${label(finding.account)}: ${[
          r.unproven.length > 0 &&
            'its statement states no balance (books reconcile ACCOUNT FILE --closing-balance AMOUNT gives it)',
          r.missingInBooks.length > 0 &&
            `${r.missingInBooks.length} statement ${r.missingInBooks.length === 1 ? 'entry' : 'entries'} missing in the books`,
          r.sentNotOnStatement.length > 0 &&
            `${r.sentNotOnStatement.length} ${r.sentNotOnStatement.length === 1 ? 'line' : 'lines'} the bank sent not on its statement (a duplicate, or another statement's)`,
          r.unproven.length === 0 &&
            r.difference !== 0 &&
            `a difference of ${formatCents(r.difference)}`,
        ]
          .filter(Boolean)
          .join(', ')}`,
      );
  }
  for (const unlinked of data.unlinkedStatements ?? []) items.push(unlinked);
  return check(
    'reconciled',
    'fail',
    items,
    'books reconcile ACCOUNT STATEMENT... shows what differs',
  );
}

function negativeCash(data: ReviewData): Check {
  const items = data.chart
    .filter((a) => a.type === 'Cash' && (data.balances.get(a.id) ?? ZERO_CENTS) < 0)
    .map((a) => `${label(a)}: ${formatCents(data.balances.get(a.id)!)} at ${data.period.endDate}`);
  return check('negative-cash', 'warn', items, 'an overdraft, or a deposit not yet in the books');
}

function wrongSide(data: ReviewData): Check {
  const items: string[] = [];
  for (const account of data.chart) {
    const wrong = WRONG_SIDE[account.type];
    const balance = data.balances.get(account.id) ?? ZERO_CENTS;
    if (wrong === undefined || balance === 0) continue;
    if ((wrong === 'debit') === balance > 0)
      items.push(`${label(account)} (${account.type}): ${sideOf(balance)}`);
  }
  return check('wrong-side', 'warn', items, 'a payment posted twice, or to the wrong account');
}

/**
 * Entries in the books twice: bank lines held as possible duplicates (not posted until a person
 * says: the check fails); pairs of bank lines of one account on one day, of one amount, their
 * texts alike, whatever each was categorized to (one a rule took, its twin waiting); and
 * journal entries alike in day, lines and text.
 */
function duplicates(data: ReviewData): Check {
  const items: string[] = [];
  const held: string[] = [];
  const bankLines = new Map<string, BankTransaction[]>();
  for (const t of data.transactions ?? []) {
    if (t.status === 'possible-duplicate') {
      held.push(
        `${t.date} ${formatCents(answeredAmountToCents(t.amount))} ${t.description} (${t.id}): held as a possible duplicate${t.duplicateOf ? ` of ${t.duplicateOf.date} ${t.duplicateOf.description} (${t.duplicateOf.id})` : ''}`,
      );
      continue;
    }
    if (t.status === 'excluded') continue;
    const key = `${t.financialAccountId}|${t.date}|${t.amount}`;
    bankLines.set(key, [...(bankLines.get(key) ?? []), t]);
  }
  const bankIds = new Set<string>();
  for (const same of bankLines.values()) {
    if (same.length < 2) continue;
    const paired = new Set<BankTransaction>();
    for (const [i, a] of same.entries())
      for (const b of same.slice(i + 1))
        if (alikeTexts(a.description, b.description)) {
          paired.add(a);
          paired.add(b);
        }
    if (paired.size < 2) continue;
    const lines = [...paired];
    for (const t of lines) bankIds.add(t.id);
    items.push(
      `${lines[0]!.date} ${formatCents(answeredAmountToCents(lines[0]!.amount))} ${lines.map((t) => t.description).join(' / ')} on ${lines[0]!.bankAccount.code} ${lines[0]!.bankAccount.name} ×${lines.length} (${lines.map((t) => t.id).join(', ')})`,
    );
  }
  const seen = new Map<string, PeriodEntry[]>();
  for (const entry of data.entries) {
    // A bank line's own posting is compared as a bank line (above).
    if (bankIds.has(entry.id) || (data.transactions && entry.sourceType === 'transaction'))
      continue;
    const lines = [...entry.lines]
      .map((l) => `${l.accountId}:${l.debit}:${l.credit}`)
      .sort()
      .join('|');
    const text = nameKey(entry.memo || entry.lines.map((l) => l.description).find(Boolean) || '');
    const key = `${entry.date}|${lines}|${text}`;
    const alike = seen.get(key) ?? [];
    alike.push(entry);
    seen.set(key, alike);
  }
  for (const alike of seen.values()) {
    if (alike.length < 2) continue;
    const first = alike[0]!;
    let amount = ZERO_CENTS;
    for (const line of first.lines) amount = addCents(amount, line.debit);
    items.push(
      `${first.date} ${formatCents(amount)} ${first.memo || first.lines.find((l) => l.description)?.description || ''} ×${alike.length} (${alike.map((e) => e.id).join(', ')})`,
    );
  }
  const all = [...held, ...items];
  return {
    id: 'duplicates',
    status: held.length > 0 ? 'fail' : all.length > 0 ? 'warn' : 'pass',
    count: all.length,
    items: all.slice(0, ITEMS_KEPT),
    hint:
      held.length > 0
        ? 'a held line is in the books only when you say: books transactions categorize ID --not-duplicate, or --exclude; of a pair posted twice, exclude one (books transactions categorize ID --exclude) or delete the entry (books je delete ID)'
        : 'if one is a copy, exclude the bank line (books transactions categorize ID --exclude) or delete the entry (books je delete ID)',
  };
}

function futureDated(data: ReviewData): Check {
  const items = data.futureEntries.map((e) => `${e.date} ${e.memo} (${e.id})`);
  return check(
    'future-dated',
    'warn',
    items,
    `entries dated after ${data.today}: check their dates`,
  );
}

function flux(data: ReviewData, settings: ReviewSettings): Check {
  const items: string[] = [];
  for (const account of data.chart) {
    const months = data.months.get(account.id);
    if (!months || months.length < 4) continue;
    const [a, b, c, current] = months as [Cents, Cents, Cents, Cents];
    // The average of the three months before, to the cent (rounded half away from zero).
    const sum = addCents(addCents(a, b), c);
    const average = (Math.sign(sum) * Math.round(Math.abs(sum) / 3)) as Cents;
    const moved = subtractCents(current, average);
    const size = absCents(moved);
    if (size <= settings.fluxAmount) continue;
    if (average !== 0 && size * PERCENT <= Math.abs(average) * settings.fluxPercent) continue;
    items.push(
      `${label(account)}: ${formatCents(current)} in the month against an average of ${formatCents(average)} (${moved > 0 ? '+' : ''}${formatCents(moved)})`,
    );
  }
  return check(
    'flux',
    'warn',
    items,
    `income and expense accounts that moved more than ${settings.fluxPercent}% and ${formatCents(settings.fluxAmount)} from their three-month average: books report gl --account …`,
  );
}
