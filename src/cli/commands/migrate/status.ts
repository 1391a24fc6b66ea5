import { unlessNotFound } from '../../../client/errors.js';
import { defineCommand } from '../../command.js';
import { ExitCode, UserError } from '../../exitCodes.js';

export const command = defineCommand({
  summary: 'Show the accounting migration of the entity',
  examples: ['books migrate status --json'],
  async run(ctx) {
    const api = await ctx.api();
    const { entity } = await ctx.chosenEntity();
    const result = await unlessNotFound(api.accountingMigration.get(entity.id));
    if (!result) {
      throw new UserError(
        `entity "${entity.name}" (${entity.id}) has no accounting migration`,
        ExitCode.NotFound,
      );
    }
    const m = result.accountingMigration;
    ctx.output.record(
      [
        ['id', m.id],
        ['created', m.createdAt],
        ['state', m.enrichmentRulesSeededAt === null ? 'open (or generating rules)' : 'finalized'],
        ['rules seeded', m.enrichmentRulesSeededAt ?? ''],
      ],
      result,
    );
  },
});
