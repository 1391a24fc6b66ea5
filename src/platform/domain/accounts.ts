import type { AccountClass, AccountType, MergeBlockerCode } from '../../api/index.js';
import { ACCOUNT_TYPES, CLASS_OF_TYPE } from '../../api/index.js';
import { conflict, invalid, type Blocker } from './errors.js';

export { CLASS_OF_TYPE } from '../../api/index.js';

/** The code range each type allocates from (local-platform.md §3). */
export function codeRange(type: AccountType): [number, number] {
  switch (CLASS_OF_TYPE[type]) {
    case 'Assets':
      return [1000, 1999];
    case 'Liabilities':
      return [2000, 2999];
    case 'Equity':
      return [3000, 3999];
    default:
      break;
  }
  const ranges: Partial<Record<AccountType, [number, number]>> = {
    Income: [4000, 4499],
    'Other Income': [4500, 4999],
    COGS: [5000, 5999],
    'Operating Expenses': [6000, 7999],
    'Other Expenses': [8000, 8999],
    'Tax Expenses': [9000, 9999],
  };
  return ranges[type] ?? [1000, 1999];
}

/** The position of a type in the chart (the type table's order). */
export function typeOrder(type: AccountType): number {
  return ACCOUNT_TYPES.indexOf(type);
}

/**
 * The next free code of the type's range: one past the highest code in use there, or, when the
 * top of the range is taken, the lowest free code. Codes in use are those of the entity.
 */
export function allocateCode(type: AccountType, codesInUse: ReadonlySet<string>): string {
  const [low, high] = codeRange(type);
  let highest = low - 1;
  for (const code of codesInUse) {
    const value = Number(code);
    if (/^\d+$/.test(code) && value >= low && value <= high && value > highest) highest = value;
  }
  if (highest < high) return String(highest + 1);
  for (let value = low; value <= high; value += 1) {
    if (!codesInUse.has(String(value))) return String(value);
  }
  throw conflict(`no free account code is left in ${low}–${high} for type ${type}`);
}

/** A supplied code, honored on a custom chart: numeric and unique in the entity. */
export function requireCustomCode(
  code: string,
  codesInUse: ReadonlySet<string>,
  field: string,
): string {
  const trimmed = code.trim();
  if (!/^\d{1,18}$/.test(trimmed)) throw invalid(`${field} must be a numeric string`);
  if (codesInUse.has(trimmed))
    throw invalid(`${field} ${trimmed} is already used by another account`);
  return trimmed;
}

export interface MergeFacts {
  sourceIsFinancial: boolean;
  sourceClass: AccountClass;
  targetClass: AccountClass;
  lockDate: string | null;
  sourceHasLockedPostings: boolean;
  targetHasLockedPostings: boolean;
  sourceHasOpeningBalance: boolean;
  targetHasOpeningBalance: boolean;
}

/** Every reason a merge cannot happen, each with its stable code. */
export function mergeBlockers(facts: MergeFacts): Blocker[] {
  const blockers: { code: MergeBlockerCode; message: string }[] = [];
  if (facts.sourceIsFinancial) {
    blockers.push({
      code: 'source_is_financial',
      message: 'the source account is linked to a bank feed; merge it as the target instead',
    });
  }
  if (facts.sourceClass !== facts.targetClass) {
    blockers.push({
      code: 'different_class',
      message: `the source is in ${facts.sourceClass} and the target in ${facts.targetClass}; both must share a class`,
    });
  }
  if (facts.sourceHasLockedPostings) {
    blockers.push({
      code: 'locked_period',
      message: `the source has postings dated on or before the lock date ${facts.lockDate}`,
    });
  }
  if (facts.targetHasLockedPostings) {
    blockers.push({
      code: 'locked_period_must_be_unlocked',
      message: `the target has postings dated on or before the lock date ${facts.lockDate}; unlock the period first`,
    });
  }
  if (facts.sourceHasOpeningBalance && facts.targetHasOpeningBalance) {
    blockers.push({
      code: 'both_have_opening_balance',
      message: 'both accounts carry an opening balance',
    });
  }
  return blockers;
}

/** Whether a calendar day falls in the closed period (on or before the lock date). */
export function isInClosedPeriod(day: string, lockDate: string | null): boolean {
  return lockDate !== null && day <= lockDate;
}
