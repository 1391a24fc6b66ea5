import { TRANSACTION_STATUSES, type BankTransaction } from '../../../api/index.js';
import { DATE_WORDS } from '../../../core/periods.js';
import { defineCommand, flag, listOptions, oneOf, text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { parseDateRange } from '../../terminal/dates.js';
import { UsageError } from '../../exitCodes.js';
import { printTransactions } from './listing.js';

/**
 * `transactions list`: the workspace's bank transactions (the chosen entity's, when one is
 * chosen), most recent first, narrowed by status, days, bank account and text; with
 * `--suggest`, what waits carries books' suggestion (the for-review queue, oldest first).
 */
export const command = defineCommand({
  summary:
    'List bank transactions: bank account, date, amount, reference, status, category, who decided; --suggest for what waits',
  options: {
    status: text(
      '--status <status>',
      'uncategorized, categorized, excluded, possible-duplicate or all',
      {
        choices: [...TRANSACTION_STATUSES, 'all'],
      },
    ),
    from: text('--from <date>', 'first day (YYYY-MM-DD or a date word)', { choices: DATE_WORDS }),
    to: text('--to <date>', 'last day, same forms', { choices: DATE_WORDS }),
    account: text('--account <account>', 'the bank or card account (name, code or id)', {
      names: 'account',
    }),
    search: text('--search <text>', 'text the description or the reference contains'),
    suggest: flag(
      '--suggest',
      "each waiting transaction with books' suggestion, its confidence and reason (the chosen entity's, oldest first)",
    ),
    ...listOptions('every transaction'),
  },
  paged: true,
  examples: [
    'books transactions list --status uncategorized --suggest',
    'books transactions list --status possible-duplicate',
    'books transactions list --from last-month --to last-month --account "Chase Checking" --json',
    'books transactions list --search verizon --all --output csv > verizon.csv',
  ],
  async run(ctx, flags) {
    const status =
      flags.status === undefined
        ? flags.suggest
          ? 'uncategorized'
          : 'all'
        : oneOf('--status', flags.status, [...TRANSACTION_STATUSES, 'all'] as const);
    const range = parseDateRange(flags, ctx.today());
    const limit = ctx.output.listLimit(flags);
    const workspaceId = await ctx.workspaceId();
    const entityId = flags.suggest || (await entityChosen(ctx)) ? await ctx.entityId() : undefined;
    const accountId =
      flags.account === undefined
        ? undefined
        : await ctx.accountId(await ctx.entityId(), flags.account);
    const filters = {
      ...range,
      ...(accountId && { accountId }),
      ...(flags.search !== undefined && { search: flags.search }),
    };
    const api = await ctx.api();
    if (flags.suggest && status === 'uncategorized') {
      const queue = await api.sandbox.forReview(entityId!, { ...filters, suggest: true });
      await printTransactions(
        ctx,
        { items: queue.data.slice(0, limit), total: queue.total },
        { suggestions: true },
      );
      return;
    }
    if (flags.suggest && status !== 'all')
      throw new UsageError(
        `--suggest shows suggestions for what waits: not with --status ${status}`,
      );
    const page = await api.sandbox.transactionsUpTo(workspaceId, limit, {
      ...filters,
      ...(entityId && { entityId }),
      ...(status !== 'all' && { status }),
    });
    if (flags.suggest) {
      const suggestions = new Map(
        (await api.sandbox.forReview(entityId!, { ...filters, suggest: true })).data.map((t) => [
          t.id,
          t.suggestion,
        ]),
      );
      page.items = page.items.map((t): BankTransaction =>
        t.status === 'uncategorized' ? { ...t, suggestion: suggestions.get(t.id) ?? null } : t,
      );
    }
    await printTransactions(ctx, page, { suggestions: Boolean(flags.suggest) });
  },
});

/** Whether an entity was chosen (`--entity`, or the profile's): the list is then its alone. */
async function entityChosen(ctx: CommandContext): Promise<boolean> {
  return ctx.options.entity !== undefined || (await ctx.target()).profile.entity !== undefined;
}
