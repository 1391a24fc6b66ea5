import { createHash } from 'node:crypto';
import { addCents, type Cents } from '../core/money.js';
import type { Checkpoint } from './checkpoint.js';
import type { Problem } from './ledgerCsv.js';
import { readLedger, type ReadOptions, type ReadResult } from './reader.js';
import type { Batch, EntrySpool } from './spool.js';

/** What one pass over the file learns, before anything is sent. */
export interface LedgerSummary extends ReadResult {
  entries: number;
  /** Account references (code, name or id) with their first line and any account_type. */
  accounts: Map<string, { firstLine: number; accountType: string | undefined }>;
  /** Class references (id or label) with their first line. */
  classes: Map<string, number>;
  /** Debits minus credits per account reference. */
  totals: Map<string, Cents>;
  startDate: string | undefined;
  endDate: string | undefined;
}

/**
 * Pass one: reads the whole file, checking every line and entry, holding only summaries. Each
 * entry also goes to `spool`, when given, for pass two to send.
 */
export async function summarizeLedger(
  file: string,
  options: ReadOptions,
  spool?: EntrySpool,
): Promise<LedgerSummary> {
  const summary: LedgerSummary = {
    hash: '',
    lines: 0,
    problems: [],
    entries: 0,
    accounts: new Map(),
    classes: new Map(),
    totals: new Map(),
    startDate: undefined,
    endDate: undefined,
  };
  for await (const entry of readLedger(file, options, summary)) {
    spool?.add(entry);
    summary.entries += 1;
    if (summary.startDate === undefined || entry.date < summary.startDate)
      summary.startDate = entry.date;
    if (summary.endDate === undefined || entry.date > summary.endDate) summary.endDate = entry.date;
    for (const line of entry.lines) {
      if (!summary.accounts.has(line.account)) {
        summary.accounts.set(line.account, {
          firstLine: line.fileLine,
          accountType: line.accountType,
        });
      }
      for (const label of line.classes)
        if (!summary.classes.has(label)) summary.classes.set(label, line.fileLine);
      summary.totals.set(
        line.account,
        addCents(summary.totals.get(line.account) ?? 0, line.debitCents - line.creditCents),
      );
    }
  }
  return summary;
}

/** The idempotency key of a batch: the same entity, file, basis and batch number, the same key. */
export function batchKey(entityId: string, fileHash: string, basis: string, batch: number): string {
  const digest = createHash('sha256')
    .update(`${entityId}\n${fileHash}\n${basis}\n${batch}`)
    .digest('hex');
  return `books-import-${digest.slice(0, 40)}-${batch}`;
}

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

/**
 * Sends every batch the checkpoint lacks, `concurrency` at a time, each with its derived key,
 * recording each in the checkpoint as it commits. Answers, per batch, the journal entry ids.
 * On a failure it stops starting batches, lets those in flight finish, and throws
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
  },
): Promise<{
  entriesDone: number;
  receipt: Map<number, { entries: [number, string][]; ids: string[] }>;
}> {
  // Entries are not kept once sent: memory stays flat whatever the file's size.
  const receipt = new Map<number, { entries: [number, string][]; ids: string[] }>();
  const keep = (batch: Batch, ids: string[]) => {
    if (options.keepReceipt)
      receipt.set(batch.number, {
        entries: batch.entries.map((e) => [e.fileLine, e.entry ?? '']),
        ids,
      });
  };
  const inFlight = new Set<Promise<void>>();
  const progress: SendProgress = { batchesDone: 0, entriesDone: 0, entriesSent: 0 };
  let failure: unknown;
  for await (const batch of batches) {
    if (failure !== undefined) break;
    if (options.checkpoint.has(batch.number)) {
      keep(batch, options.checkpoint.ids(batch.number) ?? []);
      progress.batchesDone += 1;
      progress.entriesDone += batch.entries.length;
      options.onProgress?.(progress);
      continue;
    }
    const task = options
      .send(batch)
      .then((ids) => {
        options.checkpoint.record(batch.number, ids);
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
  if (failure !== undefined) throw new PartialImportError(failure, progress.batchesDone);
  return { entriesDone: progress.entriesDone, receipt };
}

export interface ReconciliationRow {
  account: string;
  fileCents: Cents;
  platformCents: Cents;
}

/** The file's per-account totals beside the platform's movement over the same days. */
export function reconcile(
  fileTotals: ReadonlyMap<string, Cents>,
  accountKeyOf: (reference: string) => string,
  platformMovement: ReadonlyMap<string, Cents>,
): { rows: ReconciliationRow[]; matches: boolean } {
  const byAccount = new Map<string, Cents>();
  for (const [reference, cents] of fileTotals) {
    const key = accountKeyOf(reference);
    byAccount.set(key, addCents(byAccount.get(key) ?? 0, cents));
  }
  const keys = new Set([
    ...byAccount.keys(),
    ...[...platformMovement].filter(([, c]) => c !== 0).map(([k]) => k),
  ]);
  const rows = [...keys].sort().map((account) => ({
    account,
    fileCents: byAccount.get(account) ?? 0,
    platformCents: platformMovement.get(account) ?? 0,
  }));
  return { rows, matches: rows.every((r) => r.fileCents === r.platformCents) };
}

export type { Batch, Problem };
