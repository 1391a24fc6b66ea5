import { unlessNotFound } from '../../client/errors.js';
import { argument, defineCommand, flag, wholeNumber } from '../command.js';
import {
  checksWith,
  closeOptions,
  monthPeriod,
  reviewEntities,
  sayFailures,
} from '../close/closing.js';
import { ExitCode, UserError } from '../exitCodes.js';

/**
 * `close YYYY-MM`: reviews, and sets each ready entity's lock date to the month's end (through
 * the local platform's sandbox control plane). An entity that is not ready is refused, naming
 * what fails, unless `--force`. A lock is never moved back.
 */
export const command = defineCommand({
  summary: "Close a month: review it, then lock each ready entity's books through its last day",
  arguments: {
    period: argument('the month, YYYY-MM'),
  },
  options: {
    ...closeOptions,
    force: flag('--force', 'lock an entity that is not ready too, and say so'),
  },
  examples: [
    'books close 2026-10',
    'books close 2026-10 --all-entities -w "Rivera Group" --statements statements/',
    'books close 2026-10 --force',
  ],
  async run(ctx, input) {
    const period = monthPeriod(input.period);
    const days = wholeNumber(input.days, '--days', 0, 60);
    const api = await ctx.api();
    // Locks are the sandbox control plane's: a platform without it cannot be closed from here
    // (--all-entities finds that out listing the entities).
    const chosen = input.allEntities ? undefined : await ctx.chosenEntity();
    if (chosen && (await unlessNotFound(api.sandbox.entity(chosen.entity.id))) === undefined)
      throw new UserError(
        'the platform has no lock endpoint (no sandbox control plane): lock the period in its own web app; nothing was changed',
        ExitCode.Usage,
      );
    const reviewed = await reviewEntities(ctx, input, period, days);
    sayFailures(ctx, reviewed);
    const outcomes: { entity: string; ready: boolean; outcome: string }[] = [];
    let refused = 0;
    for (const review of reviewed) {
      const { entity } = await api.sandbox.entity(review.entity.id);
      if (!review.ready && !input.force) {
        refused += 1;
        outcomes.push({
          entity: review.entity.name,
          ready: false,
          outcome: `refused: ${checksWith(review.checks, 'fail')} (--force locks it anyway)`,
        });
        continue;
      }
      if (entity.lockDate !== null && entity.lockDate >= period.endDate) {
        outcomes.push({
          entity: review.entity.name,
          ready: review.ready,
          outcome: `already locked through ${entity.lockDate}: unchanged`,
        });
        continue;
      }
      await api.sandbox.updateEntity(review.entity.id, { lockDate: period.endDate });
      ctx.output.note(
        `books: workspace "${review.workspace.name}" (${review.workspace.id}), entity "${review.entity.name}" (${review.entity.id}): locked through ${period.endDate}${review.ready ? '' : `, though not ready (--force): ${checksWith(review.checks, 'fail')}`}`,
      );
      outcomes.push({
        entity: review.entity.name,
        ready: review.ready,
        outcome: `locked through ${period.endDate}${review.ready ? '' : ' (forced)'}`,
      });
    }
    if (ctx.output.json)
      ctx.output.printJson(
        outcomes.map((o, i) => ({
          ...o,
          entityId: reviewed[i]!.entity.id,
          checks: reviewed[i]!.checks,
        })),
      );
    else
      await ctx.output.table(
        [
          { header: 'Entity', value: (o) => o.entity },
          { header: 'Ready', value: (o) => (o.ready ? 'yes' : 'no') },
          { header: 'Close', value: (o) => o.outcome },
        ],
        outcomes,
      );
    if (refused > 0) {
      ctx.output.note(
        `books: ${refused} of ${reviewed.length} ${reviewed.length === 1 ? 'entity was' : 'entities were'} not locked: not ready to close ${input.period}`,
      );
      return ExitCode.Refused;
    }
  },
});
