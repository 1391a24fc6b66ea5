import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { benchFigures, timed } from '../helpers/benchProcesses.js';
import { temporaryHome } from '../helpers/cli.js';
import {
  writeBigBookXml,
  writeBookSqlite,
  type Commodity,
  type GnuAccount,
  type GnuTransaction,
} from '../helpers/gnucashBooks.js';
import { random } from '../helpers/generatedLedger.js';

const SPLITS = 1_000_000;
const USD: Commodity = { space: 'CURRENCY', id: 'USD' };

/**
 * A GnuCash book of 1,000,000 splits (333,334 transactions of three splits over ten years, 60
 * accounts), written as GnuCash saves it (gzip-compressed XML) and as SQLite, then read whole by
 * `books je import BOOK --dry-run` (every entry checked, nothing sent): the time and the peak
 * resident memory, which must not grow with the book (printed, not asserted).
 */
it('a GnuCash book of 1,000,000 splits, XML and SQLite, read in bounded memory', async () => {
  const figures = benchFigures();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-gnucash-'));
  const home = temporaryHome();
  try {
    const types = ['BANK', 'ASSET', 'LIABILITY', 'INCOME', 'EXPENSE', 'EQUITY'];
    const accounts: GnuAccount[] = Array.from({ length: 60 }, (_, i) => ({
      id: (0x1000 + i).toString(16).padStart(32, '0'),
      name: `${types[i % types.length]!.toLowerCase()} ${i}`,
      type: types[i % types.length]!,
      commodity: USD,
    }));
    const rng = random(47);
    const transactions = Math.ceil(SPLITS / 3);
    const transaction = (n: number): GnuTransaction => {
      const a = rng.int(100, 999_999);
      const b = rng.int(100, 999_999);
      const day = new Date(
        Date.UTC(2016, 0, 1) + Math.floor((n * 3652) / transactions) * 86_400_000,
      )
        .toISOString()
        .slice(0, 10);
      return {
        id: (0x100000 + n).toString(16).padStart(32, '0'),
        date: day,
        description: `Transaction ${n}`,
        currency: USD,
        splits: [
          { account: accounts[n % 60]!.id, value: [a + b, 100], quantity: [a + b, 100] },
          { account: accounts[(n + 7) % 60]!.id, value: [-a, 100], quantity: [-a, 100] },
          { account: accounts[(n + 13) % 60]!.id, value: [-b, 100], quantity: [-b, 100] },
        ],
      };
    };
    const xml = path.join(dir, 'big.gnucash');
    let started = performance.now();
    await writeBigBookXml(xml, accounts, transactions, transaction, USD);
    figures.say(
      `wrote ${transactions.toLocaleString('en-US')} transactions, ${(transactions * 3).toLocaleString('en-US')} splits as gzip-compressed XML (${(statSync(xml).size / 1e6).toFixed(0)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const sqlite = path.join(dir, 'big-sqlite.gnucash');
    started = performance.now();
    writeBookSqlite(sqlite, { accounts, transactions: [] }, USD);
    const db = new Database(sqlite);
    const tx = db.prepare('INSERT INTO transactions VALUES (?, ?, ?, ?, ?, ?)');
    const split = db.prepare(
      "INSERT INTO splits VALUES (?, ?, ?, '', '', 'n', NULL, ?, 100, ?, 100, NULL)",
    );
    const currency = (db.prepare('SELECT guid FROM commodities').get() as { guid: string }).guid;
    db.transaction(() => {
      for (let n = 0; n < transactions; n++) {
        const t = transaction(n);
        tx.run(t.id, currency, '', `${t.date} 10:59:00`, `${t.date} 12:00:00`, t.description);
        t.splits.forEach((s, i) =>
          split.run(
            `${t.id.slice(-28)}${String(i).padStart(4, '0')}`,
            t.id,
            s.account,
            s.value[0],
            s.quantity[0],
          ),
        );
      }
    })();
    db.close();
    figures.say(
      `wrote the same as SQLite (${(statSync(sqlite).size / 1e6).toFixed(0)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const [label, file] of [
      ['gzip-compressed XML', xml],
      ['SQLite', sqlite],
    ] as const) {
      const run = timed(
        ['je', 'import', file, '--dry-run', '--create-missing-accounts'],
        home.env,
        [0, 1, 3],
      );
      expect(run.exit).toBe(0);
      figures.say(
        `books je import --dry-run, ${label}: ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb.toFixed(0)} MB`,
      );
    }
  } finally {
    figures.printAll();
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}, 3_600_000);
