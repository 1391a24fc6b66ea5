import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A batch an earlier run sent: its content hash, its entries' fingerprints, their ids. */
export interface SentBatch {
  hash: string;
  /** The fingerprints of its entries, comma-separated ('' when not known). */
  fingerprints: string;
  ids: string[] | undefined;
}

/**
 * The days of a file on the ledger imported to, as they were before its first batch was sent:
 * how many entries they held and each account's movement over them (cents, by account code).
 */
export interface DaysBefore {
  /** `startDate endDate ledgerBasis`: the days and ledger these are of. */
  range: string;
  entries: number;
  movement: { [code: string]: number };
}

type Record =
  | { batch: number; hash?: string; entries?: string; ids: string[] }
  | { accounts: { [identity: string]: string } }
  | { daysBefore: DaysBefore };

/**
 * What an import (one file, by its path, into one entity and ledger basis) has done, appended
 * one JSON line at a time as it happens: each batch sent (number, content hash, entries'
 * fingerprints, journal entry ids), the accounts the file's names resolved to and the file's days
 * as they were before the first batch (for the reconciliation). A rerun after a
 * crash, a kill or a fix of the file sends only the batches not yet sent, checks that the sent
 * ones did not change, and posts every account name to the account it went to before. A torn
 * last line (the process died while writing it) is ignored: that batch is sent again with its
 * key, and the platform replays it.
 *
 * In memory it holds the sent batches' hashes and fingerprints, and their journal entry ids only
 * when asked to (`keepIds`, for a receipt).
 */
export class Checkpoint {
  private readonly sentBatches = new Map<number, SentBatch>();
  private readonly accountIds = new Map<string, string>();
  /** The file ends in a torn line: the next record must start on a line of its own. */
  private tornTail = false;
  private before: DaysBefore | undefined;

  constructor(
    readonly file: string,
    private readonly options: { keepIds?: boolean } = {},
  ) {
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    this.tornTail = text !== '' && !text.endsWith('\n');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let record: Record;
      try {
        record = JSON.parse(line) as Record;
      } catch {
        continue; // A line cut short by a crash: its batch is simply not sent.
      }
      if ('daysBefore' in record) {
        this.before = record.daysBefore;
      } else if ('accounts' in record) {
        for (const [identity, id] of Object.entries(record.accounts))
          this.accountIds.set(identity, id);
      } else {
        this.keep(record.batch, record.hash ?? '', record.entries ?? '', record.ids);
      }
    }
  }

  /** The numbers of the sent batches, in the order they were sent. */
  batches(): number[] {
    return [...this.sentBatches.keys()];
  }

  sent(batch: number): SentBatch | undefined {
    return this.sentBatches.get(batch);
  }

  has(batch: number): boolean {
    return this.sentBatches.has(batch);
  }

  /** The journal entry ids a sent batch became (kept with `keepIds` only). */
  ids(batch: number): string[] | undefined {
    return this.sentBatches.get(batch)?.ids;
  }

  /**
   * A batch sent. Its fingerprints are written for a later run to compare with, not kept: this
   * run does not read them again (a million-line import would keep 5 MB of them).
   */
  record(batch: number, hash: string, fingerprints: string[], ids: string[]): void {
    this.append({ batch, hash, entries: fingerprints.join(','), ids });
    this.keep(batch, hash, '', ids);
  }

  /**
   * Every journal entry id the sent batches became, this run's and earlier ones', read again
   * from the file (they are not all kept in memory unless `keepIds`).
   */
  *journalEntryIds(): Generator<string> {
    if (!existsSync(this.file)) return;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.startsWith('{"batch"')) continue;
      let record: Record;
      try {
        record = JSON.parse(line) as Record;
      } catch {
        continue; // A torn line: its batch was sent again, and its ids are on a later line.
      }
      if ('ids' in record) yield* record.ids;
    }
  }

  /** The file's days before the first run sent anything, where it said (rememberDaysBefore). */
  daysBefore(): DaysBefore | undefined {
    return this.before;
  }

  rememberDaysBefore(days: DaysBefore): void {
    this.append({ daysBefore: days });
    this.before = days;
  }

  /** The accounts earlier runs posted the file's account names to (identity → account id). */
  accounts(): ReadonlyMap<string, string> {
    return this.accountIds;
  }

  rememberAccounts(accounts: ReadonlyMap<string, string>): void {
    const fresh = [...accounts].filter(([identity, id]) => this.accountIds.get(identity) !== id);
    if (fresh.length === 0) return;
    this.append({ accounts: Object.fromEntries(fresh) });
    for (const [identity, id] of fresh) this.accountIds.set(identity, id);
  }

  /**
   * Takes over the batches of a checkpoint written by an earlier version of `books`, which was
   * named by the file's hash and knew batches by number only: the same bytes cut the same
   * batches, so its batches are this file's, already sent.
   */
  adopt(legacyFile: string, hashOf: (batch: number) => string | undefined): number {
    if (!existsSync(legacyFile)) return 0;
    let adopted = 0;
    for (const line of readFileSync(legacyFile, 'utf8').split('\n')) {
      try {
        const { batch, ids } = JSON.parse(line) as { batch: number; ids: string[] };
        const hash = hashOf(batch);
        if (hash === undefined || this.has(batch)) continue;
        this.record(batch, hash, [], ids);
        adopted += 1;
      } catch {
        // A torn or empty line.
      }
    }
    return adopted;
  }

  private keep(batch: number, hash: string, fingerprints: string, ids: string[] | undefined) {
    this.sentBatches.set(batch, {
      hash,
      fingerprints,
      ids: this.options.keepIds ? ids : undefined,
    });
  }

  private append(record: Record): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    appendFileSync(this.file, `${this.tornTail ? '\n' : ''}${JSON.stringify(record)}\n`, {
      mode: 0o600,
    });
    this.tornTail = false;
  }
}
