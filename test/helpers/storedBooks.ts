import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { generateLedger } from './generatedLedger.js';
import { postGeneratedLedger } from './postGenerated.js';
import { startServer } from './server.js';

/**
 * A database of the local platform (a SQLite file, or a PostgreSQL URL) holding a generated
 * ledger (chart, opening balance, `count` entries over a year on both ledgers) and one keyed
 * write's kept answer, written through a real platform and closed.
 */
export async function storeGeneratedBooks(database: string, count: number, seed = 5) {
  const server = await startServer({ database });
  try {
    const ledger = generateLedger({ seed, count, firstDay: '2025-01-01', days: 365 });
    const posted = await postGeneratedLedger(server, ledger);
    const keyed = await server.request('POST', '/platform/v1/workspaces', {
      body: { name: 'Keyed' },
      headers: { 'idempotency-key': 'stored-books-key' },
    });
    if (keyed.status !== 201) throw new Error(keyed.text);
    return { ...posted, ledger, idempotencyKey: 'stored-books-key' };
  } finally {
    await server.close();
  }
}

/**
 * Damage as a failing disk leaves it: the last `pages` pages of `table` (its leaves, the pages
 * written last) overwritten with noise, the file's header and every other page intact.
 */
export function damageLatePages(file: string, table: string, pages: number): number[] {
  const db = new Database(file, { readonly: true });
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const damaged = (
    db
      .prepare(
        "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno DESC LIMIT ?",
      )
      .pluck()
      .all(table, pages) as number[]
  ).filter((page) => page > 1);
  db.close();
  const noise = Buffer.alloc(pageSize);
  for (let i = 0; i < pageSize; i += 1) noise[i] = (i * 151 + 7) % 256;
  const fd = openSync(file, 'r+');
  try {
    for (const page of damaged) writeSync(fd, noise, 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return damaged;
}

/**
 * Overwrites the pages right after the header page (where the schema's tables begin) with
 * noise: the file still opens as SQLite, and the first read of its schema meets the damage.
 */
export function damageFirstPages(file: string): void {
  const db = new Database(file, { readonly: true });
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  db.close();
  const noise = Buffer.alloc(pageSize * 2);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 151 + 7) % 256;
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, noise, 0, noise.length, 2 * pageSize);
  } finally {
    closeSync(fd);
  }
}

/** The SHA-256 of a file's bytes. */
export function fileHash(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
