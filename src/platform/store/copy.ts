import type pg from 'pg';
import { openTransactionOf } from './sql.js';
import type { Store } from './index.js';
import type { PostgresBackend } from './postgres/backend.js';
import type { SqliteBackend } from './sqlite/backend.js';

/**
 * The tables of the books, in an order that keeps every reference to a copied row (a class's
 * parent before it, postings before their classes), each read in creation order so that
 * identities keep it. Rate-limit buckets and failure counts are left behind: they are no books.
 */
export const TABLES: { name: string; orderBy: string }[] = [
  { name: 'organizations', orderBy: 'rowid' },
  { name: 'organization_tokens', orderBy: 'rowid' },
  { name: 'workspaces', orderBy: 'rowid' },
  { name: 'entities', orderBy: 'seq' },
  { name: 'classes', orderBy: 'rowid' },
  { name: 'accounts', orderBy: 'seq' },
  { name: 'tax_settings', orderBy: 'rowid' },
  { name: 'tax_codes', orderBy: 'entity_id, position' },
  { name: 'tax_returns', orderBy: 'rowid' },
  { name: 'financial_accounts', orderBy: 'rowid' },
  { name: 'transaction_rules', orderBy: 'rowid' },
  // Answers kept for replay: a key retried against the new database still replays.
  { name: 'idempotency_keys', orderBy: 'rowid' },
  { name: 'account_groups', orderBy: 'rowid' },
  { name: 'journal_entries', orderBy: 'seq' },
  { name: 'opening_balances', orderBy: 'seq' },
  { name: 'bank_feed_connections', orderBy: 'rowid' },
  { name: 'connection_financial_accounts', orderBy: 'rowid' },
  { name: 'bank_transactions', orderBy: 'seq' },
  { name: 'bank_transaction_splits', orderBy: 'transaction_seq, position' },
  { name: 'reconciliations', orderBy: 'seq' },
  { name: 'reconciled_entries', orderBy: 'reconciliation_seq, entry_id' },
  { name: 'postings', orderBy: 'id' },
  { name: 'daily_balances', orderBy: 'entity_seq, basis, account_seq, day' },
  { name: 'posting_classes', orderBy: 'rowid' },
  { name: 'connection_events', orderBy: 'seq' },
  { name: 'accounting_migrations', orderBy: 'rowid' },
  { name: 'webhook_endpoints', orderBy: 'seq' },
  { name: 'webhook_secrets', orderBy: 'seq' },
  { name: 'webhook_messages', orderBy: 'seq' },
  { name: 'webhook_deliveries', orderBy: 'rowid' },
  { name: 'webhook_attempts', orderBy: 'seq' },
];

/** The tables left behind, being no books: rate-limit buckets and failed sign-ins. */
export const LEFT_BEHIND = ['rate_buckets', 'auth_failures', 'schema_migrations'] as const;

/**
 * Where a PostgreSQL column's values are in SQLite when not in a column of its name: the
 * outbox's instants kept there as milliseconds, and an answer's body kept as TEXT or, deflated,
 * as a BLOB in one column.
 */
const SQLITE_SOURCE: Record<string, string> = {
  'webhook_endpoints.failing_since': 'failing_since_ms',
  'webhook_secrets.expires_at': 'expires_at_ms',
  'webhook_deliveries.next_attempt_at': 'next_attempt_at_ms',
  'webhook_deliveries.finished_at': 'finished_at_ms',
  'idempotency_keys.body': "CASE WHEN typeof(body) = 'text' THEN body END",
  'idempotency_keys.body_deflated': "CASE WHEN typeof(body) = 'blob' THEN body END",
};

/** A column of the target, as its catalog describes it, and how a SQLite value becomes its. */
interface CopiedColumn {
  name: string;
  type: string;
  from: string;
  convert?: (value: unknown) => unknown;
}

/** The target's columns of a table, from PostgreSQL's catalog, and where each comes from. */
async function columnsOf(
  client: pg.PoolClient,
  table: string,
): Promise<{ columns: CopiedColumn[]; identity?: string; generatedAlways: boolean }> {
  const { rows } = await client.query<{
    column_name: string;
    type: string;
    is_identity: string;
    identity_generation: string | null;
  }>(
    `SELECT column_name, format_type(a.atttypid, a.atttypmod) AS type, c.is_identity,
            c.identity_generation
     FROM information_schema.columns c
     JOIN pg_attribute a ON a.attrelid = to_regclass(c.table_name) AND a.attname = c.column_name
     WHERE c.table_schema = current_schema() AND c.table_name = $1
     ORDER BY c.ordinal_position`,
    [table],
  );
  const identity = rows.find((row) => row.is_identity === 'YES');
  return {
    columns: rows.map((row) => {
      const from = SQLITE_SOURCE[`${table}.${row.column_name}`] ?? row.column_name;
      // SQLite keeps flags as 0/1, and these instants (and answers' ages) as milliseconds.
      const convert =
        row.type === 'boolean'
          ? (value: unknown) => (value === null ? null : Boolean(value))
          : row.type.startsWith('timestamp') &&
              (from.endsWith('_ms') ||
                `${table}.${row.column_name}` === 'idempotency_keys.created_at')
            ? (value: unknown) => (value === null ? null : new Date(Number(value)).toISOString())
            : undefined;
      return { name: row.column_name, type: row.type, from, convert };
    }),
    identity: identity?.column_name,
    generatedAlways: identity?.identity_generation === 'ALWAYS',
  };
}

/** Rows written per statement. */
const CHUNK_ROWS = 5_000;

/** What a copy did, table by table. */
export interface CopiedCounts {
  table: string;
  rows: number;
}

/** The target already holds books: a copy goes only into an empty database. */
export class TargetNotEmpty extends Error {
  override name = 'TargetNotEmpty';
}

/**
 * Copies every table of the books from a SQLite store into an empty PostgreSQL store, in one
 * transaction (a failure leaves the target as empty as it was), then moves each identity's
 * sequence past what was copied. Ephemeral state is left behind: rate-limit buckets and
 * failure counts. `progress` hears of each table as it is done.
 */
export async function copySqliteToPostgres(
  source: Store,
  target: Store,
  progress: (done: CopiedCounts) => void = () => {},
): Promise<CopiedCounts[]> {
  const sqlite = source.database as SqliteBackend;
  const postgres = target.database as PostgresBackend;
  const counts: CopiedCounts[] = [];
  await target.transaction(async () => {
    const client = openTransactionOf<pg.PoolClient>(postgres)!.connection;
    // One copy at a time; a second one meets a non-empty target once this one commits.
    await target.lock('copy into an empty database', 'exclusive');
    const present = await client.query<{ n: number }>('SELECT COUNT(*) AS n FROM organizations');
    if (Number(present.rows[0]!.n) > 0) {
      throw new TargetNotEmpty(
        `${postgres.location} already holds books (${present.rows[0]!.n} organizations): a copy goes only into an empty database; nothing was changed`,
      );
    }
    for (const table of TABLES) {
      const rows = await copyTable(sqlite, client, table);
      counts.push({ table: table.name, rows });
      progress({ table: table.name, rows });
    }
  });
  return counts;
}

async function copyTable(
  sqlite: SqliteBackend,
  client: pg.PoolClient,
  table: { name: string; orderBy: string },
): Promise<number> {
  const { columns, identity, generatedAlways } = await columnsOf(client, table.name);
  const select = sqlite.db.prepare(
    `SELECT ${columns.map((column) => `${column.from} AS ${column.name}`).join(', ')}
     FROM ${table.name} ORDER BY ${table.orderBy}`,
  );
  const insert = `INSERT INTO ${table.name} (${columns.map((column) => column.name).join(', ')})
    ${generatedAlways ? 'OVERRIDING SYSTEM VALUE' : ''}
    SELECT * FROM unnest(${columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ')})`;
  let rows = 0;
  let arrays: unknown[][] = columns.map(() => []);
  const flush = async () => {
    if (arrays[0]!.length === 0) return;
    await client.query(insert, arrays);
    arrays = columns.map(() => []);
  };
  for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
    columns.forEach((column, i) => {
      const value = row[column.name] ?? null;
      arrays[i]!.push(column.convert ? column.convert(value) : value);
    });
    rows += 1;
    if (arrays[0]!.length >= CHUNK_ROWS) await flush();
  }
  await flush();
  if (identity) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table.name}', '${identity}'),
         COALESCE((SELECT MAX(${identity}) FROM ${table.name}), 0) + 1, false)`,
    );
  }
  return rows;
}

/** The row count of every copied table, in the store given. */
export async function tableCounts(store: Store): Promise<CopiedCounts[]> {
  const counts: CopiedCounts[] = [];
  for (const table of TABLES) {
    const row = await store.database.sql.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${table.name}`,
    );
    counts.push({ table: table.name, rows: Number(row?.n ?? 0) });
  }
  return counts;
}
