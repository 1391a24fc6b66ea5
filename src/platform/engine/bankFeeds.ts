import { newId } from './ids.js';
import type {
  BankFeedConnection,
  ConnectedFinancialAccount,
  CreateBankFeedConnectionBody,
} from '../../api/index.js';
import { invalid } from '../domain/errors.js';
import { requireName } from '../domain/names.js';
import type { ConnectionRecord } from '../store/bankFeeds.js';
import type { Store } from '../store/index.js';
import type { AccountService } from './accounts.js';
import type { EntityService } from './entities.js';

/** Bank-feed connections (sandbox control plane). */
export class BankFeedService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
    private readonly accounts: AccountService,
  ) {}

  /**
   * Connects a bank: each new financial account gets a chart account (`Cash` for a bank,
   * `Credit Cards` for a card) linked by `financialAccountId`; an existing financial account
   * of the entity is covered again (a second connection, e.g. a direct one).
   */
  connect(
    organizationId: string,
    entityId: string,
    body: CreateBankFeedConnectionBody,
  ): BankFeedConnection {
    this.entities.get(organizationId, entityId);
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
    return this.store.transaction(() => {
      this.store.bankFeeds.insertConnectionRecord(connection);
      body.accounts.forEach((requested, index) => {
        let financialAccount: ConnectedFinancialAccount | undefined;
        if ('financialAccountId' in requested) {
          financialAccount = this.store.bankFeeds.financialAccount(
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
          const chartAccount = this.accounts.createLinked(
            entityId,
            name,
            requested.kind === 'bank' ? 'Cash' : 'Credit Cards',
            id,
          );
          financialAccount = { id, name, kind: requested.kind, chartAccountId: chartAccount.id };
          this.store.bankFeeds.addFinancialAccount(
            entityId,
            financialAccount,
            connection.createdAt,
          );
        }
        this.store.bankFeeds.link(connection.id, financialAccount.id, index);
      });
      return this.store.bankFeeds.present(connection);
    });
  }
}
