import type { JournalLineInput } from '../../api/index.js';
import {
  addCents,
  amountToCents,
  formatCents,
  InvalidAmountError,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { invalid } from './errors.js';

/** A validated line, in integer cents, ready to post. */
export interface PostingLine {
  accountId: string;
  classIds: string[];
  debitCents: Cents;
  creditCents: Cents;
  description: string;
  /** The line's tax code (a code of the entity's, see domain/tax), or null. */
  taxCode?: string | null;
}

/** What line validation needs to know of the entity, supplied by the caller. */
export interface LineReferences {
  /** An account of the entity, or undefined. */
  account(accountId: string): { isDisabled: boolean } | undefined;
  /** The root of a class of the entity's workspace, or undefined. */
  classRoot(classId: string): string | undefined;
  /** A tax code of the entity: undefined when it has none of that name. */
  taxCode?(code: string): { archived: boolean } | undefined;
}

function cents(value: number | null | undefined, field: string): Cents {
  if (value === null || value === undefined) return ZERO_CENTS;
  try {
    return amountToCents(value);
  } catch (error) {
    if (error instanceof InvalidAmountError) throw invalid(`${field} ${error.message}`);
    throw error;
  }
}

/**
 * Validates the lines of an entry (or of an opening balance) and converts them to cents: each
 * line has exactly one positive side, posts to an active account of the entity, carries at most
 * one class per root; debits equal credits to the cent. `at` prefixes field names in errors.
 */
export function validateLines(
  lines: readonly JournalLineInput[],
  refs: LineReferences,
  at = '',
): PostingLine[] {
  let debits = ZERO_CENTS;
  let credits = ZERO_CENTS;
  const postings = lines.map((line, index) => {
    const field = `${at}lines[${index}]`;
    const debitCents = cents(line.debitAmount, `${field}.debitAmount`);
    const creditCents = cents(line.creditAmount, `${field}.creditAmount`);
    if (debitCents > 0 === creditCents > 0) {
      throw invalid(
        `${field} must have exactly one positive side: a debitAmount or a creditAmount, the other null or 0`,
      );
    }
    const account = refs.account(line.accountId);
    if (!account) throw invalid(`${field}.accountId must name an account of the entity`);
    if (account.isDisabled) throw invalid(`${field}.accountId names an archived account`);
    const classIds = line.classIds ?? [];
    const roots = new Set<string>();
    classIds.forEach((classId, classIndex) => {
      const root = refs.classRoot(classId);
      if (root === undefined) {
        throw invalid(`${field}.classIds[${classIndex}] must name a class of the workspace`);
      }
      if (roots.has(root))
        throw invalid(`${field}.classIds holds more than one class of the same root`);
      roots.add(root);
    });
    if (line.taxCode !== undefined && line.taxCode !== null) {
      const taxCode = refs.taxCode?.(line.taxCode);
      if (!taxCode)
        throw invalid(`${field}.taxCode ${line.taxCode} is not a tax code of the entity`);
      if (taxCode.archived) throw invalid(`${field}.taxCode ${line.taxCode} is archived`);
    }
    debits = addCents(debits, debitCents);
    credits = addCents(credits, creditCents);
    return {
      accountId: line.accountId,
      classIds,
      debitCents,
      creditCents,
      description: line.description ?? '',
      ...(line.taxCode ? { taxCode: line.taxCode } : {}),
    };
  });
  if (debits !== credits) {
    throw invalid(
      `${at}lines do not balance: debits ${formatCents(debits)}, credits ${formatCents(credits)}`,
    );
  }
  return postings;
}
