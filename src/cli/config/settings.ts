import type { BooksConfig } from './profiles.js';
import { LOCAL_PROFILE } from './profiles.js';
import { UsageError } from '../exitCodes.js';
import { decimalToCents, formatCents, InvalidAmountError, type Cents } from '../../core/money.js';
import { DEFAULT_PAGER } from '../terminal/pager.js';
import { DATE_FORMATS } from '../../formats/ledgerCsv.js';

/**
 * The settings `books config` shows and changes, each with its value as this command would use
 * it and where that value came from (cli.md's precedence: flag, environment, profile, config
 * file, default). Tokens are never shown: only whether one is set and where.
 */
export const SETTING_KEYS = [
  'profile',
  'base-url',
  'token',
  'workspace',
  'entity',
  'output',
  'color',
  'pager',
  'date-format',
  'suspense-accounts',
  'flux-percent',
  'flux-amount',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export type SettingSource = 'flag' | 'environment' | 'profile' | 'config' | 'default';

export interface Setting {
  key: SettingKey;
  /** The value in effect; `undefined` when unset. */
  value: string | undefined;
  source: SettingSource;
  /** Which flag, variable or profile gave it (`--base-url`, `BOOKS_BASE_URL`, `local`). */
  from?: string;
  /** What being unset means, when it means something (no base URL: the local platform). */
  unset?: string;
}

/** The global flags as given on this command line (undefined when not given). */
export interface GivenFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  token?: string | undefined;
  workspace?: string | undefined;
  entity?: string | undefined;
  output?: string | undefined;
  json?: boolean | undefined;
  /** `--no-color` given. */
  noColor?: boolean | undefined;
  /** `--no-pager` given. */
  noPager?: boolean | undefined;
}

/** Values `config set` takes for `output` and `color`, and what each means. */
export const OUTPUT_VALUES = ['table', 'json', 'csv', 'tsv'] as const;
export const COLOR_VALUES = ['auto', 'never'] as const;

/** Every setting in effect for these flags, environment and config file. */
export function effectiveSettings(
  flags: GivenFlags,
  env: NodeJS.ProcessEnv,
  config: BooksConfig,
): Setting[] {
  const first = (
    key: SettingKey,
    candidates: [string | undefined, SettingSource, string?][],
    fallback: string | undefined,
  ): Setting => {
    for (const [value, source, from] of candidates) {
      if (value !== undefined) return { key, value, source, ...(from && { from }) };
    }
    return { key, value: fallback, source: 'default' };
  };
  const profile = first(
    'profile',
    [
      [flags.profile, 'flag', '--profile'],
      [env.BOOKS_PROFILE, 'environment', 'BOOKS_PROFILE'],
      [config.currentProfile, 'config'],
    ],
    undefined,
  );
  const saved = profile.value === undefined ? undefined : config.profiles[profile.value];
  const baseUrl = first(
    'base-url',
    [
      [flags.baseUrl, 'flag', '--base-url'],
      [env.BOOKS_BASE_URL, 'environment', 'BOOKS_BASE_URL'],
      [saved?.baseUrl, 'profile', profile.value],
    ],
    undefined,
  );
  const embedded = baseUrl.value === undefined;
  // The embedded platform keeps its choices in the `local` profile.
  const choices = embedded ? config.profiles[LOCAL_PROFILE] : saved;
  const choicesFrom = embedded ? LOCAL_PROFILE : profile.value;
  const rememberedIn = embedded ? LOCAL_PROFILE : (profile.value ?? 'default');
  const token = first(
    'token',
    [
      [flags.token, 'flag', '--token'],
      [env.BOOKS_TOKEN, 'environment', 'BOOKS_TOKEN'],
      [saved?.token, 'profile', profile.value],
    ],
    undefined,
  );
  return [
    embedded && profile.value === undefined
      ? { key: 'profile', value: LOCAL_PROFILE, source: 'default' }
      : profile,
    embedded ? { ...baseUrl, unset: 'commands use the local platform' } : baseUrl,
    {
      ...token,
      ...(token.value !== undefined && { value: '(set; never shown)' }),
      ...(embedded && { unset: 'the local platform needs none' }),
    },
    first(
      'workspace',
      [
        [flags.workspace, 'flag', '--workspace'],
        [choices?.workspace, 'profile', choicesFrom],
      ],
      undefined,
    ),
    first(
      'entity',
      [
        [flags.entity, 'flag', '--entity'],
        [choices?.entity, 'profile', choicesFrom],
      ],
      undefined,
    ),
    first(
      'output',
      [
        [flags.json ? 'json' : flags.output, 'flag', flags.json ? '--json' : '--output'],
        [typeof config.output === 'string' ? config.output : undefined, 'config'],
      ],
      'table',
    ),
    first(
      'color',
      [
        [flags.noColor ? 'never' : undefined, 'flag', '--no-color'],
        [env.NO_COLOR !== undefined ? 'never' : undefined, 'environment', 'NO_COLOR'],
        [typeof config.color === 'string' ? config.color : undefined, 'config'],
      ],
      'auto',
    ),
    first(
      'pager',
      [
        [flags.noPager ? 'never' : undefined, 'flag', '--no-pager'],
        [env.BOOKS_PAGER, 'environment', 'BOOKS_PAGER'],
        [typeof config.pager === 'string' ? config.pager : undefined, 'config'],
        [env.PAGER, 'environment', 'PAGER'],
      ],
      DEFAULT_PAGER,
    ),
    {
      // Kept where what a command remembers is kept: the profile in use, `default` for a base
      // URL given without one (config/profileInUse.ts).
      ...first(
        'date-format',
        [[config.profiles[rememberedIn]?.dateFormat, 'profile', rememberedIn]],
        undefined,
      ),
      unset:
        'a file whose a/b/year days could be read either way is refused until --date-format says',
    },
    {
      ...first(
        'suspense-accounts',
        [
          [
            typeof config.suspenseAccounts === 'string' ? config.suspenseAccounts : undefined,
            'config',
          ],
        ],
        undefined,
      ),
      unset:
        'the close review checks the usual ones only (Uncategorized Income, Expense and Asset, Suspense, Ask My Accountant, Opening Balance Equity)',
    },
    first(
      'flux-percent',
      [[typeof config.fluxPercent === 'string' ? config.fluxPercent : undefined, 'config']],
      FLUX_PERCENT_DEFAULT,
    ),
    first(
      'flux-amount',
      [[typeof config.fluxAmount === 'string' ? config.fluxAmount : undefined, 'config']],
      FLUX_AMOUNT_DEFAULT,
    ),
  ];
}

/** What the close review takes a month to move too much by, unless `books config set`. */
export const FLUX_PERCENT_DEFAULT = '50';
export const FLUX_AMOUNT_DEFAULT = '1000.00';

/** A setting's key as typed (`base_url`, `baseUrl` and `BASE-URL` are `base-url`). */
export function settingKey(text: string): SettingKey {
  const key = text
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
  if (key === 'current-profile') return 'profile';
  if (!(SETTING_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`no setting "${text}": the settings are ${SETTING_KEYS.join(', ')}`);
  }
  return key as SettingKey;
}

/**
 * What `config set` writes for `key`: the config file's key and the checked value. Choices that
 * belong to other commands (a workspace must exist, a token is a secret) point there.
 */
export function settingToWrite(
  key: SettingKey,
  value: string,
  config: BooksConfig,
): {
  configKey:
    | 'dateFormat'
    | 'currentProfile'
    | 'output'
    | 'color'
    | 'pager'
    | 'suspenseAccounts'
    | 'fluxPercent'
    | 'fluxAmount';
  value: string;
} {
  const choose = <T extends string>(allowed: readonly T[]): T => {
    const chosen = allowed.find((a) => a === value.trim().toLowerCase());
    if (!chosen)
      throw new UsageError(`${key} must be one of ${allowed.join(', ')}, not "${value}"`);
    return chosen;
  };
  switch (key) {
    case 'output':
      return { configKey: 'output', value: choose(OUTPUT_VALUES) };
    case 'date-format': {
      const format = DATE_FORMATS.find((f) => f === value.trim().toUpperCase());
      if (!format)
        throw new UsageError(
          `date-format must be one of ${DATE_FORMATS.join(', ')}, not "${value}" (the order of a/b/year days, where a file does not tell it)`,
        );
      return { configKey: 'dateFormat', value: format };
    }
    case 'color':
      return { configKey: 'color', value: choose(COLOR_VALUES) };
    case 'pager':
      // A command line run through the shell, as git's core.pager; `never` for none.
      return { configKey: 'pager', value: value.trim() === '' ? 'never' : value.trim() };
    case 'profile': {
      const names = Object.keys(config.profiles);
      if (!names.includes(value)) {
        throw new UsageError(
          `no profile named "${value}"${names.length > 0 ? ` (the profiles: ${names.join(', ')})` : ' (books login makes one)'}`,
        );
      }
      return { configKey: 'currentProfile', value };
    }
    case 'suspense-accounts': {
      // Accounts the close review checks beside the usual ones, by name, comma-separated.
      const names = value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      if (names.length === 0)
        throw new UsageError(
          'suspense-accounts takes account names, comma-separated: "Clearing,Transfers"',
        );
      return { configKey: 'suspenseAccounts', value: names.join(',') };
    }
    case 'flux-percent': {
      const percent = Number(value.trim().replace(/%$/, ''));
      if (!Number.isInteger(percent) || percent < 1 || percent > 1000)
        throw new UsageError(`flux-percent must be a whole number from 1 to 1000, not "${value}"`);
      return { configKey: 'fluxPercent', value: String(percent) };
    }
    case 'flux-amount': {
      let cents: Cents;
      try {
        cents = decimalToCents(value);
      } catch (error) {
        if (!(error instanceof InvalidAmountError)) throw error;
        throw new UsageError(`flux-amount ${error.message}: books config set flux-amount 1000`);
      }
      return { configKey: 'fluxAmount', value: formatCents(cents, { thousands: false }) };
    }
    case 'workspace':
    case 'entity':
      throw new UsageError(
        `${key} is chosen with books use --workspace W [--entity E], which checks it exists`,
      );
    case 'base-url':
    case 'token':
      throw new UsageError(`${key} is saved with books login, into a profile`);
  }
}
