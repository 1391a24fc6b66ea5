import { newId } from './ids.js';
import type {
  CreateTransactionRuleBody,
  ListQuery,
  RuleAction,
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

  list(organizationId: string, workspaceId: string, query: ListQuery) {
    this.workspaces.get(organizationId, workspaceId);
    const page = pageOf(query);
    return listOf(page, this.store.transactionRules.list(workspaceId, page.limit, page.offset));
  }

  get(organizationId: string, workspaceId: string, id: string): TransactionRule {
    this.workspaces.get(organizationId, workspaceId);
    return this.find(workspaceId, id);
  }

  create(organizationId: string, workspaceId: string, body: CreateTransactionRuleBody) {
    this.workspaces.get(organizationId, workspaceId);
    const refs = this.references(workspaceId);
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
    this.store.transactionRules.insert(workspaceId, rule);
    return rule;
  }

  /** Fields present replace the stored ones; `conditions` and `actions` replace whole sets. */
  update(
    organizationId: string,
    workspaceId: string,
    id: string,
    body: UpdateTransactionRuleBody,
  ): TransactionRule {
    this.workspaces.get(organizationId, workspaceId);
    const existing = this.find(workspaceId, id);
    const refs = this.references(workspaceId);
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
    this.store.transactionRules.update(updated);
    return updated;
  }

  /** Deleting a rule leaves what it already categorized as it is. */
  delete(organizationId: string, workspaceId: string, id: string): void {
    this.workspaces.get(organizationId, workspaceId);
    this.find(workspaceId, id);
    this.store.transactionRules.delete(id);
  }

  /**
   * Removes actions that assign deleted things (classes, accounts) from every rule of the
   * workspace, generated ones included. A rule left with no action is disabled: a rule must act,
   * and disabling keeps its conditions for the user to see.
   */
  detachActions(
    workspaceId: string,
    actionType: RuleAction['actionType'],
    values: ReadonlySet<string>,
  ): void {
    for (const value of values) {
      for (const rule of this.store.transactionRules.withAction(workspaceId, actionType, value)) {
        const actions = rule.actions.filter(
          (a) => !(a.actionType === actionType && values.has(a.value)),
        );
        this.store.transactionRules.update({
          ...rule,
          actions,
          isDisabled: rule.isDisabled || actions.length === 0,
          updatedAt: new Date().toISOString(),
        });
      }
    }
  }

  /** Points every `account_id` action at another account (an account merge). */
  retargetAccountActions(workspaceId: string, fromAccountId: string, toAccountId: string): void {
    for (const rule of this.store.transactionRules.withAction(
      workspaceId,
      'account_id',
      fromAccountId,
    )) {
      this.store.transactionRules.update({
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

  private find(workspaceId: string, id: string): TransactionRule {
    const rule = this.store.transactionRules.find(workspaceId, id);
    if (!rule) throw notFound('transaction rule');
    return rule;
  }

  private references(workspaceId: string): RuleReferences {
    const { classes, accounts } = this.store;
    return {
      classRoot: (classId) => classes.find(workspaceId, classId)?.rootClassId,
      isWorkspaceAccount: (accountId) => accounts.isWorkspaceAccount(workspaceId, accountId),
      isWorkspaceFinancialAccount: (financialAccountId) =>
        accounts.isWorkspaceFinancialAccount(workspaceId, financialAccountId),
    };
  }
}
