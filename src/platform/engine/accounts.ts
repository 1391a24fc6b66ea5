import { newId } from './ids.js';
import type {
  Account,
  AccountType,
  CreateAccountBody,
  ListQuery,
  MergeAccountsBody,
  UpdateAccountBody,
} from '../../api/index.js';
import {
  allocateCode,
  CLASS_OF_TYPE,
  mergeBlockers,
  requireCustomCode,
} from '../domain/accounts.js';
import { conflict, invalid, notFound } from '../domain/errors.js';
import { nameKey, requireName } from '../domain/names.js';
import { publicAccount, type AccountRecord } from '../store/accounts.js';
import type { Store } from '../store/index.js';
import type { EntityScope, EntityService } from './entities.js';
import { pageOf, sliceList } from './pagination.js';
import type { TransactionRuleService } from './transactionRules.js';

/** The chart of accounts of an entity. */
export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
    private readonly rules: TransactionRuleService,
  ) {}

  /** Every account, archived included, in chart order (by code, then name). */
  async list(organizationId: string, entityId: string, query: ListQuery) {
    await this.entities.get(organizationId, entityId);
    return sliceList(pageOf(query), (await this.store.accounts.all(entityId)).map(publicAccount));
  }

  async get(organizationId: string, entityId: string, id: string): Promise<Account> {
    await this.entities.get(organizationId, entityId);
    return publicAccount(await this.find(entityId, id));
  }

  async create(
    organizationId: string,
    entityId: string,
    body: CreateAccountBody,
  ): Promise<Account> {
    const [account] = await this.createMany(organizationId, entityId, [body], (field) => field);
    return account!;
  }

  /** Creates up to 100 accounts, all or none. */
  bulkCreate(
    organizationId: string,
    entityId: string,
    bodies: CreateAccountBody[],
  ): Promise<Account[]> {
    return this.createMany(
      organizationId,
      entityId,
      bodies,
      (field, index) => `accounts[${index}].${field}`,
    );
  }

  private async createMany(
    organizationId: string,
    entityId: string,
    bodies: CreateAccountBody[],
    fieldName: (field: string, index: number) => string,
  ): Promise<Account[]> {
    return this.store.transaction(async () => {
      const scope = await this.entities.scope(organizationId, entityId);
      await this.entities.lockExclusively(entityId);
      const existing = await this.store.accounts.all(entityId);
      const names = new Set(existing.map((a) => nameKey(a.name)));
      const codes = new Set(existing.map((a) => a.code));
      const groups = new Map((await this.store.accountGroups.all(entityId)).map((g) => [g.id, g]));
      const createdAt = new Date().toISOString();
      const accounts = bodies.map((body, index) => {
        const name = requireName(body.name, fieldName('name', index));
        if (names.has(nameKey(name))) {
          throw invalid(`${fieldName('name', index)}: an account named "${name}" already exists`);
        }
        names.add(nameKey(name));
        const code =
          scope.workspace.customChartOfAccounts && body.code !== undefined
            ? requireCustomCode(body.code, codes, fieldName('code', index))
            : allocateCode(body.type, codes);
        codes.add(code);
        const groupId = body.groupId ?? null;
        if (groupId !== null) {
          const group = groups.get(groupId);
          if (!group || group.type !== body.type) {
            throw invalid(
              `${fieldName('groupId', index)} must name an account group of the entity of type ${body.type}`,
            );
          }
        }
        const account: Account = {
          id: newId(),
          name,
          code,
          type: body.type,
          class: CLASS_OF_TYPE[body.type],
          groupId,
          financialAccountId: null,
          isDisabled: false,
          createdAt,
        };
        return account;
      });
      for (const account of accounts)
        await this.store.accounts.insert(entityId, account, nameKey(account.name));
      return accounts;
    });
  }

  /**
   * The chart account a bank feed creates for a financial account (call inside a transaction).
   * Its name is the financial account's, made unique with " (bank feed)" when the chart already
   * has it (typically the migration-time account it will be merged with).
   */
  async createLinked(
    entityId: string,
    name: string,
    type: AccountType,
    financialAccountId: string,
  ): Promise<Account> {
    await this.entities.lockExclusively(entityId);
    const existing = await this.store.accounts.all(entityId);
    const names = new Set(existing.map((a) => nameKey(a.name)));
    let chosen = requireName(name, 'name');
    for (let n = 1; names.has(nameKey(chosen)); n += 1) {
      chosen = `${name.trim()} (bank feed${n > 1 ? ` ${n}` : ''})`;
    }
    const account: Account = {
      id: newId(),
      name: chosen,
      code: allocateCode(type, new Set(existing.map((a) => a.code))),
      type,
      class: CLASS_OF_TYPE[type],
      groupId: null,
      financialAccountId,
      isDisabled: false,
      createdAt: new Date().toISOString(),
    };
    return this.store.accounts.insert(entityId, account, nameKey(account.name));
  }

  /**
   * An account of the entity by name (case-insensitive), created with the type when absent
   * (call inside a transaction).
   */
  async ensureAccount(entityId: string, name: string, type: AccountType): Promise<AccountRecord> {
    const chart = await this.store.accounts.all(entityId);
    const existing = chart.find((a) => nameKey(a.name) === nameKey(name));
    if (existing) return existing;
    await this.entities.lockExclusively(entityId);
    const locked = await this.store.accounts.all(entityId);
    const found = locked.find((a) => nameKey(a.name) === nameKey(name));
    if (found) return found;
    const account: Account = {
      id: newId(),
      name,
      code: allocateCode(type, new Set(locked.map((a) => a.code))),
      type,
      class: CLASS_OF_TYPE[type],
      groupId: null,
      financialAccountId: null,
      isDisabled: false,
      createdAt: new Date().toISOString(),
    };
    return this.store.accounts.insert(entityId, account, nameKey(name));
  }

  /** Renames and regroups; type, class and code are fixed after creation. */
  async update(
    organizationId: string,
    entityId: string,
    id: string,
    body: UpdateAccountBody,
  ): Promise<Account> {
    await this.entities.get(organizationId, entityId);
    for (const fixed of ['type', 'class', 'code'] as const) {
      if (fixed in body)
        throw invalid(`${fixed} is fixed after creation; only name and groupId change`);
    }
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const account = await this.find(entityId, id);
      const updated = publicAccount(account);
      if (body.name !== undefined) {
        updated.name = requireName(body.name, 'name');
        const clash = (await this.store.accounts.all(entityId)).find(
          (a) => a.id !== id && nameKey(a.name) === nameKey(updated.name),
        );
        if (clash) throw invalid(`name: an account named "${updated.name}" already exists`);
      }
      if (body.groupId !== undefined) {
        if (body.groupId !== null) {
          const group = (await this.store.accountGroups.all(entityId)).find(
            (g) => g.id === body.groupId,
          );
          if (!group || group.type !== account.type) {
            throw invalid(
              `groupId must name an account group of the entity of type ${account.type}`,
            );
          }
        }
        updated.groupId = body.groupId;
      }
      await this.store.accounts.update(updated, nameKey(updated.name));
      return updated;
    });
  }

  /** Archives (or restores) an account; archived accounts keep resolving old postings. */
  async setDisabled(
    organizationId: string,
    entityId: string,
    id: string,
    isDisabled: boolean,
  ): Promise<Account> {
    await this.entities.get(organizationId, entityId);
    return this.store.transaction(async () => {
      // Entries checked against the account as it was are in before it is archived.
      await this.entities.lockExclusively(entityId);
      const account = await this.find(entityId, id);
      const updated = { ...publicAccount(account), isDisabled };
      await this.store.accounts.update(updated, nameKey(updated.name));
      return updated;
    });
  }

  /**
   * Deletes an account nothing has posted to and no bank feed is linked to; rules assigning it
   * lose that action.
   */
  async delete(organizationId: string, entityId: string, id: string): Promise<void> {
    const { entity, entitySeq } = await this.entities.scope(organizationId, entityId);
    await this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const account = await this.find(entityId, id);
      if (await this.store.accounts.hasPostings(entitySeq, account.seq)) {
        throw conflict(`account ${account.code} ${account.name} has postings; archive it instead`);
      }
      // Its financial account refers to it: deleting would break the feed's postings to come.
      if (account.financialAccountId !== null) {
        throw conflict(
          `account ${account.code} ${account.name} is linked to a bank feed; archive it instead`,
        );
      }
      await this.rules.detachActions(entity.workspaceId, 'account_id', new Set([id]));
      await this.store.accounts.delete(id);
    });
  }

  /**
   * Moves the source account into the target: its postings, bank-transaction categories and
   * rule actions; then deletes the source. Every blocker is reported at once (409).
   */
  async merge(organizationId: string, entityId: string, body: MergeAccountsBody): Promise<Account> {
    await this.entities.get(organizationId, entityId);
    if (body.sourceAccountId === body.targetAccountId) {
      throw invalid('sourceAccountId and targetAccountId must be different accounts');
    }
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const scope = await this.entities.scope(organizationId, entityId);
      const source = await this.find(entityId, body.sourceAccountId, 'source account');
      const target = await this.find(entityId, body.targetAccountId, 'target account');
      const blockers = mergeBlockers(await this.mergeFacts(scope, source, target));
      if (blockers.length > 0) {
        throw conflict(`the merge is blocked: ${blockers.map((b) => b.code).join(', ')}`, blockers);
      }
      await this.store.postings.moveAccount(scope.entitySeq, source.seq, target.seq);
      await this.store.bankTransactions.moveCategory(scope.entity.id, source.id, target.id);
      await this.rules.retargetAccountActions(scope.entity.workspaceId, source.id, target.id);
      await this.store.accounts.delete(source.id);
      return publicAccount(target);
    });
  }

  private async mergeFacts(scope: EntityScope, source: AccountRecord, target: AccountRecord) {
    const { lockDate } = scope.entity;
    const { entitySeq } = scope;
    const accounts = this.store.accounts;
    const lockedPostings = async (account: AccountRecord) =>
      lockDate !== null && (await accounts.hasPostingsOnOrBefore(entitySeq, account.seq, lockDate));
    return {
      sourceIsFinancial: source.financialAccountId !== null,
      sourceClass: source.class,
      targetClass: target.class,
      lockDate,
      sourceHasLockedPostings: await lockedPostings(source),
      targetHasLockedPostings: await lockedPostings(target),
      sourceHasOpeningBalance: await accounts.hasOpeningBalance(entitySeq, source.seq),
      targetHasOpeningBalance: await accounts.hasOpeningBalance(entitySeq, target.seq),
    };
  }

  private async find(entityId: string, id: string, what = 'account'): Promise<AccountRecord> {
    const account = await this.store.accounts.find(entityId, id);
    if (!account) throw notFound(what);
    return account;
  }
}
