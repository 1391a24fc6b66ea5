import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openPlatform } from '../../src/platform/open.js';
import { BOOKS_BIN, runBooks, SERVE_TOKEN, temporaryHome } from '../helpers/cli.js';
import { sqliteOf, startServer } from '../helpers/server.js';

/**
 * A database that cannot be used, for `books serve` and the embedded CLI (the built binary): one
 * line saying what is wrong and where, exit 1, no stack, nothing changed; and a disk that fills
 * while serving: 507, reads go on, the same key succeeds once there is room.
 */
const isRoot = process.getuid?.() === 0;
/** A small tmpfs can be mounted here (root with the capability): a real full and read-only disk. */
const canMount = (() => {
  if (!isRoot) return false;
  const probe = mkdtempSync(path.join(os.tmpdir(), 'books-mount-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]);
    if (mounted.status !== 0) return false;
    spawnSync('umount', [probe]);
    return true;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();
/** setpriv's arguments to run as nobody, when this is root and setpriv can. */
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
const asNobody =
  isRoot &&
  spawnSync('setpriv', [...NOBODY, process.execPath, BOOKS_BIN, '--version'], {
    env: { PATH: process.env.PATH, HOME: os.tmpdir() },
  }).status === 0;
if (!canMount) {
  console.warn(
    'storage faults: no tmpfs can be mounted here (needs root); the full disk is made by SQLite max_page_count and the read-only database by file modes instead',
  );
}

const serveOnce = (database: string, env: NodeJS.ProcessEnv) =>
  runBooks(
    ['serve', '--db', database, '--port', '0', '--org-token', SERVE_TOKEN, '--exec', 'true'],
    env,
  );

function expectOneLine(result: { code: number | null; stderr: string }, text: string) {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toBe(`books: ${text}\n`);
}

describe('a database that cannot be used, at start', () => {
  const home = temporaryHome();
  const data = path.join(home.home, '.local/share/books');
  const database = path.join(data, 'platform.sqlite');
  afterAll(() => home.cleanup());

  it('damaged: says so, for the embedded CLI and for serve, and leaves the file as it was', async () => {
    mkdirSync(data, { recursive: true, mode: 0o700 });
    const garbage = 'this is not a database, it is a shopping list\n'.repeat(200);
    writeFileSync(database, garbage, { mode: 0o600 });
    const why = `cannot use the database ${database}: it is not a SQLite database, or it is damaged`;
    expectOneLine(await runBooks(['workspace', 'list'], home.env), why);
    expectOneLine(await serveOnce(database, home.env), why);
    expect(spawnSync('cat', [database]).stdout.toString()).toBe(garbage);
    rmSync(database);
  });

  it('a data directory that cannot be made: says so for the embedded CLI', async () => {
    const blocked = path.join(home.home, 'blocked');
    writeFileSync(blocked, 'a file where the data directory would go');
    const result = await runBooks(['workspace', 'list'], { ...home.env, XDG_DATA_HOME: blocked });
    expectOneLine(
      result,
      `cannot use the local platform's data directory ${path.join(blocked, 'books')}: a file is where a directory should be`,
    );
  });

  it('not a file it can open (a directory in its place)', async () => {
    mkdirSync(database, { recursive: true });
    const result = await runBooks(['workspace', 'list'], home.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^books: cannot use the database ${database}: .+\\n$`),
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    rmSync(database, { recursive: true });
  });

  it.skipIf(isRoot && !asNobody)('unreadable (mode 000): permission denied', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'books-unreadable-'));
    try {
      chmodSync(dir, 0o755);
      const file = path.join(dir, 'books.sqlite');
      expect((await serveOnce(file, home.env)).code).toBe(0);
      chmodSync(file, 0o000);
      // As root every file is readable: the second start runs as nobody (setpriv).
      const args = [
        'serve',
        '--db',
        file,
        '--port',
        '0',
        '--org-token',
        SERVE_TOKEN,
        '--exec',
        'true',
      ];
      const result = isRoot
        ? (() => {
            const ran = spawnSync('setpriv', [...NOBODY, process.execPath, BOOKS_BIN, ...args], {
              env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1' },
              encoding: 'utf8',
            });
            return { code: ran.status, stderr: ran.stderr };
          })()
        : await runBooks(args, home.env);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `books: cannot use the database ${file}: permission denied (it must be readable and writable)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!canMount && isRoot)('read-only: says so, and nothing is written', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'books-readonly-'));
    try {
      if (canMount) spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]);
      const file = path.join(dir, 'books.sqlite');
      expect((await serveOnce(file, home.env)).code).toBe(0);
      const embedded = { ...home.env, XDG_DATA_HOME: path.join(dir, 'data') };
      expect((await runBooks(['workspace', 'create', 'Kept'], embedded)).code).toBe(0);
      if (canMount) spawnSync('mount', ['-o', 'remount,ro', dir]);
      else spawnSync('chmod', ['-R', 'a-w', dir]);
      const result = await serveOnce(file, home.env);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^books: cannot use the database ${file}: (it is read-only|permission denied).*\\n$`,
        ),
      );
      const cli = await runBooks(['workspace', 'list'], embedded);
      expect(cli.code, cli.stderr).toBe(1);
      expect(cli.stderr).toMatch(
        /^books: cannot use the database .*platform\.sqlite: it is read-only.*\n$/,
      );
    } finally {
      if (canMount) spawnSync('umount', [dir]);
      else spawnSync('chmod', ['-R', 'u+w', dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('locked by another process: says so once the wait for the lock ends', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'books-locked-'));
    const file = path.join(dir, 'books.sqlite');
    try {
      expect((await serveOnce(file, home.env)).code).toBe(0);
      const holder = new Database(file);
      holder.exec('BEGIN EXCLUSIVE');
      try {
        await expect(
          openPlatform({ database: file, tuning: { busyTimeoutMs: 50 } }),
        ).rejects.toThrow(`cannot use the database ${file}: it is locked by another process`);
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a disk that fills while serving', () => {
  const entries = (from: number) =>
    Array.from({ length: 100 }, (_, i) => ({
      date: '2026-01-15',
      memo: `Entry ${from + i} ${'padding '.repeat(40)}`,
      lines: [
        { accountId: '', debitAmount: 10, creditAmount: null, description: 'x'.repeat(200) },
        { accountId: '', debitAmount: null, creditAmount: 10, description: 'y'.repeat(200) },
      ],
    }));

  it('answers 507 saying so, keeps reading, and takes the same key once space is freed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'books-full-'));
    if (canMount) spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir]);
    const server = await startServer({ database: path.join(dir, 'books.sqlite') });
    try {
      const workspace = (
        await server.request('POST', '/platform/v1/workspaces', { body: { name: 'Full' } })
      ).body.workspace;
      const entity = (
        await server.request('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
          body: { name: 'Full Co' },
        })
      ).body.entity;
      const base = `/platform/v1/entities/${entity.id}`;
      const chart = await server.request('POST', `${base}/chart-of-accounts/bulk`, {
        body: {
          accounts: [
            { name: 'Till', type: 'Cash' },
            { name: 'Sales', type: 'Income' },
          ],
        },
      });
      const [till, sales] = chart.body.data;
      const db = sqliteOf(server.platform.engine.store);
      if (!canMount)
        db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + 200}`);
      const post = (batch: number) =>
        server.request('POST', `${base}/journal-entries/bulk`, {
          headers: { 'idempotency-key': `batch-${batch}` },
          body: {
            journalEntries: entries(batch * 100).map((e) => ({
              ...e,
              lines: [
                { ...e.lines[0]!, accountId: till.id },
                { ...e.lines[1]!, accountId: sales.id },
              ],
            })),
          },
        });
      let batch = 0;
      let full;
      for (; batch < 200; batch += 1) {
        const response = await post(batch);
        if (response.status !== 201) {
          full = response;
          break;
        }
      }
      expect(full?.status, full?.text).toBe(507);
      expect(full!.body.message).toMatch(/^the platform's disk is full: nothing was written/);
      expect(full!.body.traceId).toEqual(expect.any(String));
      // Reads keep working, and count only what was written.
      const list = await server.request('GET', `${base}/journal-entries?limit=1`);
      expect(list.status).toBe(200);
      expect(list.body.pagination.total).toBe(batch * 100);
      // Room again: the same key goes through, once.
      if (canMount) spawnSync('mount', ['-o', 'remount,size=64m', dir]);
      else db.pragma('max_page_count = 1073741823');
      expect((await post(batch)).status).toBe(201);
      const replay = await post(batch);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      const after = await server.request('GET', `${base}/journal-entries?limit=1`);
      expect(after.body.pagination.total).toBe((batch + 1) * 100);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await server.close();
      if (canMount) spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
