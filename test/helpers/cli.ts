import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { serveFlagsFor } from './backend.js';

/** A token strong enough for `books serve` (which refuses weak ones). */
export const SERVE_TOKEN = 'books_org_test_4Kd9Qx7Lm2Pz8Rt5Vw3Ny6Bc1Hf0Js';

export const BOOKS_BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../bin/books.cjs',
);

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A temporary HOME (and XDG directories inside it) for one test, removed by `cleanup`. */
export function temporaryHome() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'books-home-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    NO_COLOR: '1',
  };
  return { home, env, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * A temporary HOME made when first used (by a test or a hook), so that a suite skipped or
 * filtered out (`-t`), whose hooks never run, leaves none behind; `cleanup` removes it if made.
 */
export function lazyTemporaryHome() {
  let made: ReturnType<typeof temporaryHome> | undefined;
  const home = () => (made ??= temporaryHome());
  return {
    get home() {
      return home().home;
    },
    get env() {
      return home().env;
    },
    cleanup: () => made?.cleanup(),
  };
}

/**
 * The commands that make a workspace and an entity with a bookkeeping start date (what a
 * migration needs) and choose both for the commands after.
 */
export function chooseNewEntity(workspace: string, entity: string): string[][] {
  return [
    ['workspace', 'create', workspace],
    ['sandbox', 'entity', 'create', entity, '--start-date', '2026-01-01', '-w', workspace],
    ['use', '-w', workspace, '-e', entity],
  ];
}

export interface RunningCli {
  child: ReturnType<typeof spawn>;
  result: Promise<CliResult>;
  /** Resolves with stderr once it contains the text. */
  waitForStderr(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** What it has printed on stderr so far. */
  stderr(): string;
}

/** Spawns the built `books` binary, with no TTY and the given environment. */
export function spawnBooks(args: string[], env: NodeJS.ProcessEnv, input?: string): RunningCli {
  const child = spawn(process.execPath, [BOOKS_BIN, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    waiters.forEach((wake) => wake());
  });
  child.stdin.end(input ?? '');
  const result = new Promise<CliResult>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    result,
    stderr: () => stderr,
    waitForStderr(text, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const matches = () =>
          typeof text === 'string' ? stderr.includes(text) : text.test(stderr);
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${text}; stderr: ${stderr}`)),
          timeoutMs,
        );
        const check = () => {
          if (matches()) {
            clearTimeout(timer);
            resolve(stderr);
          }
        };
        waiters.push(check);
        void result.then(() => {
          clearTimeout(timer);
          if (matches()) resolve(stderr);
          else reject(new Error(`books exited before printing ${text}; stderr: ${stderr}`));
        });
        check();
      });
    },
  };
}

export function runBooks(
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<CliResult> {
  return spawnBooks(args, env, input).result;
}

/**
 * `books serve` (the built binary) on a free loopback port, in memory unless `flags` say
 * otherwise (`--db FILE`), with the organization token SERVE_TOKEN; `env` talks to it.
 */
export async function serveBooks(
  home: ReturnType<typeof temporaryHome>,
  flags: string[] = ['--memory'],
  /** `asGiven`: the database flags as they are, even in a PostgreSQL run (a SQLite file). */
  options: { asGiven?: boolean } = {},
) {
  const server = spawnBooks(
    [
      'serve',
      '--port',
      '0',
      '--org-token',
      SERVE_TOKEN,
      ...(options.asGiven ? flags : await serveFlagsFor(flags)),
    ],
    home.env,
  );
  const banner = await server.waitForStderr('organization token');
  const baseUrl = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
  return {
    baseUrl,
    /** The server's process id (benches read its memory). */
    pid: server.child.pid!,
    /** What the server has printed on stderr so far (to say why, when it is gone). */
    stderr: () => server.stderr(),
    env: { ...home.env, BOOKS_BASE_URL: baseUrl, BOOKS_TOKEN: SERVE_TOKEN },
    api: (method: string, path: string, body?: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${SERVE_TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => {
        const text = r.status === 200 || r.status === 201 ? await r.text() : '';
        return { status: r.status, body: (text === '' ? undefined : JSON.parse(text)) as any };
      }),
    async stop() {
      server.child.kill('SIGTERM');
      await server.result;
    },
  };
}

/** A new entity in `workspace`, and a file imported into it with its missing accounts made. */
export async function importIntoNewEntity(
  env: NodeJS.ProcessEnv,
  workspace: string,
  entity: string,
  file: string,
  extra: string[] = [],
) {
  const made = await runBooks(['sandbox', 'entity', 'create', entity, '-w', workspace], env);
  expect(made.code, made.stderr).toBe(0);
  const where = ['-w', workspace, '-e', entity];
  const imported = await runBooks(
    ['je', 'import', file, '--create-missing-accounts', ...where, ...extra],
    env,
  );
  return { imported, where };
}

/** An entity's trial balance by account name, in cents (debits less credits), as `books` prints it. */
export async function trialBalanceOf(env: NodeJS.ProcessEnv, where: string[]) {
  const range = ['--from', '1990-01-01', '--to', '2030-12-31', '-o', 'json', ...where];
  const [tb, pl] = await Promise.all([
    runBooks(['report', 'tb', ...range], env),
    runBooks(['report', 'pl', ...range], env),
  ]);
  expect(tb.code, tb.stderr).toBe(0);
  expect(pl.code, pl.stderr).toBe(0);
  return new Map(
    accountBalances(JSON.parse(tb.stdout).report, JSON.parse(pl.stdout).report).map((a) => [
      a.accountName,
      a.cents,
    ]),
  );
}

interface ReportedTrialBalance {
  rows: { accountCode: string; accountName: string; debit: number; credit: number }[];
}
interface ReportedProfitAndLoss {
  sections: {
    section: string;
    lines: { accountCode: string; accountName: string; amount: number; kind: string }[];
  }[];
}

/**
 * Each account's balance over all its days (debit less credit, in cents, zeros left out) from a
 * trial balance and a profit and loss over the same range: the trial balance's balance-sheet
 * accounts, and income and expenses from the profit and loss (the trial balance starts them
 * afresh each fiscal year, and keeps the years before in its Retained Earnings row).
 */
export function accountBalances(
  trialBalance: ReportedTrialBalance,
  profitAndLoss: ReportedProfitAndLoss,
): { accountCode: string; accountName: string; cents: number }[] {
  const results = profitAndLoss.sections.flatMap((section) => {
    const credit = section.section === 'income' || section.section === 'otherIncome';
    return section.lines
      .filter((line) => line.kind === 'account')
      .map(({ accountCode, accountName, amount }) => ({
        accountCode,
        accountName,
        cents: Math.round((credit ? -amount : amount) * 100),
      }));
  });
  const resultCodes = new Set(results.map((r) => r.accountCode));
  return [
    ...trialBalance.rows
      .filter((r) => r.accountCode !== '' && !resultCodes.has(r.accountCode))
      .map(({ accountCode, accountName, debit, credit }) => ({
        accountCode,
        accountName,
        cents: Math.round((debit - credit) * 100),
      })),
    ...results,
  ].filter((a) => a.cents !== 0);
}
