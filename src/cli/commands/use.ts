import type { Profile } from '../config/profiles.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../exitCodes.js';

/** `books use --workspace W [--entity E]`: saved in the profile in use (`local` when embedded). */
export const command = defineCommand({
  summary: 'Save the workspace (and entity) to use, in the current profile',
  examples: ['books use --workspace "Main Street Bakery" --entity "Main Street Bakery LLC"'],
  async run(ctx) {
    if (!ctx.options.workspace && !ctx.options.entity)
      throw new UsageError('pass --workspace and/or --entity');
    const target = await ctx.target();
    const workspaceId = await ctx.workspaceId();
    const entityId = ctx.options.entity ? await ctx.entityId() : undefined;
    const store = await ctx.configStore();
    // Reached through --base-url or BOOKS_BASE_URL with no profile: keep the choice in a
    // `default` profile for that base URL (never the token), current unless another one is.
    const name = target.profileName ?? 'default';
    const saved: Profile = {
      ...(store.get(`profiles.${name}`) as Profile | undefined),
      ...(target.kind === 'remote' &&
        target.profileName === undefined && { baseUrl: target.baseUrl }),
      workspace: workspaceId,
      ...(entityId ? { entity: entityId } : {}),
    };
    if (!entityId) delete saved.entity;
    store.set(`profiles.${name}`, saved);
    if (target.kind === 'remote' && store.get('currentProfile') === undefined)
      store.set('currentProfile', name);
    ctx.wrote(
      `profile "${name}" now uses workspace ${workspaceId}${entityId ? ` and entity ${entityId}` : ''}`,
    );
  },
});
