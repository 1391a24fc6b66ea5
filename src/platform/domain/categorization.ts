import type { RuleCondition, TransactionRule } from '../../api/index.js';
import { decimalToCents, type Cents } from '../../core/money.js';

/** What rules look at in a bank transaction. */
export interface TransactionFacts {
  financialAccountId: string;
  /** Signed: positive money in, negative money out. */
  amountCents: Cents;
  description: string;
}

/** The outcome for one transaction: the rule that matched (if any), its account and classes. */
export interface Categorization {
  ruleId: string | null;
  accountId: string | null;
  classIds: string[];
  /** The rule's `tax_code`, by its name. */
  taxCode: string | null;
}

export const UNCATEGORIZED: Categorization = {
  ruleId: null,
  accountId: null,
  classIds: [],
  taxCode: null,
};

const text = (value: string) => value.trim().toLocaleLowerCase('en-US');

/** One condition: any of its values matches (values are ORed). */
export function conditionMatches(condition: RuleCondition, facts: TransactionFacts): boolean {
  const description = text(facts.description);
  const absolute = Math.abs(facts.amountCents);
  return condition.value.some((value) => {
    switch (condition.conditionType) {
      case 'description_is':
        return description === text(value);
      case 'description_contains':
        return description.includes(text(value));
      case 'description_starts_with':
        return description.startsWith(text(value));
      case 'amount_is':
        return absolute === decimalToCents(value);
      case 'amount_greater_than':
        return absolute > decimalToCents(value);
      case 'amount_less_than':
        return absolute < decimalToCents(value);
      case 'direction_is':
        return value === (facts.amountCents > 0 ? 'inflow' : 'outflow');
      case 'financial_account_is':
        return value === facts.financialAccountId;
    }
  });
}

/** A rule matches when every condition does (conditions are ANDed). */
export const ruleMatches = (rule: TransactionRule, facts: TransactionFacts) =>
  rule.conditions.length > 0 &&
  rule.conditions.every((condition) => conditionMatches(condition, facts));

/**
 * The first enabled rule, in application order, that matches categorizes the transaction.
 * `rules` come in that order: the user's rules (creation order), then migration-generated ones.
 * A rule whose account belongs to another entity of the workspace cannot post this entity's
 * transaction, so it is passed over.
 */
export function categorize(
  rules: readonly TransactionRule[],
  facts: TransactionFacts,
  isEntityAccount: (accountId: string) => boolean,
): Categorization {
  for (const rule of rules) {
    if (rule.isDisabled || !ruleMatches(rule, facts)) continue;
    const account = rule.actions.find((a) => a.actionType === 'account_id')?.value ?? null;
    if (account !== null && !isEntityAccount(account)) continue;
    return {
      ruleId: rule.id,
      accountId: account,
      classIds: rule.actions.filter((a) => a.actionType === 'class_id').map((a) => a.value),
      taxCode: rule.actions.find((a) => a.actionType === 'tax_code')?.value ?? null,
    };
  }
  return UNCATEGORIZED;
}
