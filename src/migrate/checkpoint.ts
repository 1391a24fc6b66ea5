import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Finished batches of one import (one entity, one file, one ledger basis), appended one JSON line
 * per batch as each commits: a rerun after a crash or a kill sends only what is missing. A torn
 * last line (the process died while writing it) is ignored: that batch is sent again with its
 * key, and the platform replays it.
 */
export class Checkpoint {
  readonly finished = new Map<number, string[]>();
  /** The file ends in a torn line: the next record must start on a line of its own. */
  private tornTail = false;

  constructor(readonly file: string) {
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    this.tornTail = text !== '' && !text.endsWith('\n');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const { batch, ids } = JSON.parse(line) as { batch: number; ids: string[] };
        this.finished.set(batch, ids);
      } catch {
        // A line cut short by a crash: its batch is simply not finished.
      }
    }
  }

  record(batch: number, ids: string[]): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${this.tornTail ? '\n' : ''}${JSON.stringify({ batch, ids })}\n`);
    this.tornTail = false;
    this.finished.set(batch, ids);
  }
}
