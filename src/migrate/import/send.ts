import { ImportInterrupted } from './check.js';
import type { Checkpoint } from './checkpoint.js';
import type { Batch } from './spool.js';

export interface SendProgress {
  batchesDone: number;
  entriesDone: number;
  entriesSent: number;
}

/** A failure part-way: what had been committed when it happened. */
export class PartialImportError extends Error {
  override name = 'PartialImportError';
  constructor(
    override readonly cause: unknown,
    readonly batchesDone: number,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

/** Per batch, each entry's file line and entry id with the journal entry it became. */
export type Receipt = Map<number, { entries: [number, string][]; ids: string[] }>;

/**
 * Sends every batch the checkpoint lacks, `concurrency` at a time, recording each in the
 * checkpoint (number, content hash, entries' fingerprints, ids) as it commits. On a failure or
 * an interruption it stops starting batches, lets those in flight finish, and throws
 * PartialImportError; running again sends only what is missing.
 */
export async function sendBatches(
  batches: AsyncIterable<Batch>,
  options: {
    checkpoint: Checkpoint;
    concurrency: number;
    send: (batch: Batch) => Promise<string[]>;
    onProgress?: (progress: SendProgress) => void;
    /** Keep, per batch, each entry's line and name with its id (for a receipt); else only counts. */
    keepReceipt?: boolean;
    signal?: AbortSignal;
  },
): Promise<{ entriesDone: number; entriesSent: number; receipt: Receipt }> {
  // Entries are not kept once sent: memory stays flat whatever the file's size.
  const receipt: Receipt = new Map();
  const keep = (batch: Batch, ids: string[]) => {
    if (options.keepReceipt)
      receipt.set(batch.plan.number, {
        entries: batch.entries.map((e) => [e.fileLine, e.entry ?? '']),
        ids,
      });
  };
  const inFlight = new Set<Promise<void>>();
  const progress: SendProgress = { batchesDone: 0, entriesDone: 0, entriesSent: 0 };
  let failure: unknown;
  const stop = () => (failure ??= new ImportInterrupted('interrupted'));
  options.signal?.addEventListener('abort', stop);
  try {
    for await (const batch of batches) {
      if (failure !== undefined) break;
      const { number } = batch.plan;
      if (options.checkpoint.has(number)) {
        keep(batch, options.checkpoint.ids(number) ?? []);
        progress.batchesDone += 1;
        progress.entriesDone += batch.entries.length;
        options.onProgress?.(progress);
        continue;
      }
      const task = options
        .send(batch)
        .then((ids) => {
          options.checkpoint.record(
            number,
            batch.plan.hash,
            batch.entries.map((e) => e.fingerprint),
            ids,
          );
          keep(batch, ids);
          progress.batchesDone += 1;
          progress.entriesDone += batch.entries.length;
          progress.entriesSent += batch.entries.length;
          options.onProgress?.(progress);
        })
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  if (failure !== undefined) throw new PartialImportError(failure, progress.batchesDone);
  return { entriesDone: progress.entriesDone, entriesSent: progress.entriesSent, receipt };
}
