import type { BankTransaction } from '../../api/index.js';
import { confidenceRoundedDown } from '../../core/confidence.js';

/*
 * A bank line's category and a suggestion's confidence as a bookkeeper reads them: apart from
 * the decisions (decisions.ts), which read files, so that a list of lines loads no reader.
 */

/** An amount as the category texts and the review show it: `1,234.50`. */
export const money = (amount: number) =>
  amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * A suggestion's confidence to two places, rounded down as the platform rounds it: 0.949 shown
 * as 0.95 would say --auto takes what it does not.
 */
export const confidenceText = (confidence: number) =>
  confidenceRoundedDown(confidence, 2).toFixed(2);

/** What a transaction posts to, in a bookkeeper's words (empty while it waits). */
export function categoryText(t: BankTransaction): string {
  const category = t.category;
  if (t.status === 'possible-duplicate' && t.duplicateOf)
    return `possible duplicate of ${t.duplicateOf.date} ${money(t.duplicateOf.amount)} ${t.duplicateOf.description}`;
  if (!category) return t.status === 'excluded' ? 'excluded' : '';
  switch (category.kind) {
    case 'account':
      return `${category.account.code} ${category.account.name}`;
    case 'split':
      return `split: ${category.splits.map((p) => `${p.account.code} ${p.account.name} ${money(p.amount)}`).join(', ')}`;
    case 'transfer':
      return `transfer ${t.amount < 0 ? 'to' : 'from'} ${category.account.code} ${category.account.name}${category.transactionId ? '' : ' (its other side has not arrived)'}`;
    case 'match':
      return `matches journal entry ${category.entryDate ?? ''}${category.entryMemo ? ` "${category.entryMemo}"` : ''} (${category.entryId})`;
  }
}
