import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Finished batches of one import (one entity, one file, one ledger basis), appended one JSON line
 * per batch as each commits: a rerun after a crash or a kill sends only what is missing. A torn
 * last line (the process died while writing it) is ignored: that batch is sent again with its
 * key, and the platform replays it.
 *
 * In memory it holds the finished batch numbers, and the journal entry ids only when asked to
 * (`keepIds`, for a receipt): a million-line import otherwise keeps a quarter of a million ids.
 */
export class Checkpoint {
  private readonly finished = new Map<number, string[] | null>();
  /** The file ends in a torn line: the next record must start on a line of its own. */
  private tornTail = false;

  constructor(
    readonly file: string,
    private readonly options: { keepIds?: boolean } = {},
  ) {
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    this.tornTail = text !== '' && !text.endsWith('\n');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const { batch, ids } = JSON.parse(line) as { batch: number; ids: string[] };
        this.finished.set(batch, this.options.keepIds ? ids : null);
      } catch {
        // A line cut short by a crash: its batch is simply not finished.
      }
    }
  }

  /** The numbers of the finished batches, in the order they finished. */
  batches(): number[] {
    return [...this.finished.keys()];
  }

  has(batch: number): boolean {
    return this.finished.has(batch);
  }

  /** The journal entry ids a finished batch became (kept with `keepIds` only). */
  ids(batch: number): string[] | undefined {
    return this.finished.get(batch) ?? undefined;
  }

  record(batch: number, ids: string[]): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${this.tornTail ? '\n' : ''}${JSON.stringify({ batch, ids })}\n`);
    this.tornTail = false;
    this.finished.set(batch, this.options.keepIds ? ids : null);
  }
}
