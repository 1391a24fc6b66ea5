import type { JournalEntry } from '../../../api/index.js';
import { answeredAmountToCents, centsToAmount, sumCents } from '../../../core/money.js';
import { DATE_WORDS } from '../../../core/periods.js';
import { defineCommand, text, listOptions } from '../../command.js';
import { namesFiscalYear, parseDateRange } from '../../terminal/dates.js';
import { displayAmount, plainAmount } from '../../render/statements.js';
import { basisOption, parseBasis } from './shared.js';

/** An entry's size: the sum of its debits. */
const total = (entry: JournalEntry) =>
  centsToAmount(sumCents(entry.lines.map((l) => answeredAmountToCents(l.debitAmount ?? 0))));

export const command = defineCommand({
  summary: 'List journal entries, most recent first',
  options: {
    from: text('--from <date>', 'first day', { choices: DATE_WORDS }),
    to: text('--to <date>', 'last day', { choices: DATE_WORDS }),
    basis: basisOption,
    ...listOptions('every entry'),
  },
  paged: true,
  examples: [
    'books je list --from last-month --to last-month',
    'books je list --all --json > entries.json',
  ],
  async run(ctx, flags) {
    let query = {
      ledgerBasis: parseBasis(flags.basis),
      ...parseDateRange(flags, ctx.today()),
    };
    const limit = ctx.output.listLimit(flags);
    const entityId = await ctx.entityId();
    if (namesFiscalYear(flags))
      query = {
        ledgerBasis: query.ledgerBasis,
        ...parseDateRange(flags, ctx.today(), await ctx.fiscalYearStart(entityId)),
      };
    const pages = (await ctx.api()).journalEntries.pages(entityId, query, limit);
    const amount = ctx.output.format === 'table' && ctx.output.isTTY ? displayAmount : plainAmount;
    await ctx.output.listPages(
      [
        { header: 'Date', value: (e) => e.dateOnly },
        { header: 'Memo', value: (e) => e.memo ?? '' },
        { header: 'Lines', value: (e) => String(e.lines.length), align: 'right' },
        { header: 'Amount', value: (e) => amount(total(e)), align: 'right' },
        { header: 'Source', value: (e) => e.sourceType },
        { header: 'ID', value: (e) => e.id },
      ],
      pages,
    );
  },
});
