import type { Account, LedgerBasis } from '../../api/index.js';
import type { BooksApi } from '../../client/index.js';
import { addDays, calendarDaysIn, type CalendarDay } from '../../core/calendar.js';
import {
  addCents,
  amountToCents,
  answeredAmountToCents,
  negateCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { textPool } from '../../core/names.js';
import type { BankStatement } from '../../formats/statement.js';
import { unlessNotFound } from '../../client/index.js';
import {
  orderedStatements,
  reconcileStatements,
  type BookPosting,
  type ReconcileInput,
  type ReconcileResult,
} from './match.js';

/*
 * A bank or card account of the chart reconciled to its statements through the API, so against
 * any platform: its postings from the general ledger (every source: journal entries, bank
 * transactions, opening balances), its balance before the first statement and at the last one's
 * end, matched by match.ts.
 */

/** The account is not one a bank statement can be of (an income account, equity). */
export class NotABankAccount extends Error {
  override name = 'NotABankAccount';
}

export interface ReconcileRequest {
  account: Account;
  statements: readonly BankStatement[];
  days: number;
  basis: LedgerBasis;
  /** The workspace's time zone: the general ledger dates postings as instants. */
  timezone: string;
  /** The workspace: its bank transactions say which postings are lines the bank sent. */
  workspaceId?: string;
  /** Balances given where the statements state none (see match.ts). */
  given?: ReconcileInput['given'];
}

export interface AccountReconciliation extends ReconcileResult {
  account: Account;
  statements: number;
}

/**
 * The sign a bank states the account's balance in: an asset's (a current account) debit
 * balance is money the bank holds; a liability's (a card) credit balance is money owed, which
 * its statement shows negative. Both are the balance debit less credit.
 */
const bankSign = (account: Account): 1 | -1 => (account.class === 'Assets' ? 1 : -1);

export async function reconcileAccount(
  api: BooksApi,
  entityId: string,
  request: ReconcileRequest,
): Promise<AccountReconciliation> {
  const { account, days } = request;
  if (account.class !== 'Assets' && account.class !== 'Liabilities')
    throw new NotABankAccount(
      `account ${account.code} "${account.name}" is ${account.type}: a bank statement is of a bank or card account (Cash, Credit Cards, or another asset or liability)`,
    );
  const statements = orderedStatements(request.statements);
  const from = statements[0]!.from!;
  const to = statements.at(-1)!.to!;
  const start = addDays(from, -days);
  // The general ledger's balances are in the account's natural sign (a card's is positive when
  // owed): turned to the bank's.
  const natural = bankSign(account);
  const fromNatural = (amount: number): Cents => {
    const cents = answeredAmountToCents(amount);
    return natural === 1 ? cents : negateCents(cents);
  };
  const events = await api.reports.generalLedgerEvents(entityId, {
    startDate: start,
    endDate: to,
    ledgerBasis: request.basis,
    accountId: account.id,
  });
  let before = ZERO_CENTS;
  let closing: Cents | undefined;
  let mine = false;
  const postings: BookPosting[] = [];
  let beforeFrom = ZERO_CENTS;
  const dayOf = calendarDaysIn(request.timezone);
  const kept = textPool();
  for await (const event of events) {
    if (event.kind === 'account') {
      mine = event.account.accountId === account.id;
      if (mine) before = fromNatural(event.account.openingBalance);
    } else if (event.kind === 'closing') {
      if (mine) closing = fromNatural(event.closingBalance);
      mine = false;
    } else if (mine) {
      const { entry } = event;
      const debit = entry.debitAmount === null ? ZERO_CENTS : amountToCents(entry.debitAmount);
      const credit = entry.creditAmount === null ? ZERO_CENTS : amountToCents(entry.creditAmount);
      const posting: BookPosting = {
        entryId: entry.journalEntryId,
        date: dayOf(entry.date),
        amount: subtractCents(debit, credit),
        description: kept(entry.description),
        memo: kept(entry.memo),
        counterparty: entry.counterpartyName === null ? null : kept(entry.counterpartyName),
        sourceType: kept(entry.sourceType),
      };
      if (posting.date < from) beforeFrom = addCents(beforeFrom, posting.amount);
      postings.push(posting);
    }
  }
  const booksOpening = addCents(before, beforeFrom);
  const booksClosing = closing ?? booksOpening;
  const bankLines = await bankLinesOf(api, request, start, to);
  const result = reconcileStatements({
    statements,
    postings,
    booksOpening,
    booksClosing,
    days,
    ...(bankLines && { bankLines }),
    ...(request.given && { given: request.given }),
  });
  return { ...result, account, statements: statements.length };
}

/**
 * The postings that stand for lines the bank sent on this account (imported or fed), by the id
 * the general ledger gives them: a line's own, the other side's of a transfer it joined, the
 * journal entry a line was matched to. Undefined where the platform has no bank transactions
 * to tell (no sandbox control plane) or the account has no feed.
 */
async function bankLinesOf(
  api: BooksApi,
  request: ReconcileRequest,
  from: CalendarDay,
  to: CalendarDay,
): Promise<Set<string> | undefined> {
  if (request.workspaceId === undefined || !request.account.financialAccountId) return undefined;
  const lines = await unlessNotFound(
    api.sandbox.transactions(request.workspaceId, {
      accountId: request.account.financialAccountId,
      startDate: from,
      endDate: to,
    }),
  );
  if (lines === undefined) return undefined;
  const ids = new Set<string>();
  for (const line of lines) {
    if (line.status === 'excluded' || line.status === 'possible-duplicate') continue;
    ids.add(line.id);
    if (line.category?.kind === 'transfer' && line.category.transactionId)
      ids.add(line.category.transactionId);
    if (line.category?.kind === 'match') ids.add(line.category.entryId);
  }
  return ids;
}

/** The last day a set of statements reaches. */
export const reachOf = (statements: readonly BankStatement[]): CalendarDay | undefined =>
  orderedStatements(statements).at(-1)?.to ?? undefined;
