import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Which database the tests of this run use (vitest.config.ts runs the suites on both). */
export const TEST_BACKEND: 'sqlite' | 'postgres' =
  process.env.BOOKS_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** The environment variable the global setup leaves the server's admin URL in. */
export const POSTGRES_ADMIN_URL = 'BOOKS_TEST_POSTGRES_ADMIN_URL';
/** The migrated database each test database is copied from. */
export const TEMPLATE_DATABASE = 'books_template';

/** PostgreSQL connections per process in this run (a run with one catches pool deadlocks). */
export const TEST_POOL_SIZE = process.env.BOOKS_TEST_PG_POOL
  ? Number(process.env.BOOKS_TEST_PG_POOL)
  : undefined;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh migrated PostgreSQL database of its own, dropped by `drop`. */
export async function freshPostgresDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env[POSTGRES_ADMIN_URL];
  if (!adminUrl) throw new Error('no PostgreSQL for tests: run under vitest.config.ts');
  const name = `books_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Copies of one template are made one at a time (the template must have no other user).
    for (let attempt = 0; ; attempt += 1) {
      try {
        await client.query(text);
        return;
      } catch (error) {
        if (attempt > 50 || !/is being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 50));
      }
    }
  } finally {
    await client.end();
  }
}

const named = new Map<string, Promise<TestDatabase>>();

/**
 * The PostgreSQL database that stands for a SQLite file in a PostgreSQL run: the same one each
 * time the file is named (a server restarted on its file finds its books), dropped after the
 * test file (test/support/postgresCleanup.ts).
 */
export function postgresDatabaseFor(file: string): Promise<TestDatabase> {
  let database = named.get(file);
  if (!database) {
    database = freshPostgresDatabase();
    named.set(file, database);
  }
  return database;
}

/** Drops the databases `postgresDatabaseFor` made. */
export async function dropNamedDatabases(): Promise<void> {
  const databases = [...named.values()];
  named.clear();
  for (const database of databases) await (await database).drop();
}

/**
 * `books serve` flags as a PostgreSQL run gives them: `--memory` and `--db FILE` become a
 * database of its own (the same for the same file), with the run's pool size.
 */
export async function serveFlagsFor(flags: readonly string[]): Promise<string[]> {
  if (TEST_BACKEND !== 'postgres') return [...flags];
  const result: string[] = [];
  for (let i = 0; i < flags.length; i += 1) {
    const flag = flags[i]!;
    if (flag === '--memory') {
      result.push(
        '--db',
        (await postgresDatabaseFor(`memory ${randomBytes(6).toString('hex')}`)).url,
      );
    } else if (flag === '--db' && !/^postgres/.test(flags[i + 1] ?? '')) {
      result.push('--db', (await postgresDatabaseFor(flags[i + 1]!)).url);
      i += 1;
    } else {
      result.push(flag);
    }
  }
  if (TEST_POOL_SIZE) result.push('--pool-size', String(TEST_POOL_SIZE));
  return result;
}

/**
 * A store of its own on the run's backend (in-memory SQLite, or a fresh PostgreSQL database),
 * with one organization in it; `close` drops what it made.
 */
export async function openTestStore() {
  const { Store } = await import('../../src/platform/store/index.js');
  const { newId } = await import('../../src/platform/engine/ids.js');
  const postgres = TEST_BACKEND === 'postgres' ? await freshPostgresDatabase() : undefined;
  const store = await Store.open(postgres?.url ?? ':memory:', {
    ...(TEST_POOL_SIZE && { poolSize: TEST_POOL_SIZE }),
  });
  const organization = await store.organizations.insert({
    id: newId(),
    name: 'Firm',
    createdAt: new Date().toISOString(),
  });
  return {
    store,
    organizationId: organization.id,
    async close() {
      await store.close();
      await postgres?.drop();
    },
  };
}
