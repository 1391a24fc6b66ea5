import type { RuleAction, RuleCondition } from '../../api/index.js';
import { DIRECTIONS } from '../../api/index.js';
import { decimalToCents, InvalidAmountError } from '../../core/money.js';
import { invalid } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What rule validation needs to know of the workspace, supplied by the caller. */
export interface RuleReferences {
  /** The root of a class of the workspace, or undefined when it is not one. */
  classRoot(classId: string): string | undefined;
  /** Whether an account belongs to an entity of the workspace. */
  isWorkspaceAccount(accountId: string): boolean;
  /** Whether a financial account belongs to an entity of the workspace. */
  isWorkspaceFinancialAccount(financialAccountId: string): boolean;
}

/**
 * Checks a rule's conditions against the value rules of each condition type. Values are kept
 * as sent; amounts must be non-negative decimals with at most 2 places (they compare against a
 * transaction's absolute amount).
 */
export function validateConditions(conditions: RuleCondition[], refs: RuleReferences): void {
  conditions.forEach((condition, index) => {
    const field = `conditions[${index}].value`;
    condition.value.forEach((value, valueIndex) => {
      const at = `${field}[${valueIndex}]`;
      switch (condition.conditionType) {
        case 'description_is':
        case 'description_contains':
        case 'description_starts_with':
          if (value.trim().length === 0) throw invalid(`${at} must not be empty`);
          break;
        case 'amount_is':
        case 'amount_greater_than':
        case 'amount_less_than':
          try {
            decimalToCents(value);
          } catch (error) {
            if (error instanceof InvalidAmountError) throw invalid(`${at} ${error.message}`);
            throw error;
          }
          break;
        case 'direction_is':
          if (!(DIRECTIONS as readonly string[]).includes(value)) {
            throw invalid(`${at} must be one of ${DIRECTIONS.join(', ')}`);
          }
          break;
        case 'financial_account_is':
          if (!UUID.test(value) || !refs.isWorkspaceFinancialAccount(value)) {
            throw invalid(`${at} must be the id of a financial account of the workspace`);
          }
          break;
      }
    });
  });
}

/**
 * Actions: at most one `account_id` (a transaction has one category), `class_id` values that are
 * classes of the workspace, at most one per root (a transaction carries at most one class per
 * dimension), and at most one `tax_code`, with the account it taxes.
 */
export function validateActions(actions: RuleAction[], refs: RuleReferences): void {
  const rootsSeen = new Set<string>();
  let accountActions = 0;
  const taxCodes = actions.filter((action) => action.actionType === 'tax_code');
  if (taxCodes.length > 1) throw invalid('actions may hold at most one tax_code action');
  if (taxCodes.length === 1 && !actions.some((action) => action.actionType === 'account_id'))
    throw invalid('a tax_code action goes with an account_id action: the account it taxes');
  actions.forEach((action, index) => {
    const at = `actions[${index}].value`;
    if (action.actionType === 'tax_code') {
      if (!/^\S{1,20}$/.test(action.value))
        throw invalid(`${at} must be a tax code (1 to 20 characters, no spaces)`);
    } else if (action.actionType === 'account_id') {
      accountActions += 1;
      if (accountActions > 1) throw invalid('actions may hold at most one account_id action');
      if (!UUID.test(action.value) || !refs.isWorkspaceAccount(action.value)) {
        throw invalid(`${at} must be the id of an account of an entity of the workspace`);
      }
    } else {
      const root = UUID.test(action.value) ? refs.classRoot(action.value) : undefined;
      if (root === undefined) throw invalid(`${at} must be the id of a class of the workspace`);
      if (rootsSeen.has(root)) throw invalid('actions may hold at most one class per root class');
      rootsSeen.add(root);
    }
  });
}
