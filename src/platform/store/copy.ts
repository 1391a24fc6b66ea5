import type pg from 'pg';
import { openTransactionOf } from './sql.js';
import type { Store } from './index.js';
import type { PostgresBackend } from './postgres/backend.js';
import type { SqliteBackend } from './sqlite/backend.js';

/** A column as it is copied: its SQLite source, its PostgreSQL type, how its value changes. */
interface CopiedColumn {
  name: string;
  type: string;
  /** The SQLite expression it is read from (default: the column of the same name). */
  from?: string;
  convert?: (value: unknown) => unknown;
}

interface CopiedTable {
  name: string;
  /** The order rows are read in (creation order, so that identities keep it). */
  orderBy: string;
  columns: CopiedColumn[];
  /** Its identity column, whose sequence goes on after the largest value copied. */
  identity?: string;
  /** The identity is GENERATED ALWAYS: the copy says it overrides it. */
  generatedAlways?: boolean;
}

const bool = (value: unknown) => (value === null ? null : Boolean(value));
const instant = (value: unknown) => (value === null ? null : new Date(Number(value)).toISOString());
const c = (name: string, type: string, extra: Partial<CopiedColumn> = {}): CopiedColumn => ({
  name,
  type,
  ...extra,
});
const flag = (name: string) => c(name, 'boolean', { convert: bool });
const at = (name: string, from: string) => c(name, 'timestamptz', { from, convert: instant });

/** Every table of the books, in an order that keeps every reference to a copied row. */
const TABLES: CopiedTable[] = [
  {
    name: 'organizations',
    orderBy: 'rowid',
    columns: [
      c('id', 'uuid'),
      c('name', 'text'),
      flag('is_default'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'organization_tokens',
    orderBy: 'rowid',
    columns: [
      c('token_hash', 'text'),
      c('organization_id', 'uuid'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'workspaces',
    orderBy: 'rowid',
    identity: 'rowid',
    generatedAlways: true,
    columns: [
      c('rowid', 'bigint'),
      c('id', 'uuid'),
      c('organization_id', 'uuid'),
      c('name', 'text'),
      c('timezone', 'text'),
      flag('custom_chart_of_accounts'),
      c('billing_owner', 'text'),
      c('external_users', 'integer'),
      flag('rule_generation_eligible'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'entities',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('workspace_id', 'uuid'),
      c('name', 'text'),
      c('bookkeeping_start_date', 'date'),
      c('lock_date', 'date'),
      flag('accrual_ledger_open'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    // Parents before children: a class's parent is made before it.
    name: 'classes',
    orderBy: 'rowid',
    identity: 'rowid',
    generatedAlways: true,
    columns: [
      c('rowid', 'bigint'),
      c('id', 'uuid'),
      c('workspace_id', 'uuid'),
      c('parent_class_id', 'uuid'),
      c('root_class_id', 'uuid'),
      c('label', 'text'),
      c('label_key', 'text'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'accounts',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('name', 'text'),
      c('name_key', 'text'),
      c('code', 'text'),
      c('type', 'text'),
      c('group_id', 'uuid'),
      c('financial_account_id', 'uuid'),
      flag('is_disabled'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'financial_accounts',
    orderBy: 'rowid',
    columns: [
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('name', 'text'),
      c('kind', 'text'),
      c('created_at', 'timestamptz'),
      c('chart_account_id', 'uuid'),
    ],
  },
  {
    name: 'transaction_rules',
    orderBy: 'rowid',
    identity: 'rowid',
    generatedAlways: true,
    columns: [
      c('rowid', 'bigint'),
      c('id', 'uuid'),
      c('workspace_id', 'uuid'),
      c('rule_group', 'text'),
      c('entity_id', 'uuid'),
      c('conditions', 'text'),
      c('actions', 'text'),
      c('note', 'text'),
      flag('is_disabled'),
      c('created_at', 'timestamptz'),
      c('updated_at', 'timestamptz'),
    ],
  },
  {
    // Answers kept for replay: a key retried against the new database still replays.
    name: 'idempotency_keys',
    orderBy: 'rowid',
    columns: [
      c('organization_id', 'uuid'),
      c('key', 'text'),
      c('method', 'text'),
      c('path', 'text'),
      c('body_hash', 'text'),
      c('state', 'text'),
      c('status', 'integer'),
      c('headers', 'text'),
      c('body', 'text', {
        from: "CASE WHEN typeof(body) = 'text' THEN body END",
      }),
      c('body_deflated', 'bytea', { from: "CASE WHEN typeof(body) = 'blob' THEN body END" }),
      at('created_at', 'created_at'),
    ],
  },
  {
    name: 'account_groups',
    orderBy: 'rowid',
    identity: 'rowid',
    generatedAlways: true,
    columns: [
      c('rowid', 'bigint'),
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('name', 'text'),
      c('name_key', 'text'),
      c('type', 'text'),
      c('parent_group_id', 'uuid'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'journal_entries',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('ledger_basis', 'text'),
      c('date_only', 'date'),
      c('memo', 'text'),
      c('source_type', 'text'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'opening_balances',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('date', 'date'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'bank_feed_connections',
    orderBy: 'rowid',
    columns: [
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('bank_name', 'text'),
      c('status', 'text'),
      c('error_code', 'text'),
      flag('direct'),
      flag('created_by_integration'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'connection_financial_accounts',
    orderBy: 'rowid',
    columns: [
      c('connection_id', 'uuid'),
      c('financial_account_id', 'uuid'),
      c('position', 'integer'),
    ],
  },
  {
    name: 'bank_transactions',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('financial_account_id', 'uuid'),
      c('date', 'date'),
      c('amount_cents', 'bigint'),
      c('description', 'text'),
      c('external_id', 'text'),
      c('account_id', 'uuid'),
      c('rule_id', 'uuid'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'postings',
    orderBy: 'id',
    identity: 'id',
    columns: [
      c('id', 'bigint'),
      c('entity_seq', 'bigint'),
      c('basis', 'smallint'),
      c('account_seq', 'bigint'),
      c('day', 'date'),
      c('debit_cents', 'bigint'),
      c('credit_cents', 'bigint'),
      c('source_kind', 'smallint'),
      c('source_seq', 'bigint'),
      c('source_type', 'text'),
      c('line_no', 'integer'),
      c('description', 'text'),
      c('counterparty_name', 'text'),
    ],
  },
  {
    name: 'daily_balances',
    orderBy: 'entity_seq, basis, account_seq, day',
    columns: [
      c('entity_seq', 'bigint'),
      c('basis', 'smallint'),
      c('account_seq', 'bigint'),
      c('day', 'date'),
      c('debit_cents', 'bigint'),
      c('credit_cents', 'bigint'),
      c('postings', 'bigint'),
      c('opening_postings', 'bigint'),
    ],
  },
  {
    name: 'posting_classes',
    orderBy: 'rowid',
    identity: 'rowid',
    generatedAlways: true,
    columns: [c('rowid', 'bigint'), c('posting_id', 'bigint'), c('class_id', 'uuid')],
  },
  {
    name: 'connection_events',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('connection_id', 'uuid'),
      c('event', 'text'),
      c('error_code', 'text'),
      c('occurred_at', 'timestamptz'),
    ],
  },
  {
    name: 'accounting_migrations',
    orderBy: 'rowid',
    columns: [
      c('id', 'uuid'),
      c('entity_id', 'uuid'),
      c('state', 'text'),
      c('enrichment_rules_seeded_at', 'timestamptz'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'webhook_endpoints',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('organization_id', 'uuid'),
      c('url', 'text'),
      c('event_types', 'text'),
      flag('disabled'),
      at('failing_since', 'failing_since_ms'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'webhook_secrets',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('endpoint_id', 'uuid'),
      c('secret', 'text'),
      at('expires_at', 'expires_at_ms'),
    ],
  },
  {
    name: 'webhook_messages',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('id', 'uuid'),
      c('organization_id', 'uuid'),
      c('event_type', 'text'),
      c('body', 'text'),
      c('created_at', 'timestamptz'),
    ],
  },
  {
    name: 'webhook_deliveries',
    orderBy: 'rowid',
    columns: [
      c('message_id', 'uuid'),
      c('endpoint_id', 'uuid'),
      c('status', 'text'),
      c('attempts', 'integer'),
      c('schedule_position', 'integer'),
      at('next_attempt_at', 'next_attempt_at_ms'),
      at('finished_at', 'finished_at_ms'),
    ],
  },
  {
    name: 'webhook_attempts',
    orderBy: 'seq',
    identity: 'seq',
    columns: [
      c('seq', 'bigint'),
      c('message_id', 'uuid'),
      c('endpoint_id', 'uuid'),
      c('attempt', 'integer'),
      c('status', 'text'),
      c('response_status', 'integer'),
      c('at', 'timestamptz'),
    ],
  },
];

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
  table: CopiedTable,
): Promise<number> {
  const select = sqlite.db.prepare(
    `SELECT ${table.columns.map((column) => `${column.from ?? column.name} AS ${column.name}`).join(', ')}
     FROM ${table.name} ORDER BY ${table.orderBy}`,
  );
  const insert = `INSERT INTO ${table.name} (${table.columns.map((column) => column.name).join(', ')})
    ${table.generatedAlways ? 'OVERRIDING SYSTEM VALUE' : ''}
    SELECT * FROM unnest(${table.columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ')})`;
  let rows = 0;
  let arrays: unknown[][] = table.columns.map(() => []);
  const flush = async () => {
    if (arrays[0]!.length === 0) return;
    await client.query(insert, arrays);
    arrays = table.columns.map(() => []);
  };
  for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
    table.columns.forEach((column, i) => {
      const value = row[column.name] ?? null;
      arrays[i]!.push(column.convert ? column.convert(value) : value);
    });
    rows += 1;
    if (arrays[0]!.length >= CHUNK_ROWS) await flush();
  }
  await flush();
  if (table.identity) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table.name}', '${table.identity}'),
         COALESCE((SELECT MAX(${table.identity}) FROM ${table.name}), 0) + 1, false)`,
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
