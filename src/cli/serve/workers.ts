import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { banner, serveUntilStopped, startServing, type ServeOptions } from './serving.js';
import { ExitCode } from '../exitCodes.js';
import type { CliIo } from '../io.js';

/** How the primary hands the tokens it chose to the processes it starts. */
const TOKENS_ENV = 'BOOKS_SERVE_TOKENS';

/** What a worker tells the primary. */
type WorkerMessage =
  { kind: 'listening'; baseUrl: string; adminToken: string; orgToken: string } | { kind: 'failed' };

/**
 * `books serve --workers N`: this process starts N processes that each open the platform on the
 * shared database (a SQLite file or PostgreSQL) and listen on the one port (node:cluster hands
 * them connections in turn). The primary chooses the tokens, so that every process answers to
 * the same ones; says once where it listens; starts a process again when one dies; and stops
 * them all on SIGINT/SIGTERM. A process that cannot start (the database is unusable, the port
 * taken) is said once, by the primary, with the worker's own message, and ends the command.
 */
export async function runServeWorkers(options: ServeOptions, io: CliIo): Promise<number> {
  return cluster.isPrimary ? runPrimary(options, io) : runWorker(options, io);
}

async function runWorker(options: ServeOptions, io: CliIo): Promise<number> {
  const tokens = JSON.parse(io.env[TOKENS_ENV] ?? '{}') as {
    adminToken?: string;
    orgToken?: string;
  };
  let served;
  try {
    served = await startServing({ ...options, ...tokens }, io);
  } catch (error) {
    process.send?.({ kind: 'failed' } satisfies WorkerMessage);
    throw error;
  }
  try {
    process.send?.({
      kind: 'listening',
      baseUrl: served.baseUrl,
      adminToken: served.adminToken,
      orgToken: served.orgToken,
    } satisfies WorkerMessage);
    // The primary is gone (killed): its connections are gone with it.
    await Promise.race([io.stopSignal, once(process, 'disconnect')]);
    return ExitCode.Success;
  } finally {
    await served.close();
  }
}

async function runPrimary(options: ServeOptions, io: CliIo): Promise<number> {
  const tokens = {
    adminToken: options.adminToken ?? `books_admin_${randomBytes(24).toString('base64url')}`,
    orgToken: options.orgToken ?? `books_org_${randomBytes(32).toString('base64url')}`,
  };
  cluster.setupPrimary({ silent: true });
  const live = new Set<Worker>();
  let stopping = false;
  // A Ctrl-C reaches every process of the group: the workers that end of it are not replaced.
  void io.stopSignal.then(() => (stopping = true));
  const start = (): Promise<WorkerMessage & { output: string; code?: number }> => {
    const worker = cluster.fork({ [TOKENS_ENV]: JSON.stringify(tokens) });
    live.add(worker);
    let output = '';
    let started = false;
    const keep = (chunk: Buffer) => {
      // Until it listens, a worker's words are kept: said once if it fails, else dropped.
      if (started) io.stderr.write(chunk);
      else output += chunk.toString();
    };
    worker.process.stderr?.on('data', keep);
    worker.process.stdout?.on('data', (chunk: Buffer) => io.stdout.write(chunk));
    return new Promise((resolve) => {
      worker.once('message', (message: WorkerMessage) => {
        started = message.kind === 'listening';
        if (started) resolve({ ...message, output });
      });
      worker.once('exit', (code, signal) => {
        live.delete(worker);
        if (!started) {
          resolve({ kind: 'failed', output, code: code ?? ExitCode.Refused });
          return;
        }
        if (stopping) return;
        io.stderr.write(
          `books: a serving process ended (${signal ?? `exit ${code}`}); starting another\n`,
        );
        void start();
      });
    });
  };
  const first = await Promise.all(Array.from({ length: options.workers }, () => start()));
  const failed = first.find((worker) => worker.kind === 'failed');
  try {
    if (failed) {
      io.stderr.write(failed.output);
      return failed.code ?? ExitCode.Refused;
    }
    const listening = first[0] as Extract<WorkerMessage, { kind: 'listening' }>;
    io.stderr.write(banner(options, listening));
    return await serveUntilStopped(options, io, listening);
  } finally {
    stopping = true;
    await Promise.all(
      [...live].map(async (worker) => {
        const exited = once(worker, 'exit');
        worker.process.kill('SIGTERM');
        await exited;
      }),
    );
  }
}
