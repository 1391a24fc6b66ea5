import type {
  BalanceSheet,
  CashFlow,
  GeneralLedger,
  GeneralLedgerQuery,
  LedgerBasis,
  ProfitAndLoss,
  ReportQuery,
  TrialBalance,
} from '../../api/index.js';
import { startOfDayIso } from '../../core/calendar.js';
import { periodsBetween, TooManyPeriodsError } from '../../core/periods.js';
import { invalid, notFound } from '../domain/errors.js';
import { balanceSheet } from '../domain/reports/balanceSheet.js';
import { cashFlow } from '../domain/reports/cashFlow.js';
import { generalLedger } from '../domain/reports/generalLedger.js';
import type { ReportAccount, ReportInput, ReportSpec } from '../domain/reports/ledgerData.js';
import { profitAndLoss } from '../domain/reports/profitAndLoss.js';
import { trialBalance } from '../domain/reports/trialBalance.js';
import type { Store } from '../store/index.js';
import { BASIS_CODE } from '../store/postings.js';
import type { EntityScope, EntityService } from './entities.js';

/** The five reports of an entity: reads from the store, computation in pure functions. */
export class ReportService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
  ) {}

  profitAndLoss(organizationId: string, entityId: string, query: ReportQuery): ProfitAndLoss {
    return profitAndLoss(...this.summaryInput(organizationId, entityId, query, 'periods'));
  }

  balanceSheet(organizationId: string, entityId: string, query: ReportQuery): BalanceSheet {
    return balanceSheet(...this.summaryInput(organizationId, entityId, query, 'days'));
  }

  cashFlow(organizationId: string, entityId: string, query: ReportQuery): CashFlow {
    return cashFlow(...this.summaryInput(organizationId, entityId, query, 'periods'));
  }

  trialBalance(organizationId: string, entityId: string, query: ReportQuery): TrialBalance {
    return trialBalance(...this.summaryInput(organizationId, entityId, query, 'periods'));
  }

  generalLedger(
    organizationId: string,
    entityId: string,
    query: GeneralLedgerQuery,
  ): GeneralLedger {
    if (query.groupBy !== undefined) throw invalid('groupBy is not accepted by the general ledger');
    const scope = this.entities.scope(organizationId, entityId);
    const ledgerBasis = this.basis(scope, query.ledgerBasis);
    checkRange(query.startDate, query.endDate);
    let accounts = this.chart(entityId);
    if (query.accountId !== undefined) {
      accounts = accounts.filter((a) => a.id === query.accountId);
      if (accounts.length === 0) throw notFound('account');
    }
    const basis = BASIS_CODE[ledgerBasis];
    const timezone = scope.workspace.timezone;
    return generalLedger(
      { entityId, startDate: query.startDate, endDate: query.endDate, ledgerBasis },
      {
        accounts,
        opening: this.store.reports.openingNet(scope.entitySeq, basis, query.startDate),
        postings: this.store.reports.ledgerPostings(
          scope.entitySeq,
          basis,
          query.startDate,
          query.endDate,
          query.accountId === undefined ? undefined : accounts[0]!.seq,
        ),
        timestampOf: (day) => startOfDayIso(day, timezone),
        listEvery: query.accountId !== undefined,
      },
    );
  }

  /**
   * `grain`: the balance sheet reads sums by day (its retained earnings split at fiscal-year
   * starts); the other reports need only each period's movements.
   */
  private summaryInput(
    organizationId: string,
    entityId: string,
    query: ReportQuery,
    grain: 'days' | 'periods',
  ): [ReportSpec, ReportInput] {
    const scope = this.entities.scope(organizationId, entityId);
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
    };
    const input: ReportInput = {
      accounts: this.chart(entityId),
      periods,
      days:
        grain === 'days'
          ? this.store.reports.dailySums(scope.entitySeq, BASIS_CODE[ledgerBasis], query.endDate)
          : this.store.reports.periodSums(
              scope.entitySeq,
              BASIS_CODE[ledgerBasis],
              periods.map((period) => period.startDate),
              query.endDate,
            ),
    };
    return [spec, input];
  }

  private chart(entityId: string): ReportAccount[] {
    return this.store.accounts
      .all(entityId)
      .map(({ seq, id, code, name, type, class: accountClass }) => ({
        seq,
        id,
        code,
        name,
        type,
        class: accountClass,
      }));
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
