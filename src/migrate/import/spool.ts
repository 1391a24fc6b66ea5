import {
  closeSync,
  createReadStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Cents } from '../../core/money.js';
import { entryFingerprint, type BatchPlan } from './batches.js';

/** An entry as pass two sends it: its place in the file, and what it says. */
export interface BatchEntry {
  fileLine: number;
  entry: string | undefined;
  date: string;
  memo: string;
  lines: {
    account: string;
    debitCents: Cents;
    creditCents: Cents;
    description: string;
    classes: string[];
    taxCode?: string;
  }[];
  /** The fingerprint of its content (`entryFingerprint`), which the checkpoint keeps. */
  fingerprint: string;
}

export interface Batch {
  plan: BatchPlan;
  entries: BatchEntry[];
}

type SpooledContent = [string, string, [string, Cents, Cents, string, string[], string?][]];

/**
 * Spools left by imports that were killed (`kill -9`, a crash: what no `finally` survives),
 * recognized by the process id in their name, are removed by the next import.
 */
function removeOrphans(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = Number(/^import-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Bytes gathered before each write. */
const WRITE_CHUNK = 1 << 20;

/**
 * Pass one's copy of a valid file's entries, for pass two to read back instead of parsing and
 * checking the CSV again: JSON is read many times faster than CSV is parsed, and the second
 * parse was a third of an import's own work. One line per entry, in file order: its file line,
 * its entry id and its content (`entryContent`), tab-separated (JSON holds no raw tab). In a
 * private directory made under `parent`, which `remove` deletes. It is about as large as the CSV.
 */
export class EntrySpool {
  readonly file: string;
  private descriptor: number | undefined;
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(parent: string) {
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    removeOrphans(parent);
    this.file = path.join(
      mkdtempSync(path.join(parent, `import-${process.pid}-`)),
      'entries.jsonl',
    );
    this.descriptor = openSync(this.file, 'w', 0o600);
  }

  add(fileLine: number, entry: string | undefined, content: string): void {
    const text = `${fileLine}\t${JSON.stringify(entry ?? null)}\t${content}\n`;
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= WRITE_CHUNK) this.flush();
  }

  /** Writes what is pending and closes the file; `batches` may then read it. */
  finish(): void {
    this.flush();
    this.close();
  }

  /** The entries, in file order, cut into the batches pass one planned, streamed. */
  async *batches(plans: readonly BatchPlan[]): AsyncGenerator<Batch> {
    const lines = createInterface({ input: createReadStream(this.file), crlfDelay: Infinity });
    let entries: BatchEntry[] = [];
    let number = 0;
    for await (const line of lines) {
      const first = line.indexOf('\t');
      const second = line.indexOf('\t', first + 1);
      const content = line.slice(second + 1);
      const [date, memo, spooledLines] = JSON.parse(content) as SpooledContent;
      entries.push({
        fileLine: Number(line.slice(0, first)),
        entry: (JSON.parse(line.slice(first + 1, second)) as string | null) ?? undefined,
        fingerprint: entryFingerprint(content),
        date,
        memo,
        lines: spooledLines.map(
          ([account, debitCents, creditCents, description, classes, taxCode]) => ({
            account,
            debitCents,
            creditCents,
            description,
            classes,
            ...(taxCode === undefined ? {} : { taxCode }),
          }),
        ),
      });
      if (entries.length === plans[number]!.entries) {
        yield { plan: plans[number]!, entries };
        entries = [];
        number += 1;
      }
    }
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
