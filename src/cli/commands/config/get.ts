import { argument, defineCommand } from '../../command.js';
import { ExitCode, UsageError, UserError } from '../../exitCodes.js';

export const command = defineCommand({
  summary: 'Print a setting',
  arguments: { key: argument('the setting') },
  examples: ['books config get editor'],
  async run(ctx, { key }) {
    const store = await ctx.configStore();
    if (key.startsWith('profiles'))
      throw new UsageError('profiles are managed by books login and books use');
    const value = store.get(key);
    if (value === undefined) throw new UserError(`${key} is not set`, ExitCode.NotFound);
    ctx.output.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
  },
});
