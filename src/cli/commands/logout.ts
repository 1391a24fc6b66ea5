import { defineCommand } from '../command.js';
import { ExitCode, UserError } from '../exitCodes.js';

export const command = defineCommand({
  summary: 'Forget the current profile (or --profile NAME) and its token',
  examples: ['books logout', 'books logout --profile staging'],
  async run(ctx) {
    const store = await ctx.configStore();
    const name = ctx.options.profile ?? store.get('currentProfile');
    if (!name || !store.has(`profiles.${name}`))
      throw new UserError('not logged in', ExitCode.Usage);
    store.delete(`profiles.${name}` as 'profiles');
    if (store.get('currentProfile') === name) store.delete('currentProfile');
    ctx.wrote(`logged out of profile "${name}"`);
  },
});
