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
  list(organizationId: string, entityId: string, query: ListQuery) {
    this.entities.get(organizationId, entityId);
    return sliceList(pageOf(query), this.store.accounts.all(entityId).map(publicAccount));
  }

  get(organizationId: string, entityId: string, id: string): Account {
    this.entities.get(organizationId, entityId);
    return publicAccount(this.find(entityId, id));
  }

  create(organizationId: string, entityId: string, body: CreateAccountBody): Account {
    const [account] = this.createMany(organizationId, entityId, [body], (field) => field);
    return account!;
  }

  /** Creates up to 100 accounts, all or none. */
  bulkCreate(organizationId: string, entityId: string, bodies: CreateAccountBody[]): Account[] {
    return this.createMany(
      organizationId,
      entityId,
      bodies,
      (field, index) => `accounts[${index}].${field}`,
    );
  }

  private createMany(
    organizationId: string,
    entityId: string,
    bodies: CreateAccountBody[],
    fieldName: (field: string, index: number) => string,
  ): Account[] {
    const scope = this.entities.scope(organizationId, entityId);
    return this.store.transaction(() => {
      const existing = this.store.accounts.all(entityId);
      const names = new Set(existing.map((a) => nameKey(a.name)));
      const codes = new Set(existing.map((a) => a.code));
      const groups = new Map(this.store.accountGroups.all(entityId).map((g) => [g.id, g]));
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
        this.store.accounts.insert(entityId, account, nameKey(account.name));
      return accounts;
    });
  }

  /**
   * The chart account a bank feed creates for a financial account (call inside a transaction).
   * Its name is the financial account's, made unique with " (bank feed)" when the chart already
   * has it (typically the migration-time account it will be merged with).
   */
  createLinked(
    entityId: string,
    name: string,
    type: AccountType,
    financialAccountId: string,
  ): Account {
    const existing = this.store.accounts.all(entityId);
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

  /** An account of the entity by name (case-insensitive), created with the type when absent. */
  ensureAccount(entityId: string, name: string, type: AccountType): AccountRecord {
    const existing = this.store.accounts
      .all(entityId)
      .find((a) => nameKey(a.name) === nameKey(name));
    if (existing) return existing;
    const account: Account = {
      id: newId(),
      name,
      code: allocateCode(type, new Set(this.store.accounts.all(entityId).map((a) => a.code))),
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
  update(organizationId: string, entityId: string, id: string, body: UpdateAccountBody): Account {
    this.entities.get(organizationId, entityId);
    for (const fixed of ['type', 'class', 'code'] as const) {
      if (fixed in body)
        throw invalid(`${fixed} is fixed after creation; only name and groupId change`);
    }
    return this.store.transaction(() => {
      const account = this.find(entityId, id);
      const updated = publicAccount(account);
      if (body.name !== undefined) {
        updated.name = requireName(body.name, 'name');
        const clash = this.store.accounts
          .all(entityId)
          .find((a) => a.id !== id && nameKey(a.name) === nameKey(updated.name));
        if (clash) throw invalid(`name: an account named "${updated.name}" already exists`);
      }
      if (body.groupId !== undefined) {
        if (body.groupId !== null) {
          const group = this.store.accountGroups.all(entityId).find((g) => g.id === body.groupId);
          if (!group || group.type !== account.type) {
            throw invalid(
              `groupId must name an account group of the entity of type ${account.type}`,
            );
          }
        }
        updated.groupId = body.groupId;
      }
      this.store.accounts.update(updated, nameKey(updated.name));
      return updated;
    });
  }

  /** Archives (or restores) an account; archived accounts keep resolving old postings. */
  setDisabled(organizationId: string, entityId: string, id: string, isDisabled: boolean): Account {
    this.entities.get(organizationId, entityId);
    const account = this.find(entityId, id);
    const updated = { ...publicAccount(account), isDisabled };
    this.store.accounts.update(updated, nameKey(updated.name));
    return updated;
  }

  /**
   * Deletes an account nothing has posted to and no bank feed is linked to; rules assigning it
   * lose that action.
   */
  delete(organizationId: string, entityId: string, id: string): void {
    const { entity, entitySeq } = this.entities.scope(organizationId, entityId);
    this.store.transaction(() => {
      const account = this.find(entityId, id);
      if (this.store.accounts.hasPostings(entitySeq, account.seq)) {
        throw conflict(`account ${account.code} ${account.name} has postings; archive it instead`);
      }
      // Its financial account refers to it: deleting would break the feed's postings to come.
      if (account.financialAccountId !== null) {
        throw conflict(
          `account ${account.code} ${account.name} is linked to a bank feed; archive it instead`,
        );
      }
      this.rules.detachActions(entity.workspaceId, 'account_id', new Set([id]));
      this.store.accounts.delete(id);
    });
  }

  /**
   * Moves the source account into the target: its postings, bank-transaction categories and
   * rule actions; then deletes the source. Every blocker is reported at once (409).
   */
  merge(organizationId: string, entityId: string, body: MergeAccountsBody): Account {
    const scope = this.entities.scope(organizationId, entityId);
    if (body.sourceAccountId === body.targetAccountId) {
      throw invalid('sourceAccountId and targetAccountId must be different accounts');
    }
    return this.store.transaction(() => {
      const source = this.find(entityId, body.sourceAccountId, 'source account');
      const target = this.find(entityId, body.targetAccountId, 'target account');
      const blockers = mergeBlockers(this.mergeFacts(scope, source, target));
      if (blockers.length > 0) {
        throw conflict(`the merge is blocked: ${blockers.map((b) => b.code).join(', ')}`, blockers);
      }
      this.store.postings.moveAccount(scope.entitySeq, source.seq, target.seq);
      this.store.bankFeeds.moveCategory(scope.entity.id, source.id, target.id);
      this.rules.retargetAccountActions(scope.entity.workspaceId, source.id, target.id);
      this.store.accounts.delete(source.id);
      return publicAccount(target);
    });
  }

  private mergeFacts(scope: EntityScope, source: AccountRecord, target: AccountRecord) {
    const { lockDate } = scope.entity;
    const { entitySeq } = scope;
    const accounts = this.store.accounts;
    const lockedPostings = (account: AccountRecord) =>
      lockDate !== null && accounts.hasPostingsOnOrBefore(entitySeq, account.seq, lockDate);
    return {
      sourceIsFinancial: source.financialAccountId !== null,
      sourceClass: source.class,
      targetClass: target.class,
      lockDate,
      sourceHasLockedPostings: lockedPostings(source),
      targetHasLockedPostings: lockedPostings(target),
      sourceHasOpeningBalance: accounts.hasOpeningBalance(entitySeq, source.seq),
      targetHasOpeningBalance: accounts.hasOpeningBalance(entitySeq, target.seq),
    };
  }

  private find(entityId: string, id: string, what = 'account'): AccountRecord {
    const account = this.store.accounts.find(entityId, id);
    if (!account) throw notFound(what);
    return account;
  }
}
