import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteBackend } from '../../src/platform/store/sqlite/backend.js';
import { Checkpointer } from '../../src/platform/store/sqlite/checkpointer.js';
import { openDatabase } from '../../src/platform/store/sqlite/database.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A thread that checkpoints only when asked (its own turn an hour away). */
const HOUR = 3_600_000;

describe('the WAL folded into a serving file from a thread of its own', () => {
  it('the serving connection writes and never checkpoints below the backstop; the thread folds it all in', async () => {
    const file = path.join(dir, 'serving.sqlite');
    const db = openDatabase(file, { backgroundCheckpoints: true });
    const checkpointer = new Checkpointer(file, HOUR);
    try {
      db.exec('CREATE TABLE ledger (line INTEGER PRIMARY KEY, memo TEXT)');
      const insert = db.prepare('INSERT INTO ledger (memo) VALUES (?)');
      // About 2,000 pages (8 MB): past SQLite's default threshold of 1,000, below the backstop.
      db.transaction(() => {
        for (let i = 0; i < 8_000; i += 1) insert.run('x'.repeat(1_000));
      })();
      const before = statSync(file).size;
      const wal = statSync(`${file}-wal`).size;
      expect(wal).toBeGreaterThan(4_000_000);
      const outcome = await checkpointer.checkpoint();
      expect(outcome).toMatchObject({ busy: 0 });
      expect(outcome!.log).toBeGreaterThan(1_000);
      expect(outcome!.checkpointed).toBe(outcome!.log);
      expect(statSync(file).size).toBeGreaterThan(before + 4_000_000);
      expect(db.prepare('SELECT COUNT(*) FROM ledger').pluck().get()).toBe(8_000);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('stopped (a damaged file must stay as found), it checkpoints nothing more; stopping twice is once', async () => {
    const file = path.join(dir, 'stopped.sqlite');
    const db = openDatabase(file, { backgroundCheckpoints: true });
    const checkpointer = new Checkpointer(file, HOUR);
    db.exec('CREATE TABLE ledger (line INTEGER PRIMARY KEY, memo TEXT)');
    await checkpointer.stop();
    await checkpointer.stop();
    db.prepare('INSERT INTO ledger (memo) VALUES (?)').run('after');
    const size = statSync(file).size;
    expect(await checkpointer.checkpoint()).toBeUndefined();
    expect(statSync(file).size).toBe(size);
    db.close();
  });

  it('a thread that could not open the file leaves the server as it is, and stops at once', async () => {
    const checkpointer = new Checkpointer(path.join(dir, 'no-such.sqlite'), HOUR);
    expect(await checkpointer.checkpoint()).toBeUndefined();
    await checkpointer.stop();
  });

  it('a serving backend starts its thread and stops it before it closes', async () => {
    const file = path.join(dir, 'backend.sqlite');
    const backend = SqliteBackend.open(file, { backgroundCheckpoints: true });
    await backend.sql.run('CREATE TABLE t (x INTEGER)');
    await backend.close();
    expect(backend.db.open).toBe(false);
    // Closed last, the serving connection folded the WAL in and removed it.
    expect(() => statSync(`${file}-wal`)).toThrow();
  });
});
