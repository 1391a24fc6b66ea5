import { defineCommand, text, wholeNumber } from '../../command.js';
import {
  checksWith,
  closeOptions,
  monthPeriod,
  reviewEntities,
  reviewJson,
  sayFailures,
} from '../../close/closing.js';
import { ExitCode } from '../../exitCodes.js';

/**
 * `close review --period YYYY-MM`: per entity, the checks a firm runs before it closes a month.
 * Exit 0 when every entity is ready, 1 when one is not.
 */
export const command = defineCommand({
  summary: 'Review the month before closing it: feeds, uncategorized, suspense, reconciliations, …',
  options: {
    period: text('--period <month>', 'the month, YYYY-MM', { required: true }),
    ...closeOptions,
  },
  examples: [
    'books close review --period 2026-10',
    'books close review --period 2026-10 --all-entities -w "Rivera Group" --statements statements/',
    'books close review --period 2026-10 --all-entities --json',
  ],
  paged: true,
  async run(ctx, input) {
    const period = monthPeriod(input.period);
    const days = wholeNumber(input.days, '--days', 0, 60);
    const reviewed = await reviewEntities(ctx, input, period, days);
    if (ctx.output.json) ctx.output.printJson(reviewJson(reviewed));
    else {
      sayFailures(ctx, reviewed);
      await ctx.output.table(
        [
          { header: 'Workspace', value: (r) => r.workspace.name },
          { header: 'Entity', value: (r) => r.entity.name },
          { header: 'Ready', value: (r) => (r.ready ? 'yes' : 'no') },
          { header: 'Failing', value: (r) => checksWith(r.checks, 'fail') },
          { header: 'Warnings', value: (r) => checksWith(r.checks, 'warn') },
          {
            header: 'Skipped',
            value: (r) =>
              r.checks
                .filter((c) => c.status === 'skipped')
                .map((c) => c.id)
                .join(', '),
          },
        ],
        reviewed,
      );
    }
    const notReady = reviewed.filter((r) => !r.ready).length;
    if (notReady > 0) {
      ctx.output.note(
        `books: ${notReady} of ${reviewed.length} ${reviewed.length === 1 ? 'entity is' : 'entities are'} not ready to close ${input.period}`,
      );
      return ExitCode.Refused;
    }
    ctx.output.note(
      `books: ${reviewed.length === 1 ? 'the entity is' : `all ${reviewed.length} entities are`} ready to close ${input.period}`,
    );
  },
});
