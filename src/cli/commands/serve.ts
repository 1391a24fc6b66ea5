import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defineCommand, flag, text } from '../command.js';
import { UsageError } from '../exitCodes.js';
import type { CliIo } from '../io.js';
import { booksPaths, isPostgresUrl } from '../config/paths.js';
import { banner, serveUntilStopped, startServing, type ServeOptions } from '../serve/serving.js';

/** What `--pool-size` is when not given (the store's own default, said in --help). */
const DEFAULT_POOL_SIZE = 10;

export interface ServeFlags {
  host?: string | undefined;
  port?: string | undefined;
  db?: string | undefined;
  memory?: boolean | undefined;
  adminToken?: string | undefined;
  orgToken?: string | undefined;
  ruleGenerationDelay?: string | undefined;
  webhookSchedule?: string | undefined;
  rateLimit?: string | undefined;
  authFailureLimit?: string | undefined;
  allowPrivateWebhooks?: boolean | undefined;
  poolSize?: string | undefined;
  workers?: string | undefined;
  exec?: string | undefined;
}

export function wholeNumber(text: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max}, not "${text}"`);
  }
  return Number(text);
}

/** The shortest token `serve` takes, and the least entropy it must show (bits, estimated). */
const MIN_TOKEN_LENGTH = 32;
const MIN_TOKEN_BITS = 96;

/**
 * A token given to `serve`, refused (exit 2, with a random one to use instead) when shorter than
 * 32 characters or of low entropy: fewer than 96 bits by the Shannon estimate of its characters
 * (`aaaa…`, `passwordpassword…` and the like; 32 random hex digits measure about 118).
 */
export function strongToken(token: string, flag: string, prefix: string): string {
  const counts = new Map<string, number>();
  for (const character of token) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...token].length;
  let bitsPerCharacter = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bitsPerCharacter -= p * Math.log2(p);
  }
  if (length >= MIN_TOKEN_LENGTH && bitsPerCharacter * length >= MIN_TOKEN_BITS) return token;
  const reason =
    length < MIN_TOKEN_LENGTH
      ? `is ${length} characters; at least ${MIN_TOKEN_LENGTH} are needed`
      : 'repeats too much to be guessed slowly';
  throw new UsageError(
    `${flag} ${reason}. A random one: ${prefix}${randomBytes(32).toString('base64url')}`,
  );
}

/** Flags to options; every bad value is a usage error (exit 2). */
export function parseServeOptions(flags: ServeFlags, env: NodeJS.ProcessEnv): ServeOptions {
  if (flags.db !== undefined && flags.memory) {
    throw new UsageError('--db and --memory exclude each other');
  }
  const schedule = flags.webhookSchedule ?? '0,5,300,1800,7200,18000,36000,36000';
  const db = flags.db ?? (flags.memory ? undefined : env.BOOKS_DATABASE_URL || undefined);
  const workers = positiveNumber(flags.workers ?? '1', '--workers', 64);
  if (workers > 1 && flags.memory) {
    throw new UsageError(
      '--workers needs a database the processes share (--db FILE or postgres://…), not --memory',
    );
  }
  if (flags.poolSize !== undefined && !(db && isPostgresUrl(db))) {
    throw new UsageError('--pool-size is for a PostgreSQL database (--db postgres://…)');
  }
  return {
    host: flags.host ?? '127.0.0.1',
    port: wholeNumber(flags.port ?? '4010', '--port', 65535),
    database: flags.memory
      ? ':memory:'
      : db && isPostgresUrl(db)
        ? postgresUrl(db)
        : path.resolve(db ?? booksPaths(env).platformDatabase),
    workers,
    ...(flags.poolSize !== undefined && {
      poolSize: positiveNumber(flags.poolSize, '--pool-size', 1000),
    }),
    adminToken: flags.adminToken && strongToken(flags.adminToken, '--admin-token', 'books_admin_'),
    orgToken: flags.orgToken && strongToken(flags.orgToken, '--org-token', 'books_org_'),
    ruleGenerationDelayMs: wholeNumber(
      flags.ruleGenerationDelay ?? '2000',
      '--rule-generation-delay',
    ),
    webhookScheduleSeconds: schedule
      .split(',')
      .map((part) => wholeNumber(part, '--webhook-schedule (each value)')),
    rateLimitPerSecond: wholeNumber(flags.rateLimit ?? '100', '--rate-limit'),
    authFailuresPerMinute: wholeNumber(flags.authFailureLimit ?? '100', '--auth-failure-limit'),
    allowPrivateWebhooks: flags.allowPrivateWebhooks ?? false,
    exec: flags.exec,
  };
}

/** A whole number from 1 to `max`, else a usage error. */
function positiveNumber(text: string, flag: string, max: number): number {
  const value = wholeNumber(text, flag, max);
  if (value < 1)
    throw new UsageError(`${flag} must be a whole number from 1 to ${max}, not "${text}"`);
  return value;
}

/** A PostgreSQL URL that parses, else a usage error that does not repeat its password. */
function postgresUrl(text: string): string {
  try {
    const url = new URL(text);
    if (!url.hostname) throw new Error('no host');
    return text;
  } catch {
    throw new UsageError(
      '--db: not a PostgreSQL URL; write postgres://USER:PASSWORD@HOST:PORT/DATABASE',
    );
  }
}

/**
 * Serves the local platform until SIGINT/SIGTERM, or, with `--exec`, for as long as the command
 * runs, answering with its exit status. With `--workers N`, N processes serve it on one port.
 */
export async function runServe(options: ServeOptions, io: CliIo): Promise<number> {
  if (options.database !== ':memory:' && !isPostgresUrl(options.database))
    mkdirSync(path.dirname(options.database), { recursive: true, mode: 0o700 });
  if (options.workers > 1) {
    const { runServeWorkers } = await import('../serve/workers.js');
    return runServeWorkers(options, io);
  }
  const served = await startServing(options, io);
  try {
    io.stderr.write(banner(options, served));
    return await serveUntilStopped(options, io, served);
  } finally {
    await served.close();
  }
}

export const command = defineCommand({
  summary: 'Serve the local platform over HTTP (the Platform API and the sandbox control plane)',
  options: {
    host: text('--host <host>', 'address to listen on', { default: '127.0.0.1' }),
    port: text('--port <port>', 'port to listen on (0: any free port)', { default: '4010' }),
    db: text(
      '--db <file|url>',
      'a SQLite file, or postgres://USER:PASSWORD@HOST:PORT/DATABASE (also BOOKS_DATABASE_URL); default: the local platform data file',
      { conflicts: 'memory' },
    ),
    memory: flag('--memory', 'keep everything in memory'),
    adminToken: text('--admin-token <token>', 'admin token of the control plane (default: random)'),
    orgToken: text(
      '--org-token <token>',
      'a token for the default organization (default: a fresh one)',
    ),
    ruleGenerationDelay: text('--rule-generation-delay <ms>', 'delay before rule generation runs', {
      default: '2000',
    }),
    webhookSchedule: text(
      '--webhook-schedule <s1,s2,...>',
      'seconds between webhook delivery attempts',
    ),
    rateLimit: text('--rate-limit <n>', 'requests per second per organization; 0 disables', {
      default: '100',
    }),
    authFailureLimit: text(
      '--auth-failure-limit <n>',
      'wrong tokens per address per minute before they are answered 429; 0 disables',
      { default: '100' },
    ),
    workers: text('--workers <n>', 'processes serving on the one port (a shared --db)', {
      default: '1',
    }),
    poolSize: text(
      '--pool-size <n>',
      `PostgreSQL connections of each process (default ${DEFAULT_POOL_SIZE})`,
    ),
    allowPrivateWebhooks: flag(
      '--allow-private-webhooks',
      'let webhook endpoints be at private addresses (10/8, 172.16/12, 192.168/16, fc00::/7)',
    ),
    exec: text(
      '--exec <command>',
      'run a command with BOOKS_BASE_URL and BOOKS_TOKEN set, then stop and exit with its status',
    ),
  },
  examples: [
    'books serve --port 4010 --db ./books.sqlite',
    'books serve --db postgres://books:secret@db.internal:5432/books --workers 4',
    'books serve --memory --port 0 --exec "npm run integration-tests"',
  ],
  run: (ctx, flags) => runServe(parseServeOptions(flags, ctx.io.env), ctx.io),
});
