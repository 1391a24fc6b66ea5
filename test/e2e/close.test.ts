import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';
import { pdfText, sheetRows } from '../helpers/documents.js';
import {
  camtFile,
  cfonb120File,
  closingOf,
  codaFile,
  mt940File,
  norma43File,
  ofxFile,
  type ModelStatement,
} from '../helpers/statementFiles.js';

/*
 * The month-end close as a bookkeeper meets it, through the built binary against `books serve`
 * (a SQLite file; PostgreSQL in the PostgreSQL run): each bank account reconciled to the bank's
 * own statement, the month reviewed entity by entity, then locked. Every figure is computed
 * here from the entries posted and the statements written.
 */
describe('the month-end close (the built binary against books serve)', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serveBooks>>;
  let env: NodeJS.ProcessEnv;
  let fileNumber = 0;

  beforeAll(async () => {
    home = temporaryHome();
    server = await serveBooks(home, ['--db', path.join(home.home, 'platform.sqlite')]);
    env = { ...server.env, BOOKS_RETRY_BASE_MS: '10' };
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  const books = (...args: string[]) => runBooks(args, env);
  const fileOf = (text: string | Buffer, name: string) => {
    const file = path.join(home.home, `${++fileNumber}-${name}`);
    writeFileSync(file, text);
    return file;
  };
  const api = async (method: string, url: string, body?: unknown) => {
    const response = await server.api(method, url, body);
    expect(response.status, `${method} ${url}`).toBeLessThan(300);
    return response.body;
  };

  interface Books {
    workspaceId: string;
    entityId: string;
    where: string[];
    accounts: Record<string, string>;
  }
  /** A workspace with one entity and a chart: Checking, Sales, Rent, Bank Charges, Capital, … */
  const newBooks = async (name: string, extra: [string, string][] = []): Promise<Books> => {
    const { workspace } = await api('POST', '/platform/v1/workspaces', { name, timezone: 'UTC' });
    const { entity } = await api('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
      name: `${name} Ltd`,
      bookkeepingStartDate: '2026-01-01',
    });
    const accounts: Record<string, string> = {};
    for (const [account, type] of [
      ['Checking', 'Cash'],
      ['Sales', 'Income'],
      ['Rent', 'Operating Expenses'],
      ['Bank Charges', 'Operating Expenses'],
      ['Capital', 'Equity'],
      ...extra,
    ] as const) {
      const { account: made } = await api(
        'POST',
        `/platform/v1/entities/${entity.id}/chart-of-accounts`,
        {
          name: account,
          type,
        },
      );
      accounts[account] = made.id;
    }
    return {
      workspaceId: workspace.id,
      entityId: entity.id,
      where: ['-w', workspace.id, '-e', entity.id],
      accounts,
    };
  };
  /** A journal entry: `debit` and `credit` by account name, an amount in cents. */
  const post = async (
    b: Books,
    date: string,
    debit: string,
    credit: string,
    cents: number,
    memo: string,
  ) => {
    const amount = cents / 100;
    await api('POST', `/platform/v1/entities/${b.entityId}/journal-entries`, {
      date,
      memo,
      lines: [
        { accountId: b.accounts[debit], debitAmount: amount },
        { accountId: b.accounts[credit], creditAmount: amount },
      ],
    });
  };
  const entryCount = async (b: Books) =>
    (await api('GET', `/platform/v1/entities/${b.entityId}/journal-entries?limit=1`)).pagination
      .total as number;

  /** The books and the bank agreeing on September: capital in on 1 September. */
  const openedBooks = async (name: string) => {
    const b = await newBooks(name);
    await post(b, '2026-09-01', 'Checking', 'Capital', 1_000_00, 'Capital paid in');
    return b;
  };
  const statement = (
    entries: ModelStatement['entries'],
    extra: Partial<ModelStatement> = {},
  ): ModelStatement => ({
    account: 'GB33BUKB20201555555555',
    currency: 'GBP',
    from: '2026-10-01',
    to: '2026-10-31',
    opening: 1_000_00,
    entries,
    ...extra,
  });
  const reconcile = async (b: Books, files: string[], ...flags: string[]) => {
    const result = await books('reconcile', 'Checking', ...files, '--json', ...flags, ...b.where);
    return {
      ...result,
      json: result.stdout ? JSON.parse(result.stdout) : undefined,
      /** What it refused, said as JSON on stderr (with --json). */
      error:
        result.code === 0 || result.stdout
          ? undefined
          : (JSON.parse(result.stderr.trim().split('\n').at(-1)!).error.message as string),
    };
  };

  describe('books reconcile', () => {
    it('a statement entry missing in the books: named, the difference its amount, exit 1', async () => {
      const b = await openedBooks('Missing');
      await post(b, '2026-10-05', 'Rent', 'Checking', 400_00, 'October rent');
      const model = statement([
        {
          booked: '2026-10-05',
          cents: -400_00,
          reference: 'B1',
          text: 'October rent',
          party: 'Landlord',
        },
        { booked: '2026-10-31', cents: -12_50, reference: 'B2', text: 'Account fee October' },
      ]);
      const result = await reconcile(b, [
        fileOf(camtFile([model], { message: '053', version: '08' }), 'oct.xml'),
      ]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.json).toMatchObject({
        account: { name: 'Checking' },
        from: '2026-10-01',
        to: '2026-10-31',
        bank: { opening: 1000, closing: 587.5 },
        books: { opening: 1000, closing: 600 },
        matched: 1,
        missingInBooks: [
          {
            bookingDate: '2026-10-31',
            amount: -12.5,
            description: 'Account fee October',
            reference: 'B2',
          },
        ],
        notOnStatement: [],
        difference: -12.5,
        reconciled: false,
      });
      expect(result.stderr).toContain(
        '1000 "Checking" does not reconcile to the statements from 2026-10-01 to 2026-10-31: 1 statement entry is missing in the books; a difference of -12.50',
      );
    });

    it('an outstanding cheque: not on the statement, and the account reconciles', async () => {
      const b = await openedBooks('Cheque');
      await post(b, '2026-10-05', 'Rent', 'Checking', 400_00, 'October rent');
      await post(b, '2026-10-29', 'Rent', 'Checking', 75_00, 'Cheque 1042 plumber');
      const model = statement([
        { booked: '2026-10-05', cents: -400_00, reference: 'B1', text: 'October rent' },
      ]);
      const result = await reconcile(b, [fileOf(mt940File([model]), 'oct.sta')]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.json).toMatchObject({
        bank: { opening: 1000, closing: 600 },
        books: { opening: 1000, closing: 525 },
        matched: 1,
        missingInBooks: [],
        notOnStatement: [{ date: '2026-10-29', amount: -75, description: 'Cheque 1042 plumber' }],
        difference: 0,
        reconciled: true,
      });
      expect(result.stderr).toContain(
        '1000 "Checking" reconciles to the statements from 2026-10-01 to 2026-10-31: 1 statement entry matched, 1 outstanding',
      );
    });

    it('an entry the bank dated two days after the books: matched', async () => {
      const b = await openedBooks('Late');
      await post(b, '2026-10-08', 'Checking', 'Sales', 320_00, 'Invoice 17 Acme');
      const model = statement([
        {
          booked: '2026-10-10',
          cents: 320_00,
          reference: 'B9',
          text: 'Invoice 17',
          party: 'Acme Ltd',
        },
      ]);
      const result = await reconcile(b, [fileOf(ofxFile(model, { version: 2 }), 'oct.ofx')]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.json).toMatchObject({
        matched: 1,
        missingInBooks: [],
        notOnStatement: [],
        difference: 0,
        reconciled: true,
      });
      // Three days is the default; a day apart at most, it is not the same entry.
      const strict = await reconcile(
        b,
        [fileOf(ofxFile(model, { version: 2 }), 'oct.ofx')],
        '--days',
        '1',
      );
      expect(strict.code).toBe(1);
      // The deposit is then both missing in the books and outstanding: 320.00 apart.
      expect(strict.json).toMatchObject({ matched: 0, difference: 320, reconciled: false });
      expect(strict.json.missingInBooks).toHaveLength(1);
      expect(strict.json.notOnStatement).toHaveLength(1);
    });

    it('a deposit of two receipts: one statement entry against two postings', async () => {
      const b = await openedBooks('Deposit');
      await post(b, '2026-10-12', 'Checking', 'Sales', 150_00, 'Receipt 201');
      await post(b, '2026-10-13', 'Checking', 'Sales', 230_45, 'Receipt 202');
      const model = statement([
        { booked: '2026-10-14', cents: 380_45, reference: 'DEP1', text: 'Counter deposit' },
      ]);
      const result = await reconcile(b, [
        fileOf(camtFile([model], { message: '053', version: '02' }), 'oct.xml'),
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.json).toMatchObject({
        bank: { closing: 1380.45 },
        books: { closing: 1380.45 },
        matched: 1,
        missingInBooks: [],
        notOnStatement: [],
        reconciled: true,
      });
    });

    it('a duplicate on the statement: the second one is missing in the books', async () => {
      const b = await openedBooks('Duplicate');
      await post(b, '2026-10-15', 'Bank Charges', 'Checking', 9_99, 'Card fee');
      const model = statement([
        { booked: '2026-10-15', cents: -9_99, reference: 'F1', text: 'Card fee' },
        { booked: '2026-10-15', cents: -9_99, reference: 'F2', text: 'Card fee' },
      ]);
      const result = await reconcile(b, [
        fileOf(camtFile([model], { message: '053', version: '13' }), 'oct.xml'),
      ]);
      expect(result.code).toBe(1);
      expect(result.json).toMatchObject({ matched: 1, difference: -9.99, reconciled: false });
      expect(result.json.missingInBooks).toEqual([
        {
          bookingDate: '2026-10-15',
          amount: -9.99,
          description: 'Card fee',
          reference: expect.stringMatching(/^F[12]$/),
        },
      ]);
    });

    it('a statement whose opening disagrees with the books: the difference, and what the openings are', async () => {
      const b = await openedBooks('Opening');
      const model = statement([], { opening: 1_250_00 });
      const result = await reconcile(b, [
        fileOf(camtFile([model], { message: '053', version: '04' }), 'oct.xml'),
      ]);
      expect(result.code).toBe(1);
      expect(result.json).toMatchObject({
        bank: { opening: 1250, closing: 1250 },
        books: { opening: 1000, closing: 1000 },
        matched: 0,
        difference: 250,
        reconciled: false,
      });
      expect(result.stderr).toContain(
        "the bank's opening balance (1,250.00) is not the books' on 2026-09-30 (1,000.00): 250.00 apart",
      );
    });

    it("two months: a cheque outstanding at September's end clears in October", async () => {
      const b = await openedBooks('Two months');
      await post(b, '2026-09-25', 'Rent', 'Checking', 300_00, 'Cheque 1043 painter');
      await post(b, '2026-10-03', 'Checking', 'Sales', 500_00, 'Invoice 18');
      const september: ModelStatement = {
        ...statement([
          { booked: '2026-09-01', cents: 1_000_00, reference: 'S1', text: 'Capital paid in' },
        ]),
        from: '2026-09-01',
        to: '2026-09-30',
        opening: 0,
      };
      const octoberModel = statement(
        [
          { booked: '2026-10-03', cents: 500_00, reference: 'S2', text: 'Invoice 18' },
          { booked: '2026-10-20', cents: -300_00, reference: 'S3', text: 'Cheque 1043' },
        ],
        { opening: closingOf(september) },
      );
      const sept = fileOf(mt940File([september]), 'sep.sta');
      const oct = fileOf(mt940File([octoberModel]), 'oct.sta');
      const alone = await reconcile(b, [sept]);
      expect(alone.code, alone.stderr).toBe(0);
      expect(alone.json).toMatchObject({
        bank: { opening: 0, closing: 1000 },
        books: { opening: 0, closing: 700 },
        notOnStatement: [{ date: '2026-09-25', amount: -300 }],
        reconciled: true,
      });
      const both = await reconcile(b, [oct, sept]);
      expect(both.code, both.stderr).toBe(0);
      expect(both.json).toMatchObject({
        from: '2026-09-01',
        to: '2026-10-31',
        bank: { opening: 0, closing: 1200 },
        books: { opening: 0, closing: 1200 },
        matched: 3,
        missingInBooks: [],
        notOnStatement: [],
        difference: 0,
        reconciled: true,
        statements: 2,
      });
    });

    it('--post-missing posts each missing entry once, keyed by the bank reference; a rerun posts nothing; --report files it', async () => {
      const b = await openedBooks('Post missing');
      const model = statement([
        { booked: '2026-10-31', cents: -12_50, reference: 'FEE10', text: 'Account fee October' },
        { booked: '2026-10-31', cents: 3_20, reference: 'INT10', text: 'Interest October' },
      ]);
      const file = fileOf(camtFile([model], { message: '053', version: '08' }), 'oct.xml');
      const before = await entryCount(b);
      const reports = path.join(home.home, 'reconciliations');
      const first = await reconcile(
        b,
        [file],
        '--post-missing',
        'Bank Charges',
        '--report',
        reports,
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('posted 2 entries missing in the books against');
      expect(first.json).toMatchObject({
        matched: 2,
        missingInBooks: [],
        difference: 0,
        reconciled: true,
      });
      expect(await entryCount(b)).toBe(before + 2);
      const again = await reconcile(b, [file], '--post-missing', 'Bank Charges');
      expect(again.code).toBe(0);
      expect(again.stderr).not.toContain('posted');
      expect(await entryCount(b)).toBe(before + 2);
      expect(first.stderr).toContain(
        `books: wrote ${path.join(reports, 'Post-missing-Ltd-1000-Checking-reconciliation-2026-10-31')}.pdf and`,
      );
      const written = readdirSync(reports).sort();
      expect(written).toEqual([
        'Post-missing-Ltd-1000-Checking-reconciliation-2026-10-31.pdf',
        'Post-missing-Ltd-1000-Checking-reconciliation-2026-10-31.xlsx',
      ]);
      // The report as the firm files it: beginning balance, what cleared, the ending balance,
      // the register, the difference, who and when, each item — the same in both files.
      const [page] = await pdfText(path.join(reports, written[0]!));
      for (const text of [
        'Reconciliation of 1000 Checking',
        'Statement beginning balance (2026-10-01)',
        '1,000.00',
        'Cleared checks and payments (1 item)',
        '(12.50)',
        'Cleared deposits and other credits (1 item)',
        '3.20',
        'Statement ending balance (2026-10-31)',
        '990.70',
        'Register balance (2026-10-31)',
        'Difference',
        'Reconciled',
        '2026-10-31 Account fee October · ref FEE10',
      ])
        expect(page).toContain(text);
      const rows = await sheetRows(path.join(reports, written[1]!), 'Reconciliation');
      const value = (label: string) => rows.find((r) => String(r[0]).startsWith(label))?.[1];
      expect(value('Statement beginning balance')).toBe(1000);
      expect(value('Statement ending balance')).toBe(990.7);
      expect(value('Register balance')).toBe(990.7);
      expect(value('Difference')).toBe(0);
    });

    it('a statement of another account, or in another currency, is refused once the account is linked; --link links anew', async () => {
      const b = await openedBooks('Linked');
      const own = fileOf(camtFile([statement([])], { message: '053', version: '08' }), 'own.xml');
      const first = await reconcile(b, [own]);
      expect(first.stderr).toContain(
        'books: the statements of GB33BUKB20201555555555 (GBP) are 1000 "Checking"\'s from now on (profile "default"; --link-account changes it)',
      );
      const other = fileOf(
        camtFile([statement([], { account: 'DE89370400440532013000' })], {
          message: '053',
          version: '08',
        }),
        'other.xml',
      );
      const refused = await reconcile(b, [other]);
      expect(refused.code).toBe(2);
      expect(refused.error).toBe(
        'the statements are of DE89370400440532013000, and 1000 "Checking"\'s statements are of GB33BUKB20201555555555: name the account they are of, or pass --link-account if 1000 "Checking" has a new number',
      );
      const euros = fileOf(
        camtFile([statement([], { currency: 'EUR' })], { message: '053', version: '08' }),
        'eur.xml',
      );
      const currency = await reconcile(b, [euros]);
      expect(currency.code).toBe(2);
      expect(currency.error).toBe(
        'the statements are in EUR, and 1000 "Checking"\'s statements of GB33BUKB20201555555555 are in GBP: pass --link-account if the account changed currency',
      );
      // Files of two bank accounts (a bank's file holds all of a client's): the one linked to
      // this account is taken, said; --bank-account names another, which the link refuses.
      const both = await reconcile(b, [own, other]);
      expect(both.code, both.stderr).toBe(0);
      expect(both.stderr).toContain(
        'books: the statements of GB33BUKB20201555555555 taken; those of DE89370400440532013000 left out',
      );
      const named = await reconcile(
        b,
        [own, other],
        '--bank-account',
        'DE89 3704 0044 0532 0130 00',
      );
      expect(named.code).toBe(2);
      expect(named.error).toContain('the statements are of DE89370400440532013000, and');
      const unknown = await reconcile(b, [own], '--bank-account', 'FR7630006000011234567890189');
      expect(unknown.code).toBe(2);
      expect(unknown.error).toBe(
        '--bank-account FR7630006000011234567890189: the files hold no statement of it (they are of GB33BUKB20201555555555)',
      );
      const relinked = await reconcile(b, [other], '--link');
      expect(relinked.code, relinked.stderr).toBe(0);
      // The statements of GB33… were Checking's; named for another bank account, refused.
      await api('POST', `/platform/v1/entities/${b.entityId}/chart-of-accounts`, {
        name: 'Savings',
        type: 'Cash',
      });
      const relinkedOwn = await books('reconcile', 'Savings', other, ...b.where);
      expect(relinkedOwn.code).toBe(2);
      expect(relinkedOwn.stderr).toContain(
        'the statements are of DE89370400440532013000, whose statements are 1000 "Checking"\'s, not 1001 "Savings"\'s: name that account, or pass --link-account to link them to 1001 "Savings"',
      );
      const nowOld = await reconcile(b, [own]);
      expect(nowOld.code).toBe(2);
      // Two currencies at once; a statement that names no account (QIF) cannot be checked.
      const pounds = fileOf(
        camtFile([statement([], { currency: 'GBP' })], { message: '053', version: '08' }),
        'gbp.xml',
      );
      const mixed = await books('reconcile', 'Savings', pounds, euros, ...b.where);
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toContain(
        'the statements are in 2 currencies (GBP, EUR): reconcile one currency at a time',
      );
      const qif = await books(
        'reconcile',
        'Savings',
        fileOf('!Type:Bank\nD10/02/2026\nT-5.00\nPShop\n^\n', 'savings.qif'),
        ...b.where,
      );
      expect(qif.stderr).toContain(
        'books: the statements name no bank account: they cannot be checked against 1001 "Savings"\'s',
      );
    });

    it('bad input: an empty statement, a truncated file, unknown bytes, a file that is not there, not a bank account; nothing posted', async () => {
      const b = await openedBooks('Bad input');
      const before = await entryCount(b);
      const empty = await reconcile(b, [fileOf('', 'empty.xml')], '--post-missing', 'Bank Charges');
      expect(empty.code).toBe(3);
      expect(empty.stderr).toMatch(/empty\.xml: cannot read the statement: the file is empty/);
      const noStatement = await reconcile(b, [
        fileOf(
          '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId></GrpHdr></BkToCstmrStmt></Document>',
          'none.xml',
        ),
      ]);
      expect(noStatement.code).toBe(3);
      expect(noStatement.stderr).toContain(
        'none.xml: cannot read the statement: it holds no bank or card statement',
      );
      const whole = camtFile([statement([{ booked: '2026-10-05', cents: -1_00, text: 'x' }])], {
        message: '053',
        version: '08',
      });
      const cut = await reconcile(
        b,
        [fileOf(whole.slice(0, whole.length - 80), 'cut.xml')],
        '--post-missing',
        'Bank Charges',
      );
      expect(cut.code).toBe(3);
      expect(cut.stderr).toMatch(/cut\.xml:\d+: cannot read the statement: not well-formed XML/);
      const bytes = await reconcile(b, [
        fileOf(Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0x14]), 'statement.zip'),
      ]);
      expect(bytes.code).toBe(3);
      expect(bytes.stderr).toContain(
        'cannot read the statement: byte 4 is NUL: this is not a text file',
      );
      // An input file that cannot be used is exit 3, as every command's (cli.md).
      const missing = await reconcile(b, [path.join(home.home, 'nowhere.sta')]);
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain('nowhere.sta: no such file');
      const income = await books(
        'reconcile',
        'Sales',
        fileOf(mt940File([statement([])]), 'x.sta'),
        ...b.where,
      );
      expect(income.code).toBe(2);
      expect(income.stderr).toContain(
        'account 4000 "Sales" is Income: a bank statement is of a bank or card account',
      );
      const same = await reconcile(
        b,
        [fileOf(mt940File([statement([])]), 'y.sta')],
        '--post-missing',
        'Checking',
      );
      expect(same.code).toBe(2);
      expect(same.stderr).toContain(
        '--post-missing names the account being reconciled: name the account the other side goes to',
      );
      const periodless = await reconcile(b, [
        fileOf('Date,Amount,Description\n', 'header-only.csv'),
      ]);
      expect(periodless.code).toBe(3);
      expect(periodless.stderr).toContain(
        'header-only.csv: a statement with no period and no entries: nothing to reconcile',
      );
      for (const result of [empty, noStatement, cut, bytes, missing, income, same, periodless])
        expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(await entryCount(b)).toBe(before);
    });
  });

  describe('imports into live books', () => {
    it('one adjusting entry into a month that has postings on its days reconciles with what it posted', async () => {
      const b = await openedBooks('Adjusting');
      await post(b, '2026-10-15', 'Rent', 'Checking', 400_00, 'October rent');
      await post(b, '2026-10-15', 'Checking', 'Sales', 900_00, 'Invoice 20');
      const file = fileOf(
        'date,account,debit,credit,entry,description\n2026-10-15,Bank Charges,12.50,,A1,Accrued fee\n2026-10-15,Checking,,12.50,A1,Accrued fee\n',
        'adjusting.csv',
      );
      const imported = await books('je', 'import', file, ...b.where);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain(
        'reconciled 2 accounts with the entries this import posted, to the cent',
      );
      // A second file into the same days: the first import's entries are not its own either.
      const payroll = fileOf(
        'date,account,debit,credit,entry\n2026-10-15,Rent,100,,P1\n2026-10-15,Checking,,100,P1\n',
        'payroll.csv',
      );
      const second = await books('je', 'import', payroll, ...b.where);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain(`"Checking"\t1000 "Checking"\t-100.00\t-100.00\t0.00`);
    });

    it('still catches a line the platform holds on another account, and a line changed after sending', async () => {
      const b = await openedBooks('Caught');
      await post(b, '2026-10-15', 'Rent', 'Checking', 400_00, 'October rent');
      const file = fileOf(
        'date,account,debit,credit,entry\n2026-10-16,Bank Charges,20,,X1\n2026-10-16,Checking,,20,X1\n',
        'caught.csv',
      );
      expect((await books('je', 'import', file, ...b.where)).code).toBe(0);
      const [entry] = (
        await api(
          'GET',
          `/platform/v1/entities/${b.entityId}/journal-entries?startDate=2026-10-16&endDate=2026-10-16`,
        )
      ).data;
      // Changed after sending: 25 instead of 20.
      await api('PATCH', `/platform/v1/entities/${b.entityId}/journal-entries/${entry.id}`, {
        lines: [
          { accountId: b.accounts['Bank Charges'], debitAmount: 25 },
          { accountId: b.accounts.Checking, creditAmount: 25 },
        ],
      });
      const changed = await books('je', 'import', file, ...b.where);
      expect(changed.code).toBe(1);
      expect(changed.stderr).toContain(
        'reconciliation: 2 accounts differ between the file and the entries this import posted (2026-10-16 to 2026-10-16)',
      );
      // Moved to another account: the file's Bank Charges line now on Rent.
      await api('PATCH', `/platform/v1/entities/${b.entityId}/journal-entries/${entry.id}`, {
        lines: [
          { accountId: b.accounts.Rent, debitAmount: 20 },
          { accountId: b.accounts.Checking, creditAmount: 20 },
        ],
      });
      const moved = await books('je', 'import', file, ...b.where);
      expect(moved.code).toBe(1);
      expect(moved.stderr).toContain(
        'reconciliation: 2 accounts differ between the file and the entries this import posted',
      );
      expect(moved.stdout).toMatch(/Bank Charges[^\n]*\t20\.00\t0\.00/);
      // An entry of someone else's that makes the day's totals the file's again: the day's
      // movement is the file's, but the import's own entry is still on the wrong account.
      await post(b, '2026-10-16', 'Bank Charges', 'Rent', 20_00, 'Reclass');
      const masked = await books('je', 'import', file, ...b.where);
      expect(masked.code).toBe(1);
      expect(masked.stdout).toMatch(/Bank Charges[^\n]*\t20\.00\t0\.00/);
    });
  });

  describe("the statements Belgium's, Spain's and France's banks hand out", () => {
    it.each([
      [
        'CODA',
        'BE68539007547034',
        'BE71096123456769',
        (m: ModelStatement[]) => codaFile(m, { structure: 0 }),
      ],
      [
        'Norma 43',
        'ES9121000418450200051332',
        'ES7921000813610123456789',
        (m: ModelStatement[]) => norma43File(m, { modality: 3, sepa: true }),
      ],
      [
        'CFONB 120',
        'FR7630006000011234567890189',
        'FR7630004000031234567890143',
        (m: ModelStatement[]) => cfonb120File(m, { daily: true }),
      ],
    ] as const)(
      '%s: a file of two accounts, one taken: brought in once, reconciled, reviewed with --statements',
      async (format, account, otherAccount, write) => {
        const model = statement(
          [
            {
              booked: '2026-10-02',
              cents: 250_00,
              reference: 'R1',
              party: 'Acme SA',
              text: 'Invoice 2026-117',
            },
            {
              booked: '2026-10-05',
              cents: -400_00,
              reference: 'R2',
              party: 'Landlord SL',
              text: 'Rent October',
            },
            { booked: '2026-10-30', cents: -12_34, reference: 'R3', text: 'Account fee' },
          ],
          { account, currency: 'EUR' },
        );
        const b = await openedBooks(`${format} Books`);
        await post(b, '2026-10-02', 'Checking', 'Sales', 250_00, 'Invoice 2026-117');
        await post(b, '2026-10-05', 'Rent', 'Checking', 400_00, 'Rent October');
        await post(b, '2026-10-30', 'Bank Charges', 'Checking', 12_34, 'Account fee');
        const directory = path.join(home.home, `statements-${format.replace(/\W/g, '')}`);
        mkdirSync(directory, { recursive: true });
        const file = path.join(directory, 'october');
        // As the bank hands it out: every account of the client in one file.
        const savings = statement(
          [{ booked: '2026-10-12', cents: 5_000_00, reference: 'S1', text: 'Savings deposit' }],
          { account: otherAccount, currency: 'EUR' },
        );
        writeFileSync(file, write([model, savings]));

        const unnamed = await reconcile(b, [file]);
        expect(unnamed.code).toBe(2);
        expect(unnamed.error).toBe(
          `the files hold the statements of 2 bank accounts (${account}, ${otherAccount}): name the one to take with --bank-account ${account}`,
        );
        const reconciled = await reconcile(b, [file], '--bank-account', account);
        expect(reconciled.code, reconciled.stderr).toBe(0);
        expect(reconciled.stderr).toContain(
          `books: the statements of ${account} taken; those of ${otherAccount} left out`,
        );
        expect(reconciled.json).toMatchObject({ reconciled: true, difference: 0 });

        const review = await books(
          ...['close', 'review', '--period', '2026-10', '--statements', directory, '--json'],
          ...b.where,
        );
        const [reviewed] = JSON.parse(review.stdout) as {
          checks: { id: string; status: string }[];
        }[];
        expect(reviewed!.checks.find((c) => c.id === 'reconciled')).toMatchObject({
          status: 'pass',
        });

        // Brought in as bank transactions of the account, its feed linked to it, once; into
        // another account, the statements of one reconciled to Checking are refused.
        const elsewhere = await books(
          ...[
            'sandbox',
            'feed',
            'connect',
            '--bank',
            format,
            '--account',
            `${format} Current:bank`,
          ],
          ...b.where,
        );
        expect(elsewhere.code, elsewhere.stderr).toBe(0);
        const wrong = await books(
          ...['transactions', 'import', `${format} Current`, file, '--bank-account', account],
          ...b.where,
        );
        expect(wrong.code).toBe(2);
        expect(wrong.stderr).toContain(
          `the statements are of ${account}, whose statements are 1000 "Checking"'s, not 1001 "${format} Current"'s`,
        );
        const connected = await books(
          ...['sandbox', 'feed', 'connect', '--bank', format, '--account', 'Checking'],
          ...b.where,
        );
        expect(connected.code, connected.stderr).toBe(0);
        expect(connected.stderr).toContain(
          `books: the feed is linked to the chart's 1000 "Checking": its history and balance stay where they are`,
        );
        // Into an account none of whose statements were seen, a file of two accounts is refused.
        const mixed = await books('transactions', 'import', `${format} Current`, file, ...b.where);
        expect(mixed.code).toBe(2);
        expect(mixed.stderr).toContain(
          `the files hold the statements of 2 bank accounts (${account}, ${otherAccount})`,
        );
        // Into Checking, the account whose statements it was reconciled to is taken, said.
        const first = await books('transactions', 'import', 'Checking', file, '--json', ...b.where);
        expect(first.code, first.stderr).toBe(0);
        expect(first.stderr).toContain(
          `books: the statements of ${account} taken; those of ${otherAccount} left out`,
        );
        // The books' own entries of those days are on Checking: the bank lines do not repeat them
        // (the platform compares bank lines with bank lines), so all three come in.
        expect(JSON.parse(first.stdout)).toMatchObject({ imported: 3, skipped: 0 });
        const again = await books(
          ...['transactions', 'import', 'Checking', file, '--json'],
          ...['--bank-account', account, ...b.where],
        );
        expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, skipped: 3 });
        const listed = await books('transactions', 'list', '--json', ...b.where);
        expect(
          (JSON.parse(listed.stdout) as { date: string; amount: number }[])
            .map((t) => `${t.date} ${t.amount}`)
            .sort(),
        ).toEqual(['2026-10-02 250', '2026-10-05 -400', '2026-10-30 -12.34']);
      },
    );
  });

  describe('books statement show and books sandbox feed push', () => {
    it('show prints each file as the issue names it; push takes any format and the account by name', async () => {
      const model = statement([
        {
          booked: '2026-10-02',
          cents: 250_00,
          reference: 'R1',
          party: 'Acme Ltd',
          text: 'Invoice 2026-117',
        },
        { booked: '2026-10-05', cents: -40_00, reference: 'R2', text: 'Stationery' },
        { booked: '2026-10-06', cents: -5_00, text: 'Card authorization', status: 'pending' },
      ]);
      const file = fileOf(camtFile([model], { message: '053', version: '09' }), 'show.xml');
      const shown = await books('statement', 'show', file, '--json');
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toEqual([
        {
          file,
          format: 'camt',
          statements: [
            {
              account: 'GB33BUKB20201555555555',
              currency: 'GBP',
              from: '2026-10-01',
              to: '2026-10-31',
              opening: 1000,
              closing: 1210,
              entries: [
                {
                  bookingDate: '2026-10-02',
                  valueDate: '2026-10-02',
                  amount: 250,
                  reference: 'R1',
                  counterparty: 'Acme Ltd',
                  counterpartyAccount: null,
                  description: 'Invoice 2026-117',
                  status: 'booked',
                },
                {
                  bookingDate: '2026-10-05',
                  valueDate: '2026-10-05',
                  amount: -40,
                  reference: 'R2',
                  counterparty: null,
                  counterpartyAccount: null,
                  description: 'Stationery',
                  status: 'booked',
                },
                {
                  bookingDate: '2026-10-06',
                  valueDate: '2026-10-06',
                  amount: -5,
                  reference: null,
                  counterparty: null,
                  counterpartyAccount: null,
                  description: 'Card authorization',
                  status: 'pending',
                },
              ],
            },
          ],
        },
      ]);
      const b = await newBooks('Feed');
      const connected = await books(
        'sandbox',
        'feed',
        'connect',
        '--bank',
        'Lloyds',
        '--account',
        'Business Current:bank',
        '--json',
        ...b.where,
      );
      expect(connected.code, connected.stderr).toBe(0);
      const booked = { ...model, entries: model.entries.filter((e) => e.status !== 'pending') };
      const pushes = [];
      for (const statementFile of [file, fileOf(ofxFile(booked, { version: 1 }), 'push.ofx')]) {
        const pushed = await books(
          'sandbox',
          'feed',
          'push',
          'Business Current',
          statementFile,
          '--json',
          ...b.where,
        );
        expect(pushed.code, pushed.stderr).toBe(0);
        pushes.push(pushed);
      }
      const pushedCamt = pushes[0]!;
      const listed = await api(
        'GET',
        `/sandbox/v1/workspaces/${b.workspaceId}/transactions?entityId=${b.entityId}`,
      );
      // Two booked entries, once: the OFX repeats them by their references (FITIDs).
      expect(
        listed.data.map((t: { date: string; amount: number }) => [t.date, t.amount]).sort(),
      ).toEqual([
        ['2026-10-02', 250],
        ['2026-10-05', -40],
      ]);
      expect(pushedCamt.stderr).toContain(
        `books: ${file}: 1 pending entry left out: only booked entries are pushed`,
      );
      const unknown = await books('sandbox', 'feed', 'push', 'Savings', file, ...b.where);
      expect(unknown.code).toBe(5);
      const unfed = await books('sandbox', 'feed', 'push', 'Checking', file, ...b.where);
      expect(unfed.code).toBe(2);
      expect(unfed.stderr).toContain(
        'account 1000 "Checking" has no bank feed: books sandbox feed connect --bank BANK --account "Checking:bank" links one to it',
      );
    });
  });

  describe('books close review and books close', () => {
    const today = new Date().toISOString().slice(0, 10);
    const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    let ws: string;
    const entities: Record<string, Books> = {};
    const statementsDir = () => path.join(home.home, 'statements');

    beforeAll(async () => {
      const firm = await newBooks('Firm', [
        ['Ask My Accountant', 'Other Current Assets'],
        ['Receivables', 'Accounts Receivable'],
        ['Office', 'Operating Expenses'],
      ]);
      ws = firm.workspaceId;
      const entity = async (name: string): Promise<Books> => {
        const { entity: made } = await api('POST', `/sandbox/v1/workspaces/${ws}/entities`, {
          name,
          bookkeepingStartDate: '2026-01-01',
        });
        const accounts: Record<string, string> = {};
        for (const [account, type] of [
          ['Checking', 'Cash'],
          ['Sales', 'Income'],
          ['Rent', 'Operating Expenses'],
          ['Capital', 'Equity'],
          ['Ask My Accountant', 'Other Current Assets'],
          ['Receivables', 'Accounts Receivable'],
          ['Office', 'Operating Expenses'],
        ] as const) {
          const { account: a } = await api(
            'POST',
            `/platform/v1/entities/${made.id}/chart-of-accounts`,
            { name: account, type },
          );
          accounts[account] = a.id;
        }
        return { workspaceId: ws, entityId: made.id, where: ['-w', ws, '-e', made.id], accounts };
      };
      for (const name of [
        'Ready',
        'Feeds',
        'Uncategorized',
        'Suspense',
        'Reconciled',
        'Negative',
        'WrongSide',
        'Duplicates',
        'Future',
        'Flux',
      ])
        entities[name] = await entity(name);
      // Every entity: capital in, a month of rent, all of it on the bank's statement.
      for (const b of Object.values(entities)) {
        await post(b, '2026-07-01', 'Checking', 'Capital', 5_000_00, 'Capital paid in');
        for (const month of ['07', '08', '09', '10'])
          await post(b, `2026-${month}-05`, 'Rent', 'Checking', 1_000_00, `Rent ${month}`);
      }
      const e = entities;
      // bank-feeds: a broken connection.
      const feed = await books(
        'sandbox',
        'feed',
        'connect',
        '--bank',
        'Barclays',
        '--account',
        'Barclays Card:credit_card',
        '--json',
        ...e.Feeds!.where,
      );
      await books(
        'sandbox',
        'feed',
        'break',
        JSON.parse(feed.stdout).connection.id,
        '--error',
        'mfa_required',
        ...e.Feeds!.where,
      );
      // uncategorized: a bank transaction no rule categorizes.
      const fed = await books(
        'sandbox',
        'feed',
        'connect',
        '--bank',
        'HSBC',
        '--account',
        'HSBC Current:bank',
        '--json',
        ...e.Uncategorized!.where,
      );
      const financialAccount = JSON.parse(fed.stdout).connection.financialAccounts[0].id;
      await api('POST', `/sandbox/v1/financial-accounts/${financialAccount}/transactions`, {
        transactions: [{ date: '2026-10-14', amount: -45.2, description: 'AMAZON MKTP' }],
      });
      // suspense: a balance on Ask My Accountant.
      await post(
        e.Suspense!,
        '2026-10-20',
        'Ask My Accountant',
        'Checking',
        80_00,
        'Unknown payment',
      );
      // negative-cash: more paid out than there is.
      await post(
        e.Negative!,
        '2026-10-22',
        'Rent',
        'Checking',
        3_000_00,
        'Deposit for new premises',
      );
      // wrong-side: receivables in credit.
      await post(
        e.WrongSide!,
        '2026-10-23',
        'Checking',
        'Receivables',
        200_00,
        'Customer paid twice',
      );
      // duplicates: the same entry twice.
      await post(e.Duplicates!, '2026-10-24', 'Office', 'Checking', 59_90, 'Printer paper');
      await post(e.Duplicates!, '2026-10-24', 'Office', 'Checking', 59_90, 'Printer paper');
      // future-dated: an entry a month from today.
      await post(e.Future!, inAMonth, 'Office', 'Checking', 10_00, 'Typed next month');
      // flux: Office at 100 a month, then 5,000.
      for (const month of ['07', '08', '09'])
        await post(e.Flux!, `2026-${month}-15`, 'Office', 'Checking', 100_00, `Office ${month}`);
      await post(e.Flux!, '2026-10-15', 'Office', 'Checking', 4_000_00, 'Office furniture');
      // reconciled: the Reconciled entity's statement lacks nothing, but another's misses a fee.
      mkdirSync(statementsDir(), { recursive: true });
      const months: ModelStatement = {
        account: 'GB29NWBK60161331926819',
        currency: 'GBP',
        from: '2026-07-01',
        to: '2026-10-31',
        opening: 0,
        entries: [
          { booked: '2026-07-01', cents: 5_000_00, reference: 'C1', text: 'Capital paid in' },
          ...['07', '08', '09', '10'].map((m) => ({
            booked: `2026-${m}-05`,
            cents: -1_000_00,
            reference: `R${m}`,
            text: `Rent ${m}`,
          })),
        ],
      };
      writeFileSync(
        path.join(statementsDir(), 'ready.xml'),
        camtFile([months], { message: '053', version: '08' }),
      );
      const withFee: ModelStatement = {
        ...months,
        account: 'GB82WEST12345698765432',
        entries: [
          ...months.entries,
          { booked: '2026-10-31', cents: -15_00, reference: 'FEE', text: 'Fee' },
        ],
      };
      writeFileSync(path.join(statementsDir(), 'reconciled.sta'), mt940File([withFee]));
      // Linked as a bookkeeper links them: one reconcile each.
      await books(
        'reconcile',
        'Checking',
        path.join(statementsDir(), 'ready.xml'),
        ...e.Ready!.where,
      );
      await books(
        'reconcile',
        'Checking',
        path.join(statementsDir(), 'reconciled.sta'),
        ...e.Reconciled!.where,
      );
    }, 120_000);

    it('each check that fails or warns, on the entity made for it; a ready one; --all-entities over them', async () => {
      const review = await books(
        'close',
        'review',
        '--period',
        '2026-10',
        '--all-entities',
        '-w',
        ws,
        '--statements',
        statementsDir(),
        '--json',
      );
      expect(review.code, review.stderr).toBe(1);
      const reviewed = JSON.parse(review.stdout) as {
        entity: { name: string };
        ready: boolean;
        checks: { id: string; status: string; count: number; items: string[] }[];
      }[];
      const of = (name: string) => reviewed.find((r) => r.entity.name === name)!;
      const check = (name: string, id: string) => of(name).checks.find((c) => c.id === id)!;
      expect(reviewed.map((r) => r.entity.name)).toEqual(
        expect.arrayContaining(Object.keys(entities)),
      );
      expect(of('Ready').ready).toBe(true);
      // Ready passes every check but the VAT's, which it is not registered for.
      expect(
        of('Ready')
          .checks.filter((c) => c.status !== 'pass')
          .map((c) => [c.id, c.status]),
      ).toEqual([['tax', 'skipped']]);
      expect(check('Feeds', 'bank-feeds')).toMatchObject({
        status: 'fail',
        count: 1,
        items: ['Barclays (Barclays Card): broken'],
      });
      expect(check('Uncategorized', 'uncategorized')).toMatchObject({ status: 'fail', count: 1 });
      expect(check('Uncategorized', 'uncategorized').items[0]).toMatch(
        /^2026-10-14 -45\.20 AMAZON MKTP \(/,
      );
      expect(check('Suspense', 'suspense')).toMatchObject({
        status: 'fail',
        items: [expect.stringMatching(/Ask My Accountant: 80\.00 debit$/)],
      });
      expect(check('Reconciled', 'reconciled')).toMatchObject({
        status: 'fail',
        items: [
          expect.stringMatching(
            /Checking: 1 statement entry missing in the books, a difference of -15\.00$/,
          ),
        ],
      });
      expect(check('Negative', 'negative-cash')).toMatchObject({
        status: 'warn',
        items: [expect.stringMatching(/Checking: -2,000\.00 at 2026-10-31$/)],
      });
      expect(check('WrongSide', 'wrong-side')).toMatchObject({
        status: 'warn',
        items: [expect.stringMatching(/Receivables \(Accounts Receivable\): 200\.00 credit$/)],
      });
      expect(check('Duplicates', 'duplicates')).toMatchObject({ status: 'warn', count: 1 });
      expect(check('Duplicates', 'duplicates').items[0]).toMatch(
        /^2026-10-24 59\.90 Printer paper ×2/,
      );
      expect(check('Future', 'future-dated')).toMatchObject({
        status: 'warn',
        items: [expect.stringMatching(new RegExp(`^${inAMonth} Typed next month`))],
      });
      expect(check('Flux', 'flux')).toMatchObject({
        status: 'warn',
        items: [
          expect.stringMatching(
            /Office: 4,000\.00 in the month against an average of 100\.00 \(\+3,900\.00\)$/,
          ),
        ],
      });
      // Fails make an entity not ready: with --statements, a Checking no statement is linked to
      // fails `reconciled` too.
      for (const name of ['Feeds', 'Uncategorized', 'Suspense', 'Reconciled', 'Negative'])
        expect(of(name).ready).toBe(false);
      expect(check('Negative', 'reconciled')).toMatchObject({
        status: 'fail',
        items: [
          expect.stringMatching(
            /Checking: no statement is linked to it \(books reconcile ACCOUNT STATEMENT links one\)$/,
          ),
        ],
      });
      // Warnings alone do not (the reconciliations skipped, without --statements).
      const unreconciled = await books(
        'close',
        'review',
        '--period',
        '2026-10',
        '--all-entities',
        '-w',
        ws,
        '--json',
      );
      const ready = Object.fromEntries(
        (JSON.parse(unreconciled.stdout) as { entity: { name: string }; ready: boolean }[]).map(
          (r) => [r.entity.name, r.ready],
        ),
      );
      for (const name of ['Ready', 'Negative', 'WrongSide', 'Duplicates', 'Future', 'Flux'])
        expect(ready[name], name).toBe(true);
      for (const name of ['Feeds', 'Uncategorized', 'Suspense'])
        expect(ready[name], name).toBe(false);
      // Without --statements the reconciliation is skipped, saying why.
      const skipped = await books(
        'close',
        'review',
        '--period',
        '2026-10',
        ...entities.Ready!.where,
        '--json',
      );
      expect(skipped.code, skipped.stderr).toBe(0);
      expect(
        JSON.parse(skipped.stdout)[0].checks.find((c: { id: string }) => c.id === 'reconciled'),
      ).toEqual({
        id: 'reconciled',
        status: 'skipped',
        count: 0,
        items: [],
        hint: 'no --statements directory: the bank and card accounts were not reconciled',
      });
      // A table at a terminal's place (piped: tab-separated), one row per entity; CSV on asking.
      const table = await books(
        'close',
        'review',
        '--period',
        '2026-10',
        '--all-entities',
        '-w',
        ws,
        '-o',
        'csv',
      );
      expect(table.stdout.split('\n')[0]).toBe('Workspace,Entity,Ready,Failing,Warnings,Skipped');
      // No entity here is registered for VAT: the tax check is skipped for each.
      expect(table.stdout).toContain('Firm,Feeds,no,bank-feeds (1),,"reconciled, tax"');
      expect(table.stderr, table.stderr).toContain(
        'Feeds: bank-feeds: Barclays (Barclays Card): broken — reconnect the bank',
      );
    });

    it("the report pack carries the month's close review", async () => {
      const out = path.join(home.home, 'packs');
      const pack = await books(
        'report',
        'pack',
        '--period',
        '2026-10',
        '--review',
        '--statements',
        statementsDir(),
        '--out',
        out,
        ...entities.Reconciled!.where,
      );
      expect(pack.code, pack.stderr).toBe(0);
      const pdf = readdirSync(out).find((f) => f.endsWith('.pdf'))!;
      const pages = await pdfText(path.join(out, pdf));
      const review = pages.find((p) => p.includes('ready to close'))!;
      expect(review).toContain('Not ready to close: a check fails');
      expect(review).toContain('reconciled: fail (1)');
      expect(review).toMatch(
        /Checking: 1 statement entry missing in the books, a difference of -15\.00/,
      );
      const rows = await sheetRows(path.join(out, pdf.replace(/\.pdf$/, '.xlsx')), 'Close Review');
      expect(rows.map((r) => r[0])).toContain('bank-feeds: pass');
      const monthOnly = await books(
        'report',
        'pack',
        '--period',
        '2026-Q4',
        '--review',
        '--out',
        out,
        ...entities.Ready!.where,
      );
      expect(monthOnly.code).toBe(2);
      expect(monthOnly.stderr).toContain("--review takes a month's pack: --period YYYY-MM");
      const alone = await books(
        'report',
        'pack',
        '--period',
        '2026-10',
        '--statements',
        out,
        '--out',
        out,
        ...entities.Ready!.where,
      );
      expect(alone.code).toBe(2);
      expect(alone.stderr).toContain('--statements goes with --review');
    });

    it('close locks a ready entity through the month, refuses one that is not (exit 1), --force locks it and says so', async () => {
      const ready = entities.Ready!;
      const closed = await books('close', '2026-10', ...ready.where);
      expect(closed.code, closed.stderr).toBe(0);
      expect(closed.stderr).toContain('locked through 2026-10-31');
      const { entity } = await api('GET', `/sandbox/v1/entities/${ready.entityId}`);
      expect(entity.lockDate).toBe('2026-10-31');
      // Never moved back.
      const earlier = await books('close', '2026-09', ...ready.where);
      expect(earlier.code).toBe(0);
      expect(earlier.stdout).toContain('already locked through 2026-10-31: unchanged');
      // A later write into the closed month: refused by the platform, said as the lock.
      const before = await entryCount(ready);
      const write = await books(
        'je',
        'create',
        '--date',
        '2026-10-20',
        '--debit',
        'Rent=5',
        '--credit',
        'Checking=5',
        ...ready.where,
      );
      expect(write.code).toBe(1);
      expect(write.stderr).toContain('is on or before the lock date 2026-10-31');
      expect(write.stderr).toContain('the books are locked through 2026-10-31');
      expect(write.stderr).toContain('nothing was written');
      const imported = await books(
        'je',
        'import',
        fileOf(
          'date,account,debit,credit,entry\n2026-10-20,Rent,5,,1\n2026-10-20,Checking,,5,1\n',
          'late.csv',
        ),
        ...ready.where,
      );
      expect(imported.code).toBe(3);
      expect(imported.stderr).toContain(
        "on or before the entity's lock date (2026-10-31): the platform refuses it",
      );
      expect(await entryCount(ready)).toBe(before);
      // Not ready: refused, naming the failing checks; nothing locked.
      const suspense = entities.Suspense!;
      const refused = await books('close', '2026-10', ...suspense.where);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain('refused: suspense (1) (--force locks it anyway)');
      expect(
        (await api('GET', `/sandbox/v1/entities/${suspense.entityId}`)).entity.lockDate,
      ).toBeNull();
      const forced = await books('close', '2026-10', '--force', ...suspense.where);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stderr).toContain(
        'locked through 2026-10-31, though not ready (--force): suspense (1)',
      );
      expect((await api('GET', `/sandbox/v1/entities/${suspense.entityId}`)).entity.lockDate).toBe(
        '2026-10-31',
      );
    });

    it('close --all-entities locks the ready ones and names those it refused', async () => {
      const all = await books('close', '2026-10', '--all-entities', '-w', ws, '--json');
      expect(all.code).toBe(1);
      const outcomes = JSON.parse(all.stdout) as { entity: string; outcome: string }[];
      expect(outcomes.find((o) => o.entity === 'Flux')!.outcome).toBe('locked through 2026-10-31');
      expect(outcomes.find((o) => o.entity === 'Feeds')!.outcome).toMatch(
        /^refused: bank-feeds \(1\)/,
      );
      expect(all.stderr).toMatch(/\d+ of \d+ entities were not locked: not ready to close 2026-10/);
      void today;
      void existsSync;
    });
  });
});
