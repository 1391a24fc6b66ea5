import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseDamaged, DatabaseUnavailable } from './schema.js';

/** The database a store runs on: SQLite (embedded, `--db FILE`) or PostgreSQL (`--db postgres://…`). */
export type Dialect = 'sqlite' | 'postgres';

/**
 * A statement's parameter. Booleans are written as each backend keeps them (SQLite 0/1,
 * PostgreSQL `boolean`); calendar days are `YYYY-MM-DD` text, instants ISO 8601 text.
 */
export type SqlValue = string | number | boolean | null | Buffer;

/**
 * Statements, one dialect's text at a time, with `?` placeholders (PostgreSQL's `$1…` are made
 * from them). Rows come back with the same JavaScript types on both backends: integers and sums
 * of cents as exact numbers, days as `YYYY-MM-DD`, instants as ISO 8601 text in UTC with
 * milliseconds, uuids as text, booleans as 0/1 or true/false (read them with `Boolean`).
 *
 * A statement runs in the caller's transaction when there is one (see `SqlDatabase`), else on
 * its own.
 */
export interface Sql {
  readonly dialect: Dialect;
  all<Row>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  get<Row>(text: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /**
   * Hands each row to `visit` as it is read, as the array of its columns in the order selected,
   * holding none (SQLite steps its cursor; PostgreSQL's driver reads the answer whole first): for
   * a pass over more rows than are worth holding as objects (a fifth quicker than objects over a
   * million rows on SQLite). `visit` must not await: the rows come in one go. Answers how many.
   */
  eachRow<Row extends readonly unknown[]>(
    text: string,
    params: readonly SqlValue[],
    visit: (row: Row) => void,
  ): Promise<number>;
  /** Runs a write; answers how many rows it changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
}

/** How strongly a transaction holds a named lock: many may share it, or one holds it alone. */
export type LockMode = 'shared' | 'exclusive';

/** One backend: its statements, its transactions and locks. */
export interface SqlDatabase {
  readonly sql: Sql;
  /** Where the data lives, as said to a user (a file, or a PostgreSQL host and database). */
  readonly location: string;
  /**
   * Runs `work` in one transaction, committed when it resolves and rolled back when it throws.
   * Calls inside it — nested transactions included — join it, wherever they are made from.
   * PostgreSQL reruns `work` after a deadlock or a serialization failure, so `work` must have
   * no effect outside the database that a rerun would double.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Takes a named lock until the transaction ends (call inside one): PostgreSQL's advisory
   * locks, which serialize the checks and writes of several processes; SQLite's transactions
   * are serialized already (one writer), so there it is free.
   */
  lock(name: string, mode: LockMode): Promise<void>;
  /**
   * Runs `effect` once the caller's transaction has committed (never if it rolls back), outside
   * it; at once (on the next turn) when the caller is in none. For what must not act on a write
   * that may still be undone, such as waking the webhook worker.
   */
  afterCommit(effect: () => void): void;
  /**
   * A statement of the caller's transaction that the work does not wait for: the transaction
   * waits for it at its COMMIT (on PostgreSQL both leave in one write), and fails with it.
   */
  defer(statement: Promise<unknown>): void;
  /**
   * A failure at start-up as the one line a user fixes (read-only, damaged, unreachable…), or
   * undefined when it is not the database's.
   */
  unavailable(error: unknown): DatabaseUnavailable | undefined;
  /** Whether the database answers (for `/readyz`). */
  ping(): Promise<void>;
  /**
   * Set once the database said it is damaged: from then on this process's writes are refused
   * (DatabaseDamaged) and its reads that still work go on.
   */
  readonly damage: DatabaseDamaged | undefined;
  /** Hears of the damage once, when it is found (`books serve` says so on its log). */
  onDamage(listener: (damage: DatabaseDamaged) => void): void;
  close(): Promise<void>;
}

/** The transaction a piece of work runs in, carried through its awaits. */
export interface OpenTransaction<Connection> {
  database: object;
  connection: Connection;
  /** Set once it committed or rolled back: work that outlives it runs on its own. */
  finished: boolean;
  /** What to run once it has committed. */
  afterCommit: (() => void)[];
  /** Statements issued and not awaited, awaited with the COMMIT. */
  deferred: Promise<unknown>[];
}

/** SqlDatabase.defer, for a backend. */
export function deferInTransaction(database: object, statement: Promise<unknown>): void {
  const open = openTransactionOf(database);
  if (!open) throw new Error('a statement deferred outside a transaction');
  // Handled here (a failure fails the transaction, at its COMMIT), never unhandled meanwhile.
  statement.catch(() => {});
  open.deferred.push(statement);
}

/** Runs a committed transaction's after-commit effects, outside it. */
export function runAfterCommit(transaction: OpenTransaction<unknown>): void {
  for (const effect of transaction.afterCommit) outsideTransactions(() => setImmediate(effect));
}

/** SqlDatabase.afterCommit, for a backend. */
export function scheduleAfterCommit(database: object, effect: () => void): void {
  const open = openTransactionOf(database);
  if (open) open.afterCommit.push(effect);
  else outsideTransactions(() => setImmediate(effect));
}

const current = new AsyncLocalStorage<OpenTransaction<unknown>>();

/**
 * The transaction of `database` that the caller runs in, if any. Carried by AsyncLocalStorage
 * rather than passed along: an engine call that writes in its own transaction joins the keyed
 * request's one around it (its idempotency record and its write commit together) without every
 * method taking a transaction argument. Background work started inside a transaction (a timer,
 * a webhook wake-up) sees it finished and runs on its own.
 */
export function openTransactionOf<Connection>(
  database: object,
): OpenTransaction<Connection> | undefined {
  const open = current.getStore();
  return open !== undefined && open.database === database && !open.finished
    ? (open as OpenTransaction<Connection>)
    : undefined;
}

/** A lock taken outside a transaction would be let go at once: a bug. */
export function requireTransaction(database: object, name: string): void {
  if (openTransactionOf(database) === undefined) {
    throw new Error(`the lock "${name}" is taken outside a transaction`);
  }
}

/** Runs `work` inside `transaction`, which its awaits carry. */
export function runInTransaction<T, Connection>(
  transaction: OpenTransaction<Connection>,
  work: () => Promise<T>,
): Promise<T> {
  return current.run(transaction as OpenTransaction<unknown>, work);
}

/** Runs `work` outside any transaction (background work started from inside one). */
export function outsideTransactions<T>(work: () => T): T {
  return current.exit(work);
}

/** `?` placeholders as PostgreSQL's `$1, $2…` (our SQL has no `?` in its literals). */
export function numberedPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** A `SELECT COUNT(*) AS n …`'s number. */
export async function countOf(
  sql: Sql,
  text: string,
  params: readonly SqlValue[],
): Promise<number> {
  return Number((await sql.get<{ n: number }>(text, params))?.n ?? 0);
}

/**
 * Whether a client's id can name anything stored: ids are lowercase uuids (engine/ids.ts).
 * Checked before an id from a request reaches SQL, so that both backends read anything else as
 * absent alike (PostgreSQL's uuid type would refuse malformed text, and match uppercase).
 */
export function isStoredId(id: string): boolean {
  return STORED_ID.test(id);
}

const STORED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `?, ?, …` for a list of values (`IN (…)`): one statement per list length. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
