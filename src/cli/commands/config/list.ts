import { defineCommand } from '../../command.js';

export const command = defineCommand({
  summary: 'List settings',
  examples: ['books config list --json'],
  async run(ctx) {
    const store = await ctx.configStore();
    const { profiles: _profiles, ...settings } = store.store;
    await ctx.output.table(
      [
        { header: 'Key', value: ([k]) => k },
        { header: 'Value', value: ([, v]) => (typeof v === 'string' ? v : JSON.stringify(v)) },
      ],
      Object.entries(settings),
      settings,
    );
  },
});
