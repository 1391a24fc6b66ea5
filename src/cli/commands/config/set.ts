import { argument, defineCommand } from '../../command.js';
import { UsageError } from '../../exitCodes.js';

const SETTINGS = /^[a-zA-Z][\w.-]*$/;

export const command = defineCommand({
  summary: 'Change a setting',
  arguments: { key: argument('the setting'), value: argument('its new value') },
  examples: ['books config set editor vim'],
  async run(ctx, { key, value }) {
    if (!SETTINGS.test(key) || key.startsWith('profiles') || key === 'currentProfile') {
      throw new UsageError(
        `"${key}" cannot be set here (profiles are managed by books login and books use)`,
      );
    }
    const store = await ctx.configStore();
    store.set(key, value);
    ctx.wrote(`${key} = ${value}`);
  },
});
