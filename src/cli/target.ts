import { ExitCode, UserError } from './exitCodes.js';
import { LOCAL_PROFILE, type BooksConfig, type Profile } from './config.js';

export interface GlobalFlags {
  baseUrl?: string;
  token?: string;
  profile?: string;
}

/** Where a command talks to. */
export type Target =
  | {
      kind: 'remote';
      baseUrl: string;
      token: string;
      profileName: string | undefined;
      profile: Profile;
    }
  | { kind: 'embedded'; profileName: string; profile: Profile };

/**
 * cli.md precedence, highest first: `--base-url`/`--token`; `BOOKS_BASE_URL`/`BOOKS_TOKEN`; the
 * profile chosen by `--profile`, `BOOKS_PROFILE` or the current one; else the embedded local
 * platform (whose workspace and entity choices live in the `local` profile).
 */
export function resolveTarget(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  config: BooksConfig,
): Target {
  const profileName = flags.profile ?? env.BOOKS_PROFILE ?? config.currentProfile;
  const profile = profileName === undefined ? undefined : config.profiles[profileName];
  if ((flags.profile ?? env.BOOKS_PROFILE) !== undefined && profile === undefined) {
    throw new UserError(
      `no profile named "${profileName}" (books profile list shows them)`,
      ExitCode.Usage,
    );
  }
  const baseUrl = flags.baseUrl ?? env.BOOKS_BASE_URL ?? profile?.baseUrl;
  const token = flags.token ?? env.BOOKS_TOKEN ?? profile?.token;
  if (baseUrl === undefined) {
    return {
      kind: 'embedded',
      profileName: LOCAL_PROFILE,
      profile: config.profiles[LOCAL_PROFILE] ?? {},
    };
  }
  if (token === undefined) {
    throw new UserError(
      `no token for ${baseUrl}: pass --token, set BOOKS_TOKEN, or run books login`,
      ExitCode.NotAuthenticated,
    );
  }
  return { kind: 'remote', baseUrl, token, profileName, profile: profile ?? {} };
}
