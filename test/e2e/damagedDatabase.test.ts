import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booksPaths } from '../../src/cli/config/paths.js';
import { runBooks, serveBooks, SERVE_TOKEN, temporaryHome } from '../helpers/cli.js';
import {
  damageFirstPages,
  damageLatePages,
  fileHash,
  storeGeneratedBooks,
} from '../helpers/storedBooks.js';

/**
 * A SQLite database damaged where it is read only later (its header and first pages intact, its
 * last postings overwritten, as a failing disk leaves it): it opens, and the first request that
 * meets the damage is a 503 naming `books db check`; from then on the process refuses writes
 * (reads that still work go on), and the file's bytes stay as they were. On `books serve` and on
 * the embedded CLI, through the built binary.
 */
describe('a database damaged in pages read only later', () => {
  const home = temporaryHome();
  const damaged = path.join(home.home, 'damaged.sqlite');
  let entityId: string;

  beforeAll(async () => {
    ({ entityId } = await storeGeneratedBooks(damaged, 3000));
    expect(damageLatePages(damaged, 'postings', 6).length).toBe(6);
  }, 60_000);
  afterAll(() => home.cleanup());

  it('books serve: a 503 naming books db check, then writes refused, reads go on, the file untouched', async () => {
    const file = path.join(home.home, 'served.sqlite');
    copyFileSync(damaged, file);
    const before = fileHash(file);
    const server = await serveBooks(home, ['--db', file], { asGiven: true });
    const call = (method: string, url: string, body?: unknown) =>
      fetch(`${server.baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${SERVE_TOKEN}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        headers: r.headers,
        body: (await r.json()) as any,
      }));
    try {
      expect((await call('GET', '/platform/v1/workspaces')).status).toBe(200);
      // The latest entries' lines are on the pages overwritten.
      const met = await call('GET', `/platform/v1/entities/${entityId}/journal-entries?limit=100`);
      expect(met.status).toBe(503);
      expect(met.body.message).toContain(`books db check --db ${file}`);
      expect(met.body.message).toContain('damaged');
      expect(met.body.traceId).toBe(met.headers.get('x-request-id'));
      const write = await call('POST', '/platform/v1/workspaces', { name: 'After the damage' });
      expect(write.status).toBe(503);
      expect(write.body.message).toContain('books db check');
      expect((await call('GET', '/platform/v1/workspaces')).status).toBe(200);
      expect(
        (await call('GET', `/platform/v1/entities/${entityId}/chart-of-accounts`)).status,
      ).toBe(200);
    } finally {
      await server.stop();
    }
    expect(fileHash(file)).toBe(before);
    // What books db check says of it, reading it as it is.
    const checked = await runBooks(['db', 'check', '--db', file, '--json'], home.env);
    expect(checked.code, checked.stderr).toBe(1);
    const report = JSON.parse(checked.stdout) as { problems: { kind: string; message: string }[] };
    expect(report.problems.filter((p) => p.kind === 'database').length).toBeGreaterThan(0);
    expect(fileHash(file)).toBe(before);
  });

  it('the embedded CLI: exit 1 naming books db check at once, no stack, the file untouched', async () => {
    const cli = temporaryHome();
    try {
      const file = booksPaths(cli.env).platformDatabase;
      mkdirSync(path.dirname(file), { recursive: true });
      copyFileSync(damaged, file);
      const env = { ...cli.env, BOOKS_RETRY_BASE_MS: '60000' };
      const before = fileHash(file);
      const result = await runBooks(['je', 'list', '-e', entityId], env);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain('books db check');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(fileHash(file)).toBe(before);
      // What the damage does not touch still reads.
      const chart = await runBooks(['coa', 'list', '-e', entityId, '--json'], env);
      expect(chart.code, chart.stderr).toBe(0);
    } finally {
      cli.cleanup();
    }
  });
});

/**
 * A SQLite database damaged in its first pages (the schema's, read at start): `books serve` and
 * the embedded CLI say the one sentence naming `books db check` and exit 1 — never as an
 * unexpected error with a stack trace.
 */
describe('a database damaged in its first pages', () => {
  const home = temporaryHome();
  const damaged = path.join(home.home, 'first-pages.sqlite');

  beforeAll(async () => {
    await storeGeneratedBooks(damaged, 10);
    damageFirstPages(damaged);
  }, 60_000);
  afterAll(() => home.cleanup());

  const saysDamaged = (stderr: string, file: string) => {
    expect(stderr).toMatch(/^books: the platform's database is damaged \(/);
    expect(stderr).toContain(`run \`books db check --db ${file}\``);
    expect(stderr).not.toContain('unexpected error');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  };

  it('books serve --db FILE: one sentence, exit 1', async () => {
    const file = path.join(home.home, 'served-first.sqlite');
    copyFileSync(damaged, file);
    const served = await runBooks(
      ['serve', '--db', file, '--port', '0', '--org-token', SERVE_TOKEN],
      home.env,
    );
    expect(served.code).toBe(1);
    saysDamaged(served.stderr, file);
  });

  it('the embedded CLI: one sentence, exit 1', async () => {
    const cli = temporaryHome();
    try {
      const file = booksPaths(cli.env).platformDatabase;
      mkdirSync(path.dirname(file), { recursive: true });
      copyFileSync(damaged, file);
      const result = await runBooks(['workspace', 'list'], cli.env);
      expect(result.code).toBe(1);
      saysDamaged(result.stderr, file);
    } finally {
      cli.cleanup();
    }
  });
});
