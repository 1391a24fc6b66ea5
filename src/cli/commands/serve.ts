import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import path from 'node:path';
import { ExitCode, UsageError, UserError } from '../exitCodes.js';
import type { CliIo } from '../io.js';
import { booksPaths } from '../paths.js';

export interface ServeFlags {
  host?: string;
  port?: string;
  db?: string;
  memory?: boolean;
  adminToken?: string;
  orgToken?: string;
  ruleGenerationDelay?: string;
  webhookSchedule?: string;
  rateLimit?: string;
  exec?: string;
}

export interface ServeOptions {
  host: string;
  port: number;
  /** A SQLite file, or `:memory:`. */
  database: string;
  adminToken?: string;
  orgToken?: string;
  ruleGenerationDelayMs: number;
  webhookScheduleSeconds: number[];
  rateLimitPerSecond: number;
  exec?: string;
}

export function wholeNumber(text: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max}, not "${text}"`);
  }
  return Number(text);
}

/** Flags to options; every bad value is a usage error (exit 2). */
export function parseServeOptions(
  flags: ServeFlags,
  env: NodeJS.ProcessEnv = process.env,
): ServeOptions {
  if (flags.db !== undefined && flags.memory) {
    throw new UsageError('--db and --memory exclude each other');
  }
  const schedule = flags.webhookSchedule ?? '0,5,300,1800,7200,18000,36000,36000';
  return {
    host: flags.host ?? '127.0.0.1',
    port: wholeNumber(flags.port ?? '4010', '--port', 65535),
    database: flags.memory
      ? ':memory:'
      : path.resolve(flags.db ?? booksPaths(env).platformDatabase),
    adminToken: flags.adminToken,
    orgToken: flags.orgToken,
    ruleGenerationDelayMs: wholeNumber(
      flags.ruleGenerationDelay ?? '2000',
      '--rule-generation-delay',
    ),
    webhookScheduleSeconds: schedule
      .split(',')
      .map((part) => wholeNumber(part, '--webhook-schedule (each value)')),
    rateLimitPerSecond: wholeNumber(flags.rateLimit ?? '100', '--rate-limit'),
    exec: flags.exec,
  };
}

/**
 * Serves the local platform until SIGINT/SIGTERM, or, with `--exec`, for as long as the command
 * runs, answering with its exit status.
 */
export async function runServe(options: ServeOptions, io: CliIo): Promise<number> {
  if (options.database !== ':memory:')
    mkdirSync(path.dirname(options.database), { recursive: true });
  const { createPlatform } = await import('../../platform/index.js');
  const platform = await createPlatform({
    database: options.database,
    adminToken: options.adminToken,
    orgToken: options.orgToken,
    ruleGenerationDelayMs: options.ruleGenerationDelayMs,
    webhookScheduleSeconds: options.webhookScheduleSeconds,
    rateLimitPerSecond: options.rateLimitPerSecond,
  });
  try {
    await listen(platform.app, options.host, options.port);
    const address = platform.app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const baseUrl = `http://${host}:${address.port}`;
    io.stderr.write(
      [
        `books: local platform listening on ${baseUrl}`,
        `  database            ${options.database === ':memory:' ? 'in memory' : options.database}`,
        `  admin token         ${platform.adminToken}`,
        `  organization token  ${platform.orgToken}`,
        '',
      ].join('\n'),
    );
    if (options.exec === undefined) {
      await io.stopSignal;
      return ExitCode.Success;
    }
    return await runAlongside(options.exec, io, {
      BOOKS_BASE_URL: baseUrl,
      BOOKS_TOKEN: platform.orgToken,
    });
  } finally {
    await platform.close();
  }
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
