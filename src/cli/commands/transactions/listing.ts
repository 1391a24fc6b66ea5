import { isDerivedReference, type BankTransaction } from '../../../api/index.js';
import type { ListPage } from '../../../client/client.js';
import { categoryText, confidenceText } from '../../../migrate/categorize/texts.js';
import type { CommandContext } from '../../context.js';
import type { Column } from '../../terminal/output.js';
import { displayAmount, plainAmount } from '../../render/statements.js';

/*
 * Bank lines as a list: apart from the rest of the transactions' commands (shared.ts), which
 * read statements, so that `transactions list` loads no statement reader.
 */

/** The bank's reference as a person reads it (books' own key for a line without one: none). */
export const referenceText = (t: BankTransaction) =>
  t.reference === null || isDerivedReference(t.reference) ? '' : t.reference;

/** A suggestion as a table cell: `6120 Telephone (0.97)`, `6001 Office Supplies at SP (0.97)`. */
export const suggestionText = (t: BankTransaction) =>
  t.suggestion
    ? `${t.suggestion.kind === 'account' ? '' : `${t.suggestion.kind}: `}${t.suggestion.accountCode} ${t.suggestion.account}${t.suggestion.taxCode ? ` at ${t.suggestion.taxCode}` : ''} (${confidenceText(t.suggestion.confidence)})`
    : '';

/** Bank transactions as a list (the columns of `transactions list`). */
export async function printTransactions(
  ctx: CommandContext,
  transactions: ListPage<BankTransaction>,
  options: { suggestions?: boolean } = {},
): Promise<void> {
  const onTerminal = ctx.output.isTTY && ctx.output.format === 'table';
  const amount = onTerminal ? displayAmount : plainAmount;
  const columns: Column<BankTransaction>[] = [
    { header: 'Date', value: (t) => t.date },
    {
      header: 'Bank account',
      value: (t) => (t.bankAccount ? `${t.bankAccount.code} ${t.bankAccount.name}` : ''),
    },
    { header: 'Amount', value: (t) => amount(t.amount), align: 'right' },
    { header: 'Description', value: (t) => t.description },
    {
      header: 'Reference',
      value: referenceText,
      record: (t) => t.reference ?? '',
    },
    { header: 'Status', value: (t) => t.status },
    { header: 'Category', value: categoryText },
    { header: 'Decided by', value: (t) => t.decidedBy ?? '', optional: true },
    ...(onTerminal
      ? []
      : [
          { header: 'Decided at', value: (t: BankTransaction) => t.decidedAt ?? '' },
          { header: 'Rule', value: (t: BankTransaction) => t.ruleId ?? '' },
        ]),
    ...(options.suggestions
      ? [
          { header: 'Suggestion', value: suggestionText },
          ...(onTerminal
            ? []
            : [
                {
                  header: 'Confidence',
                  value: (t: BankTransaction) => t.suggestion?.confidence.toFixed(3) ?? '',
                },
                { header: 'Reason', value: (t: BankTransaction) => t.suggestion?.reason ?? '' },
              ]),
        ]
      : []),
    { header: 'ID', value: (t) => t.id },
  ];
  await ctx.output.list(columns, transactions);
}
