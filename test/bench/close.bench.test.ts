import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { addDays } from '../../src/core/calendar.js';
import type { Cents } from '../../src/core/money.js';
import { camt053 } from '../../src/formats/camt/writer.js';
import type { BankStatement, StatementEntry } from '../../src/formats/statement.js';
import { loadGeneratedFirm, writeGeneratedBooks } from '../helpers/benchBooks.js';
import { benchFigures, rssMb, timed } from '../helpers/benchProcesses.js';
import { SERVE_TOKEN, serveBooks, temporaryHome } from '../helpers/cli.js';
import {
  generateLedger,
  random,
  type GeneratedEntry,
  type GeneratedLedger,
} from '../helpers/generatedLedger.js';

const TARGET_SECONDS = 10;
const TARGET_RSS_MB = 300;
const POSTINGS = 1_000_000;
const STATEMENT_ENTRIES = 100_000;
/** Statement entries that are a deposit of two receipts the books hold apart. */
const DEPOSITS_OF_TWO = 200;
/** Cheques of December the bank has not seen by the year's end. */
const OUTSTANDING = 50;
const IBAN = 'DE89370400440532013000';

/**
 * A checking account of 1,000,000 postings: nine years before 2025 and 100,250 in 2025, each
 * the bank side of a two-line entry (a sale paid in, a supplier paid). Its statements: the
 * bank's twelve months of 2025, 100,000 entries in all — a fifth booked a day or two after the
 * books' date (across a month's end too), 200 deposits of two of the books' receipts, 50 cheques
 * of December on none (outstanding) — each month's opening and closing the bank's. A ledger in
 * the shape writeGeneratedBooks writes, and the statements that reconcile to it.
 */
function checkingAccountAndStatements(): { ledger: GeneratedLedger; statements: BankStatement[] } {
  const rng = random(46);
  const ofYear = STATEMENT_ENTRIES + DEPOSITS_OF_TWO + OUTSTANDING;
  const depositAt = (n: number) => n % 500 === 7 && n < DEPOSITS_OF_TWO * 500;
  const outstandingAt = (n: number) => n >= ofYear - OUTSTANDING * 20 && n % 20 === 3;
  const before = POSTINGS - ofYear;
  const entries: GeneratedEntry[] = [];
  const entry = (date: string, n: number, paid?: 'in' | 'out'): GeneratedEntry => {
    const cents = rng.next() < 0.3 ? rng.int(100, 9_999) : rng.int(10_000, 999_999);
    const paidIn = paid === undefined ? rng.next() < 0.55 : paid === 'in';
    return {
      date,
      basis: 'cash',
      memo: paidIn ? `Invoice ${n} paid` : `Supplier bill ${n}`,
      lines: paidIn
        ? [
            { account: 0, debitCents: cents, creditCents: 0 },
            { account: 1, debitCents: 0, creditCents: cents },
          ]
        : [
            { account: 2, debitCents: cents, creditCents: 0 },
            { account: 0, debitCents: 0, creditCents: cents },
          ],
    };
  };
  const earlierDays = 3288; // 2016-01-01 to 2024-12-31
  for (let n = 0; n < before; n += 1)
    entries.push(entry(addDays('2016-01-01', Math.floor((n * earlierDays) / before)), n));
  const year: GeneratedEntry[] = [];
  for (let n = 0; n < ofYear; n += 1) {
    const day = addDays('2025-01-01', Math.floor((n * 365) / ofYear));
    if (depositAt(n)) {
      year.push(entry(day, before + n, 'in'), entry(day, before + n + 1, 'in'));
      n += 1;
    } else year.push(entry(day, before + n, outstandingAt(n) ? 'out' : undefined));
  }
  entries.push(...year);
  const ledger: GeneratedLedger = {
    accounts: [
      { name: 'Checking', type: 'Cash' },
      { name: 'Sales', type: 'Income' },
      { name: 'Supplies', type: 'Operating Expenses' },
    ],
    openingBalance: { date: '2015-12-31', lines: [] },
    entries,
  };

  const bankSide = (e: GeneratedEntry): Cents => {
    const line = e.lines.find((l) => l.account === 0)!;
    return (line.debitCents - line.creditCents) as Cents;
  };
  let opening = 0;
  for (const e of entries.slice(0, before)) opening += bankSide(e);
  const bankEntries: StatementEntry[] = [];
  for (let n = 0; n < year.length; n += 1) {
    const e = year[n]!;
    if (outstandingAt(n)) continue;
    let amount = bankSide(e);
    let description = e.memo;
    // A deposit of two receipts of the same day, paid in as one.
    if (depositAt(n)) {
      const next = year[n + 1]!;
      amount = (amount + bankSide(next)) as Cents;
      description = `Deposit: ${e.memo}, ${next.memo}`;
    }
    const late = rng.next();
    let bookingDate = addDays(e.date, late < 0.8 ? 0 : late < 0.95 ? 1 : 2);
    if (bookingDate > '2025-12-31') bookingDate = e.date;
    bankEntries.push({
      bookingDate,
      valueDate: bookingDate,
      amount,
      reference: `BANKREF${String(n).padStart(8, '0')}`,
      counterparty: amount > 0 ? 'A customer' : 'A supplier',
      description,
      status: 'booked',
      line: 0,
    });
    if (depositAt(n)) n += 1;
  }
  const statements: BankStatement[] = [];
  let balance = opening;
  for (let month = 1; month <= 12; month += 1) {
    const prefix = `2025-${String(month).padStart(2, '0')}`;
    const own = bankEntries.filter((e) => e.bookingDate.startsWith(prefix));
    const closing = own.reduce((sum, e) => sum + e.amount, balance);
    const to = addDays(
      month === 12 ? '2026-01-01' : `2025-${String(month + 1).padStart(2, '0')}-01`,
      -1,
    );
    statements.push({
      account: IBAN,
      currency: 'EUR',
      from: `${prefix}-01`,
      to,
      opening: balance as Cents,
      closing: closing as Cents,
      entries: own,
      card: false,
      line: 0,
    });
    balance = closing;
  }
  return { ledger, statements };
}

/**
 * `books reconcile` of a checking account of 1,000,000 postings to twelve monthly camt.053
 * statements of 100,000 entries in all, through `books serve` on a SQLite file: the time, the
 * CLI's and the server's peak resident memory, and what it matched. Targets (printed, not
 * asserted): ≤ 10 s and ≤ 300 MB.
 */
it('books reconcile: 100,000 statement entries against an account of 1,000,000 postings', async () => {
  const figures = benchFigures();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-reconcile-'));
  const home = temporaryHome();
  const database = path.join(dir, 'books.sqlite');
  try {
    const { ledger, statements } = checkingAccountAndStatements();
    const written = await writeGeneratedBooks(database, ledger, { accrual: false });
    figures.say(
      `loaded ${ledger.entries.length.toLocaleString('en-US')} entries, ${POSTINGS.toLocaleString('en-US')} postings on Checking in ${written.seconds.toFixed(1)} s`,
    );
    const files = statements.map((statement, index) => {
      const file = path.join(dir, `2025-${String(index + 1).padStart(2, '0')}.xml`);
      writeFileSync(
        file,
        camt053([statement], {
          messageId: `BENCH-${index + 1}`,
          createdAt: `${statement.to}T23:59:59`,
        }),
      );
      return file;
    });
    const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
    const entryCount = statements.reduce((n, s) => n + s.entries.length, 0);
    figures.say(
      `12 camt.053 statements: ${entryCount.toLocaleString('en-US')} entries, ${(bytes / 1e6).toFixed(0)} MB`,
    );
    const server = await serveBooks(home, ['--db', database, '--rate-limit', '0']);
    try {
      const where = ['-w', 'Bench', '-e', 'Bench Co'];
      for (const round of ['first (links the IBAN)', 'again']) {
        const run = timed(
          ['reconcile', 'Checking', ...files, ...where, '--json'],
          server.env,
          [0, 1],
        );
        const result = JSON.parse(run.stdout) as {
          matched: number;
          missingInBooks: unknown[];
          notOnStatement: unknown[];
          difference: number;
          reconciled: boolean;
        };
        // What it found is asserted (the statements reconcile by construction); its speed is not.
        expect([result.reconciled, result.matched, result.notOnStatement.length]).toEqual([
          true,
          STATEMENT_ENTRIES,
          OUTSTANDING,
        ]);
        figures.say(
          `books reconcile, ${round}: ${run.seconds.toFixed(1)} s (target ≤ ${TARGET_SECONDS}), CLI peak RSS ${run.peakRssMb.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB}); ${result.reconciled ? 'reconciled' : 'NOT reconciled'}: ${result.matched.toLocaleString('en-US')} matched, ${result.missingInBooks.length} missing in the books, ${result.notOnStatement.length} outstanding, difference ${result.difference}`,
        );
      }
      figures.say(`books serve peak RSS ${rssMb(server.pid, 'VmHWM').toFixed(0)} MB`);
    } finally {
      await server.stop();
    }
  } finally {
    figures.printAll();
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}, 3_600_000);

const ENTITIES = 200;
const POSTINGS_PER_ENTITY = 5_000;
const REVIEW_TARGET_SECONDS = 60;

/**
 * `books close review --all-entities` of a firm of 200 entities, each of about 5,000 postings
 * over the four months a review reads (September to December 2025, every account type), through
 * `books serve` on a SQLite file and as the embedded default: the time and the CLI's peak
 * resident memory. Target (printed, not asserted): ≤ 60 s.
 */
it('books close review --all-entities: 200 entities of 5,000 postings', async () => {
  const figures = benchFigures();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-review-'));
  const home = temporaryHome();
  const database = path.join(dir, 'books.sqlite');
  try {
    // generateLedger's entries have 3.5 lines on average. One client in ten keeps a Suspense
    // account with a balance: not ready.
    const ledgers = Array.from({ length: ENTITIES }, (_, index) => {
      const ledger = generateLedger({
        seed: 4600 + index,
        count: Math.round(POSTINGS_PER_ENTITY / 3.5),
        firstDay: '2025-09-01',
        days: 122,
        accrualShare: 0,
      });
      if (index % 10 === 0)
        ledger.accounts.find((a) => a.type === 'Other Current Liabilities')!.name = 'Suspense';
      return ledger;
    });
    await loadGeneratedFirm(database, ledgers, figures.say);
    const review = ['close', 'review', '--period', '2025-12', '--all-entities', '-w', 'Firm'];
    const measure = (label: string, env: NodeJS.ProcessEnv) => {
      const run = timed([...review, '--json'], env, [0, 1]);
      const reviewed = JSON.parse(run.stdout) as { ready: boolean }[];
      expect(reviewed).toHaveLength(ENTITIES);
      figures.say(
        `books close review --all-entities, ${label}: ${reviewed.length} entities in ${run.seconds.toFixed(1)} s (target ≤ ${REVIEW_TARGET_SECONDS}), CLI peak RSS ${run.peakRssMb.toFixed(0)} MB; ${reviewed.filter((r) => r.ready).length} ready`,
      );
    };
    const server = await serveBooks(home, ['--db', database, '--rate-limit', '0']);
    try {
      measure('through books serve', server.env);
      figures.say(`books serve peak RSS ${rssMb(server.pid, 'VmHWM').toFixed(0)} MB`);
    } finally {
      await server.stop();
    }
    // The same books as the embedded default (no server: the engine inside the command).
    const dataDir = path.join(home.env.XDG_DATA_HOME!, 'books');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(`${database}${suffix}`))
        renameSync(`${database}${suffix}`, path.join(dataDir, `platform.sqlite${suffix}`));
    writeFileSync(path.join(dataDir, 'local-token'), `${SERVE_TOKEN}\n`, { mode: 0o600 });
    measure('the embedded local platform', home.env);
  } finally {
    figures.printAll();
    home.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}, 3_600_000);
