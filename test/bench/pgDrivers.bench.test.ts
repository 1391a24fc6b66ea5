import { randomUUID } from 'node:crypto';
import pg from 'pg';
import postgres from 'postgres';
import { it } from 'vitest';
import { freshPostgresDatabase } from '../helpers/backend.js';

const BATCHES = 600;
const ENTRIES = 100;
const LINES = 3;
const CONCURRENCY = 4;
const CHUNK = 2_000;

/** The two drivers' work, the same statements through each. */
interface Driver {
  name: string;
  transaction(statements: [string, unknown[]][]): Promise<void>;
  rows(text: string, values: unknown[]): Promise<Record<string, unknown>[]>;
  end(): Promise<void>;
}

/** The books' tables, pared to what this work touches (replacing the template's). */
const SCHEMA = `
  DROP TABLE IF EXISTS journal_entries, postings, daily_balances, idempotency_keys CASCADE;
  CREATE TABLE journal_entries (seq bigint PRIMARY KEY, id uuid NOT NULL UNIQUE, entity_id uuid NOT NULL, date_only date NOT NULL, memo text, created_at timestamptz NOT NULL);
  CREATE TABLE postings (id bigint PRIMARY KEY, entity_seq bigint NOT NULL, account_seq bigint NOT NULL, day date NOT NULL, debit_cents bigint NOT NULL, credit_cents bigint NOT NULL, source_seq bigint NOT NULL, line_no integer NOT NULL, description text NOT NULL);
  CREATE INDEX ON postings (source_seq);
  CREATE INDEX ON postings (entity_seq, account_seq, day, id);
  CREATE TABLE daily_balances (entity_seq bigint, account_seq bigint, day date, debit_cents bigint, credit_cents bigint, postings bigint, PRIMARY KEY (entity_seq, account_seq, day));
  CREATE TABLE idempotency_keys (organization_id uuid, key text, body bytea, PRIMARY KEY (organization_id, key));`;

const INSERT_ENTRIES = `INSERT INTO journal_entries SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::uuid[], $4::date[], $5::text[], $6::timestamptz[])`;
const INSERT_POSTINGS = `INSERT INTO postings SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::date[], $5::bigint[], $6::bigint[], $7::bigint[], $8::integer[], $9::text[])`;
const UPSERT_DAYS = `INSERT INTO daily_balances AS d SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::date[], $4::bigint[], $5::bigint[], $6::bigint[])
  ON CONFLICT (entity_seq, account_seq, day) DO UPDATE SET debit_cents = d.debit_cents + excluded.debit_cents,
    credit_cents = d.credit_cents + excluded.credit_cents, postings = d.postings + excluded.postings`;
const RECORD = `INSERT INTO idempotency_keys VALUES ($1, $2, $3)`;
const CHUNK_READ = `SELECT id, account_seq, day, debit_cents, credit_cents, description FROM postings
  WHERE entity_seq = 1 AND account_seq = $1 AND (day, id) > ($2, $3) ORDER BY day, id LIMIT ${CHUNK}`;

const entity = randomUUID();

/** Batch `b`: what a keyed bulk write of 100 three-line entries sends. */
function statementsOf(b: number): [string, unknown[]][] {
  const days = Array.from(
    { length: ENTRIES },
    (_, i) =>
      `2025-${String(1 + (b % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
  );
  const seqs = days.map((_, i) => b * ENTRIES + i + 1);
  const postings: unknown[][] = Array.from({ length: 9 }, () => []);
  const daily = new Map<string, [number, number, string, number, number, number]>();
  let id = b * ENTRIES * LINES;
  days.forEach((day, i) => {
    for (let l = 0; l < LINES; l += 1) {
      const account = l === 0 ? 1 : 2 + ((i + l) % 50);
      const debit = l === 0 ? 0 : 1000 + i;
      const credit = l === 0 ? (1000 + i) * (LINES - 1) : 0;
      [++id, 1, account, day, debit, credit, seqs[i], l, `Coffee shop #${i}`].forEach((v, c) =>
        postings[c]!.push(v),
      );
      const key = `${account}|${day}`;
      const sum = daily.get(key) ?? [1, account, day, 0, 0, 0];
      sum[3] += debit;
      sum[4] += credit;
      sum[5] += 1;
      daily.set(key, sum);
    }
  });
  const days6: unknown[][] = Array.from({ length: 6 }, () => []);
  for (const sum of [...daily.values()].sort((x, y) => x[1] - y[1] || (x[2] < y[2] ? -1 : 1))) {
    sum.forEach((v, c) => days6[c]!.push(v));
  }
  return [
    [
      INSERT_ENTRIES,
      [
        seqs,
        days.map(() => randomUUID()),
        days.map(() => entity),
        days,
        days.map(() => 'memo'),
        days.map(() => new Date().toISOString()),
      ],
    ],
    [INSERT_POSTINGS, postings],
    [UPSERT_DAYS, days6],
    [RECORD, [entity, `key-${b}`, Buffer.alloc(16 * 1024, b % 256)]],
  ];
}

function viaPg(url: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  return {
    name: 'pg',
    async transaction(statements) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const [index, [text, values]] of statements.entries()) {
          await client.query({ name: `s${index}`, text, values });
        }
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    },
    async rows(text, values) {
      return (await pool.query({ name: 'chunk', text, values })).rows;
    },
    end: () => pool.end(),
  };
}

function viaPostgres(url: string): Driver {
  const sql = postgres(url, { max: 8, onnotice: () => {} });
  return {
    name: 'postgres',
    async transaction(statements) {
      await sql.begin(async (transaction) => {
        for (const [text, values] of statements) {
          await transaction.unsafe(text, values as never[], { prepare: true });
        }
      });
    },
    async rows(text, values) {
      return [...(await sql.unsafe(text, values as never[], { prepare: true }))];
    },
    end: () => sql.end(),
  };
}

/**
 * `pg` and `postgres` (porsager) on the platform's work, the same statements through each:
 * keyed bulk writes of 100 three-line entries in transactions, 4 at a time (the rows over
 * arrays, the daily sums upserted in key order, a 16 kB answer kept), then the general ledger
 * read back account by account in keyset chunks of 2,000. Each driver on a database of its own,
 * twice, alternating. Prints entries written and rows read per second. Asserts nothing.
 */
it('PostgreSQL drivers: pg and postgres on bulk writes and chunked reads', async () => {
  const rows: string[] = [];
  for (let round = 1; round <= 2; round += 1) {
    for (const make of [viaPg, viaPostgres]) {
      const database = await freshPostgresDatabase();
      const setup = new pg.Client({ connectionString: database.url });
      await setup.connect();
      await setup.query(SCHEMA);
      await setup.end();
      const driver = make(database.url);
      try {
        let next = 0;
        const written = performance.now();
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            for (let b = next++; b < BATCHES; b = next++) await driver.transaction(statementsOf(b));
          }),
        );
        const writeSeconds = (performance.now() - written) / 1000;
        const read = performance.now();
        let count = 0;
        for (let account = 1; account <= 51; account += 1) {
          let after: [string, number] = ['2000-01-01', 0];
          for (;;) {
            const chunk = await driver.rows(CHUNK_READ, [account, ...after]);
            count += chunk.length;
            if (chunk.length < CHUNK) break;
            const last = chunk[chunk.length - 1]!;
            const day =
              last.day instanceof Date ? last.day.toISOString().slice(0, 10) : String(last.day);
            after = [day, Number(last.id)];
          }
        }
        const readSeconds = (performance.now() - read) / 1000;
        rows.push(
          `${driver.name.padEnd(9)} round ${round}: ${((BATCHES * ENTRIES) / writeSeconds).toFixed(0).padStart(6)} entries/s written   ${(count / readSeconds).toFixed(0).padStart(8)} rows/s read (${count} rows)`,
        );
      } finally {
        await driver.end();
        await database.drop();
      }
    }
  }
  console.log(rows.join('\n'));
});
