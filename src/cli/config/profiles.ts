import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../exitCodes.js';
import { booksPaths } from './paths.js';

/** A saved connection: where to talk, with what token, and the chosen workspace and entity. */
export interface Profile {
  baseUrl?: string;
  token?: string;
  workspace?: string;
  entity?: string;
  /**
   * Which chart account each bank account's statements are of, per entity (`books reconcile`
   * remembers it the first time): the statement's IBAN or number → the account and currency.
   */
  statementAccounts?: Record<string, Record<string, StatementLink>>;
  /**
   * The order of `a/b/year` days in files that do not tell it (`books config set date-format`):
   * `DD/MM/YYYY` for a UK client's bank, `MM/DD/YYYY` for a US one's.
   */
  dateFormat?: string;
  /** Banks' CSV layouts by name (`--save-layout`): how a file of a shape is read. */
  statementLayouts?: Record<string, StatementLayout>;
  /**
   * The statement files `books reconcile` reconciled, per entity, by the SHA-256 of their bytes:
   * the account and the balances (stated or given), so that a statement that names no bank
   * account is still found by the close review, and the next one opens where it closed.
   */
  reconciledStatements?: Record<string, Record<string, ReconciledStatement>>;
}

/** A statement file reconciled: whose it is, its days, its balances in cents. */
export interface ReconciledStatement {
  accountId: string;
  from: string;
  to: string;
  openingCents: number;
  closingCents: number;
}

/** A bank's CSV layout: the shape of its files, and the flags that read them. */
export interface StatementLayout {
  shape: { header: string[] } | { columns: number; kinds: string[] };
  map: Record<string, string>;
  dateFormat?: string;
  decimalComma?: boolean;
  encoding?: string;
  savedAt: string;
}

/** A bank account's statements linked to a chart account. */
export interface StatementLink {
  accountId: string;
  currency: string | null;
}

export interface BooksConfig {
  currentProfile?: string;
  profiles: Record<string, Profile>;
  [key: string]: unknown;
}

/** The profile that stands for the embedded local platform. */
export const LOCAL_PROFILE = 'local';

/** The config file (`books config path`). */
export function configFile(env: NodeJS.ProcessEnv): string {
  return path.join(booksPaths(env).configDir, 'config.json');
}

/**
 * The config as it is on disk, read without `conf` (configStore.ts), which every command
 * would otherwise load: `conf` writes through `atomically`, whose exit hook kills the process on
 * the first Ctrl-C, before a command can stop cleanly (an import removing its spool).
 */
export function readConfig(env: NodeJS.ProcessEnv): BooksConfig {
  const file = configFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  try {
    const config = JSON.parse(text) as Partial<BooksConfig>;
    return { ...config, profiles: config.profiles ?? {} };
  } catch {
    throw new UsageError(`the config file ${file} is not valid JSON: fix it or remove it`);
  }
}

/**
 * The output defaults saved by `books config set output|color|pager`, read for every command; a
 * config file that cannot be read gives none here (the command that needs it says why).
 */
export function savedOutputSettings(env: NodeJS.ProcessEnv): {
  output?: string;
  color?: string;
  pager?: string;
} {
  try {
    const config = readConfig(env);
    return {
      ...(typeof config.output === 'string' && { output: config.output }),
      ...(typeof config.color === 'string' && { color: config.color }),
      ...(typeof config.pager === 'string' && { pager: config.pager }),
    };
  } catch {
    return {};
  }
}
