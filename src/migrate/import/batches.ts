import { createHash, type Hash } from 'node:crypto';
import type { LedgerBasis } from '../../api/index.js';
import { hashId, type LedgerEntry, type LedgerLine } from '../../formats/ledgerCsv.js';

/** Entries per bulk request: the API's maximum. */
export const BATCH_ENTRIES = 100;

/**
 * Bytes a batch's request may take. The platform refuses bodies over 5 MB (413); a batch is cut
 * early when its next entry would pass this, well below, whatever the entries' sizes.
 */
export const BATCH_BYTES = 4 * 1024 * 1024;

/** A batch as pass one cuts it: which entries, and the hash of what they say. */
export interface BatchPlan {
  number: number;
  entries: number;
  /** SHA-256 of the batch's entries as the file gives them (`entryContent`). */
  hash: string;
  firstLine: number;
  lastLine: number;
}

/**
 * What an entry says, as the text its hashes are taken of: date, memo and lines (the account
 * and classes as the file names them, amounts in cents, description). Not its place in the
 * file nor its entry id: moving or renumbering lines does not change what is posted.
 */
export function entryContent(entry: {
  date: string;
  memo: string;
  lines: readonly Pick<
    LedgerLine,
    'account' | 'debitCents' | 'creditCents' | 'description' | 'classes' | 'taxCode'
  >[];
}): string {
  return JSON.stringify([
    entry.date,
    entry.memo,
    // A tax code only where a line has one: the content (and the fingerprint an earlier run
    // kept) of a line without is what it always was.
    entry.lines.map((l) =>
      l.taxCode === undefined
        ? [l.account, l.debitCents, l.creditCents, l.description, l.classes]
        : [l.account, l.debitCents, l.creditCents, l.description, l.classes, l.taxCode],
    ),
  ]);
}

/** A short fingerprint of one entry's content, kept per sent entry to name what changed. */
export function entryFingerprint(content: string): string {
  const [low, high] = hashId(content);
  return low.toString(16).padStart(8, '0') + high.toString(16).padStart(8, '0');
}

/**
 * An upper bound of an entry's bytes in a bulk request: 96 bytes of names, ids and amounts per
 * line and per entry (account and class ids are uuids), and its texts (three bytes a character
 * at most, counted exactly when long).
 */
export function entryBytes(entry: LedgerEntry): number {
  const textBytes = (text: string) =>
    text.length <= 1024 ? text.length * 3 : Buffer.byteLength(text);
  let bytes = 96 + textBytes(entry.memo);
  for (const line of entry.lines)
    bytes += 96 + textBytes(line.description) + line.classes.length * 40;
  return bytes;
}

/**
 * Cuts the file's entries into batches as pass one reads them: 100 entries, or fewer when the
 * next would take the request over BATCH_BYTES. The cut depends only on the entries, so a rerun
 * of the same file cuts the same batches. `onBatch` gets each batch with its entries' file lines
 * and, for the batches `fingerprinted` asks for (those an earlier run sent, to compare), their
 * fingerprints: taking them is a tenth of pass one, spent only where they are read.
 */
export class BatchCutter {
  readonly plans: BatchPlan[] = [];
  private hash: Hash | undefined;
  private bytes = 0;
  private lines: number[] = [];
  private lastLine = 0;
  private fingerprints: string[] | undefined;

  constructor(
    private readonly onBatch: (plan: BatchPlan, lines: number[], fingerprints: string[]) => void,
    private readonly fingerprinted: (batch: number) => boolean = () => false,
  ) {}

  /** An entry: the file lines it spans, its content (`entryContent`), its bytes (`entryBytes`). */
  add(firstLine: number, lastLine: number, content: string, bytes: number): void {
    if (
      this.lines.length === BATCH_ENTRIES ||
      (this.lines.length > 0 && this.bytes + bytes > BATCH_BYTES)
    ) {
      this.cut();
    }
    if (!this.hash) {
      this.hash = createHash('sha256');
      this.fingerprints = this.fingerprinted(this.plans.length) ? [] : undefined;
    }
    this.hash.update(content).update('\n');
    this.bytes += bytes;
    this.lines.push(firstLine);
    this.lastLine = lastLine;
    this.fingerprints?.push(entryFingerprint(content));
  }

  finish(): void {
    if (this.lines.length > 0) this.cut();
  }

  private cut(): void {
    const plan: BatchPlan = {
      number: this.plans.length,
      entries: this.lines.length,
      hash: this.hash!.digest('hex'),
      firstLine: this.lines[0]!,
      lastLine: this.lastLine,
    };
    this.plans.push(plan);
    this.onBatch(plan, this.lines, this.fingerprints ?? []);
    this.hash = undefined;
    this.bytes = 0;
    this.lines = [];
  }
}

/** Which workspace and entity an import writes to. */
export interface ImportScopeIds {
  workspaceId: string;
  entityId: string;
}

const digest = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 40);

/**
 * A batch's idempotency key: from the full workspace and entity ids, the ledger basis, the
 * batch's number and its content hash. The same batch of the same file into the same entity is
 * the same key (a retry replays it); any other batch, entity or content is another key.
 */
export function batchKey(scope: ImportScopeIds, basis: LedgerBasis, plan: BatchPlan): string {
  return `books-import-${digest(scope.workspaceId, scope.entityId, basis, String(plan.number), plan.hash)}-${plan.number}`;
}

/** The key of a bulk account creation: the full ids and the accounts asked for. */
export function accountsKey(scope: ImportScopeIds, bodies: unknown[]): string {
  return `books-accounts-${digest(scope.workspaceId, scope.entityId, JSON.stringify(bodies))}`;
}

/** The key of the entity's accounting migration: one per entity, ever. */
export function migrationKey(scope: ImportScopeIds): string {
  return `books-migration-${digest(scope.workspaceId, scope.entityId)}`;
}
