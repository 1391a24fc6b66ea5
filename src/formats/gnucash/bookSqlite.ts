import { createHash } from 'node:crypto';
import type BetterSqlite from 'better-sqlite3';
import { createReadStream } from 'node:fs';
import { calendarDayAt } from '../../core/calendar.js';
import { MAX_TEXT_CHARACTERS, overlongText } from '../common/bounds.js';
import type { LedgerEntry, Problem } from '../ledgerCsv.js';
import {
  BookLedger,
  type BookAccount,
  type BookCommodity,
  type BookFacts,
  type BookTransaction,
} from './book.js';

/*
 * A GnuCash book saved as SQLite (GnuCash 2.4 on: its `accounts`, `commodities`, `books`,
 * `transactions`, `splits` and `slots` tables), opened read-only and streamed: the accounts
 * whole (a chart), then the transactions in posted order with their splits, one at a time.
 * Accounts under the book's template root are the scheduled transactions' templates, and so are
 * the transactions whose splits post to them: left out and counted. A transaction with a
 * `void-reason` slot is voided: left out and counted.
 *
 * GnuCash keeps the posted moment in UTC: since 2.6.12 at 10:59 UTC, the same day in every zone;
 * before, at the local midnight of the machine that entered it, read here in this machine's time
 * zone (as GnuCash shows them), and said.
 *
 * A file's "lines" are its splits, counted in the order read.
 */

const REQUIRED = ['accounts', 'books', 'commodities', 'splits', 'transactions', 'versions'];

/** The texts the reader takes, by table: no export's is longer than a million characters. */
const TEXTS: Readonly<Record<string, readonly string[]>> = {
  accounts: [
    'guid',
    'name',
    'account_type',
    'code',
    'description',
    'commodity_guid',
    'parent_guid',
  ],
  commodities: ['guid', 'namespace', 'mnemonic'],
  slots: ['obj_guid', 'name', 'string_val'],
  transactions: ['guid', 'currency_guid', 'num', 'post_date', 'description'],
  splits: ['tx_guid', 'account_guid', 'memo'],
  books: ['root_template_guid'],
};

/** The first text over the bound, said with its table, column and row; else undefined. */
function overlongColumn(db: BetterSqlite.Database): string | undefined {
  for (const [table, wanted] of Object.entries(TEXTS)) {
    const present = new Set(
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
    );
    for (const column of wanted.filter((c) => present.has(c))) {
      const row = db
        .prepare(`SELECT rowid AS id FROM ${table} WHERE length(${column}) > ? LIMIT 1`)
        .get(MAX_TEXT_CHARACTERS) as { id: number } | undefined;
      if (row) return overlongText(`the ${column} of row ${row.id} of the ${table} table`);
    }
  }
  return undefined;
}

/** The posted day of a `post_date`: `2016-01-01 10:59:00` or 2.4's `20160101105900`. */
function postedDay(text: string | null, timeZone: string, facts: BookFacts): string | undefined {
  if (text === null) return undefined;
  const match = /^(\d{4})-?(\d{2})-?(\d{2})[ T]?(\d{2}):?(\d{2}):?(\d{2})/.exec(text.trim());
  if (!match) return undefined;
  const [, y, m, d, hh, mm, ss] = match;
  if (`${hh}:${mm}` === '10:59') return `${y}-${m}-${d}`;
  facts.zonedDays += 1;
  facts.timeZone = timeZone;
  return calendarDayAt(new Date(`${y}-${m}-${d}T${hh}:${mm}:${ss}Z`), timeZone);
}

export async function* readGnuCashSqlite(
  file: string,
  options: { currency?: string },
  facts: BookFacts,
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string) => void,
): AsyncGenerator<LedgerEntry> {
  const { default: Database } = await import('better-sqlite3');
  let db: InstanceType<typeof Database> | undefined;
  let tables: string[];
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
  } catch (error) {
    db?.close();
    report({ fileLine: 1, message: `cannot read the SQLite book: ${(error as Error).message}` });
    return;
  }
  try {
    const missing = REQUIRED.filter((table) => !tables.includes(table));
    if (missing.length > 0) {
      report({
        fileLine: 1,
        message: `a SQLite database, but not a GnuCash book: it has no ${missing.join(', ')} table${missing.length === 1 ? '' : 's'}`,
      });
      return;
    }
    const version = db
      .prepare("SELECT table_version AS v FROM versions WHERE table_name = 'Gnucash'")
      .get() as { v: number } | undefined;
    if (version === undefined) {
      report({
        fileLine: 1,
        message:
          'a SQLite database, but not a GnuCash book: its versions table names no Gnucash version',
      });
      return;
    }
    // A text longer than a million characters is refused before it is read into memory.
    const overlong = overlongColumn(db);
    if (overlong) {
      report({ fileLine: 1, message: overlong });
      return;
    }
    const ledger = new BookLedger(facts, report);
    const commodities = new Map<string, BookCommodity>();
    for (const row of db.prepare('SELECT guid, namespace, mnemonic FROM commodities').all() as {
      guid: string;
      namespace: string;
      mnemonic: string;
    }[])
      commodities.set(row.guid, { space: row.namespace, id: row.mnemonic });
    const flags = new Map<string, { placeholder?: boolean; hidden?: boolean }>();
    for (const row of db
      .prepare(
        "SELECT obj_guid AS id, name, string_val AS value, int64_val AS number FROM slots WHERE name IN ('placeholder', 'hidden')",
      )
      .all() as { id: string; name: string; value: string | null; number: number | null }[]) {
      const set = row.value === 'true' || row.number === 1;
      flags.set(row.id, { ...flags.get(row.id), [row.name]: set });
    }
    const columns = (db.prepare('PRAGMA table_info(accounts)').all() as { name: string }[]).map(
      (c) => c.name,
    );
    const accounts = db
      .prepare(
        `SELECT guid, name, account_type AS type, commodity_guid AS commodity, parent_guid AS parent, code,
          ${columns.includes('hidden') ? 'hidden' : '0 AS hidden'}, ${columns.includes('placeholder') ? 'placeholder' : '0 AS placeholder'}
         FROM accounts`,
      )
      .all() as {
      guid: string;
      name: string;
      type: string;
      commodity: string | null;
      parent: string | null;
      code: string | null;
      hidden: number | null;
      placeholder: number | null;
    }[];
    const books = db.prepare('SELECT root_template_guid AS template FROM books').all() as {
      template: string;
    }[];
    const templateRoots = new Set(books.map((b) => b.template));
    const parentOf = new Map(accounts.map((a) => [a.guid, a.parent]));
    const underTemplate = (id: string): boolean => {
      for (let at: string | null | undefined = id, depth = 0; at && depth < 64; depth++) {
        if (templateRoots.has(at)) return true;
        at = parentOf.get(at);
      }
      return false;
    };
    for (const row of accounts) {
      const flag = flags.get(row.guid);
      const account: BookAccount = {
        id: row.guid,
        name: row.name,
        type: row.type,
        parent: row.parent ?? undefined,
        code: row.code ?? '',
        commodity: row.commodity === null ? undefined : commodities.get(row.commodity),
        placeholder: Boolean(row.placeholder) || Boolean(flag?.placeholder),
        hidden: Boolean(row.hidden) || Boolean(flag?.hidden),
      };
      ledger.addAccount(account, underTemplate(row.guid));
    }
    ledger.chooseCurrency(options.currency);
    const voided = new Set(
      (
        db.prepare("SELECT obj_guid AS id FROM slots WHERE name = 'void-reason'").all() as {
          id: string;
        }[]
      ).map((row) => row.id),
    );
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const splits = db
      .prepare(
        `SELECT t.guid AS tx, t.currency_guid AS currency, t.num, t.post_date AS posted, t.description,
                s.account_guid AS account, s.memo, s.value_num, s.value_denom, s.quantity_num, s.quantity_denom
         FROM transactions t JOIN splits s ON s.tx_guid = t.guid
         ORDER BY t.post_date, t.guid`,
      )
      .safeIntegers(true);
    let line = 0;
    let current: BookTransaction | undefined;
    const finish = (): LedgerEntry | undefined => {
      const done = current;
      current = undefined;
      if (!done) return undefined;
      if (done.date === '') return undefined;
      return ledger.entryOf(done);
    };
    for (const row of splits.iterate() as Iterable<{
      tx: string;
      currency: string;
      num: string | null;
      posted: string | null;
      description: string | null;
      account: string;
      memo: string | null;
      value_num: bigint;
      value_denom: bigint;
      quantity_num: bigint;
      quantity_denom: bigint;
    }>) {
      line += 1;
      if (line % 10_000 === 0) onLine(line);
      if (current?.id !== row.tx) {
        const entry = finish();
        if (entry) yield entry;
        const date = postedDay(row.posted, timeZone, facts);
        if (date === undefined)
          report({
            fileLine: line,
            message: `the posted date "${row.posted ?? ''}" is not a date`,
          });
        current = {
          id: row.tx,
          line,
          date: date ?? '',
          number: row.num ?? '',
          description: row.description ?? '',
          currency: commodities.get(row.currency),
          voided: voided.has(row.tx),
          splits: [],
        };
      }
      current.splits.push({
        account: row.account,
        value: { num: row.value_num, denom: row.value_denom },
        quantity: { num: row.quantity_num, denom: row.quantity_denom },
        memo: row.memo ?? '',
        line,
      });
    }
    const entry = finish();
    if (entry) yield entry;
    onLine(line);
  } finally {
    db.close();
  }
  onEnd(await hashOf(file));
}

/** SHA-256 of a file's bytes. */
async function hashOf(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const bytes of createReadStream(file)) hash.update(bytes as Buffer);
  return hash.digest('hex');
}
