import type Database from 'better-sqlite3';
import {
  deferInTransaction,
  openTransactionOf,
  requireTransaction,
  runAfterCommit,
  runInTransaction,
  scheduleAfterCommit,
  type OpenTransaction,
  type Sql,
  type SqlDatabase,
  type SqlValue,
} from '../sql.js';
import { DatabaseDamaged, type DatabaseUnavailable } from '../schema.js';
import {
  openDatabase,
  sqliteUnavailable,
  type DatabaseTuning,
  type SqliteDatabase,
} from './database.js';
import { Checkpointer } from './checkpointer.js';

/**
 * One SQLite connection behind the async store interface. better-sqlite3 answers at once, so a
 * statement's promise is settled when it returns; what needs care is that work awaits between
 * statements. A transaction holds the connection until it ends: statements from outside it
 * (another request's) wait for it rather than read what it has not committed. Transactions
 * take the write lock at BEGIN (`IMMEDIATE`), so that processes sharing the file
 * (`serve --workers`) queue there, never half-way through.
 */
export class SqliteBackend implements SqlDatabase {
  readonly sql: SqliteSql;
  readonly location: string;
  private readonly gate = new Gate();
  /** Set once the database said it is damaged: the connection is read-only from then on. */
  damage: DatabaseDamaged | undefined;
  private readonly damageListeners: ((damage: DatabaseDamaged) => void)[] = [];
  /** The thread that folds the WAL into the file, where one does (books serve). */
  private checkpointer: Checkpointer | undefined;

  constructor(
    readonly db: SqliteDatabase,
    filename: string,
  ) {
    this.location = filename === ':memory:' ? 'in memory' : filename;
    this.sql = new SqliteSql(db, this, this.gate);
  }

  static open(filename: string, tuning: DatabaseTuning = {}): SqliteBackend {
    const backend = new SqliteBackend(openDatabase(filename, tuning), filename);
    if (tuning.backgroundCheckpoints && filename !== ':memory:') {
      backend.checkpointer = new Checkpointer(filename);
    }
    return backend;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (openTransactionOf(this) !== undefined) return work();
    await this.gate.acquire();
    const transaction: OpenTransaction<SqliteDatabase> = {
      database: this,
      connection: this.db,
      finished: false,
      afterCommit: [],
      deferred: [],
    };
    try {
      // Once damaged, a transaction only reads (its writes are refused): no write lock.
      this.execute(this.damage ? 'BEGIN' : 'BEGIN IMMEDIATE');
      let result: T;
      try {
        result = await runInTransaction(transaction, work);
        await Promise.all(transaction.deferred);
        this.execute('COMMIT');
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
      runAfterCommit(transaction);
      return result;
    } finally {
      transaction.finished = true;
      this.gate.release();
    }
  }

  /**
   * One writer at a time already: transactions of this connection, and of other processes,
   * queue at BEGIN.
   */
  async lock(name: string): Promise<void> {
    requireTransaction(this, name);
  }

  unavailable(error: unknown): DatabaseUnavailable | undefined {
    const code = String((error as { code?: unknown })?.code ?? '');
    return code.startsWith('SQLITE_') ? sqliteUnavailable(this.location, error) : undefined;
  }

  private execute(text: string): void {
    try {
      this.db.exec(text);
    } catch (error) {
      throw this.noticeDamage(error);
    }
  }

  /**
   * What a statement's failure means: a corruption error makes the connection read-only for
   * good (`query_only`, and no more checkpoints folding the WAL into the file) and is answered
   * as DatabaseDamaged; once damaged, a write refused by `query_only` is too. Anything else is
   * the failure itself.
   */
  noticeDamage(error: unknown): unknown {
    const code = String((error as { code?: unknown })?.code ?? '');
    if (this.damage !== undefined) {
      return code.startsWith('SQLITE_READONLY') || isCorruption(code) ? this.damage : error;
    }
    if (!isCorruption(code)) return error;
    this.damage = new DatabaseDamaged(this.location, (error as Error).message, this.location);
    void this.checkpointer?.stop();
    try {
      this.db.pragma('query_only = 1');
      this.db.pragma('wal_autocheckpoint = 0');
    } catch {
      // A connection too damaged to take pragmas writes nothing anyway.
    }
    for (const listener of this.damageListeners) listener(this.damage);
    return this.damage;
  }

  onDamage(listener: (damage: DatabaseDamaged) => void): void {
    this.damageListeners.push(listener);
  }

  afterCommit(effect: () => void): void {
    scheduleAfterCommit(this, effect);
  }

  defer(statement: Promise<unknown>): void {
    deferInTransaction(this, statement);
  }

  async ping(): Promise<void> {
    await this.sql.get('SELECT 1');
  }

  /**
   * Closes the connection, which folds the WAL into the file. A damaged database is left as it
   * is instead: its writes stay in the WAL beside it (SQLite reads them there), and the file's
   * bytes are what they were when the damage was found.
   */
  async close(): Promise<void> {
    await this.checkpointer?.stop();
    if (this.db.open && this.damage === undefined) this.db.close();
  }
}

/** SQLite's corruption codes: a malformed page, index or sequence, or not a database at all. */
function isCorruption(code: string): boolean {
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/** Statements on the connection, each prepared once. */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite';
  private readonly statements = new Map<string, Database.Statement>();
  /** Statements that answer rows as arrays (`eachRow`), kept apart: `raw` is a statement's mode. */
  private readonly rawStatements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly backend: SqliteBackend,
    private readonly gate: Gate,
  ) {}

  all<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return this.when(() => this.prepare(text).all(...sqliteValues(params)) as Row[]);
  }

  eachRow<Row extends readonly unknown[]>(
    text: string,
    params: readonly SqlValue[],
    visit: (row: Row) => void,
  ): Promise<number> {
    return this.when(() => {
      let statement = this.rawStatements.get(text);
      if (!statement) {
        statement = this.db.prepare(text).raw(true);
        this.rawStatements.set(text, statement);
      }
      let rows = 0;
      for (const row of statement.iterate(...sqliteValues(params))) {
        visit(row as Row);
        rows += 1;
      }
      return rows;
    });
  }

  get<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return this.when(() => this.prepare(text).get(...sqliteValues(params)) as Row | undefined);
  }

  run(text: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.when(() => this.prepare(text).run(...sqliteValues(params)).changes);
  }

  /** A statement of the connection, prepared on first use (for the dialect's own stores). */
  prepare(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * Runs `statement` now when the connection is free or the caller's transaction holds it, else
   * once the transaction holding it has ended.
   */
  when<T>(statement: () => T): Promise<T> {
    const run = () => {
      try {
        return statement();
      } catch (error) {
        throw this.backend.noticeDamage(error);
      }
    };
    if (this.gate.open || openTransactionOf(this.backend) !== undefined) {
      try {
        return Promise.resolve(run());
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return this.gate.waitOpen().then(run);
  }
}

/** SQLite keeps booleans as 0 and 1 (better-sqlite3 binds no booleans). */
function sqliteValues(params: readonly SqlValue[]): unknown[] {
  return params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
}

/**
 * The connection's transaction slot: one transaction at a time, in arrival order; statements
 * from outside wait while one is open. When a transaction ends, the statements waiting run
 * first (each runs at once, before the next transaction's BEGIN), then the next transaction.
 */
class Gate {
  private held = false;
  private readonly transactions: (() => void)[] = [];
  private statements: (() => void)[] = [];

  get open(): boolean {
    return !this.held;
  }

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.transactions.push(resolve));
  }

  release(): void {
    const waiting = this.statements;
    this.statements = [];
    for (const wake of waiting) wake();
    const next = this.transactions.shift();
    if (next) next();
    else this.held = false;
  }

  waitOpen(): Promise<void> {
    return new Promise((resolve) => this.statements.push(resolve));
  }
}
