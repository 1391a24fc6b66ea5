import type { ForReviewSummary } from '../../../api/index.js';
import { defineCommand, flag, text } from '../../command.js';
import { UsageError } from '../../exitCodes.js';
import { displayAmount, plainAmount } from '../../render/statements.js';

/**
 * `transactions summary`: the firm's morning view — per entity of the workspace (`--all`: of
 * every workspace the token sees), how many bank transactions wait, the oldest, money in and
 * out, and how many have a suggestion confident enough for `categorize --auto`.
 */
export const command = defineCommand({
  summary:
    'Per entity: how many bank transactions wait, the oldest, money in and out, the confident ones',
  options: {
    all: flag('--all', 'every entity of every workspace the token sees'),
    minConfidence: text(
      '--min-confidence <p>',
      'what counts as confident: a suggestion at or above it (default 0.95, what --auto takes)',
      { default: '0.95' },
    ),
  },
  paged: true,
  examples: ['books transactions summary', 'books transactions summary --all --json'],
  async run(ctx, flags) {
    const minConfidence = Number(flags.minConfidence);
    if (!(minConfidence >= 0 && minConfidence <= 1))
      throw new UsageError(
        `--min-confidence must be a number from 0 to 1, not "${flags.minConfidence}"`,
      );
    const api = await ctx.api();
    const workspaces = flags.all
      ? await api.workspaces.all()
      : [{ id: await ctx.workspaceId(), name: '' }];
    const names = new Map(workspaces.map((w) => [w.id, w.name]));
    const rows: ForReviewSummary[] = [];
    // Four workspaces at a time: each is one request, the platform's work per entity.
    for (let start = 0; start < workspaces.length; start += 4) {
      const answers = await Promise.all(
        workspaces
          .slice(start, start + 4)
          .map((w) => api.sandbox.forReviewSummary(w.id, { minConfidence })),
      );
      for (const answer of answers) rows.push(...answer.data);
    }
    const waiting = rows.reduce((sum, r) => sum + r.waiting, 0);
    ctx.output.note(
      `books: ${waiting} bank ${waiting === 1 ? 'transaction waits' : 'transactions wait'} in ${rows.filter((r) => r.waiting > 0).length} of ${rows.length} ${rows.length === 1 ? 'entity' : 'entities'}`,
    );
    const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
    await ctx.output.table(
      [
        ...(flags.all
          ? [
              {
                header: 'Workspace',
                value: (r: ForReviewSummary) => names.get(r.workspaceId) ?? '',
              },
            ]
          : []),
        { header: 'Entity', value: (r) => r.entityName },
        { header: 'Waiting', value: (r) => String(r.waiting), align: 'right' },
        { header: 'Oldest', value: (r) => r.oldest ?? '' },
        { header: 'Money in', value: (r) => amount(r.moneyIn), align: 'right' },
        { header: 'Money out', value: (r) => amount(r.moneyOut), align: 'right' },
        { header: 'Confident', value: (r) => String(r.confident), align: 'right' },
        { header: 'Entity ID', value: (r) => r.entityId },
      ],
      rows,
    );
  },
});
