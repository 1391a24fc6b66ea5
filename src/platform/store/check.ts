import { asCents, formatCents } from '../../core/money.js';
import { replayedBody, type IdempotencyStore, type KeptRecord } from './idempotency.js';
import { SOURCE_KIND } from './postings.js';
import { DatabaseDamaged } from './schema.js';
import type { Sql } from './sql.js';

/** What `books db check` can find wrong. */
export type ProblemKind =
  | 'database'
  | 'unbalanced_entry'
  | 'missing_entry'
  | 'entry_without_lines'
  | 'stale_daily_sum'
  | 'orphan_line'
  | 'idempotency_record';

/** One thing wrong, with the ids that find it. */
export interface StoredBooksProblem {
  kind: ProblemKind;
  /** What is wrong: a journal entry's, a bank transaction's or an opening balance's id, an account's, a key. */
  id: string;
  entityId?: string;
  message: string;
}

/** How much was checked. */
export interface CheckedCounts {
  postings: number;
  journalEntries: number;
  dailySums: number;
  idempotencyRecords: number;
}

/** A database opened as it is, for checking: nothing migrated, nothing written. */
export interface CheckedDatabase {
  /** Where it is, as said to a user. */
  location: string;
  sql: Sql;
  idempotency: IdempotencyStore;
  /** The database's own integrity check: what it names as wrong, and which check ran. */
  integrity(): Promise<{ method: string; problems: string[] }>;
  close(): Promise<void>;
}

/** What `books db check` found. */
export interface CheckReport {
  database: string;
  /** The database's own check that ran (or why none could). */
  integrityCheck: string;
  checked: CheckedCounts | undefined;
  problems: StoredBooksProblem[];
  /** Problems found beyond those listed. */
  unlisted: number;
}

/**
 * The database's own integrity check, then the ledger's invariants. A step that cannot read what
 * it checks (a damaged page) is a problem of its own, and the steps after it still run.
 */
export async function checkStoredBooks(
  database: CheckedDatabase,
  /** Hears each step as it begins: its number (from 1), of how many, and what it checks. */
  onStep: (step: number, steps: number, what: string) => void = () => {},
): Promise<CheckReport> {
  const check = new StoredBooksCheck(database.sql);
  let integrityCheck = 'none';
  let steps = 0;
  const step = async (what: string, run: () => Promise<void>) => {
    steps += 1;
    onStep(steps, CHECK_STEPS, what);
    try {
      await run();
    } catch (error) {
      const why = error instanceof DatabaseDamaged ? error.detail : (error as Error).message;
      check.problems.push({
        kind: 'database',
        id: what,
        message: `${what} could not be read: ${why}`,
      });
    }
  };
  await step("the database's own integrity check", async () => {
    const { method, problems } = await database.integrity();
    integrityCheck = method;
    for (const message of problems) check.problems.push({ kind: 'database', id: method, message });
  });
  let checked: CheckedCounts | undefined;
  await step('the counts of postings, entries, daily sums and records', async () => {
    checked = await check.counts();
  });
  await step('every entry, bank transaction and opening balance', () => check.sources());
  await step('the daily sums', () => check.dailySums());
  await step("every line's account", () => check.orphanLines());
  await step('the idempotency records', () => check.idempotencyRecords(database.idempotency));
  return {
    database: database.location,
    integrityCheck,
    checked,
    problems: check.problems,
    unlisted: check.unlisted,
  };
}

/** The steps of checkStoredBooks. */
const CHECK_STEPS = 6;

/** Problems of one kind past this many are counted, not listed. */
const MAX_LISTED = 1000;

const SOURCE_NAMES = ['journal entry', 'bank transaction', 'opening balance'] as const;
const SOURCE_TABLES = ['journal_entries', 'bank_transactions', 'opening_balances'] as const;
const BASIS_NAMES = ['cash', 'accrual'] as const;

const amount = (cents: number) => formatCents(asCents(cents), { thousands: true });

/**
 * The ledger's own invariants over a stored database, read as the store keeps them (the same SQL
 * on SQLite and PostgreSQL): every posting source (journal entry, bank transaction, opening
 * balance) balances on each ledger and exists; every journal entry has lines; every stored daily
 * sum equals its postings; every line's account exists in its entity; every idempotency record
 * is whole. Each finding names the ids that find it.
 */
export class StoredBooksCheck {
  readonly problems: StoredBooksProblem[] = [];
  /** Problems found and not listed (more than MAX_LISTED of one kind). */
  unlisted = 0;

  constructor(private readonly sql: Sql) {}

  private add(found: StoredBooksProblem[]): void {
    this.problems.push(...found.slice(0, MAX_LISTED));
    this.unlisted += Math.max(0, found.length - MAX_LISTED);
  }

  async counts(): Promise<CheckedCounts> {
    const count = async (table: string) =>
      Number((await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
    return {
      postings: await count('postings'),
      journalEntries: await count('journal_entries'),
      dailySums: await count('daily_balances'),
      idempotencyRecords: await count('idempotency_keys'),
    };
  }

  /** Posting sources whose debits and credits differ on a ledger, or that do not exist. */
  async sources(): Promise<void> {
    const rows = await this.sql.all<{
      source_kind: number;
      source_seq: number;
      basis: number;
      entity_id: string | null;
      debits: number;
      credits: number;
      source_id: string | null;
    }>(
      `WITH sources AS (
         SELECT source_kind, source_seq, basis, MIN(entity_seq) AS entity_seq,
                SUM(debit_cents) AS debits, SUM(credit_cents) AS credits
         FROM postings GROUP BY source_kind, source_seq, basis)
       SELECT s.source_kind, s.source_seq, s.basis, e.id AS entity_id, s.debits, s.credits,
              COALESCE(j.id, b.id, o.id) AS source_id
       FROM sources s
       LEFT JOIN entities e ON e.seq = s.entity_seq
       LEFT JOIN journal_entries j ON s.source_kind = ${SOURCE_KIND.journalEntry} AND j.seq = s.source_seq
       LEFT JOIN bank_transactions b ON s.source_kind = ${SOURCE_KIND.bankTransaction} AND b.seq = s.source_seq
       LEFT JOIN opening_balances o ON s.source_kind = ${SOURCE_KIND.openingBalance} AND o.seq = s.source_seq
       WHERE s.debits <> s.credits OR (j.id IS NULL AND b.id IS NULL AND o.id IS NULL)
       ORDER BY s.source_kind, s.source_seq, s.basis
       LIMIT ${MAX_LISTED * 2 + 1}`,
    );
    this.add(
      rows.map((row) => {
        const what = SOURCE_NAMES[row.source_kind] ?? `source of kind ${row.source_kind}`;
        const ledger = `${BASIS_NAMES[row.basis] ?? row.basis} ledger`;
        const entity = row.entity_id ?? 'that does not exist';
        if (row.source_id === null) {
          return {
            kind: 'missing_entry',
            id: `${what} #${row.source_seq}`,
            ...(row.entity_id !== null && { entityId: row.entity_id }),
            message: `lines on the ${ledger} of entity ${entity} belong to ${what} #${row.source_seq}, which does not exist`,
          };
        }
        return {
          kind: 'unbalanced_entry',
          id: String(row.source_id),
          ...(row.entity_id !== null && { entityId: row.entity_id }),
          message: `${what} ${row.source_id} of entity ${entity} does not balance on the ${ledger}: debits ${amount(row.debits)}, credits ${amount(row.credits)}`,
        };
      }),
    );
    const empty = await this.sql.all<{ id: string; entity_id: string }>(
      `SELECT j.id, j.entity_id FROM journal_entries j
       WHERE NOT EXISTS (SELECT 1 FROM postings p
                         WHERE p.source_kind = ${SOURCE_KIND.journalEntry} AND p.source_seq = j.seq)
       ORDER BY j.seq LIMIT ${MAX_LISTED + 1}`,
    );
    this.add(
      empty.map((row) => ({
        kind: 'entry_without_lines',
        id: String(row.id),
        entityId: String(row.entity_id),
        message: `journal entry ${row.id} of entity ${row.entity_id} has no lines`,
      })),
    );
  }

  /** Stored daily sums that differ from their postings (or postings with no sum, or sums of none). */
  async dailySums(): Promise<void> {
    const rows = await this.sql.all<{
      entity_seq: number;
      basis: number;
      account_seq: number;
      day: string;
      debits: number;
      credits: number;
      lines: number;
      stored_debits: number | null;
      stored_credits: number | null;
      stored_lines: number | null;
    }>(
      `WITH sums AS (
         SELECT entity_seq, basis, account_seq, day, SUM(debit_cents) AS debits,
                SUM(credit_cents) AS credits, COUNT(*) AS lines,
                SUM(CASE WHEN source_kind = ${SOURCE_KIND.openingBalance} THEN 1 ELSE 0 END) AS openings
         FROM postings GROUP BY entity_seq, basis, account_seq, day)
       SELECT s.entity_seq, s.basis, s.account_seq, s.day, s.debits, s.credits, s.lines,
              d.debit_cents AS stored_debits, d.credit_cents AS stored_credits,
              d.postings AS stored_lines
       FROM sums s LEFT JOIN daily_balances d
         ON d.entity_seq = s.entity_seq AND d.basis = s.basis AND d.account_seq = s.account_seq
        AND d.day = s.day
       WHERE d.entity_seq IS NULL OR d.debit_cents <> s.debits OR d.credit_cents <> s.credits
          OR d.postings <> s.lines OR d.opening_postings <> s.openings
       UNION ALL
       SELECT d.entity_seq, d.basis, d.account_seq, d.day, 0, 0, 0,
              d.debit_cents, d.credit_cents, d.postings
       FROM daily_balances d
       WHERE (d.debit_cents <> 0 OR d.credit_cents <> 0 OR d.postings <> 0)
         AND NOT EXISTS (SELECT 1 FROM postings p
                         WHERE p.entity_seq = d.entity_seq AND p.basis = d.basis
                           AND p.account_seq = d.account_seq AND p.day = d.day)
       LIMIT ${MAX_LISTED + 1}`,
    );
    const accounts = await this.accountsBySeq(rows.map((row) => row.account_seq));
    const entities = await this.entitiesBySeq(rows.map((row) => row.entity_seq));
    this.add(
      rows.map((row) => {
        const account = accounts.get(Number(row.account_seq));
        const entityId = entities.get(Number(row.entity_seq));
        const named = account
          ? `account ${account.code} ${account.name} (${account.id})`
          : `account #${row.account_seq}`;
        const stored =
          row.stored_debits === null
            ? 'there is none'
            : `it says debits ${amount(row.stored_debits)}, credits ${amount(row.stored_credits ?? 0)} over ${row.stored_lines} lines`;
        return {
          kind: 'stale_daily_sum',
          id: account?.id ?? `account #${row.account_seq}`,
          ...(entityId !== undefined && { entityId }),
          message: `the ${BASIS_NAMES[row.basis] ?? row.basis} ledger's daily sum of ${named} of entity ${entityId ?? `#${row.entity_seq}`} on ${row.day} is stale: ${stored}; its postings say debits ${amount(row.debits)}, credits ${amount(row.credits)} over ${row.lines} lines`,
        };
      }),
    );
  }

  /** Lines whose account does not exist, or belongs to another entity. */
  async orphanLines(): Promise<void> {
    const rows = await this.sql.all<{
      entity_seq: number;
      account_seq: number;
      source_kind: number;
      source_seq: number;
      line_no: number;
      entity_id: string | null;
    }>(
      `WITH pairs AS (SELECT DISTINCT entity_seq, account_seq FROM postings),
       orphans AS (
         SELECT pairs.entity_seq, pairs.account_seq, e.id AS entity_id FROM pairs
         LEFT JOIN entities e ON e.seq = pairs.entity_seq
         LEFT JOIN accounts a ON a.seq = pairs.account_seq
         WHERE a.seq IS NULL OR e.seq IS NULL OR a.entity_id <> e.id)
       SELECT o.entity_seq, o.account_seq, p.source_kind, p.source_seq, MIN(p.line_no) AS line_no,
              o.entity_id
       FROM orphans o JOIN postings p
         ON p.entity_seq = o.entity_seq AND p.account_seq = o.account_seq
       GROUP BY o.entity_seq, o.account_seq, p.source_kind, p.source_seq, o.entity_id
       ORDER BY p.source_kind, p.source_seq
       LIMIT ${MAX_LISTED + 1}`,
    );
    const sources = await this.sourceIds(rows);
    this.add(
      rows.map((row) => {
        const what = SOURCE_NAMES[row.source_kind] ?? `source of kind ${row.source_kind}`;
        const id = sources.get(`${row.source_kind} ${row.source_seq}`) ?? `#${row.source_seq}`;
        const entity = row.entity_id ?? `#${row.entity_seq}`;
        return {
          kind: 'orphan_line',
          id,
          ...(row.entity_id !== null && { entityId: row.entity_id }),
          message: `${what} ${id} of entity ${entity}: its line ${Number(row.line_no) + 1} names account #${row.account_seq}, which entity ${entity} does not have`,
        };
      }),
    );
  }

  /** Idempotency records that a replay could not answer from. */
  async idempotencyRecords(store: IdempotencyStore): Promise<void> {
    const found: StoredBooksProblem[] = [];
    let after: { scope: string; key: string } | undefined;
    for (;;) {
      const page = await store.recordsAfter(after, 500);
      for (const record of page) {
        const why = incompleteRecord(record);
        if (why !== undefined) {
          found.push({
            kind: 'idempotency_record',
            id: record.key,
            message: `the answer kept for Idempotency-Key ${JSON.stringify(record.key)} (organization ${record.scope}) is not whole: ${why}`,
          });
        }
      }
      if (page.length < 500) break;
      const last = page[page.length - 1]!;
      after = { scope: last.scope, key: last.key };
    }
    this.add(found);
  }

  private async accountsBySeq(seqs: number[]) {
    const found = new Map<number, { id: string; code: string; name: string }>();
    for (const seq of new Set(seqs.map(Number))) {
      const row = await this.sql.get<{ id: string; code: string; name: string }>(
        'SELECT id, code, name FROM accounts WHERE seq = ?',
        [seq],
      );
      if (row) found.set(seq, { id: String(row.id), code: row.code, name: row.name });
    }
    return found;
  }

  private async entitiesBySeq(seqs: number[]) {
    const found = new Map<number, string>();
    for (const seq of new Set(seqs.map(Number))) {
      const row = await this.sql.get<{ id: string }>('SELECT id FROM entities WHERE seq = ?', [
        seq,
      ]);
      if (row) found.set(seq, String(row.id));
    }
    return found;
  }

  private async sourceIds(rows: { source_kind: number; source_seq: number }[]) {
    const found = new Map<string, string>();
    for (const row of rows) {
      const table = SOURCE_TABLES[row.source_kind];
      if (table === undefined) continue;
      const source = await this.sql.get<{ id: string }>(`SELECT id FROM ${table} WHERE seq = ?`, [
        row.source_seq,
      ]);
      if (source) found.set(`${row.source_kind} ${row.source_seq}`, String(source.id));
    }
    return found;
  }
}

/** Why a kept answer could not be replayed, or undefined when it could. */
export function incompleteRecord(record: KeptRecord): string | undefined {
  if (record.state !== 'done')
    return `its request was claimed (${record.state}) and never answered`;
  if (record.status === null || !(record.status >= 100 && record.status <= 599)) {
    return `it has no status (${record.status})`;
  }
  let headers: unknown;
  try {
    headers = JSON.parse(record.headers ?? '');
  } catch {
    return 'its headers do not read';
  }
  if (headers === null || typeof headers !== 'object') return 'its headers do not read';
  let body: string;
  try {
    body = replayedBody(record.body);
  } catch {
    return 'its body does not inflate';
  }
  const type = (headers as Record<string, unknown>)['content-type'];
  if (body !== '' && typeof type === 'string' && type.includes('json')) {
    try {
      JSON.parse(body);
    } catch {
      return 'its body is not the JSON it says it is';
    }
  }
  return undefined;
}
