import type {
  BalanceSheet,
  CashFlow,
  GeneralLedger,
  GeneralLedgerEntry,
  GeneralLedgerQuery,
  LedgerBasis,
  ProfitAndLoss,
  ReportQuery,
  TrialBalance,
} from '../../api/index.js';
import { startOfDayIso } from '../../core/calendar.js';
import { addCents, subtractCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { periodsBetween, TooManyPeriodsError } from '../../core/periods.js';
import { invalid, notFound } from '../domain/errors.js';
import { balanceSheet } from '../domain/reports/balanceSheet.js';
import { cashFlow } from '../domain/reports/cashFlow.js';
import {
  generalLedger,
  ledgerAccount,
  type LedgerAccountHead,
} from '../domain/reports/generalLedger.js';
import type { ReportAccount, ReportInput, ReportSpec } from '../domain/reports/ledgerData.js';
import { profitAndLoss } from '../domain/reports/profitAndLoss.js';
import { trialBalance, trialBalanceSplits } from '../domain/reports/trialBalance.js';
import type { Store } from '../store/index.js';
import { BASIS_CODE } from '../store/postings.js';
import type { EntityScope, EntityService } from './entities.js';

/** The general ledger as it is written, account by account: parts in the report's order. */
export type GeneralLedgerPart =
  | { kind: 'account'; head: LedgerAccountHead }
  | { kind: 'entries'; entries: GeneralLedgerEntry[] }
  | { kind: 'closing'; closingBalance: number };

/** What a general ledger covers: its entity, range and basis. */
export interface GeneralLedgerSpec {
  entityId: string;
  startDate: string;
  endDate: string;
  ledgerBasis: LedgerBasis;
}

/** How many postings the streamed general ledger reads at once, between turns of others. */
const LEDGER_CHUNK = 2000;

/** The five reports of an entity: reads from the store, computation in pure functions. */
export class ReportService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
  ) {}

  async profitAndLoss(
    organizationId: string,
    entityId: string,
    query: ReportQuery,
  ): Promise<ProfitAndLoss> {
    return profitAndLoss(...(await this.summaryInput(organizationId, entityId, query, 'periods')));
  }

  async balanceSheet(
    organizationId: string,
    entityId: string,
    query: ReportQuery,
  ): Promise<BalanceSheet> {
    return balanceSheet(...(await this.summaryInput(organizationId, entityId, query, 'days')));
  }

  async cashFlow(organizationId: string, entityId: string, query: ReportQuery): Promise<CashFlow> {
    return cashFlow(...(await this.summaryInput(organizationId, entityId, query, 'periods')));
  }

  async trialBalance(
    organizationId: string,
    entityId: string,
    query: ReportQuery,
  ): Promise<TrialBalance> {
    return trialBalance(...(await this.summaryInput(organizationId, entityId, query, 'fiscal')));
  }

  /**
   * Each account's balance over all its days (debits less credits, cumulative from the first
   * posting, income and expenses too), by code: what a copy of the books is checked by, account
   * by account, whatever fiscal year the trial balance folds earlier results into.
   */
  async balancesThrough(
    organizationId: string,
    entityId: string,
    ledgerBasis: LedgerBasis,
    through: string,
  ): Promise<Map<string, Cents>> {
    const scope = await this.entities.scope(organizationId, entityId);
    const codeOf = new Map((await this.chart(entityId)).map((a) => [a.seq, a.code]));
    const balances = new Map<string, Cents>();
    for (const row of await this.store.reports.dailySums(
      scope.entitySeq,
      BASIS_CODE[this.basis(scope, ledgerBasis)],
      through,
    )) {
      const code = codeOf.get(row.accountSeq) ?? String(row.accountSeq);
      balances.set(
        code,
        addCents(balances.get(code) ?? ZERO_CENTS, subtractCents(row.debitCents, row.creditCents)),
      );
    }
    return balances;
  }

  /**
   * The general ledger whole, from one read of the range's postings by day: the route streams it
   * instead (`generalLedgerStream`); this form is what test/e2e/streaming.test.ts checks the
   * streamed one against.
   */
  async generalLedger(
    organizationId: string,
    entityId: string,
    query: GeneralLedgerQuery,
  ): Promise<GeneralLedger> {
    const { spec, accounts, scope, basis, timestampOf } = await this.ledgerScope(
      organizationId,
      entityId,
      query,
    );
    return generalLedger(spec, {
      accounts,
      opening: await this.store.reports.openingNet(scope.entitySeq, basis, query.startDate),
      postings: await this.store.reports.ledgerPostings(
        scope.entitySeq,
        basis,
        query.startDate,
        query.endDate,
        query.accountId === undefined ? undefined : accounts[0]!.seq,
      ),
      timestampOf,
      listEvery: query.accountId !== undefined,
    });
  }

  /**
   * The general ledger of any size, as it is written: the request is checked at once (so that a
   * bad one is a 4xx before anything is sent), then `parts` reads each account's postings in
   * chunks of LEDGER_CHUNK, giving the event loop a turn between chunks, so that other requests
   * are answered meanwhile and memory holds one chunk, never the report. No read is held open
   * between chunks: a posting written while the ledger streams is in it when its account has not
   * been written yet; each account's running and closing balances are those of its entries shown.
   */
  async generalLedgerStream(
    organizationId: string,
    entityId: string,
    query: GeneralLedgerQuery,
  ): Promise<{ spec: GeneralLedgerSpec; parts: AsyncGenerator<GeneralLedgerPart> }> {
    const { spec, accounts, scope, basis, timestampOf } = await this.ledgerScope(
      organizationId,
      entityId,
      query,
    );
    const reports = this.store.reports;
    const listEvery = query.accountId !== undefined;
    async function* parts(): AsyncGenerator<GeneralLedgerPart> {
      const opening = await reports.openingNet(scope.entitySeq, basis, query.startDate);
      const active = await reports.activeAccounts(
        scope.entitySeq,
        basis,
        query.startDate,
        query.endDate,
      );
      for (const account of accounts) {
        const openingNet = opening.get(account.seq) ?? ZERO_CENTS;
        if (!listEvery && !active.has(account.seq) && openingNet === ZERO_CENTS) continue;
        const ledger = ledgerAccount(account, openingNet, timestampOf);
        yield { kind: 'account', head: ledger.head };
        let after = { day: query.startDate, id: 0 };
        for (;;) {
          const chunk = await reports.ledgerChunk(
            scope.entitySeq,
            basis,
            account.seq,
            after,
            query.endDate,
            LEDGER_CHUNK,
          );
          if (chunk.length > 0) yield { kind: 'entries', entries: chunk.map(ledger.entry) };
          await new Promise((resolve) => setImmediate(resolve));
          if (chunk.length < LEDGER_CHUNK) break;
          const last = chunk[chunk.length - 1]!;
          after = { day: last.day, id: last.id };
        }
        yield { kind: 'closing', closingBalance: ledger.closingBalance() };
      }
    }
    return { spec, parts: parts() };
  }

  /** What both forms of the general ledger check and read first. */
  private async ledgerScope(organizationId: string, entityId: string, query: GeneralLedgerQuery) {
    if (query.groupBy !== undefined) throw invalid('groupBy is not accepted by the general ledger');
    const scope = await this.entities.scope(organizationId, entityId);
    const ledgerBasis = this.basis(scope, query.ledgerBasis);
    checkRange(query.startDate, query.endDate);
    let accounts = await this.chart(entityId);
    if (query.accountId !== undefined) {
      accounts = accounts.filter((a) => a.id === query.accountId);
      if (accounts.length === 0) throw notFound('account');
    }
    const timezone = scope.workspace.timezone;
    return {
      spec: { entityId, startDate: query.startDate, endDate: query.endDate, ledgerBasis },
      accounts,
      scope,
      basis: BASIS_CODE[ledgerBasis],
      timestampOf: (day: string) => startOfDayIso(day, timezone),
    };
  }

  /**
   * `grain`: the balance sheet reads sums by day (its retained earnings split at fiscal-year
   * starts); the trial balance reads sums split at each period's start and at the start of the
   * fiscal year of each period's end; the other reports need only each period's movements.
   */
  private async summaryInput(
    organizationId: string,
    entityId: string,
    query: ReportQuery,
    grain: 'days' | 'periods' | 'fiscal',
  ): Promise<[ReportSpec, ReportInput]> {
    const scope = await this.entities.scope(organizationId, entityId);
    const ledgerBasis = this.basis(scope, query.ledgerBasis);
    checkRange(query.startDate, query.endDate);
    const groupBy = query.groupBy ?? 'total';
    let periods;
    try {
      periods = periodsBetween(query.startDate, query.endDate, groupBy);
    } catch (error) {
      if (error instanceof TooManyPeriodsError)
        throw invalid(`groupBy ${groupBy}: ${error.message}`);
      throw error;
    }
    const spec: ReportSpec = {
      entityId,
      startDate: query.startDate,
      endDate: query.endDate,
      ledgerBasis,
      groupBy,
      fiscalYearStart: scope.entity.fiscalYearStart,
    };
    const input: ReportInput = {
      accounts: await this.chart(entityId),
      periods,
      days:
        grain === 'days'
          ? await this.store.reports.dailySums(
              scope.entitySeq,
              BASIS_CODE[ledgerBasis],
              query.endDate,
            )
          : await this.store.reports.periodSums(
              scope.entitySeq,
              BASIS_CODE[ledgerBasis],
              grain === 'fiscal'
                ? trialBalanceSplits(periods, spec.fiscalYearStart)
                : periods.map((period) => period.startDate),
              query.endDate,
            ),
    };
    return [spec, input];
  }

  private async chart(entityId: string): Promise<ReportAccount[]> {
    return (await this.store.accounts.all(entityId)).map(
      ({ seq, id, code, name, type, class: accountClass }) => ({
        seq,
        id,
        code,
        name,
        type,
        class: accountClass,
      }),
    );
  }

  /** Reading the accrual ledger requires it to be open. */
  private basis(scope: EntityScope, basis: LedgerBasis | undefined): LedgerBasis {
    const ledgerBasis = basis ?? 'cash';
    if (ledgerBasis === 'accrual' && !scope.entity.accrualLedgerOpen) {
      throw invalid('ledgerBasis: the accrual ledger of this entity is not open');
    }
    return ledgerBasis;
  }
}

function checkRange(startDate: string, endDate: string): void {
  if (startDate > endDate) throw invalid('startDate must not be after endDate');
}
