import { newId } from './ids.js';
import type {
  BankFeedConnection,
  BankTransaction,
  BreakConnectionBody,
  ConnectedFinancialAccount,
  FeedConnectionDisconnected,
  WebhookEventType,
  CreateBankFeedConnectionBody,
  LedgerBasis,
  ListQuery,
  ListTransactionsQuery,
  PushTransactionsBody,
} from '../../api/index.js';
import { LEDGER_BASES } from '../../api/index.js';
import {
  absCents,
  amountToCents,
  centsToAmount,
  InvalidAmountError,
  negateCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { isInClosedPeriod } from '../domain/accounts.js';
import { categorize, UNCATEGORIZED, type Categorization } from '../domain/categorization.js';
import { conflict, invalid, notFound } from '../domain/errors.js';
import { requireName } from '../domain/names.js';
import { notifiesDisconnection } from '../domain/webhooks.js';
import type {
  BankTransactionRecord,
  ConnectionRecord,
  FinancialAccountRecord,
} from '../store/bankFeeds.js';
import type { Store } from '../store/index.js';
import { SOURCE_KIND } from '../store/postings.js';
import type { AccountService } from './accounts.js';
import type { EntityService } from './entities.js';
import { listOf, pageOf } from './pagination.js';
import type { WorkspaceService } from './workspaces.js';

/** Bank-feed connections (sandbox control plane). */
export class BankFeedService {
  /** Whether categorization waits for the entity (its accounting migration is open). */
  categorizationPaused: (entityId: string) => Promise<boolean> = async () => false;
  /** Puts an event in the webhook outbox (inside the transaction that made it happen). */
  publish: (
    organizationId: string,
    event: WebhookEventType,
    payload: FeedConnectionDisconnected,
    occurredAtMs: number,
  ) => Promise<void> = async () => {};

  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
    private readonly accounts: AccountService,
    private readonly workspaces: WorkspaceService,
  ) {}

  /**
   * Connects a bank: each new financial account gets a chart account (`Cash` for a bank,
   * `Credit Cards` for a card) linked by `financialAccountId`; an existing financial account
   * of the entity is covered again (a second connection, e.g. a direct one).
   */
  async connect(
    organizationId: string,
    entityId: string,
    body: CreateBankFeedConnectionBody,
  ): Promise<BankFeedConnection> {
    await this.entities.get(organizationId, entityId);
    const bankName = requireName(body.bankName, 'bankName');
    const connection: ConnectionRecord = {
      id: newId(),
      entityId,
      bankName,
      status: 'syncing',
      errorCode: null,
      direct: body.direct ?? false,
      createdByIntegration: body.createdByIntegration ?? true,
      createdAt: new Date().toISOString(),
    };
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      await this.store.bankFeeds.insertConnectionRecord(connection);
      for (const [index, requested] of body.accounts.entries()) {
        let financialAccount: ConnectedFinancialAccount | undefined;
        if ('financialAccountId' in requested) {
          financialAccount = await this.store.bankFeeds.financialAccount(
            entityId,
            requested.financialAccountId,
          );
          if (!financialAccount) {
            throw invalid(
              `accounts[${index}].financialAccountId must name a financial account of the entity`,
            );
          }
        } else {
          const id = newId();
          const name = requireName(requested.name, `accounts[${index}].name`);
          const chartAccount = await this.accounts.createLinked(
            entityId,
            name,
            requested.kind === 'bank' ? 'Cash' : 'Credit Cards',
            id,
          );
          financialAccount = { id, name, kind: requested.kind, chartAccountId: chartAccount.id };
          await this.store.bankFeeds.addFinancialAccount(
            entityId,
            financialAccount,
            connection.createdAt,
          );
        }
        await this.store.bankFeeds.link(connection.id, financialAccount.id, index);
      }
      return this.store.bankFeeds.present(connection);
    });
  }

  /**
   * A syncing connection breaks: the transition is recorded once, and
   * `feed.connection.disconnected` goes to the outbox when the integration created the
   * connection and no healthy direct connection still covers one of its accounts. Breaking a
   * broken connection changes nothing and sends nothing.
   */
  breakConnection(
    organizationId: string,
    id: string,
    body: BreakConnectionBody,
  ): Promise<BankFeedConnection> {
    return this.store.transaction(async () => {
      // Broken once, whichever process is asked first: the others see it broken.
      await this.store.lock(`connection ${id}`, 'exclusive');
      const connection = await this.findConnection(organizationId, id);
      if (connection.status === 'syncing') {
        const occurredAtMs = Date.now();
        await this.store.bankFeeds.setConnectionStatus(id, 'broken', body.errorCode);
        await this.store.bankFeeds.recordEvent({
          id: newId(),
          connectionId: id,
          event: 'feed.connection.disconnected',
          errorCode: body.errorCode,
          occurredAt: new Date(occurredAtMs).toISOString(),
        });
        const notified = notifiesDisconnection({
          createdByIntegration: connection.createdByIntegration,
          coveredByHealthyDirectConnection:
            await this.store.bankFeeds.coveredByHealthyDirectConnection(id),
        });
        if (notified) {
          const entity = await this.entities.get(organizationId, connection.entityId);
          await this.publish(
            organizationId,
            'feed.connection.disconnected',
            {
              connectionId: id,
              workspaceId: entity.workspaceId,
              entityId: entity.id,
              bankName: connection.bankName,
              errorCode: body.errorCode,
            },
            occurredAtMs,
          );
        }
        connection.status = 'broken';
        connection.errorCode = body.errorCode;
      }
      return this.store.bankFeeds.present(connection);
    });
  }

  /** A broken connection syncs again; a syncing one is left as it is. */
  reconnect(organizationId: string, id: string): Promise<BankFeedConnection> {
    return this.store.transaction(async () => {
      await this.store.lock(`connection ${id}`, 'exclusive');
      const connection = await this.findConnection(organizationId, id);
      if (connection.status === 'broken') {
        await this.store.bankFeeds.setConnectionStatus(id, 'syncing', null);
        connection.status = 'syncing';
        connection.errorCode = null;
      }
      return this.store.bankFeeds.present(connection);
    });
  }

  /**
   * Transactions arrive on a financial account: a repeated `externalId` is skipped; each new one
   * is categorized by the rules in force now and posted on both ledgers between the feed's chart
   * account and its category (or Uncategorized Income / Expense). All or nothing.
   */
  async pushTransactions(
    organizationId: string,
    financialAccountId: string,
    body: PushTransactionsBody,
  ): Promise<BankTransaction[]> {
    const found = await this.store.bankFeeds.financialAccountOf(organizationId, financialAccountId);
    if (!found) throw notFound('financial account');
    return this.store.transaction(async () => {
      // Exclusive: a push may add Uncategorized Income or Expense to the chart.
      await this.entities.lockExclusively(found.entityId);
      return this.pushLocked(organizationId, financialAccountId, body);
    });
  }

  private async pushLocked(
    organizationId: string,
    financialAccountId: string,
    body: PushTransactionsBody,
  ): Promise<BankTransaction[]> {
    const financialAccount = (await this.store.bankFeeds.financialAccountOf(
      organizationId,
      financialAccountId,
    ))!;
    const scope = await this.entities.scope(organizationId, financialAccount.entityId);
    const seen = new Set<string>();
    const arriving: {
      date: string;
      amountCents: Cents;
      description: string;
      externalId: string | null;
    }[] = [];
    for (const [index, transaction] of body.transactions.entries()) {
      const at = `transactions[${index}]`;
      let cents;
      try {
        cents = amountToCents(Math.abs(transaction.amount));
      } catch (error) {
        if (error instanceof InvalidAmountError) throw invalid(`${at}.amount ${error.message}`);
        throw error;
      }
      if (cents === 0) throw invalid(`${at}.amount must not be zero`);
      const description = transaction.description.trim();
      if (description === '') throw invalid(`${at}.description must not be empty`);
      if (isInClosedPeriod(transaction.date, scope.entity.lockDate)) {
        throw conflict(
          `${at}.date ${transaction.date} is on or before the lock date ${scope.entity.lockDate}`,
        );
      }
      const externalId = transaction.externalId ?? null;
      if (externalId !== null) {
        if (
          seen.has(externalId) ||
          (await this.store.bankFeeds.hasExternalId(financialAccountId, externalId))
        )
          continue;
        seen.add(externalId);
      }
      arriving.push({
        date: transaction.date,
        amountCents: transaction.amount < 0 ? negateCents(cents) : cents,
        description,
        externalId,
      });
    }
    const categorizer = await this.categorizer(scope.entity.workspaceId, scope.entity.id);
    const createdAt = new Date().toISOString();
    const pushed: BankTransaction[] = [];
    for (const transaction of arriving) {
      const outcome = categorizer({ ...transaction, financialAccountId });
      const record: Omit<BankTransactionRecord, 'seq'> = {
        id: newId(),
        entityId: scope.entity.id,
        financialAccountId,
        ...transaction,
        accountId: outcome.accountId,
        ruleId: outcome.ruleId,
        createdAt,
      };
      const seq = await this.store.bankFeeds.insertTransaction(record);
      await this.post(scope.entitySeq, financialAccount, { ...record, seq }, outcome);
      pushed.push(presentTransaction(record));
    }
    return pushed;
  }

  async listTransactions(
    organizationId: string,
    workspaceId: string,
    query: ListTransactionsQuery,
  ) {
    await this.workspaces.get(organizationId, workspaceId);
    const page = pageOf(query);
    const result = await this.store.bankFeeds.listTransactions(
      workspaceId,
      page.limit,
      page.offset,
      {
        entityId: query.entityId,
        startDate: query.startDate,
        endDate: query.endDate,
        status: query.status,
      },
    );
    return listOf(page, { rows: result.rows.map(presentTransaction), total: result.total });
  }

  /** An entity's bank-feed connections with their status, oldest first. */
  async listConnections(organizationId: string, entityId: string, query: ListQuery) {
    await this.entities.get(organizationId, entityId);
    const page = pageOf(query);
    const result = await this.store.bankFeeds.listConnections(entityId, page.limit, page.offset);
    const rows: BankFeedConnection[] = [];
    for (const connection of result.rows) rows.push(await this.store.bankFeeds.present(connection));
    return listOf(page, { rows, total: result.total });
  }

  /**
   * Runs the rules again on an entity's transactions no rule has categorized (after an
   * accounting migration seeds its rules); those already categorized keep their category.
   */
  recategorize(organizationId: string, entityId: string): Promise<number> {
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const scope = await this.entities.scope(organizationId, entityId);
      const categorizer = await this.categorizer(scope.entity.workspaceId, entityId);
      let changed = 0;
      for (const transaction of await this.store.bankFeeds.uncategorized(entityId)) {
        const outcome = categorizer(transaction);
        if (outcome.ruleId === null) continue;
        const financialAccount = (await this.store.bankFeeds.financialAccountOf(
          organizationId,
          transaction.financialAccountId,
        ))!;
        await this.store.bankFeeds.setCategory(transaction.seq, outcome.accountId, outcome.ruleId);
        await this.store.postings.deleteSource(SOURCE_KIND.bankTransaction, transaction.seq);
        await this.post(
          scope.entitySeq,
          financialAccount,
          { ...transaction, accountId: outcome.accountId },
          outcome,
        );
        changed += 1;
      }
      return changed;
    });
  }

  private async categorizer(
    workspaceId: string,
    entityId: string,
  ): Promise<
    (facts: {
      financialAccountId: string;
      amountCents: Cents;
      description: string;
    }) => Categorization
  > {
    if (await this.categorizationPaused(entityId)) return () => UNCATEGORIZED;
    const rules = await this.store.transactionRules.forCategorization(workspaceId, entityId);
    const entityAccounts = new Set((await this.store.accounts.all(entityId)).map((a) => a.id));
    return (facts: {
      financialAccountId: string;
      amountCents: Cents;
      description: string;
    }): Categorization => categorize(rules, facts, (accountId) => entityAccounts.has(accountId));
  }

  /** Posts a transaction on both ledgers: the feed's account against the category. */
  private async post(
    entitySeq: number,
    financialAccount: FinancialAccountRecord,
    transaction: BankTransactionRecord,
    outcome: Categorization,
  ): Promise<void> {
    const inflow = transaction.amountCents > 0;
    const cents = absCents(transaction.amountCents);
    const feed = (await this.store.accounts.find(
      transaction.entityId,
      financialAccount.chartAccountId,
    ))!;
    const category =
      (outcome.accountId &&
        (await this.store.accounts.find(transaction.entityId, outcome.accountId))) ||
      (await this.accounts.ensureAccount(
        transaction.entityId,
        inflow ? UNCATEGORIZED_INCOME : UNCATEGORIZED_EXPENSE,
        inflow ? 'Income' : 'Operating Expenses',
      ));
    const lines = [
      {
        accountId: feed.id,
        accountSeq: feed.seq,
        classIds: [],
        debitCents: inflow ? cents : ZERO_CENTS,
        creditCents: inflow ? ZERO_CENTS : cents,
        description: transaction.description,
      },
      {
        accountId: category.id,
        accountSeq: category.seq,
        classIds: outcome.classIds,
        debitCents: inflow ? ZERO_CENTS : cents,
        creditCents: inflow ? cents : ZERO_CENTS,
        description: transaction.description,
      },
    ];
    await this.store.postings.insert(
      (LEDGER_BASES as readonly LedgerBasis[]).map((ledgerBasis) => ({
        source: {
          entitySeq,
          ledgerBasis,
          day: transaction.date,
          sourceKind: SOURCE_KIND.bankTransaction,
          sourceSeq: transaction.seq,
          sourceType: 'transaction' as const,
          counterpartyName: transaction.description,
        },
        lines,
      })),
    );
  }

  private async findConnection(organizationId: string, id: string): Promise<ConnectionRecord> {
    const connection = await this.store.bankFeeds.findConnection(organizationId, id);
    if (!connection) throw notFound('bank-feed connection');
    return connection;
  }
}

function presentTransaction(record: Omit<BankTransactionRecord, 'seq'>): BankTransaction {
  return {
    id: record.id,
    financialAccountId: record.financialAccountId,
    date: record.date,
    amount: centsToAmount(record.amountCents),
    description: record.description,
    accountId: record.accountId,
    ruleId: record.ruleId,
    status: record.accountId === null ? 'uncategorized' : 'categorized',
  };
}

export const UNCATEGORIZED_INCOME = 'Uncategorized Income';
export const UNCATEGORIZED_EXPENSE = 'Uncategorized Expense';
