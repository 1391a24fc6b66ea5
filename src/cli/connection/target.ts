import { ExitCode, UsageError, UserError } from '../exitCodes.js';
import { LOCAL_PROFILE, type BooksConfig, type Profile } from '../config/profiles.js';

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
 * A platform's base URL as given (`--base-url`, BOOKS_BASE_URL, a profile), checked before any
 * request: http or https, a host, no credentials, query or fragment. `what` says where it came
 * from. Returned as given, less a trailing slash.
 */
export function platformUrl(text: string, what: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const problem = !url
    ? 'is not a URL'
    : url.protocol !== 'http:' && url.protocol !== 'https:'
      ? `uses ${url.protocol} where http: or https: belongs`
      : url.hostname === ''
        ? 'has no host'
        : url.username || url.password
          ? 'holds a user name or password (pass the token with --token or BOOKS_TOKEN)'
          : url.search || url.hash
            ? 'has a query or fragment'
            : undefined;
  if (problem) {
    throw new UsageError(
      `${what} "${text}" ${problem}: give the platform's http:// or https:// address, e.g. https://books.example.com`,
    );
  }
  return text.replace(/\/+$/, '');
}

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
  const baseUrl =
    flags.baseUrl !== undefined
      ? platformUrl(flags.baseUrl, '--base-url')
      : env.BOOKS_BASE_URL !== undefined
        ? platformUrl(env.BOOKS_BASE_URL, 'BOOKS_BASE_URL')
        : profile?.baseUrl !== undefined
          ? platformUrl(profile.baseUrl, `the base URL of profile "${profileName}"`)
          : undefined;
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
