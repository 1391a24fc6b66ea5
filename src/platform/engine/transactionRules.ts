import { newId } from './ids.js';
import type {
  CreateTransactionRuleBody,
  ListQuery,
  RuleAction,
  RuleCondition,
  TransactionRule,
  UpdateTransactionRuleBody,
} from '../../api/index.js';
import { notFound } from '../domain/errors.js';
import {
  validateActions,
  validateConditions,
  type RuleReferences,
} from '../domain/transactionRules.js';
import type { Store } from '../store/index.js';
import { listOf, pageOf } from './pagination.js';
import type { WorkspaceService } from './workspaces.js';

/** Transaction rules made through the API: the workspace's default rule group. */
export class TransactionRuleService {
  constructor(
    private readonly store: Store,
    private readonly workspaces: WorkspaceService,
  ) {}

  async list(organizationId: string, workspaceId: string, query: ListQuery) {
    await this.workspaces.get(organizationId, workspaceId);
    const page = pageOf(query);
    return listOf(
      page,
      await this.store.transactionRules.list(workspaceId, page.limit, page.offset),
    );
  }

  async get(organizationId: string, workspaceId: string, id: string): Promise<TransactionRule> {
    await this.workspaces.get(organizationId, workspaceId);
    return this.find(workspaceId, id);
  }

  async create(organizationId: string, workspaceId: string, body: CreateTransactionRuleBody) {
    await this.workspaces.get(organizationId, workspaceId);
    const refs = await this.references(workspaceId, body.conditions, body.actions);
    validateConditions(body.conditions, refs);
    validateActions(body.actions, refs);
    const rule: TransactionRule = {
      id: newId(),
      conditions: body.conditions.map(({ conditionType, value }) => ({ conditionType, value })),
      actions: body.actions.map(({ actionType, value }) => ({ actionType, value })),
      note: body.note ?? null,
      isDisabled: false,
      updatedAt: new Date().toISOString(),
    };
    await this.store.transactionRules.insert(workspaceId, rule);
    return rule;
  }

  /** Fields present replace the stored ones; `conditions` and `actions` replace whole sets. */
  async update(
    organizationId: string,
    workspaceId: string,
    id: string,
    body: UpdateTransactionRuleBody,
  ): Promise<TransactionRule> {
    await this.workspaces.get(organizationId, workspaceId);
    const existing = await this.find(workspaceId, id);
    const refs = await this.references(workspaceId, body.conditions ?? [], body.actions ?? []);
    if (body.conditions) validateConditions(body.conditions, refs);
    if (body.actions) validateActions(body.actions, refs);
    const updated: TransactionRule = {
      ...existing,
      conditions:
        body.conditions?.map(({ conditionType, value }) => ({ conditionType, value })) ??
        existing.conditions,
      actions:
        body.actions?.map(({ actionType, value }) => ({ actionType, value })) ?? existing.actions,
      note: body.note === undefined ? existing.note : body.note,
      isDisabled: body.isDisabled ?? existing.isDisabled,
      updatedAt: new Date().toISOString(),
    };
    await this.store.transactionRules.update(updated);
    return updated;
  }

  /** Deleting a rule leaves what it already categorized as it is. */
  async delete(organizationId: string, workspaceId: string, id: string): Promise<void> {
    await this.workspaces.get(organizationId, workspaceId);
    await this.find(workspaceId, id);
    await this.store.transactionRules.delete(id);
  }

  /**
   * Removes actions that assign deleted things (classes, accounts) from every rule of the
   * workspace, generated ones included. A rule left with no action is disabled: a rule must act,
   * and disabling keeps its conditions for the user to see.
   */
  async detachActions(
    workspaceId: string,
    actionType: RuleAction['actionType'],
    values: ReadonlySet<string>,
  ): Promise<void> {
    for (const value of values) {
      for (const rule of await this.store.transactionRules.withAction(
        workspaceId,
        actionType,
        value,
      )) {
        const actions = rule.actions.filter(
          (a) => !(a.actionType === actionType && values.has(a.value)),
        );
        await this.store.transactionRules.update({
          ...rule,
          actions,
          isDisabled: rule.isDisabled || actions.length === 0,
          updatedAt: new Date().toISOString(),
        });
      }
    }
  }

  /** Points every `account_id` action at another account (an account merge). */
  async retargetAccountActions(
    workspaceId: string,
    fromAccountId: string,
    toAccountId: string,
  ): Promise<void> {
    for (const rule of await this.store.transactionRules.withAction(
      workspaceId,
      'account_id',
      fromAccountId,
    )) {
      await this.store.transactionRules.update({
        ...rule,
        actions: rule.actions.map((a) =>
          a.actionType === 'account_id' && a.value === fromAccountId
            ? { ...a, value: toAccountId }
            : a,
        ),
        updatedAt: new Date().toISOString(),
      });
    }
  }

  private async find(workspaceId: string, id: string): Promise<TransactionRule> {
    const rule = await this.store.transactionRules.find(workspaceId, id);
    if (!rule) throw notFound('transaction rule');
    return rule;
  }

  /** What the rule's conditions and actions name, read before the pure checks run. */
  private async references(
    workspaceId: string,
    conditions: readonly RuleCondition[],
    actions: readonly RuleAction[],
  ): Promise<RuleReferences> {
    const { classes, accounts } = this.store;
    const valuesOf = <T extends { value: string | string[] }>(
      items: readonly T[],
      wanted: (item: T) => boolean,
    ) => [...new Set(items.filter(wanted).flatMap((item) => [item.value].flat()))];
    const financialAccounts = new Set<string>();
    for (const id of valuesOf(conditions, (c) => c.conditionType === 'financial_account_is')) {
      if (await accounts.isWorkspaceFinancialAccount(workspaceId, id)) financialAccounts.add(id);
    }
    const workspaceAccounts = new Set<string>();
    for (const id of valuesOf(actions, (a) => a.actionType === 'account_id')) {
      if (await accounts.isWorkspaceAccount(workspaceId, id)) workspaceAccounts.add(id);
    }
    const classRoots = new Map(
      (
        await classes.byIds(
          workspaceId,
          valuesOf(actions, (a) => a.actionType === 'class_id'),
        )
      ).map((c) => [c.id, c.rootClassId]),
    );
    return {
      classRoot: (classId) => classRoots.get(classId),
      isWorkspaceAccount: (accountId) => workspaceAccounts.has(accountId),
      isWorkspaceFinancialAccount: (financialAccountId) =>
        financialAccounts.has(financialAccountId),
    };
  }
}
