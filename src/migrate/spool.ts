import {
  closeSync,
  createReadStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { LedgerEntry, LedgerLine } from './ledgerCsv.js';

/** What sending an entry needs of it: its place in the file, date, memo and lines. */
export interface BatchEntry extends Pick<LedgerEntry, 'fileLine' | 'entry' | 'date' | 'memo'> {
  lines: Pick<LedgerLine, 'account' | 'debitCents' | 'creditCents' | 'description' | 'classes'>[];
}

export interface Batch {
  number: number;
  entries: BatchEntry[];
}

type SpooledLine = [string, number, number, string, string[]];
type SpooledEntry = [number, string | null, string, string, SpooledLine[]];

/** Bytes gathered before each write. */
const WRITE_CHUNK = 1 << 20;

/**
 * Pass one's copy of a valid file's entries, for pass two to read back instead of parsing and
 * checking the CSV again: JSON is read many times faster than CSV is parsed, and the second
 * parse was a third of an import's own work. One JSON array per entry, in file order, in a
 * private directory made under `parent`, which `remove` deletes. It is about as large as the CSV.
 */
export class EntrySpool {
  readonly file: string;
  private descriptor: number | undefined;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(parent: string) {
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    this.file = path.join(mkdtempSync(path.join(parent, 'import-')), 'entries.jsonl');
    this.descriptor = openSync(this.file, 'w', 0o600);
  }

  add(entry: LedgerEntry): void {
    const spooled: SpooledEntry = [
      entry.fileLine,
      entry.entry ?? null,
      entry.date,
      entry.memo,
      entry.lines.map((l) => [l.account, l.debitCents, l.creditCents, l.description, l.classes]),
    ];
    const text = `${JSON.stringify(spooled)}\n`;
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= WRITE_CHUNK) this.flush();
  }

  /** Writes what is pending and closes the file; `batches` may then read it. */
  finish(): void {
    this.flush();
    this.close();
  }

  /** The entries, in file order, in batches of `size`, streamed. */
  async *batches(size: number): AsyncGenerator<Batch> {
    const lines = createInterface({ input: createReadStream(this.file), crlfDelay: Infinity });
    let entries: BatchEntry[] = [];
    let number = 0;
    for await (const line of lines) {
      const [fileLine, entry, date, memo, spooledLines] = JSON.parse(line) as SpooledEntry;
      entries.push({
        fileLine,
        entry: entry ?? undefined,
        date,
        memo,
        lines: spooledLines.map(([account, debitCents, creditCents, description, classes]) => ({
          account,
          debitCents,
          creditCents,
          description,
          classes,
        })),
      });
      if (entries.length === size) {
        yield { number: number++, entries };
        entries = [];
      }
    }
    if (entries.length > 0) yield { number, entries };
  }

  /** Deletes the file and its directory. */
  remove(): void {
    this.close();
    rmSync(path.dirname(this.file), { recursive: true, force: true });
  }

  private close(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    this.descriptor = undefined;
  }

  private flush(): void {
    if (this.descriptor === undefined || this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending.join(''), 'utf8');
    for (let written = 0; written < bytes.length;)
      written += writeSync(this.descriptor, bytes, written);
    this.pending = [];
    this.pendingLength = 0;
  }
}
