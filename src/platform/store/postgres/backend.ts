import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  checkSchemaVersion,
  DatabaseDamaged,
  DatabaseUnavailable,
  SchemaTooNew,
} from '../schema.js';
import {
  deferInTransaction,
  numberedPlaceholders,
  openTransactionOf,
  requireTransaction,
  runAfterCommit,
  runInTransaction,
  scheduleAfterCommit,
  type LockMode,
  type OpenTransaction,
  type Sql,
  type SqlDatabase,
  type SqlValue,
} from '../sql.js';
import { MIGRATIONS } from './migrations.js';

/** Connections per process when no pool size is given. */
export const DEFAULT_POOL_SIZE = 10;
/** How long a request waits to connect before PostgreSQL counts as away (a 503). */
const CONNECT_TIMEOUT_MS = 5_000;
/** Runs of a transaction that meets a deadlock or a serialization failure. */
const TRANSACTION_ATTEMPTS = 5;
/** The advisory lock that N processes starting together migrate under, once. */
const MIGRATION_LOCK = 7_331_001;

/**
 * The driver's results as the store reads them on both backends. Both `int8` and `numeric`
 * (what `sum(bigint)` gives) come back from `pg` as text: they are exact integers here, and
 * refused past 2^53 rather than rounded. A `date` stays `YYYY-MM-DD` (pg would make it a
 * local-time Date); a `timestamptz`, read in the session's UTC, is ISO 8601 with milliseconds.
 */
const TYPE_PARSERS: Record<number, (text: string) => unknown> = {
  20: exactInteger, // int8
  1700: exactNumber, // numeric
  1082: (text) => text, // date
  1184: isoInstant, // timestamptz
};

function exactInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new PastExactIntegers(text);
  return value;
}

/**
 * A number the database holds that no JavaScript number holds exactly (a sum past 2^53 cents,
 * some 90 trillion): refused rather than rounded (errors.ts answers 422).
 */
export class PastExactIntegers extends RangeError {
  override name = 'PastExactIntegers';
  readonly code = 'BOOKS_PAST_EXACT_INTEGERS';
  constructor(text: string) {
    super(`${text} is past the integers books reads exactly (2^53)`);
  }
}

function exactNumber(text: string): number {
  return text.includes('.') ? Number(text) : exactInteger(text);
}

/** `2026-11-25 11:13:00.123+00` → `2026-11-25T11:13:00.123Z`. */
export function isoInstant(text: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)?\+00$/.exec(text);
  if (!match) return new Date(text).toISOString();
  return `${match[1]}T${match[2]}${(match[3] ?? '.').padEnd(4, '0').slice(0, 4)}Z`;
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format);
  },
};

/** A PostgreSQL URL as a user may see it again: its password left out. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/** Where a PostgreSQL URL points, said without its password: `database d at host:port`. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)';
    return `PostgreSQL database ${database} at ${parsed.hostname}:${parsed.port || '5432'}`;
  } catch {
    return 'PostgreSQL (a URL that does not parse)';
  }
}

/**
 * PostgreSQL behind the async store interface, through a `pg` pool. A transaction stays on one
 * checked-out client from BEGIN to COMMIT (never `pool.query`, whose statements may land on any
 * connection), runs at READ COMMITTED, and takes the locks its checks need: advisory locks by
 * name (an entity shared by its entry writes, alone for its chart and lock date), and row locks
 * taken in key order (the daily sums). A deadlock or a serialization failure reruns it.
 */
export class PostgresBackend implements SqlDatabase {
  readonly sql: PostgresSql;
  readonly location: string;
  damage: DatabaseDamaged | undefined;
  private readonly damageListeners: ((damage: DatabaseDamaged) => void)[] = [];

  private constructor(
    readonly pool: pg.Pool,
    private readonly url: string,
  ) {
    this.location = describePostgresUrl(url);
    this.sql = new PostgresSql(pool, this);
  }

  /**
   * What a statement's failure means: PostgreSQL's data or index corruption (XX001, XX002) is
   * DatabaseDamaged, and from then on this process's transactions are READ ONLY; a write they
   * refuse (25006), or one made outside a transaction, is answered with the damage too.
   */
  noticeDamage(error: unknown): unknown {
    const code = String((error as { code?: unknown })?.code ?? '');
    if (this.damage !== undefined) {
      return code === '25006' || code === 'XX001' || code === 'XX002' ? this.damage : error;
    }
    if (code !== 'XX001' && code !== 'XX002') return error;
    this.damage = new DatabaseDamaged(
      this.location,
      (error as Error).message,
      withoutPassword(this.url),
    );
    for (const listener of this.damageListeners) listener(this.damage);
    return this.damage;
  }

  onDamage(listener: (damage: DatabaseDamaged) => void): void {
    this.damageListeners.push(listener);
  }

  /** Connects, migrates under an advisory lock (N processes starting together migrate once). */
  static async open(url: string, options: { poolSize?: number } = {}): Promise<PostgresBackend> {
    const backend = PostgresBackend.connect(url, options);
    try {
      await backend.migrate();
    } catch (error) {
      await backend.pool.end();
      throw backend.unavailable(error) ?? error;
    }
    return backend;
  }

  /**
   * A pool on the database, not migrated: for reading a database as it is (`books db check`),
   * whose schema the caller checks first.
   */
  static connect(url: string, options: { poolSize?: number } = {}): PostgresBackend {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      application_name: 'books',
      options: '-c TimeZone=UTC',
      types,
      // Statements issued together go out together: a transaction's reads that do not wait on
      // one another (a key's lock and record, an entity's lock and scope, the accounts an entry
      // names) cost one round trip, not one each. The server runs them in order all the same.
      pipeline: true,
    });
    // An idle connection that the server closes (a restart) is dropped; the pool makes another
    // when one is wanted.
    pool.on('error', () => {});
    return new PostgresBackend(pool, url);
  }

  /** The schema version the database was migrated to (0 when never). */
  async schemaVersion(): Promise<number> {
    const exists = await this.pool.query<{ found: string | null }>(
      "SELECT to_regclass('schema_migrations')::text AS found",
    );
    if (exists.rows[0]?.found == null) return 0;
    const { rows } = await this.pool.query<{ version: number }>(
      'SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations',
    );
    return Number(rows[0]?.version ?? 0);
  }

  private async migrate(): Promise<void> {
    const client = await this.checkOut();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL
      )`);
      const { rows } = await client.query<{ version: number }>(
        'SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations',
      );
      const applied = Number(rows[0]?.version ?? 0);
      checkSchemaVersion(applied, MIGRATIONS);
      for (const migration of MIGRATIONS) {
        if (migration.version <= applied) continue;
        await client.query(migration.sql);
        await client.query(
          'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
          [migration.version, migration.name, new Date().toISOString()],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release(client.lost);
    }
  }

  /**
   * A client of the pool for a transaction. While it is checked out, the pool no longer listens
   * for its connection's errors: a connection the server ends between two statements (a fast
   * shutdown) would be an unhandled 'error' and end the process. Here it is noted instead; the
   * statement that meets it fails, and the client is destroyed on release.
   */
  private async checkOut(): Promise<LosableClient> {
    const client: LosableClient = await this.pool.connect();
    client.lost = undefined;
    if (!watched.has(client)) {
      watched.add(client);
      client.on('error', (error) => (client.lost = error));
    }
    return client;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (openTransactionOf(this) !== undefined) return work();
    for (let attempt = 1; ; attempt += 1) {
      const client = await this.checkOut();
      const transaction: OpenTransaction<pg.PoolClient> = {
        database: this,
        connection: client,
        finished: false,
        afterCommit: [],
        deferred: [],
      };
      let broken: Error | undefined;
      try {
        // BEGIN goes out with the work's first statements; its failure fails them too. Once
        // the database is damaged, transactions only read. Its failure is thrown once the work
        // is done; meanwhile it is listened to, or a connection lost while the work waits on
        // something else (a lock, a file) would be an unhandled rejection and end the process.
        const begun = client.query(this.damage ? 'BEGIN READ ONLY' : 'BEGIN');
        begun.catch(() => {});
        let result: T;
        try {
          result = await runInTransaction(transaction, work);
        } finally {
          await begun;
        }
        // The statements the work left in flight and the COMMIT, in one write; a COMMIT after
        // a failed statement rolls back (and the failure is what is thrown).
        const committed = client.query('COMMIT');
        await Promise.all([...transaction.deferred, committed]);
        transaction.finished = true;
        runAfterCommit(transaction);
        return result;
      } catch (error) {
        transaction.finished = true;
        try {
          await client.query('ROLLBACK');
        } catch (rollback) {
          broken = rollback as Error;
        }
        if (!retryable(error) || attempt === TRANSACTION_ATTEMPTS) throw error;
      } finally {
        // A client whose connection failed is destroyed, not handed out again.
        client.release(broken ?? client.lost);
      }
      await sleep(Math.random() * 10 * attempt);
    }
  }

  async lock(name: string, mode: LockMode): Promise<void> {
    requireTransaction(this, name);
    await this.sql.run(
      mode === 'shared'
        ? 'SELECT pg_advisory_xact_lock_shared(?::bigint)'
        : 'SELECT pg_advisory_xact_lock(?::bigint)',
      [lockKey(name)],
    );
  }

  afterCommit(effect: () => void): void {
    scheduleAfterCommit(this, effect);
  }

  defer(statement: Promise<unknown>): void {
    deferInTransaction(this, statement);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  unavailable(error: unknown): DatabaseUnavailable | undefined {
    const reason = whyUnavailable(error);
    return reason === undefined ? undefined : new DatabaseUnavailable(this.location, reason, error);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * An advisory lock's key: 64 bits of the name's SHA-1, made here so that any name (a path id
 * from a request, whatever it holds) is a number by the time it reaches the server.
 */
function lockKey(name: string): string {
  return createHash('sha1').update(name).digest().readBigInt64BE(0).toString();
}

/** A checked-out client, with the error its connection met while out, if any. */
type LosableClient = pg.PoolClient & { lost?: Error };

/** Clients whose connection errors are listened for (a pool reuses them). */
const watched = new WeakSet<pg.PoolClient>();

/** Deadlocks and serialization failures: the transaction is rolled back and may run again. */
function retryable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '40P01' || code === '40001';
}

function whyUnavailable(error: unknown): string | undefined {
  if (error instanceof SchemaTooNew) return error.message;
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = (error as Error)?.message ?? '';
  if (code === 'ECONNREFUSED') return 'nothing answers there (is PostgreSQL running?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no such host';
  if (code === 'ETIMEDOUT' || /timeout/i.test(message)) return 'it did not answer in time';
  if (code === '28P01' || code === '28000') return `the server refuses the login: ${message}`;
  if (code === '3D000') return 'no such database (create it first)';
  if (code === '42501') return `the user may not change the schema books keeps there: ${message}`;
  if (code === '57P03') return 'the server is starting up or shutting down';
  return undefined;
}

/**
 * Statements on the pool, or on the caller's transaction's client. Each text is a named
 * prepared statement, parsed once per connection.
 */
export class PostgresSql implements Sql {
  readonly dialect = 'postgres';
  private readonly statements = new Map<string, { name: string; text: string }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly backend: PostgresBackend,
  ) {}

  async all<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return (await this.query(text, params)).rows as Row[];
  }

  async get<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return (await this.query(text, params)).rows[0] as Row | undefined;
  }

  async eachRow<Row extends readonly unknown[]>(
    text: string,
    params: readonly SqlValue[],
    visit: (row: Row) => void,
  ): Promise<number> {
    const { rows } = await this.query(text, params, 'array');
    for (const row of rows) visit(row as unknown as Row);
    return rows.length;
  }

  async run(text: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await this.query(text, params)).rowCount ?? 0;
  }

  /** A statement in PostgreSQL's own `$1` placeholders, for the dialect's own stores. */
  query(text: string, params: readonly unknown[], rowMode?: 'array'): Promise<pg.QueryResult> {
    const cacheKey = rowMode ? `${rowMode} ${text}` : text;
    let statement = this.statements.get(cacheKey);
    if (!statement) {
      statement = { name: `books_${this.statements.size + 1}`, text: numberedPlaceholders(text) };
      this.statements.set(cacheKey, statement);
    }
    const open = openTransactionOf<pg.PoolClient>(this.backend);
    if (open) corkForThisTick(open.connection);
    const client = open?.connection ?? this.pool;
    return client
      .query({
        name: statement.name,
        text: statement.text,
        values: params as unknown[],
        ...(rowMode && { rowMode }),
      })
      .catch((error: unknown) => {
        throw this.backend.noticeDamage(error);
      });
  }
}

/** A client's socket, which `pg` keeps as `connection.stream`. */
type Corkable = { cork(): void; uncork(): void };

/** The sockets held corked until the end of the current tick. */
const corked = new WeakSet<Corkable>();

/**
 * Holds a transaction's socket corked until this tick ends, so that the statements it issues
 * together (pipelined) leave in one write: `pg` writes each statement on its own, and on
 * loopback a write carries the delivery to the server with it (measured: 46% of a `serve`
 * process's CPU went to those writes under single-entry load).
 */
function corkForThisTick(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: Partial<Corkable> } }).connection
    ?.stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const socket = stream as Corkable;
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
