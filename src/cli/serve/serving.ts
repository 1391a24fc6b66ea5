import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { ExitCode, UserError } from '../exitCodes.js';
import type { CliIo } from '../io.js';
import { isPostgresUrl } from '../config/paths.js';

/**
 * Serving the local platform from one process: open it on its database, listen, say where, and
 * wait to be stopped. `books serve` runs it once; with `--workers N` (serveWorkers.ts) each
 * worker process runs it on the shared port.
 */

export interface ServeOptions {
  host: string;
  port: number;
  /** A SQLite file, `:memory:`, or a `postgres://` URL. */
  database: string;
  /** PostgreSQL connections of each process. */
  poolSize?: number;
  /** Processes serving on the one port (1: this process alone). */
  workers: number;
  adminToken?: string;
  orgToken?: string;
  ruleGenerationDelayMs: number;
  webhookScheduleSeconds: number[];
  rateLimitPerSecond: number;
  authFailuresPerMinute: number;
  allowPrivateWebhooks: boolean;
  exec?: string;
}

/** Where the books are, as the start line says it: never a password. */
export function databaseShown(database: string): string {
  if (database === ':memory:') return 'in memory';
  if (isPostgresUrl(database)) {
    const url = new URL(database);
    return `postgres://${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname}`;
  }
  return database;
}

/** One process serving the platform, listening. */
export interface Serving {
  baseUrl: string;
  adminToken: string;
  orgToken: string;
  close(): Promise<void>;
}

/** Opens the platform on its database and listens; says on `io`'s stderr when it is damaged. */
export async function startServing(
  options: ServeOptions,
  io: Pick<CliIo, 'stderr'>,
): Promise<Serving> {
  const { createPlatform } = await import('../../platform/index.js');
  const platform = await createPlatform({
    database: options.database,
    // A serving SQLite file is checkpointed from a thread of its own (Checkpointer).
    tuning: {
      backgroundCheckpoints: true,
      ...(options.poolSize !== undefined && { poolSize: options.poolSize }),
    },
    adminToken: options.adminToken,
    orgToken: options.orgToken,
    ruleGenerationDelayMs: options.ruleGenerationDelayMs,
    webhookScheduleSeconds: options.webhookScheduleSeconds,
    rateLimitPerSecond: options.rateLimitPerSecond,
    authFailuresPerMinute: options.authFailuresPerMinute,
    allowPrivateWebhooks: options.allowPrivateWebhooks,
  });
  platform.engine.store.database.onDamage((damage) =>
    io.stderr.write(
      `books serve: the database ${damage.location} is damaged (${damage.detail}): this process writes nothing more to it (every write is a 503; reads that still work are answered). Stop it, run \`books db check --db ${damage.checkTarget}\`, and restore a backup (\`books db restore\`)\n`,
    ),
  );
  try {
    await listen(platform.app, options.host, options.port);
  } catch (error) {
    await platform.close();
    throw error;
  }
  const address = platform.app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    baseUrl: `http://${host}:${address.port}`,
    adminToken: platform.adminToken,
    orgToken: platform.orgToken,
    close: () => platform.close(),
  };
}

/** What `serve` says once it listens (to stderr, once). */
export function banner(
  options: ServeOptions,
  served: { baseUrl: string; adminToken: string; orgToken: string },
): string {
  return [
    `books: local platform listening on ${served.baseUrl}${options.workers > 1 ? ` (${options.workers} processes)` : ''}`,
    `  database            ${databaseShown(options.database)}`,
    `  admin token         ${served.adminToken}`,
    `  organization token  ${served.orgToken}`,
    '',
  ].join('\n');
}

/** Waits for SIGINT/SIGTERM, or runs `--exec`'s command: the exit status to end with. */
export async function serveUntilStopped(
  options: ServeOptions,
  io: CliIo,
  served: { baseUrl: string; orgToken: string },
): Promise<number> {
  if (options.exec === undefined) {
    await io.stopSignal;
    return ExitCode.Success;
  }
  return runAlongside(options.exec, io, {
    BOOKS_BASE_URL: served.baseUrl,
    BOOKS_TOKEN: served.orgToken,
  });
}

async function listen(
  app: { listen(options: { host: string; port: number }): Promise<string> },
  host: string,
  port: number,
): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    throw cannotListen(error, host, port);
  }
}

/** Why a server could not listen, as the user's error when it is theirs to fix. */
export function cannotListen(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'EADDRINUSE'
      ? 'the address is in use'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? 'no such address on this machine'
          : undefined;
  return reason ? new UserError(`cannot listen on ${host}:${port}: ${reason}`) : error;
}

/** Runs a shell command with extra environment and resolves with its exit status. */
function runAlongside(
  command: string,
  io: CliIo,
  extraEnv: Record<string, string>,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      shell: true,
      stdio: 'inherit',
      env: { ...io.env, ...extraEnv },
    });
    void io.stopSignal.then((signal) => child.kill(signal));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (signal) resolve(128 + (constants.signals[signal] ?? 1));
      else resolve(code ?? ExitCode.Refused);
    });
  });
}
