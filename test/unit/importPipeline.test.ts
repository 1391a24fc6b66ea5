import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asCents } from '../../src/core/money.js';
import type { Account, Class } from '../../src/api/index.js';
import {
  accountTypeOf,
  planAccounts,
  type AccountPlanOptions,
  type FileAccount,
} from '../../src/migrate/import/accounts.js';
import {
  accountsKey,
  BATCH_BYTES,
  BatchCutter,
  batchKey,
  entryContent,
  entryFingerprint,
  migrationKey,
  type BatchPlan,
} from '../../src/migrate/import/batches.js';
import { checkLedger, type PassOneRules } from '../../src/migrate/import/check.js';
import { Checkpoint } from '../../src/migrate/import/checkpoint.js';
import { ClassBook } from '../../src/migrate/import/classes.js';
import { accountKey } from '../../src/formats/ledgerCsv.js';
import { reconcile } from '../../src/migrate/import/reconcile.js';
import { sendBatches } from '../../src/migrate/import/send.js';
import { EntrySpool } from '../../src/migrate/import/spool.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-pipeline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNumber = 0;
const fileOf = (text: string) => {
  const file = path.join(dir, `ledger-${++fileNumber}.csv`);
  writeFileSync(file, text);
  return file;
};

let ids = 0;
const account = (code: string, name: string, extra: Partial<Account> = {}): Account => ({
  id: `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  code,
  name,
  type: 'Operating Expenses',
  class: 'Expenses',
  groupId: null,
  financialAccountId: null,
  isDisabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

/** A file account as pass one finds it: by `code|name` pair, or a bare `account` text. */
const byPair = (
  code: string | undefined,
  name: string | undefined,
  firstLine: number,
  type?: string,
): FileAccount => ({
  key: accountKey(code, name),
  code,
  name,
  text: undefined,
  firstLine,
  lines: 1,
  accountType: type === undefined ? undefined : { text: type, line: firstLine },
});
const bare = (text: string, firstLine: number, type?: string): FileAccount => ({
  key: text,
  code: undefined,
  name: undefined,
  text,
  firstLine,
  lines: 1,
  accountType: type === undefined ? undefined : { text: type, line: firstLine },
});
const options = (extra: Partial<AccountPlanOptions> = {}): AccountPlanOptions => ({
  codesKept: true,
  createMissing: true,
  remembered: new Map(),
  ...extra,
});
const messages = (plan: ReturnType<typeof planAccounts>) =>
  plan.problems.map((p) => `${p.fileLine}: ${p.message}`);

describe('account_type: the API’s types and the classes of accounts', () => {
  it.each([
    ['Cash', 'Cash'],
    ['  other current   ASSETS ', 'Other Current Assets'],
    ['cogs', 'COGS'],
    ['asset', 'Other Current Assets'],
    ['Assets', 'Other Current Assets'],
    ['LIABILITY', 'Other Current Liabilities'],
    ['liabilities', 'Other Current Liabilities'],
    ['equity', 'Equity'],
    ['Income', 'Income'],
    ['revenue', 'Income'],
    ['Revenues', 'Income'],
    ['expense', 'Operating Expenses'],
    ['Expenses', 'Operating Expenses'],
    ['widgets', undefined],
    ['', undefined],
  ])('%j → %s', (text, type) => {
    expect(accountTypeOf(text)).toBe(type);
  });
});

describe('planAccounts: one rule for the accounts a file names', () => {
  it('on a custom chart, keeps the file’s codes: matches by code, creates with code and name', () => {
    const rent = account('6100', 'Rent');
    const plan = planAccounts(
      [
        byPair('6100', 'rent ', 2),
        byPair('6200', 'Utilities', 3, 'expense'),
        byPair('6200', undefined, 4),
      ],
      [rent],
      options(),
    );
    expect(messages(plan)).toEqual([]);
    expect(plan.resolved.get(accountKey('6100', 'rent '))).toBe(rent.id);
    expect(plan.missing).toEqual([
      {
        body: { name: 'Utilities', type: 'Operating Expenses', code: '6200' },
        keys: [accountKey('6200', 'Utilities'), accountKey('6200', undefined)],
        identities: ['code 6200'],
        firstLine: 3,
      },
    ]);
    expect(plan.notes).toEqual([]);
  });

  it('refuses a code whose name differs from the chart’s, and a name the chart gives another code', () => {
    const plan = planAccounts(
      [byPair('6100', 'Rent', 2), byPair('6300', 'Payroll', 5)],
      [account('6100', 'Office Rent'), account('6000', 'Payroll')],
      options(),
    );
    expect(messages(plan)).toEqual([
      `2: the file's account 6100 "Rent" does not match the chart's 6100 "Office Rent": rename one of them so that they agree (1 line)`,
      `5: the file's account 6300 "Payroll" does not match the chart's 6000 "Payroll": rename one of them so that they agree (1 line)`,
    ]);
  });

  it('refuses a code given two names; a name given two codes names two accounts, "Name (code)"', () => {
    const plan = planAccounts(
      [
        byPair('1000', 'Cash', 2),
        byPair('1000', 'Bank', 7),
        byPair('4000', 'Sales', 3, 'income'),
        byPair('4010', 'sales', 9, 'income'),
      ],
      [],
      options(),
    );
    expect(messages(plan)[0]).toEqual('7: account code 1000 is "Bank" here and "Cash" on line 2');
    expect(messages(plan).some((m) => m.includes('sales'))).toBe(false);
    expect(plan.notes).toContain(
      '1 name is used by more than one account code in the file, each such account named "Name (code)": "Sales" (4000, 4010)',
    );
    expect(plan.missing.map((m) => m.body.name).filter((n) => /sales/i.test(n))).toEqual([
      'Sales (4000)',
      'sales (4010)',
    ]);
  });

  it('a name alone that names two codes of the file is a problem; a code of the chart keeps its plain name', () => {
    const plan = planAccounts(
      [
        byPair('1510', 'Kundfordringar', 2, 'Accounts Receivable'),
        byPair('1511', 'Kundfordringar', 3, 'Accounts Receivable'),
        byPair(undefined, 'Kundfordringar', 9),
      ],
      // The chart already holds 1510 under its plain name: the file's 1510 is that account.
      [account('1510', 'Kundfordringar', { type: 'Accounts Receivable', class: 'Assets' })],
      options(),
    );
    expect(messages(plan)).toEqual([
      '9: account "Kundfordringar" is the name of 2 accounts of the file (codes 1510, 1511), and these lines give no code to choose by',
    ]);
    expect(plan.missing.map((m) => m.body)).toEqual([
      { name: 'Kundfordringar (1511)', type: 'Accounts Receivable', code: '1511' },
    ]);
  });

  it('an account the file states only as balance sheet or profit and loss is typed by the side of its balance', () => {
    const kinded = (
      code: string,
      name: string,
      line: number,
      kind: 'balance sheet' | 'profit and loss',
    ) => ({
      ...byPair(code, name, line),
      kind: { kind, line },
    });
    const netOfKey = new Map([
      [accountKey('1010', 'Rekening ING'), asCents(500_000)],
      [accountKey('0500', 'Eigen Vermogen'), asCents(-500_000)],
      [accountKey('9000', 'Diverse baten'), asCents(-29)],
      [accountKey('9100', 'Diverse lasten'), asCents(0)],
    ]);
    const plan = planAccounts(
      [
        kinded('1010', 'Rekening ING', 2, 'balance sheet'),
        kinded('0500', 'Eigen Vermogen', 3, 'balance sheet'),
        kinded('9000', 'Diverse baten', 4, 'profit and loss'),
        kinded('9100', 'Diverse lasten', 5, 'profit and loss'),
      ],
      [],
      options({ netOfKey }),
    );
    expect(messages(plan)).toEqual([]);
    expect(plan.missing.map((m) => [m.body.code, m.body.type])).toEqual([
      ['1010', 'Other Current Assets'],
      ['0500', 'Other Current Liabilities'],
      ['9000', 'Income'],
      ['9100', 'Operating Expenses'],
    ]);
    expect(plan.notes).toContain(
      '4 accounts typed by the side of their balance, the file stating only balance sheet or profit and loss (a debit balance an asset or an expense, a credit one a liability or income): 1010 "Rekening ING" Other Current Assets, 0500 "Eigen Vermogen" Other Current Liabilities, 9000 "Diverse baten" Income, 9100 "Diverse lasten" Operating Expenses; --chart FILE types them exactly',
    );
    // The chart's account of that code in the other half of the books is another account.
    const conflict = planAccounts(
      [kinded('4000', 'Huur', 7, 'balance sheet')],
      [account('4000', 'Huur')],
      options({ netOfKey }),
    );
    expect(messages(conflict)).toEqual([
      `7: the file states account 4000 "Huur" is a balance sheet account, but the chart's 4000 "Huur" is Operating Expenses (Expenses): a different account`,
    ]);
  });

  it('on a standard chart, matches and creates by name, says once that codes cannot be kept, and remembers', () => {
    const rent = account('6000', 'Rent');
    const plan = planAccounts(
      [
        byPair('6000', 'Payroll', 2, 'Operating Expenses'),
        byPair('6100', 'Rent', 3),
        byPair('6100', undefined, 4),
      ],
      [rent],
      options({ codesKept: false }),
    );
    expect(messages(plan)).toEqual([]);
    expect(plan.notes).toHaveLength(1);
    expect(plan.notes[0]).toContain("the file's account codes cannot be kept");
    // 6000 is the chart's Rent: the file's 6000 is Payroll, created by name without its code.
    expect(plan.missing.map((m) => m.body)).toEqual([
      { name: 'Payroll', type: 'Operating Expenses' },
    ]);
    expect(plan.resolved.get(accountKey('6100', 'Rent'))).toBe(rent.id);
    expect(plan.resolved.get(accountKey('6100', undefined))).toBe(rent.id);
    expect([...plan.identities]).toEqual([['code 6100', rent.id]]);

    // A rerun posts each code where it went, even once the chart has renamed the account.
    const renamed = { ...rent, name: 'Premises' };
    const again = planAccounts(
      [byPair('6100', 'Rent', 3)],
      [renamed],
      options({ codesKept: false, remembered: new Map([['code 6100', rent.id]]) }),
    );
    expect(messages(again)).toEqual([]);
    expect(again.resolved.get(accountKey('6100', 'Rent'))).toBe(rent.id);
  });

  it('a code alone on a standard chart: the chart’s code, or a problem, never a guess', () => {
    const cash = account('1000', 'Cash', { type: 'Cash', class: 'Assets' });
    const plan = planAccounts(
      [byPair('1000', undefined, 2), byPair('1999', undefined, 3, 'Cash')],
      [cash],
      options({ codesKept: false }),
    );
    expect(plan.resolved.get(accountKey('1000', undefined))).toBe(cash.id);
    expect(messages(plan)).toEqual([
      '3: account code 1999 is not in the chart, and the file gives it no name to match or create it by (1 line)',
    ]);
  });

  it('a bare account is an id, a code or a name (trimmed, any case); a number is never a new name', () => {
    const cash = account('1000', 'Cash', { type: 'Cash', class: 'Assets' });
    const rent = account('6100', 'Rent');
    const plan = planAccounts(
      [
        bare(cash.id, 2),
        bare('6100', 3),
        bare(' RENT', 4),
        bare('Travel', 5, 'expenses'),
        bare('travel', 6),
        bare('7000', 7, 'expense'),
      ],
      [cash, rent],
      options(),
    );
    expect(plan.resolved.get(cash.id)).toBe(cash.id);
    expect(plan.resolved.get('6100')).toBe(rent.id);
    expect(plan.resolved.get(' RENT')).toBe(rent.id);
    expect(plan.missing).toEqual([
      {
        body: { name: 'Travel', type: 'Operating Expenses' },
        keys: ['Travel', 'travel'],
        identities: ['account Travel', 'account travel'],
        firstLine: 5,
      },
    ]);
    expect(messages(plan)).toEqual([
      '7: no account 7000 in the chart, and the file gives no name to create it with (an account_name column) (1 line)',
    ]);
  });

  it('an ambiguous reference lists its candidates', () => {
    // A code comes before a name: the account coded 1000, not the one named "1000".
    const coded = account('1000', 'Cash');
    const plan = planAccounts([bare('1000', 2)], [coded, account('2000', '1000')], options());
    expect(plan.resolved.get('1000')).toBe(coded.id);
    expect(messages(plan)).toEqual([]);
    const names = planAccounts(
      [bare('Cash', 2)],
      [account('1000', 'Cash'), account('1001', 'cash')],
      options(),
    );
    expect(messages(names)).toEqual([
      '2: account "Cash" names 2 accounts of the chart: 1000 "Cash", 1001 "cash"; use the code (1 line)',
    ]);
  });

  it('archived accounts, types that do not fit, and what cannot be created are problems at their lines', () => {
    const archived = account('1001', 'Old Bank', {
      type: 'Cash',
      class: 'Assets',
      isDisabled: true,
    });
    const bank = account('1000', 'Bank', { type: 'Cash', class: 'Assets' });
    const plan = planAccounts(
      [
        bare('Old Bank', 2),
        { ...bare('Bank', 3), accountType: { text: 'Income', line: 11 } },
        bare('Gadgets', 4, 'widgets'),
        bare('Untyped', 5),
        bare('x'.repeat(256), 6, 'Cash'),
        byPair('61-00', 'Rent', 7, 'expense'),
      ],
      [archived, bank],
      options(),
    );
    expect(messages(plan)).toEqual([
      '2: account 1001 "Old Bank" is archived: the platform refuses new lines on it (books coa enable 1001) (1 line)',
      `11: the file types account "Bank" as Income (Income), but the chart's 1000 "Bank" is Cash (Assets)`,
      expect.stringMatching(
        /^4: account "Gadgets": "widgets" is not an account type \(one of Cash, /,
      ),
      '5: account "Untyped" is not in the chart, and neither the file nor a flag types it: give its type in an account_type column, or pass --chart FILE (code,name,type) or --code-ranges PREFIX=TYPE (1 line)',
      `6: account "${'x'.repeat(256)}": a name is at most 255 characters (1 line)`,
      '7: account 61-00 "Rent": a code of a custom chart of accounts is digits only (1 line)',
    ]);
    const refused = planAccounts(
      [bare('Travel', 2, 'expense')],
      [],
      options({ createMissing: false }),
    );
    expect(messages(refused)).toEqual([
      '2: no account "Travel" in the chart (add it, or pass --create-missing-accounts with an account_type column) (1 line)',
    ]);
  });
});

describe('batches: cut by the entries alone, hashed by what they say, keyed by all of it', () => {
  const entry = (day: number, description = '') => ({
    date: `2026-01-${String(day).padStart(2, '0')}`,
    memo: '',
    lines: [
      { account: 'A', debitCents: asCents(100), creditCents: asCents(0), description, classes: [] },
      { account: 'B', debitCents: asCents(0), creditCents: asCents(100), description, classes: [] },
    ],
  });

  it('cuts 100 entries a batch, or fewer when the next would pass the byte budget', () => {
    const seen: [BatchPlan, number[], string[]][] = [];
    const cutter = new BatchCutter(
      (plan, lines, fingerprints) => seen.push([plan, lines, fingerprints]),
      (batch) => batch === 0,
    );
    const add = (first: number, content: string, bytes: number) =>
      cutter.add(first, first + 1, content, bytes);
    for (let i = 0; i < 250; i += 1) add(2 + i * 2, entryContent(entry((i % 28) + 1)), 100);
    add(502, entryContent(entry(1)), BATCH_BYTES - 50);
    add(504, entryContent(entry(2)), 100);
    cutter.finish();
    expect(cutter.plans.map((p) => [p.number, p.entries, p.firstLine, p.lastLine])).toEqual([
      [0, 100, 2, 201],
      [1, 100, 202, 401],
      [2, 50, 402, 501],
      [3, 1, 502, 503],
      [4, 1, 504, 505],
    ]);
    expect(seen[0]![1]).toHaveLength(100);
    // Fingerprints only for the batches asked for (those an earlier run sent).
    expect(seen[0]![2][0]).toBe(entryFingerprint(entryContent(entry(1))));
    expect(seen[1]![2]).toEqual([]);
  });

  it('hashes what an entry says, not where it stands; keys differ by workspace, entity, basis, number and content', () => {
    expect(entryContent(entry(3))).toBe(entryContent(entry(3)));
    expect(entryContent(entry(3))).not.toBe(entryContent(entry(3, 'x')));
    const plan = { number: 1, entries: 100, hash: 'h', firstLine: 2, lastLine: 201 };
    const scope = {
      workspaceId: '01a20a45-e512-7000-ba20-433d706e6a5d',
      entityId: '01a20a45-e53c-7000-94be-1737d983b5a9',
    };
    // Sibling entities made within a minute share their first 8 characters (uuid v7).
    const sibling = { ...scope, entityId: '01a20a45-e53c-7001-8000-000000000001' };
    const keys = [
      batchKey(scope, 'cash', plan),
      batchKey(sibling, 'cash', plan),
      batchKey({ ...scope, workspaceId: sibling.entityId }, 'cash', plan),
      batchKey(scope, 'accrual', plan),
      batchKey(scope, 'cash', { ...plan, number: 2 }),
      batchKey(scope, 'cash', { ...plan, hash: 'h2' }),
      accountsKey(scope, [{ name: 'Rent' }]),
      accountsKey(sibling, [{ name: 'Rent' }]),
      migrationKey(scope),
      migrationKey(sibling),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(batchKey(scope, 'cash', plan)).toBe(batchKey(scope, 'cash', { ...plan }));
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(255);
  });
});

describe('the checkpoint', () => {
  it('keeps each sent batch’s hash and fingerprints, the accounts, and survives a torn last line', () => {
    const file = path.join(dir, 'checkpoint.jsonl');
    const first = new Checkpoint(file);
    first.record(0, 'h0', ['a', 'b'], ['id-0', 'id-1']);
    first.rememberAccounts(new Map([['code 6100', 'acc-1']]));
    first.rememberAccounts(new Map([['code 6100', 'acc-1']]));
    first.record(2, 'h2', ['c'], ['id-2']);
    writeFileSync(file, '{"batch":3,"hash":"h3","ids":["id', { flag: 'a' });
    const resumed = new Checkpoint(file);
    expect(resumed.batches()).toEqual([0, 2]);
    expect(resumed.sent(0)).toEqual({ hash: 'h0', fingerprints: 'a,b', ids: undefined });
    expect([...resumed.accounts()]).toEqual([['code 6100', 'acc-1']]);
    expect(new Checkpoint(file, { keepIds: true }).ids(2)).toEqual(['id-2']);
    resumed.record(3, 'h3', ['d'], ['id-3']);
    expect(new Checkpoint(file).batches()).toEqual([0, 2, 3]);
  });

  it('takes over the batches of an earlier version’s checkpoint of the same bytes', () => {
    const legacy = path.join(dir, 'legacy.jsonl');
    writeFileSync(legacy, '{"batch":0,"ids":["x"]}\n{"batch":1,"ids":["y"]}\n{"batch":9');
    const checkpoint = new Checkpoint(path.join(dir, 'adopting.jsonl'));
    expect(checkpoint.adopt(legacy, (n) => (n < 5 ? `hash-${n}` : undefined))).toBe(2);
    expect(checkpoint.sent(1)).toEqual({ hash: 'hash-1', fingerprints: '', ids: undefined });
    expect(checkpoint.adopt(path.join(dir, 'none.jsonl'), () => 'h')).toBe(0);
  });
});

describe('pass one against the live entity’s rules', () => {
  const classes: Class[] = [
    { id: 'r1', label: 'Region', parentClassId: null, rootClassId: 'r1', createdAt: '' },
    { id: 'w1', label: 'West', parentClassId: 'r1', rootClassId: 'r1', createdAt: '' },
    { id: 'e1', label: 'East', parentClassId: 'r1', rootClassId: 'r1', createdAt: '' },
    { id: 't1', label: 'Territory', parentClassId: null, rootClassId: 't1', createdAt: '' },
    { id: 'w2', label: 'West', parentClassId: 't1', rootClassId: 't1', createdAt: '' },
    { id: 'n2', label: 'North', parentClassId: 't1', rootClassId: 't1', createdAt: '' },
  ];
  const check = async (text: string, rules: PassOneRules = {}) => {
    const summary = await checkLedger(fileOf(text), {}, rules);
    return {
      summary,
      problems: [...summary.problems]
        .sort((a, b) => a.fileLine - b.fileLine)
        .map((p) => `${p.fileLine}: ${p.message}`),
    };
  };

  it('the lock date, memo lengths and classes (unknown, ambiguous, two of one dimension)', async () => {
    const { problems, summary } = await check(
      'date,account,amount,memo,classes\n' +
        '2026-01-31,A,5,,\n2026-01-31,B,-5,,\n' +
        `2026-02-01,A,5,${'m'.repeat(1001)},\n2026-02-01,B,-5,,\n` +
        `2026-02-02,A,5,${'é'.repeat(1000)},East;north\n2026-02-02,B,-5,,West\n` +
        '2026-02-03,A,5,,Nowhere\n2026-02-03,B,-5,,Nowhere\n' +
        '2026-02-04,A,5,,east;Region\n2026-02-04,B,-5,,\n',
      { lockDate: '2026-01-31', classes: new ClassBook(classes) },
    );
    expect(problems).toEqual([
      "2: the entry is dated 2026-01-31, on or before the entity's lock date (2026-01-31): the platform refuses it",
      '4: the memo has 1001 characters; the platform takes at most 1000',
      '7: class "West" names 2 classes of the workspace: Region › West (w1), Territory › West (w2); use the id (1 line)',
      '8: no class "Nowhere" in the workspace (2 lines)',
      '10: classes "east" and "Region" are of the same dimension: a line carries at most one class per dimension',
    ]);
    expect(summary.classIds.get('north')).toBe('n2');
  });

  it('names the entries of a sent batch that changed since, and sent batches the file no longer has', async () => {
    const ledger = (entries: number, change = -1) =>
      'date,account,amount\n' +
      Array.from(
        { length: entries },
        (_, i) =>
          `2026-01-01,A,${i === change ? 999 : i + 1}\n2026-01-01,B,-${i === change ? 999 : i + 1}\n`,
      ).join('');
    const sentFingerprints = new Map<number, string>();
    const spooled = new EntrySpool(dir);
    const recheck = await checkLedger(fileOf(ledger(150)), {}, {}, spooled);
    spooled.finish();
    for await (const batch of spooled.batches(recheck.batches)) {
      sentFingerprints.set(batch.plan.number, batch.entries.map((e) => e.fingerprint).join(','));
    }
    spooled.remove();
    const sent = {
      batch: (n: number) =>
        n < 2
          ? {
              hash: recheck.batches[n]!.hash,
              fingerprints: sentFingerprints.get(n)!,
              ids: undefined,
            }
          : undefined,
      last: 1,
    };
    expect((await check(ledger(150), { sent })).problems).toEqual([]);
    expect((await check(ledger(150, 120), { sent })).problems).toEqual([
      '242: batch 2 (lines 202–301) was sent by an earlier run of this import; its entries on line 242 have changed since. A batch is never sent twice: put these lines back as they were sent and correct the entries on the platform (books je update), or import the changes from a file of their own',
    ]);
    expect((await check(ledger(90), { sent })).problems).toEqual([
      '2: batch 1 (lines 2–181) was sent by an earlier run of this import; its entries have changed since, and 10 of the entries it sent are no longer in it. A batch is never sent twice: put these lines back as they were sent and correct the entries on the platform (books je update), or import the changes from a file of their own',
    ]);
  });
});

describe('sending: only what the checkpoint lacks, several in flight', () => {
  const ledger = (entries: number) =>
    'date,account,amount\n' +
    Array.from(
      { length: entries },
      (_, i) =>
        `2026-01-${String((i % 28) + 1).padStart(2, '0')},A,${i + 1}\n2026-01-${String((i % 28) + 1).padStart(2, '0')},B,-${i + 1}\n`,
    ).join('');
  const spooled = async (text: string) => {
    const spool = new EntrySpool(dir);
    const summary = await checkLedger(fileOf(text), {}, {}, spool);
    spool.finish();
    return { spool, summary };
  };

  it('sends the batches a checkpoint lacks and records each as it commits', async () => {
    const { spool, summary } = await spooled(ledger(500));
    const checkpoint = new Checkpoint(path.join(dir, 'sending.jsonl'));
    checkpoint.record(0, summary.batches[0]!.hash, [], ['id-0']);
    checkpoint.record(2, summary.batches[2]!.hash, [], ['id-2']);
    const sent: number[] = [];
    let inFlight = 0;
    let peak = 0;
    const results = await sendBatches(spool.batches(summary.batches), {
      checkpoint,
      concurrency: 2,
      send: async (batch) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        sent.push(batch.plan.number);
        return batch.entries.map((_, i) => `id-${batch.plan.number}-${i}`);
      },
    });
    spool.remove();
    expect(sent.sort()).toEqual([1, 3, 4]);
    expect(peak).toBe(2);
    expect(results).toMatchObject({ entriesDone: 500, entriesSent: 300 });
    const reread = new Checkpoint(checkpoint.file);
    expect(reread.batches().sort()).toEqual([0, 1, 2, 3, 4]);
    expect(reread.sent(3)!.hash).toBe(summary.batches[3]!.hash);
    expect(reread.sent(3)!.fingerprints.split(',')).toHaveLength(100);
  });

  it('stops on a failure or an interruption, letting batches in flight finish', async () => {
    const { spool, summary } = await spooled(ledger(500));
    const checkpoint = new Checkpoint(path.join(dir, 'failing.jsonl'));
    const error = await sendBatches(spool.batches(summary.batches), {
      checkpoint,
      concurrency: 1,
      send: async (batch) => {
        if (batch.plan.number === 2) throw new Error('platform down');
        return ['x'];
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'PartialImportError',
      message: 'platform down',
      batchesDone: 2,
    });
    const interrupt = new AbortController();
    const stopped = await sendBatches(spool.batches(summary.batches), {
      checkpoint: new Checkpoint(path.join(dir, 'interrupted.jsonl')),
      concurrency: 1,
      signal: interrupt.signal,
      send: async () => {
        interrupt.abort();
        return ['x'];
      },
    }).catch((e: unknown) => e);
    spool.remove();
    expect(stopped).toMatchObject({ name: 'PartialImportError', batchesDone: 1 });
    expect((stopped as { cause: Error }).cause.name).toBe('ImportInterrupted');
  });
});

describe('reconciliation: per account, by its code and name as well as its totals', () => {
  const cash = account('1000', 'Cash');
  const rent = account('6000', 'Rent');
  const payroll = account('6001', 'Payroll');
  const files = [
    byPair('1000', 'Cash', 2),
    byPair('6100', 'Rent', 3),
    byPair('6000', 'Payroll', 4),
  ];
  const totals = new Map([
    [files[0]!.key, asCents(-300)],
    [files[1]!.key, asCents(100)],
    [files[2]!.key, asCents(200)],
  ]);

  it('matches when every line is on the account the file names, to the cent', () => {
    const result = reconcile({
      fileAccounts: files,
      totals,
      accountOfKey: new Map([
        [files[0]!.key, cash.id],
        [files[1]!.key, rent.id],
        [files[2]!.key, payroll.id],
      ]),
      chart: [cash, rent, payroll],
      movement: new Map([
        ['1000', asCents(-300)],
        ['6000', asCents(100)],
        ['6001', asCents(200)],
      ]),
      codesKept: false,
    });
    expect(result.matches).toBe(true);
    expect(result.rows.map((r) => [r.file, r.platform, r.fileCents, r.platformCents])).toEqual([
      ['1000 "Cash"', '1000 "Cash"', -300, -300],
      ['6100 "Rent"', '6000 "Rent"', 100, 100],
      ['6000 "Payroll"', '6001 "Payroll"', 200, 200],
    ]);
  });

  it('never matches a file posted to the wrong account, even when the totals agree', () => {
    // The file's payroll went to Rent (code 6000) and its rent to Payroll.
    const result = reconcile({
      fileAccounts: files,
      totals: new Map(
        [...totals.keys()].map((k) => [k, asCents(k === files[0]!.key ? -300 : 150)]),
      ),
      accountOfKey: new Map([
        [files[0]!.key, cash.id],
        [files[1]!.key, payroll.id],
        [files[2]!.key, rent.id],
      ]),
      chart: [cash, rent, payroll],
      movement: new Map([
        ['1000', asCents(-300)],
        ['6000', asCents(150)],
        ['6001', asCents(150)],
      ]),
      codesKept: false,
    });
    expect(result.matches).toBe(false);
    expect(result.rows.filter((r) => !r.agrees).map((r) => [r.file, r.platform])).toEqual([
      ['6000 "Payroll"', '6000 "Rent"'],
      ['6100 "Rent"', '6001 "Payroll"'],
    ]);
  });

  it('on the standard chart, takes an account an earlier run posted a code to, even renamed since', () => {
    const premises = { ...rent, name: 'Premises' };
    const input = {
      fileAccounts: [{ ...files[1]!, id: 'code 6100' }],
      totals,
      accountOfKey: new Map([[files[1]!.key, rent.id]]),
      chart: [premises],
      movement: new Map([['6000', asCents(100)]]),
      codesKept: false,
    };
    expect(reconcile(input).matches).toBe(false);
    expect(reconcile({ ...input, remembered: new Map([['code 6100', rent.id]]) }).matches).toBe(
      true,
    );
    // Not on a custom chart, where the code itself is the match.
    expect(
      reconcile({ ...input, codesKept: true, remembered: new Map([['code 6100', rent.id]]) })
        .matches,
    ).toBe(false);
  });

  it('shows what the platform moved on accounts the file does not name', () => {
    const result = reconcile({
      fileAccounts: [files[0]!],
      totals,
      accountOfKey: new Map([[files[0]!.key, cash.id]]),
      chart: [cash, rent],
      movement: new Map([
        ['1000', asCents(-300)],
        ['6000', asCents(300)],
      ]),
      codesKept: true,
    });
    expect(result.matches).toBe(false);
    expect(result.rows.at(-1)).toEqual({
      file: '',
      platform: '6000 "Rent"',
      fileCents: 0,
      platformCents: 300,
      agrees: true,
    });
  });
});
