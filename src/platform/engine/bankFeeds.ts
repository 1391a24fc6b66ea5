import { newId } from './ids.js';
import type {
  BankFeedConnection,
  BreakConnectionBody,
  ConnectedFinancialAccount,
  FeedConnectionDisconnected,
  WebhookEventType,
  CreateBankFeedConnectionBody,
  ListQuery,
} from '../../api/index.js';
import { invalid, notFound } from '../domain/errors.js';
import { requireName } from '../domain/names.js';
import { notifiesDisconnection } from '../domain/webhooks.js';
import type { ConnectionRecord } from '../store/bankFeeds.js';
import type { Store } from '../store/index.js';
import type { AccountService } from './accounts.js';
import type { EntityService } from './entities.js';
import { listOf, pageOf } from './pagination.js';

/** Bank-feed connections (sandbox control plane). */
export class BankFeedService {
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
  ) {}

  /**
   * Connects a bank: each new financial account gets a chart account (`Cash` for a bank,
   * `Credit Cards` for a card) linked by `financialAccountId`, or is linked to the chart account
   * named (`chartAccountId`: a migrated bank account keeps its code and balance); an existing
   * financial account of the entity is covered again (a second connection, e.g. a direct one).
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
        } else if ('chartAccountId' in requested) {
          const chartAccount = await this.store.accounts.find(entityId, requested.chartAccountId);
          const at = `accounts[${index}].chartAccountId`;
          if (!chartAccount) throw invalid(`${at} must name an account of the entity's chart`);
          const kind =
            chartAccount.type === 'Cash'
              ? 'bank'
              : chartAccount.type === 'Credit Cards'
                ? 'credit_card'
                : undefined;
          if (kind === undefined)
            throw invalid(
              `${at}: account ${chartAccount.code} "${chartAccount.name}" is ${chartAccount.type}; a bank feed posts to a Cash or Credit Cards account`,
            );
          if (chartAccount.isDisabled)
            throw invalid(`${at}: account ${chartAccount.code} "${chartAccount.name}" is archived`);
          if (chartAccount.financialAccountId) {
            // Linked already: this connection covers its financial account again.
            financialAccount = await this.store.bankFeeds.financialAccount(
              entityId,
              chartAccount.financialAccountId,
            );
          } else {
            financialAccount = {
              id: newId(),
              name: chartAccount.name,
              kind,
              chartAccountId: chartAccount.id,
            };
            await this.store.bankFeeds.addFinancialAccount(
              entityId,
              financialAccount,
              connection.createdAt,
            );
            await this.store.accounts.linkFinancial(chartAccount.id, financialAccount.id);
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
        await this.store.bankFeeds.link(connection.id, financialAccount!.id, index);
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

  /** An entity's bank-feed connections with their status, oldest first. */
  async listConnections(organizationId: string, entityId: string, query: ListQuery) {
    await this.entities.get(organizationId, entityId);
    const page = pageOf(query);
    const result = await this.store.bankFeeds.listConnections(entityId, page.limit, page.offset);
    const rows: BankFeedConnection[] = [];
    for (const connection of result.rows) rows.push(await this.store.bankFeeds.present(connection));
    return listOf(page, { rows, total: result.total });
  }

  private async findConnection(organizationId: string, id: string): Promise<ConnectionRecord> {
    const connection = await this.store.bankFeeds.findConnection(organizationId, id);
    if (!connection) throw notFound('bank-feed connection');
    return connection;
  }
}
