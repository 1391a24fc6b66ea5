import { argument, defineCommand } from '../../command.js';
import { ExitCode, UserError } from '../../exitCodes.js';

export const command = defineCommand({
  summary: 'Make a profile the current one',
  arguments: { name: argument('the profile', { names: 'profile' }) },
  examples: ['books profile use staging'],
  async run(ctx, { name }) {
    const store = await ctx.configStore();
    if (!store.has(`profiles.${name}`))
      throw new UserError(`no profile named "${name}"`, ExitCode.Usage);
    store.set('currentProfile', name);
    ctx.wrote(`now using profile "${name}"`);
  },
});
