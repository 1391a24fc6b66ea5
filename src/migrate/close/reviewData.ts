import type { Account, LedgerBasis } from '../../api/index.js';
import { unlessNotFound, type BooksApi } from '../../client/index.js';
import { addDays, calendarDaysIn, type CalendarDay } from '../../core/calendar.js';
import {
  amountToCents,
  answeredAmountToCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { addMonths, type Period } from '../../core/periods.js';
import { sameAccount, type BankStatement } from '../../formats/statement.js';
import { reconcileAccount } from './reconcile.js';
import type { PeriodEntry, ReviewData, StatementFinding } from './review.js';

/*
 * What a close review looks at, read for one entity through the API: its chart and trial
 * balance at the period's end, four months of its profit and loss, the period's entries from
 * the general ledger (every source), entries dated after today, and — through the sandbox
 * control plane, where the platform has one — its bank-feed connections and the period's bank
 * transactions. With statements, each bank and card account is reconciled to its own.
 */

export interface ReviewRequest {
  entity: { id: string; bookkeepingStartDate: CalendarDay | null };
  workspace: { id: string; timezone: string };
  period: Period;
  today: CalendarDay;
  basis: LedgerBasis;
  /**
   * The statements given (`--statements DIR`), which account each bank account's are, and the
   * statement files `reconcile` reconciled (by fingerprint): whose a statement that names no
   * bank account is, and the balances given for one that states none.
   */
  statements?: {
    all: readonly BankStatement[];
    links: ReadonlyMap<string, string>;
    fingerprints?: ReadonlyMap<BankStatement, string>;
    reconciled?: Readonly<
      Record<
        string,
        { accountId: string; from: string; to: string; openingCents: number; closingCents: number }
      >
    >;
  };
  days: number;
}

/** Entries dated after today are looked for to the last day the calendar has (2062 for 2026 too). */
const LAST_DAY = '9999-12-31';

export async function readReviewData(api: BooksApi, request: ReviewRequest): Promise<ReviewData> {
  const { entity, period, basis } = request;
  const [chart, trial, results, connections, transactions, entries, future, taxReturn] =
    await Promise.all([
      api.accounts.all(entity.id),
      api.reports.trialBalance(entity.id, { ...period, ledgerBasis: basis }),
      api.reports.profitAndLoss(entity.id, {
        startDate: addMonths(period.startDate, -3),
        endDate: period.endDate,
        ledgerBasis: basis,
        groupBy: 'month',
      }),
      unlessNotFound(api.sandbox.bankFeedConnections(entity.id)),
      unlessNotFound(
        api.sandbox.transactions(request.workspace.id, {
          entityId: entity.id,
          startDate: period.startDate,
          endDate: period.endDate,
        }),
      ),
      ledgerEntries(api, entity.id, period, basis, request.workspace.timezone),
      ledgerEntries(
        api,
        entity.id,
        { startDate: addDays(request.today, 1), endDate: LAST_DAY },
        basis,
        request.workspace.timezone,
      ),
      // The period's VAT return where the entity keeps tax codes (a 404 where it keeps none).
      unlessNotFound(api.sandbox.taxReturn(entity.id, { ...period })),
    ]);
  const byCode = new Map(chart.map((a) => [a.code, a]));
  const balances = new Map<string, Cents>();
  for (const row of trial.report.rows) {
    const account = byCode.get(row.accountCode);
    if (account)
      balances.set(account.id, subtractCents(amountToCents(row.debit), amountToCents(row.credit)));
  }
  const months = new Map<string, Cents[]>();
  for (const section of results.report.sections) {
    for (const line of section.lines) {
      const account = byCode.get(line.accountCode);
      if (account)
        months.set(
          account.id,
          line.amountsByPeriod.map((amount) => answeredAmountToCents(amount)),
        );
    }
  }
  return {
    period,
    today: request.today,
    bookkeepingStartDate: entity.bookkeepingStartDate,
    chart,
    balances,
    months,
    connections,
    transactions,
    entries,
    ...(taxReturn && { taxReturn }),
    futureEntries: future.map((e) => ({
      id: e.id,
      date: e.date,
      memo: e.memo || e.lines.find((l) => l.description)?.description || '',
    })),
    statements: request.statements
      ? await statementFindings(
          api,
          request,
          chart,
          balances,
          new Set(entries.flatMap((e) => e.lines.map((l) => l.accountId))),
          request.statements,
        )
      : undefined,
  };
}

/** The entries of a range as the general ledger shows them, each with its lines. */
async function ledgerEntries(
  api: BooksApi,
  entityId: string,
  range: Period,
  basis: LedgerBasis,
  timezone: string,
): Promise<PeriodEntry[]> {
  const byId = new Map<string, PeriodEntry>();
  let accountId = '';
  const dayOf = calendarDaysIn(timezone);
  for await (const event of await api.reports.generalLedgerEvents(entityId, {
    ...range,
    ledgerBasis: basis,
  })) {
    if (event.kind === 'account') accountId = event.account.accountId;
    if (event.kind !== 'entry') continue;
    const { entry } = event;
    let found = byId.get(entry.journalEntryId);
    if (!found) {
      found = {
        id: entry.journalEntryId,
        date: dayOf(entry.date),
        sourceType: entry.sourceType,
        memo: entry.memo,
        lines: [],
      };
      byId.set(entry.journalEntryId, found);
    }
    found.lines.push({
      accountId,
      debit: entry.debitAmount === null ? ZERO_CENTS : amountToCents(entry.debitAmount),
      credit: entry.creditAmount === null ? ZERO_CENTS : amountToCents(entry.creditAmount),
      description: entry.description,
    });
  }
  return [...byId.values()];
}

/**
 * Each bank and card account reconciled to the statements its bank account's identifier is
 * linked to, those of the period (ending on or after its start, starting by its end); one with
 * a balance or a posting in the period and no statement is said.
 */
async function statementFindings(
  api: BooksApi,
  request: ReviewRequest,
  chart: readonly Account[],
  balances: ReadonlyMap<string, Cents>,
  /** Accounts with a posting in the period. */
  posted: ReadonlySet<string>,
  statements: NonNullable<ReviewRequest['statements']>,
): Promise<StatementFinding[]> {
  const findings: StatementFinding[] = [];
  const { period } = request;
  for (const account of chart) {
    if (account.type !== 'Cash' && account.type !== 'Credit Cards') continue;
    const linked = [...statements.links]
      .filter(([, id]) => id === account.id)
      .map(([identifier]) => identifier);
    const recordOf = (s: BankStatement) =>
      statements.reconciled?.[statements.fingerprints?.get(s) ?? ''];
    const own = statements.all.filter(
      (s) =>
        (s.account !== null
          ? linked.some((identifier) => sameAccount(identifier, s.account!))
          : recordOf(s)?.accountId === account.id) &&
        s.from !== null &&
        s.to !== null &&
        s.to >= period.startDate &&
        s.from <= period.endDate,
    );
    if (own.length === 0) {
      // An account with nothing in the period and nothing left has nothing to reconcile.
      const used =
        (balances.get(account.id) ?? ZERO_CENTS) !== 0 ||
        posted.has(account.id) ||
        linked.length > 0;
      if (used)
        findings.push({
          account,
          problem:
            linked.length === 0
              ? 'no statement is linked to it (books reconcile ACCOUNT STATEMENT links one)'
              : `no statement of ${linked.join(', ')} covers ${period.startDate} to ${period.endDate}`,
        });
      continue;
    }
    // Balances given when a statement that states none was reconciled.
    const ordered = [...own].sort((a, b) => a.from!.localeCompare(b.from!));
    const first = recordOf(ordered[0]!);
    const last = recordOf(ordered.at(-1)!);
    const reconciliation = await reconcileAccount(api, request.entity.id, {
      account,
      statements: own,
      days: request.days,
      basis: request.basis,
      timezone: request.workspace.timezone,
      workspaceId: request.workspace.id,
      given: {
        opening: first && (first.openingCents as Cents),
        closing: last && (last.closingCents as Cents),
      },
    });
    findings.push({ account, reconciliation });
  }
  return findings;
}
