import { copyFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks, serveBooks, SERVE_TOKEN, temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { damageLatePages, fileHash, storeGeneratedBooks } from '../helpers/storedBooks.js';

const BATCH = 10;

/** Each batch's entries in a SQLite file of books, by the batch named in their memo. */
function entriesByBatch(file: string): Map<number, number> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT memo, COUNT(*) AS n FROM journal_entries WHERE memo LIKE 'batch %' GROUP BY memo",
      )
      .all() as { memo: string; n: number }[];
    return new Map(rows.map((r) => [Number(r.memo.split(' ')[1]), r.n]));
  } finally {
    db.close();
  }
}

const journalEntryCount = (file: string, ledgerBasis = '%') => {
  const db = new Database(file, { readonly: true });
  try {
    return Number(
      db
        .prepare('SELECT COUNT(*) FROM journal_entries WHERE ledger_basis LIKE ?')
        .pluck()
        .get(ledgerBasis),
    );
  } finally {
    db.close();
  }
};

/** The step numbers of a database check's progress lines, and the six a check has. */
const stepNumbers = (lines: readonly string[]) =>
  lines.map((line) => /\(step (\d) of 6: /.exec(line)?.[1]);
const SIX_STEPS = ['1', '2', '3', '4', '5', '6'];

/**
 * `books db backup` and `books db restore` through the built binary, on SQLite files a real
 * `books serve` holds: a backup taken while that server writes keyed batches is the books as they
 * were when it began (whole batches only), checks clean and opens once restored; a restore is
 * refused while a server holds its target and keeps the file it replaces.
 */
describe('books db backup and restore', () => {
  const home = temporaryHome();
  const stored = path.join(home.home, 'stored.sqlite');
  let entityId: string;
  let accountIds: string[];

  beforeAll(async () => {
    const books = await storeGeneratedBooks(stored, 3000);
    entityId = books.entityId;
    accountIds = books.accounts.map((a) => a.id);
  }, 60_000);
  afterAll(() => home.cleanup());

  it('a backup taken while another process writes keyed batches holds every batch acknowledged before it began, none torn, and checks clean restored', async () => {
    const file = path.join(home.home, 'live.sqlite');
    copyFileSync(stored, file);
    const server = await serveBooks(home, ['--db', file], { asGiven: true });
    const batches: { sentAt: number; ackedAt?: number }[] = [];
    let writing = true;
    const writer = async () => {
      while (writing) {
        const batch = batches.push({ sentAt: performance.now() }) - 1;
        const journalEntries = Array.from({ length: BATCH }, (_, i) => ({
          date: '2025-06-30',
          ledgerBasis: 'accrual',
          memo: `batch ${batch}`,
          lines: [
            { accountId: accountIds[i % 5]!, debitAmount: 1 + i, creditAmount: null },
            { accountId: accountIds[5 + (i % 5)]!, debitAmount: null, creditAmount: 1 + i },
          ],
        }));
        const response = await fetch(
          `${server.baseUrl}/platform/v1/entities/${entityId}/journal-entries/bulk`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${SERVE_TOKEN}`,
              'content-type': 'application/json',
              'idempotency-key': `backup-batch-${batch}`,
            },
            body: JSON.stringify({ journalEntries }),
          },
        );
        if (response.status !== 201) throw new Error(await response.text());
        batches[batch]!.ackedAt = performance.now();
      }
    };
    const backup = path.join(home.home, 'taken-while-writing.sqlite');
    let began: number;
    let ended: number;
    try {
      const writers = [writer(), writer()];
      while (batches.filter((b) => b.ackedAt !== undefined).length < 20) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      began = performance.now();
      const result = await runBooks(['db', 'backup', backup, '--db', file], home.env);
      ended = performance.now();
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`books: backed up ${file} to ${backup} and checked it`);
      expect(result.stderr).toContain('no problems');
      // The writers go on after the backup, so some batches are certainly after it.
      const after = batches.length;
      while (batches.filter((b) => b.ackedAt !== undefined).length < after + 5) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      writing = false;
      await Promise.all(writers);
    } finally {
      writing = false;
      await server.stop();
    }
    expect(readdirSync(home.home).filter((f) => f.includes('.partial'))).toEqual([]);

    const restored = path.join(home.home, 'restored.sqlite');
    const restore = await runBooks(['db', 'restore', backup, '--db', restored, '--yes'], home.env);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stderr).toContain(`books: restored ${backup} to ${restored}`);
    const check = await runBooks(['db', 'check', '--db', restored], home.env);
    expect(check.code, check.stderr).toBe(0);

    const kept = entriesByBatch(restored);
    const written = entriesByBatch(file);
    for (const [batch, { sentAt, ackedAt }] of batches.entries()) {
      expect([0, BATCH], `batch ${batch} whole or absent`).toContain(kept.get(batch) ?? 0);
      if (ackedAt !== undefined && ackedAt < began)
        expect(kept.get(batch), `batch ${batch}`).toBe(BATCH);
      if (sentAt > ended) expect(kept.get(batch), `batch ${batch}`).toBeUndefined();
      if (ackedAt !== undefined) expect(written.get(batch)).toBe(BATCH);
    }
    expect([...kept.keys()].length).toBeLessThan(batches.length);

    // It opens: a server on the restored file answers from it.
    const reopened = await serveBooks(home, ['--db', restored], { asGiven: true });
    try {
      const listed = await reopened.api(
        'GET',
        `/platform/v1/entities/${entityId}/journal-entries?limit=1&ledgerBasis=accrual`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body.pagination.total).toBe(journalEntryCount(restored, 'accrual'));
    } finally {
      await reopened.stop();
    }
  }, 120_000);

  it('a restore is refused while books serve holds the file; with --yes it keeps the file replaced beside it', async () => {
    const target = path.join(home.home, 'target.sqlite');
    copyFileSync(stored, target);
    const backup = path.join(home.home, 'older.sqlite');
    expect((await runBooks(['db', 'backup', backup, '--db', stored], home.env)).code).toBe(0);
    const server = await serveBooks(home, ['--db', target], { asGiven: true });
    try {
      // A write the backup does not hold.
      const created = await server.api('POST', '/platform/v1/workspaces', { name: 'Later' });
      expect(created.status).toBe(201);
      // The file is the server's, not replaced: its bytes may change meanwhile (the server's
      // thread folds its WAL into it), its inode and its books may not.
      const before = statSync(target).ino;
      const refused = await runBooks(['db', 'restore', backup, '--db', target, '--yes'], home.env);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain('open in another process');
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      expect(statSync(target).ino).toBe(before);
      expect(readdirSync(home.home).filter((f) => f.includes('replaced'))).toEqual([]);
      const listed = await server.api('GET', '/platform/v1/workspaces');
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).toContain('"Later"');
    } finally {
      await server.stop();
    }
    const entriesBefore = journalEntryCount(target);
    const workspacesIn = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT name FROM workspaces ORDER BY name').pluck().all();
      } finally {
        db.close();
      }
    };
    const workspacesBefore = workspacesIn(target);
    expect(workspacesBefore).toContain('Later');

    // Not on a terminal and no --yes: asked, cannot ask, nothing replaced.
    const unasked = await runBooks(['db', 'restore', backup, '--db', target], home.env);
    expect(unasked.code, unasked.stderr).toBe(2);
    expect(unasked.stderr).toContain('--yes');
    expect(workspacesIn(target)).toEqual(workspacesBefore);

    const restored = await runBooks(
      ['db', 'restore', backup, '--db', target, '--yes', '--json'],
      home.env,
    );
    expect(restored.code, restored.stderr).toBe(0);
    const { kept } = JSON.parse(restored.stdout) as { kept: string };
    expect(path.dirname(kept)).toBe(home.home);
    expect(path.basename(kept)).toMatch(/^target\.sqlite\.replaced-\d{8}-\d{6}$/);
    expect(workspacesIn(target)).not.toContain('Later');
    expect(workspacesIn(kept)).toEqual(workspacesBefore);
    expect(journalEntryCount(kept)).toBe(entriesBefore);
    expect((await runBooks(['db', 'check', '--db', kept], home.env)).code).toBe(0);
    expect(
      readdirSync(home.home).filter(
        (f) => f.includes('partial') || /replaced-\d{8}-\d{6}-(wal|shm)$/.test(f),
      ),
    ).toEqual([]);
  }, 120_000);

  it('shows its progress on a terminal, and nothing of it in a pipe', async () => {
    const onTerminal = await runCli(
      ['db', 'backup', path.join(home.home, 'on-terminal.sqlite'), '--db', stored],
      { env: home.env, tty: true },
    );
    expect(onTerminal.code, onTerminal.stderr).toBe(0);
    expect(onTerminal.stderr).toMatch(/\r {2}backing up 100% \([\d,]+ of [\d,]+ pages\)/);
    const piped = await runCli(
      ['db', 'backup', path.join(home.home, 'piped.sqlite'), '--db', stored],
      { env: home.env },
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).not.toContain('backing up');
  });

  it("in a log, says each phase: the pages copied, then each step of the copy's check", async () => {
    const every = { ...home.env, BOOKS_PROGRESS_SECONDS: '0' };
    const backup = path.join(home.home, 'logged.sqlite');
    const backedUp = await runBooks(['db', 'backup', backup, '--db', stored], every);
    expect(backedUp.code, backedUp.stderr).toBe(0);
    const target = path.join(home.home, 'logged-target.sqlite');
    copyFileSync(stored, target);
    const restored = await runBooks(['db', 'restore', backup, '--db', target, '--yes'], every);
    expect(restored.code, restored.stderr).toBe(0);
    for (const [result, doing] of [
      [backedUp, 'backing up'],
      [restored, 'restoring'],
    ] as const) {
      const lines = result.stderr.split('\n');
      const copying = lines.filter((line) => line.startsWith(`books: ${doing} `));
      expect(copying.at(-1)).toMatch(
        new RegExp(`^books: ${doing} ([\\d,]+) of \\1 pages \\(100%\\), [\\d,]+ pages/s$`),
      );
      const steps = lines.filter((line) => line.startsWith('books: checking the copy'));
      expect(stepNumbers(steps)).toEqual(SIX_STEPS);
      expect(steps[0]).toMatch(
        /^books: checking the copy \(step 1 of 6: the database's own integrity check\), \d+ s so far$/,
      );
      expect(lines.indexOf(copying.at(-1)!)).toBeLessThan(lines.indexOf(steps[0]!));
    }
    // --quiet: none of it.
    const quiet = await runBooks(
      ['db', 'backup', path.join(home.home, 'quiet.sqlite'), '--db', stored, '--quiet'],
      every,
    );
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/backing up|checking the copy/);
  });

  it('db check says each of its steps in a log, and nothing with --quiet', async () => {
    const every = { ...home.env, BOOKS_PROGRESS_SECONDS: '0' };
    const checked = await runBooks(['db', 'check', '--db', stored], every);
    expect(checked.code, checked.stderr).toBe(0);
    const lines = checked.stderr.split('\n');
    const steps = lines.filter((line) => line.startsWith('books: checking '));
    expect(stepNumbers(steps)).toEqual(SIX_STEPS);
    expect(steps[0]).toMatch(
      /^books: checking .*stored\.sqlite \(step 1 of 6: the database's own integrity check\), \d+ s so far$/,
    );
    expect(lines.indexOf(steps.at(-1)!)).toBeLessThan(
      lines.findIndex((line) => line.startsWith('books: checked ')),
    );
    const quiet = await runBooks(['db', 'check', '--db', stored, '--quiet'], every);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toMatch(/step 1 of 6/);
    expect(quiet.stderr).toContain('books: no problems found');
  });

  it('a damaged database is not backed up, a damaged backup not restored, and PostgreSQL is pointed to pg_dump', async () => {
    const damaged = path.join(home.home, 'damaged.sqlite');
    copyFileSync(stored, damaged);
    damageLatePages(damaged, 'postings', 4);
    const backup = path.join(home.home, 'of-damaged.sqlite');
    const refused = await runBooks(['db', 'backup', backup, '--db', damaged], home.env);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('does not check clean');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(backup)).toBe(false);
    expect(existsSync(`${backup}.partial`)).toBe(false);

    const target = path.join(home.home, 'kept-safe.sqlite');
    copyFileSync(stored, target);
    const before = fileHash(target);
    const notRestored = await runBooks(
      ['db', 'restore', damaged, '--db', target, '--yes'],
      home.env,
    );
    expect(notRestored.code, notRestored.stderr).toBe(1);
    expect(notRestored.stderr).toContain('does not check clean');
    expect(fileHash(target)).toBe(before);

    const existing = await runBooks(['db', 'backup', target, '--db', stored], home.env);
    expect(existing.code, existing.stderr).toBe(1);
    expect(existing.stderr).toContain('exists already');
    expect(fileHash(target)).toBe(before);

    const postgres = await runBooks(
      ['db', 'backup', backup, '--db', 'postgres://books@localhost/books'],
      home.env,
    );
    expect(postgres.code).toBe(2);
    expect(postgres.stderr).toContain(
      'a PostgreSQL database is backed up with pg_dump --format=custom, and restored with pg_restore (the README says how); books db backup copies a SQLite file',
    );
    const restoreIntoPostgres = await runBooks(
      ['db', 'restore', backup, '--db', 'postgres://books@localhost/books'],
      home.env,
    );
    expect(restoreIntoPostgres.code).toBe(2);
    expect(restoreIntoPostgres.stderr).toContain(
      'a PostgreSQL database is restored with pg_restore from pg_dump --format=custom (the README says how); books db restore replaces a SQLite file',
    );
  }, 60_000);
});
