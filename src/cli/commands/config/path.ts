import { defineCommand } from '../../command.js';
import { booksPaths } from '../../config/paths.js';

export const command = defineCommand({
  summary: 'Where the config file and the local platform data live',
  examples: ['books config path'],
  async run(ctx) {
    const store = await ctx.configStore();
    const localPlatform = booksPaths(ctx.io.env).platformDatabase;
    ctx.output.record(
      [
        ['config', store.path],
        ['local platform', localPlatform],
      ],
      { config: store.path, localPlatform },
    );
  },
});
