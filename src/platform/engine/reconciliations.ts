import { newId } from './ids.js';
import type {
  CreateReconciliationBody,
  ListReconciliationsQuery,
  Reconciliation,
} from '../../api/index.js';
import { amountToCents, centsToAmount, InvalidAmountError } from '../../core/money.js';
import { invalid } from '../domain/errors.js';
import type { ReconciliationRecord } from '../store/reconciliations.js';
import type { Store } from '../store/index.js';
import type { EntityService } from './entities.js';

const present = (record: ReconciliationRecord): Reconciliation => ({
  id: record.id,
  entityId: record.entityId,
  accountId: record.accountId,
  startDate: record.startDate,
  endDate: record.endDate,
  openingBalance: centsToAmount(record.openingCents),
  closingBalance: centsToAmount(record.closingCents),
  entries: record.entries,
  createdAt: record.createdAt,
});

/** A signed amount (a card's owed balance is negative) in cents, or a 400 naming the field. */
function signedCents(amount: number, field: string) {
  try {
    const cents = amountToCents(Math.abs(amount));
    return amount < 0 ? (-cents as typeof cents) : cents;
  } catch (error) {
    if (error instanceof InvalidAmountError) throw invalid(`${field} ${error.message}`);
    throw error;
  }
}

/**
 * Bank and card accounts reconciled to their statements (sandbox control plane): recorded when
 * an account reconciles, read by the suggestions (an entry the bank cleared is no match for a
 * new bank line, nor is one dated before the last reconciled statement's end).
 */
export class ReconciliationService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
  ) {}

  async create(
    organizationId: string,
    entityId: string,
    body: CreateReconciliationBody,
  ): Promise<Reconciliation> {
    await this.entities.get(organizationId, entityId);
    if (body.startDate > body.endDate) throw invalid('startDate must not be after endDate');
    const account = await this.store.accounts.find(entityId, body.accountId);
    if (!account) throw invalid(`accountId ${body.accountId} is not an account of the entity`);
    if (account.class !== 'Assets' && account.class !== 'Liabilities')
      throw invalid(
        `accountId: account ${account.code} "${account.name}" is ${account.type}: a statement is of a bank or card account`,
      );
    const record: ReconciliationRecord = {
      id: newId(),
      entityId,
      accountId: account.id,
      startDate: body.startDate,
      endDate: body.endDate,
      openingCents: signedCents(body.openingBalance, 'openingBalance'),
      closingCents: signedCents(body.closingBalance, 'closingBalance'),
      entries: new Set(body.entryIds).size,
      createdAt: new Date().toISOString(),
    };
    await this.store.transaction(() => this.store.reconciliations.insert(record, body.entryIds));
    return present(record);
  }

  async list(
    organizationId: string,
    entityId: string,
    query: ListReconciliationsQuery,
  ): Promise<Reconciliation[]> {
    await this.entities.get(organizationId, entityId);
    return (await this.store.reconciliations.list(entityId, query.accountId)).map(present);
  }
}
