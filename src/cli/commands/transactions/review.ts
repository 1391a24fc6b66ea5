import type { Account } from '../../../api/index.js';
import { ApiError } from '../../../client/errors.js';
import {
  REVIEW_KEYS,
  reviewQueue,
  type ReviewPrompter,
} from '../../../migrate/categorize/review.js';
import { defineCommand } from '../../command.js';
import { UsageError } from '../../exitCodes.js';

/**
 * `transactions review`: the for-review queue at a terminal, oldest first, one transaction at
 * a time: its suggestion and reason, then a key — accept, choose another account (typed ahead),
 * split, transfer, match, accept and make a rule, exclude, skip, undo, quit, help. Each
 * decision is sent when it is made.
 */
export const command = defineCommand({
  summary:
    'Walk what waits, oldest first, one transaction at a time: accept, choose, split, transfer, match, rule, exclude, skip, undo',
  examples: ['books transactions review', 'books transactions review -e "Main Street Bakery"'],
  async run(ctx) {
    if (!ctx.io.stdin.isTTY || !ctx.io.stderr.isTTY)
      throw new UsageError(
        'the review asks at a terminal; from a script use books transactions categorize --from FILE.csv, or --auto for the confident suggestions',
      );
    const entityId = await ctx.entityId();
    const workspaceId = await ctx.workspaceId();
    const api = await ctx.api();
    const [{ data: queue }, accounts, held] = await Promise.all([
      api.sandbox.forReview(entityId, { suggest: true }),
      api.accounts.all(entityId),
      api.sandbox.transactionsUpTo(workspaceId, 1, { entityId, status: 'possible-duplicate' }),
    ]);
    if (held.total > 0)
      ctx.output.note(
        `books: ${held.total} ${held.total === 1 ? 'line is held as a possible duplicate' : 'lines are held as possible duplicates'}, not in the queue: books transactions list --status possible-duplicate, then categorize ID --not-duplicate or --exclude`,
      );
    if (queue.length === 0) {
      ctx.output.note('books: nothing waits: every bank transaction is decided');
      return;
    }
    ctx.output.note(
      `books: ${queue.length} bank ${queue.length === 1 ? 'transaction waits' : 'transactions wait'}, oldest first; each decision is sent when it is made (h: help)`,
    );
    const streams = { input: ctx.io.stdin, output: ctx.io.stderr };
    const prompter: ReviewPrompter = {
      async action(message, hasSuggestion) {
        const { expand } = await import('@inquirer/prompts');
        return expand(
          { message, choices: REVIEW_KEYS, default: hasSuggestion ? 'a' : 'c' },
          streams,
        );
      },
      async account(message, candidates) {
        const { search } = await import('@inquirer/prompts');
        const label = (a: Account) => `${a.code} ${a.name}`;
        return search(
          {
            message,
            pageSize: 12,
            source: (term) => {
              const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
              return candidates
                .filter((a) => words.every((w) => label(a).toLowerCase().includes(w)))
                .slice(0, 50)
                .map((a) => ({ name: label(a), value: a }));
            },
          },
          streams,
        );
      },
      async text(message, check) {
        const { input } = await import('@inquirer/prompts');
        return input({ message, validate: (answer) => check(answer) ?? true }, streams);
      },
    };
    const result = await reviewQueue({
      queue,
      accounts,
      prompter,
      write: (text) => ctx.io.stderr.write(text),
      refusal: (error) =>
        error instanceof ApiError && error.status < 500 ? error.message : undefined,
      api: {
        decide: (id, body, key) => api.sandbox.decide(id, body, key),
        transaction: async (id) => (await api.sandbox.transaction(id)).transaction,
        createRule: async (body) => (await api.transactionRules.create(workspaceId, body)).rule.id,
        applyRule: async (ruleId) =>
          (
            await api.sandbox.applyRules(workspaceId, { entityId, ruleIds: [ruleId] })
          ).rules.flatMap((r) => r.transactionIds),
      },
    });
    ctx.wrote(
      `${result.decided} decided, ${result.skipped} skipped; ${result.left} ${result.left === 1 ? 'waits' : 'wait'}${result.quit ? ' (quit: every decision made is kept)' : ''}`,
    );
  },
});
