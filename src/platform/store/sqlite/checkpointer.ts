import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';

/**
 * Folds a serving file's WAL into the database from a thread of its own, with a connection of
 * its own: SQLite's PASSIVE checkpoint, which copies what no reader still needs and never
 * waits for a lock. Left to the connection that serves (`wal_autocheckpoint`), the commit that
 * crosses the threshold copies the WAL and fsyncs the file while every request waits: with 50
 * clients reading reports beside bulk writes, a report's p99 was 50 ms at a fifth of the load
 * the process can take, 14 ms with no checkpoints at all. The serving connection keeps a far
 * threshold as a backstop (BACKSTOP_PAGES), should this thread fall behind. Writes made before
 * a damage is found may be folded in, as the serving connection's own checkpoints did; nothing
 * after (stop()).
 */
export class Checkpointer {
  private readonly worker: Worker;
  /** Set (to 1) to stop at once: the thread looks before each checkpoint. */
  private readonly halt = new Int32Array(new SharedArrayBuffer(4));
  private readonly exited: Promise<void>;
  private asked: ((outcome: CheckpointOutcome | undefined) => void)[] = [];

  constructor(filename: string, everyMs = CHECKPOINT_EVERY_MS) {
    // Loaded here, not with the module: every command that opens a SQLite file loads this one
    // (its backstop threshold), and only `books serve` starts the thread.
    const load = createRequire(import.meta.url);
    const threads = load('node:worker_threads') as { Worker: typeof Worker };
    this.worker = new threads.Worker(CHECKPOINTING, {
      eval: true,
      workerData: {
        filename,
        driver: load.resolve('better-sqlite3'),
        everyMs,
        fromBytes: FROM_WAL_BYTES,
        halt: this.halt,
      },
    });
    this.exited = new Promise<void>((resolve) =>
      this.worker.once('exit', () => {
        for (const answer of this.asked.splice(0)) answer(undefined);
        resolve();
      }),
    );
    this.worker.on('message', (outcome: CheckpointOutcome) => this.asked.shift()?.(outcome));
    // A failure here costs only the backstop's pauses: never the serving process.
    this.worker.on('error', () => undefined);
    this.worker.unref();
  }

  /** A checkpoint now, and what it did (undefined once stopped). */
  checkpoint(): Promise<CheckpointOutcome | undefined> {
    if (Atomics.load(this.halt, 0) !== 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.asked.push(resolve);
      this.worker.postMessage('checkpoint');
    });
  }

  /**
   * Stops checkpointing (no checkpoint starts once this returns: a damaged file must stay as
   * it was found) and closes the thread's connection (before the serving one closes).
   */
  stop(): Promise<void> {
    if (Atomics.exchange(this.halt, 0, 1) === 0) {
      // Kept alive until the thread has closed its connection: a process closing down waits.
      this.worker.ref();
      this.worker.postMessage('stop');
    }
    return this.exited;
  }
}

/** What a checkpoint did: the WAL's frames, and how many of them are in the file now. */
export interface CheckpointOutcome {
  busy: number;
  log: number;
  checkpointed: number;
}

/** How often the thread checkpoints. */
const CHECKPOINT_EVERY_MS = 200;
/**
 * The WAL's size from which it does (SQLite's own default threshold, 1,000 pages of 4 KB): a
 * few writes stay in the WAL, as they did, and an idle server does not fsync five times a
 * second.
 */
const FROM_WAL_BYTES = 4_096_000;
/** The serving connection's own threshold, in pages, with the thread working (64 MB of 4 KB). */
export const BACKSTOP_PAGES = 16_000;

/**
 * The thread: a connection of its own, a PASSIVE checkpoint every so often once the WAL is
 * large, until told; one whenever asked.
 */
const CHECKPOINTING = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.filename, { fileMustExist: true });
  db.pragma('busy_timeout = 0');
} catch {
  process.exit(0);
}
const checkpoint = () => {
  try {
    return db.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch {
    // Busy (another process checkpoints) or the file is going: the next turn tries again.
    return undefined;
  }
};
// A WAL file under the threshold holds fewer frames than that (SQLite reuses the file from its
// start, so a larger one may hold few): nothing to do yet.
const walFile = workerData.filename + '-wal';
const walIsLarge = () => {
  try {
    return statSync(walFile).size >= workerData.fromBytes;
  } catch {
    return false;
  }
};
const timer = setInterval(() => {
  if (Atomics.load(workerData.halt, 0) === 0 && walIsLarge()) checkpoint();
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'checkpoint' && Atomics.load(workerData.halt, 0) === 0) {
    parentPort.postMessage(checkpoint());
    return;
  }
  if (message === 'checkpoint') return parentPort.postMessage(undefined);
  clearInterval(timer);
  try {
    db.close();
  } finally {
    process.exit(0);
  }
});
`;
