import { defineCommand, negatable } from '../../command.js';
import { migrationEvents } from '../../ledgers/importing.js';

export const command = defineCommand({
  summary: 'Generate transaction rules from the migrated history and wait for them',
  options: { wait: negatable('--no-wait', 'do not wait for the rules') },
  examples: ['books migrate finalize'],
  async run(ctx, { wait }) {
    const { finalizeMigration } = await import('../../../migrate/import/index.js');
    const migration = await finalizeMigration(await ctx.api(), await ctx.entityId(), {
      wait,
      events: migrationEvents(ctx),
      sleep: (ms) => ctx.clock.sleep(ms),
      now: () => ctx.clock.now().getTime(),
    });
    ctx.output.record(
      [
        ['id', migration.id],
        ['rules seeded', migration.enrichmentRulesSeededAt ?? 'not yet'],
      ],
      { accountingMigration: migration },
    );
  },
});
