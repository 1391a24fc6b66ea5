import type { CommandContext } from '../context.js';
import type { DateFormat } from '../../formats/ledgerCsv.js';
import { readConfig, type BooksConfig, type Profile } from './profiles.js';

/*
 * The profile a command keeps what it remembers in (statement links, bank CSV layouts): the one
 * in use — `local` for the embedded platform — or `default` for a base URL given without one,
 * as `books use` keeps its choices.
 */

/** The name of the profile in use. */
export async function profileInUse(ctx: CommandContext): Promise<string> {
  return (await ctx.target()).profileName ?? 'default';
}

/** The profile in use changed by `change` and written back; its name. */
export async function changeProfileInUse(
  ctx: CommandContext,
  change: (profile: Profile) => Profile,
): Promise<string> {
  const name = await profileInUse(ctx);
  const store = await ctx.configStore();
  const profiles = (store.store as BooksConfig).profiles;
  store.set('profiles', { ...profiles, [name]: change(profiles[name] ?? {}) });
  return name;
}

/**
 * The order of `a/b/year` days the profile in use settles for files that do not tell it
 * (`books config set date-format`), or none.
 */
export async function usualDateFormat(ctx: CommandContext): Promise<DateFormat | undefined> {
  const name = await profileInUse(ctx);
  return readConfig(ctx.io.env).profiles[name]?.dateFormat as DateFormat | undefined;
}
