import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/platform/store/postgres/migrations.js';
import { POSTGRES_ADMIN_URL, TEST_BACKEND } from '../helpers/backend.js';
import { runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';

/** An empty database of its own (not a copy of the migrated template), dropped after. */
async function emptyDatabase(name: string) {
  const admin = new pg.Client({ connectionString: process.env[POSTGRES_ADMIN_URL] });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env[POSTGRES_ADMIN_URL]!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async query(text: string) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: process.env[POSTGRES_ADMIN_URL] });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

describe.skipIf(TEST_BACKEND !== 'postgres')('books serve starting on PostgreSQL', () => {
  let home: ReturnType<typeof temporaryHome>;
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  beforeEach(async () => {
    home = temporaryHome();
    database = await emptyDatabase(`books_start_${Math.random().toString(36).slice(2, 10)}`);
  });
  afterEach(async () => {
    await database.drop();
    home.cleanup();
  });

  it('migrates an empty database once when several processes start on it together', async () => {
    const servers = await Promise.all(
      Array.from({ length: 4 }, () => serveBooks(home, ['--db', database.url], { asGiven: true })),
    );
    try {
      const applied = await database.query(
        'SELECT version, COUNT(*) AS times FROM schema_migrations GROUP BY version ORDER BY version',
      );
      expect(applied).toEqual(MIGRATIONS.map((m) => ({ version: m.version, times: '1' })));
      // One default organization, whoever came first.
      expect(await database.query('SELECT COUNT(*) AS n FROM organizations')).toEqual([{ n: '1' }]);
      for (const server of servers) {
        expect((await server.api('GET', '/platform/v1/workspaces')).status).toBe(200);
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });

  it('refuses a database migrated by a newer books: one line, exit 1, nothing changed', async () => {
    const first = await serveBooks(home, ['--db', database.url], { asGiven: true });
    await first.stop();
    const newer = MIGRATIONS.length + 1;
    await database.query(
      `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${newer}, 'from the future', now())`,
    );
    const before = await database.query('SELECT COUNT(*) AS n FROM organization_tokens');
    const result = await runBooks(['serve', '--db', database.url, '--port', '0'], home.env);
    expect(result.code).toBe(1);
    const host = new URL(database.url);
    expect(result.stderr).toBe(
      `books: cannot use the database PostgreSQL database ${host.pathname.slice(1)} at ${host.hostname}:${host.port}: its schema is version ${newer}, newer than this books knows (${MIGRATIONS.length}): upgrade books to use it\n`,
    );
    expect(await database.query('SELECT COUNT(*) AS n FROM organization_tokens')).toEqual(before);
  });

  it('says why it cannot reach a database, without its password', async () => {
    const missing = new URL(database.url);
    missing.pathname = '/no_such_books';
    const result = await runBooks(['serve', '--db', missing.toString(), '--port', '0'], home.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^books: cannot use the database PostgreSQL database no_such_books at [\d.]+:\d+: no such database \(create it first\)\n$/,
    );
    expect(result.stderr).not.toContain(`:${missing.password}@`);
    const refused = await runBooks(
      ['serve', '--db', 'postgres://books:secret-word@127.0.0.1:1/books', '--port', '0'],
      home.env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'books: cannot use the database PostgreSQL database books at 127.0.0.1:1: nothing answers there (is PostgreSQL running?)\n',
    );
  });
});
