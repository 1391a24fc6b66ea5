import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';
import { ofxFile } from '../helpers/statementFiles.js';

/*
 * A new client's first month as a bookkeeper meets it (issue 58), through the built binary
 * against `books serve` (a SQLite file; PostgreSQL in the PostgreSQL run): a small UK company,
 * its chart and history migrated, its bank connected, November's statement brought in,
 * reconciled, reviewed and packed. Each defect the issue names is reproduced here; every figure
 * is computed in the test.
 */

/** November as the bank exports it first: no account number, no balance. */
const NOVEMBER = [
  'Date,Description,Amount',
  '03/11/2026,RENT HARBOUR PROPERTIES,-1200.00',
  '10/11/2026,CARD SALES SUMUP,845.20',
  '17/11/2026,BRITISH GAS,-96.40',
].join('\n');
/** The same month exported again by the bank, with two more columns. */
const NOVEMBER_AGAIN = [
  'Date,Account,Description,Amount,Balance',
  '03/11/2026,20-00-00 12345678,RENT HARBOUR PROPERTIES,-1200.00,3800.00',
  '10/11/2026,20-00-00 12345678,CARD SALES SUMUP,845.20,4645.20',
  '17/11/2026,20-00-00 12345678,BRITISH GAS,-96.40,4548.80',
].join('\n');

describe("a new client's first month (the built binary against books serve)", () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serveBooks>>;
  let env: NodeJS.ProcessEnv;
  let fileNumber = 0;
  const where = ['-w', 'Harbour Café Ltd', '-e', 'Harbour Café Ltd'];

  beforeAll(async () => {
    home = temporaryHome();
    server = await serveBooks(home, ['--db', path.join(home.home, 'platform.sqlite')]);
    env = { ...server.env, BOOKS_RETRY_BASE_MS: '10' };
    const made = [await books('workspace', 'create', 'Harbour Café Ltd', '--timezone', 'UTC')];
    made.push(
      await books(
        ...['sandbox', 'entity', 'create', 'Harbour Café Ltd', '--start-date', '2026-11-01'],
        ...['-w', 'Harbour Café Ltd'],
      ),
    );
    for (const result of made) expect(result.code, result.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  const books = (...args: string[]) => runBooks(args, env);
  const fileOf = (text: string, name: string) => {
    const file = path.join(home.home, `${++fileNumber}-${name}`);
    writeFileSync(file, text);
    return file;
  };
  const json = async (...args: string[]) => {
    const result = await books(...args, '--json', ...where);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return JSON.parse(result.stdout);
  };

  it('migrated history keeps its account: connecting the bank links to 1000, no twin', async () => {
    // The client's history, migrated: its bank account 1000 holds the opening balance.
    const ledger = fileOf(
      [
        'date,account,account_type,debit,credit,entry,description',
        '2026-08-01,Barclays Current Account,Cash,5000.00,,1,Capital paid in',
        '2026-08-01,Share Capital,Equity,,5000.00,1,Capital paid in',
      ].join('\n'),
      'history.csv',
    );
    const migrated = await books('migrate', 'run', ledger, '--create-missing-accounts', ...where);
    expect(migrated.code, migrated.stderr).toBe(0);
    const connected = await books(
      ...['sandbox', 'feed', 'connect', '--bank', 'Barclays'],
      ...['--account', 'Barclays Current Account:bank', ...where],
    );
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stderr).toContain(
      'books: the feed is linked to the chart\'s 1000 "Barclays Current Account": its history and balance stay where they are',
    );
    const chart: { code: string; name: string; financialAccountId: string | null }[] = await json(
      'coa',
      'list',
    );
    expect(chart.filter((a) => /Barclays/.test(a.name))).toEqual([
      expect.objectContaining({ code: '1000', name: 'Barclays Current Account' }),
    ]);
    expect(chart.find((a) => a.code === '1000')!.financialAccountId).not.toBeNull();

    // Re-running the finished migration after the month's close: done, nothing sent.
    const locked = await books('sandbox', 'entity', 'lock', '--date', '2026-10-31', ...where);
    expect(locked.code, locked.stderr).toBe(0);
    const again = await books('migrate', 'run', ledger, '--create-missing-accounts', ...where);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      'books: already migrated: every entry of 1-history.csv was sent by an earlier run; nothing was sent',
    );
    const unlocked = await books('sandbox', 'entity', 'lock', '--date', 'none', ...where);
    expect(unlocked.code, unlocked.stderr).toBe(0);
  });

  it('the same month in another layout, or the bank’s OFX of it, comes in once', async () => {
    const day = await books('config', 'set', 'date-format', 'DD/MM/YYYY');
    expect(day.code, day.stderr).toBe(0);
    const first = await json('transactions', 'import', '1000', fileOf(NOVEMBER, 'november.csv'));
    expect(first).toMatchObject({ imported: 3, skipped: 0, possibleDuplicates: 0 });
    // The bank's re-export with Account and Balance: before, "3 imported, 0 already there".
    const again = await json(
      ...['transactions', 'import', '1000', fileOf(NOVEMBER_AGAIN, 'november-again.csv')],
    );
    expect(again).toMatchObject({ imported: 0, skipped: 3, possibleDuplicates: 0 });
    // The OFX of the same days: each line with the bank's own reference (FITID).
    const ofx = ofxFile(
      {
        account: '20000012345678',
        currency: 'GBP',
        from: '2026-11-01',
        to: '2026-11-30',
        opening: 5000_00,
        entries: [
          { booked: '2026-11-03', cents: -1200_00, text: 'RENT HARBOUR PROPERTIES' },
          { booked: '2026-11-10', cents: 845_20, text: 'CARD SALES SUMUP' },
          { booked: '2026-11-17', cents: -96_40, text: 'BRITISH GAS' },
        ],
      },
      { version: 2 },
    );
    const fromOfx = await json(
      ...['transactions', 'import', '1000', fileOf(ofx, 'november.ofx'), '--link-account'],
    );
    expect(fromOfx).toMatchObject({ imported: 0, skipped: 3 });
    const listed: unknown[] = await json('transactions', 'list');
    expect(listed).toHaveLength(3);
  });

  it('a line alike but not certain is held, posted only when a person says', async () => {
    // Another export dating the rent by its value day, with the landlord's full name.
    const shifted = fileOf(
      'Date,Description,Amount\n04/11/2026,Harbour Properties Ltd,-1200.00\n',
      'value-days.csv',
    );
    const held = await books('transactions', 'import', '1000', shifted, ...where);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stderr).toContain('0 imported, 0 already there, 1 held as a possible duplicate');
    expect(held.stderr).toMatch(
      /books: held: 2026-11-04 -1200\.00 Harbour Properties Ltd \(([0-9a-f-]{36})\): possible duplicate of 2026-11-03 -1,200\.00 RENT HARBOUR PROPERTIES/,
    );
    const [line] = await json('transactions', 'list', '--status', 'possible-duplicate');
    expect(line).toMatchObject({
      date: '2026-11-04',
      status: 'possible-duplicate',
      duplicateOf: { date: '2026-11-03', amount: -1200, description: 'RENT HARBOUR PROPERTIES' },
    });
    // Nothing posted: 1000 is 5,000.00 + November's three lines.
    const balance = async () => {
      const tb = await json('report', 'tb', '--from', '2026-01-01', '--to', '2026-12-31');
      const row = tb.report.rows.find((r: { accountCode: string }) => r.accountCode === '1000');
      return Math.round((row.debit - row.credit) * 100);
    };
    expect(await balance()).toBe(5000_00 - 1200_00 + 845_20 - 96_40);
    // An account decision is refused while it is held; a unique start of its id takes it.
    const refused = await books(
      ...['transactions', 'categorize', line.id, '--account', 'Share Capital'],
      ...where,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is held as a possible duplicate of 2026-11-03');
    const excluded = await books(
      ...['transactions', 'categorize', line.id.slice(0, 23), '--exclude'],
      ...where,
    );
    expect(excluded.code, excluded.stderr).toBe(0);
    expect(await balance()).toBe(5000_00 - 1200_00 + 845_20 - 96_40);
    expect(await json('transactions', 'list', '--status', 'possible-duplicate')).toEqual([]);
  });

  it('a statement with no balance proves nothing without one; one given, it reconciles', async () => {
    const november = fileOf(NOVEMBER, 'november-statement.csv');
    const unproven = await books('reconcile', '1000', november, ...where);
    expect(unproven.code).toBe(1);
    expect(unproven.stderr).toContain(
      'books: 1000 "Barclays Current Account" does not reconcile to the statements from 2026-11-03 to 2026-11-17: the statement states no balance: give its closing balance, as the bank states it, with --closing-balance AMOUNT; no earlier statement of the account was reconciled: give the opening balance too, with --opening-balance AMOUNT',
    );
    const wrongClosing = await books(
      ...['reconcile', '1000', november, '--opening-balance', '5000', '--closing-balance', '4600'],
      ...where,
    );
    expect(wrongClosing.code).toBe(1);
    const given = await books(
      ...['reconcile', '1000', november],
      ...['--opening-balance', '5,000.00', '--closing-balance', '4548.80', ...where],
    );
    expect(given.code, given.stderr).toBe(0);
    expect(given.stderr).toContain(
      '1000 "Barclays Current Account" reconciles to the statements from 2026-11-03 to 2026-11-17: 3 statement entries matched, 0 outstanding',
    );
    // The close review finds the statement, which names no account, by the reconcile that ran.
    const directory = path.join(home.home, 'statements');
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, 'november.csv'), readFileSync(november));
    const review = await books(
      ...['close', 'review', '--period', '2026-11', '--statements', directory, '--json'],
      ...where,
    );
    const [reviewed] = JSON.parse(review.stdout) as {
      checks: { id: string; status: string; items: string[] }[];
    }[];
    const reconciled = reviewed!.checks.find((c) => c.id === 'reconciled')!;
    expect(reconciled.items.join('\n')).not.toContain('no statement is linked to it');
    expect(reconciled.items).toEqual([
      '1000 Barclays Current Account: the statements reach 2026-11-17, not 2026-11-30',
    ]);
  });

  it('a line the bank sent inside the statement but not on it fails the reconciliation, named', async () => {
    // Let in as a line of its own: the rent twice.
    const [excluded] = await json('transactions', 'list', '--status', 'excluded');
    const letIn = await books(
      ...['transactions', 'categorize', excluded.id, '--uncategorize'],
      ...where,
    );
    expect(letIn.code, letIn.stderr).toBe(0);
    const reconcile = await books(
      ...['reconcile', '1000', fileOf(NOVEMBER_AGAIN, 'with-balance.csv')],
      ...where,
    );
    expect(reconcile.code).toBe(1);
    expect(reconcile.stdout).toMatch(
      /sent by the bank, not on statement\t2026-11-04\t-1200\.00\tHarbour Properties Ltd/,
    );
    expect(reconcile.stderr).toContain(
      "1 line the bank sent, dated inside the statement, is not on it: a duplicate, or another statement's",
    );
    const out = await books('transactions', 'categorize', excluded.id, '--exclude', ...where);
    expect(out.code, out.stderr).toBe(0);
    const now = await books(
      ...['reconcile', '1000', fileOf(NOVEMBER_AGAIN, 'with-balance.csv')],
      ...where,
    );
    expect(now.code, now.stderr).toBe(0);
  });

  it('a statement of another account is refused naming both; --link-account says the number is new', async () => {
    const savings = await books(
      ...['sandbox', 'feed', 'connect', '--bank', 'Barclays', '--account', 'Savings:bank'],
      ...where,
    );
    expect(savings.code, savings.stderr).toBe(0);
    // November's statement with its number was reconciled to 1000: not Savings'.
    const wrong = await books(
      ...['transactions', 'import', 'Savings', fileOf(NOVEMBER_AGAIN, 'to-savings.csv')],
      ...where,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      'books: the statements are of 20-00-00 12345678, whose statements are 1000 "Barclays Current Account"\'s, not 1001 "Savings"\'s: name that account, or pass --link-account to link them to 1001 "Savings"',
    );
    const other = fileOf(
      'Date,Account,Description,Amount,Balance\n05/11/2026,20-00-00 87654321,INTEREST,1.20,101.20\n',
      'savings.csv',
    );
    const first = await books('transactions', 'import', 'Savings', other, ...where);
    expect(first.code, first.stderr).toBe(0);
    const renumbered = fileOf(
      'Date,Account,Description,Amount,Balance\n06/11/2026,20-00-00 99999999,INTEREST,1.30,102.50\n',
      'renumbered.csv',
    );
    const refused = await books('transactions', 'import', 'Savings', renumbered, ...where);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'the statements are of 20-00-00 99999999, and 1001 "Savings"\'s statements are of 20-00-00 87654321',
    );
    const linked = await books(
      ...['transactions', 'import', 'Savings', renumbered, '--link-account'],
      ...where,
    );
    expect(linked.code, linked.stderr).toBe(0);
  });

  it('coa import of codes into a standard chart is refused naming the custom chart; --renumber lets them go', async () => {
    const chart = fileOf('code,name,type\n1100,Debtors,Accounts Receivable\n', 'chart.csv');
    const refused = await books('coa', 'import', chart, ...where);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'the file gives its accounts codes (1100 "Debtors"), and workspace "Harbour Café Ltd" keeps the standard chart, whose codes the platform allocates. To keep the file\'s codes, make the workspace\'s chart a custom one first (books sandbox workspace update "Harbour Café Ltd" --custom-chart); to let them go, pass --renumber. Nothing was sent',
    );
    const renumbered = await books('coa', 'import', chart, '--renumber', ...where);
    expect(renumbered.code, renumbered.stderr).toBe(0);
    expect(renumbered.stdout).toMatch(/^1002\tDebtors/m);
  });

  it('errors that help: the day given and wanted, the closest names, the account first, one code for a missing file', async () => {
    const cases: [string[], number, string][] = [
      [
        ['je', 'create', '--date', '25/11/2026', '--debit', 'Rent=1', '--credit', '1000=1'],
        2,
        'books: --date 25/11/2026 is not a day in YYYY-MM-DD: 2026-11-25?',
      ],
      [
        ['je', 'create', '--date', '2026-11-31', '--debit', 'Rent=1', '--credit', '1000=1'],
        2,
        'books: --date 2026-11-31 is no day: November 2026 has 30 days',
      ],
      [
        ['je', 'create', '--date', '2026-11-30', '--debit', 'Sharecapital=1', '--credit', '1000=1'],
        5,
        'books: no account "Sharecapital" (by id, code or name); did you mean "Share Capital"?',
      ],
      [
        ['transactions', 'import', fileOf(NOVEMBER, 'forgot.csv')],
        2,
        'books: missing the account (the connected account: its chart account (name, code or id), or the financial account id): it comes before the files',
      ],
      [
        ['transactions', 'import', '1000', 'no-such.csv'],
        3,
        'books: cannot read no-such.csv: no such file',
      ],
      [['reconcile', '1000', 'no-such.csv'], 3, 'books: cannot read no-such.csv: no such file'],
      [['je', 'import', 'no-such.csv'], 3, 'cannot read'],
      [['coa', 'import', 'no-such.csv'], 3, 'books: cannot read no-such.csv: no such file'],
      [
        ['report', 'pl', '--from', '2026-11-01', '--to', '2026-11-30', '--basis', 'accrual'],
        1,
        'books: open it with books sandbox entity open-accrual (once; the cash ledger stays as it is), or use --basis cash',
      ],
    ];
    for (const [args, code, message] of cases) {
      const result = await books(...args, ...where);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(code);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    // An entity typed without its accent is found; a workspace mistyped is named.
    const cafe = await books('coa', 'list', '-w', 'Harbour Cafe Ltd', '-e', 'Harbour Cafe Ltd');
    expect(cafe.code, cafe.stderr).toBe(0);
    const mistyped = await books('coa', 'list', '-w', 'Harbor Café Ltd');
    expect(mistyped.code).toBe(5);
    expect(mistyped.stderr).toContain('did you mean "Harbour Café Ltd"?');
    // The day order settled once for the profile: shown by config.
    const setting = await books('config', 'get', 'date-format');
    expect(setting.stdout.trim()).toBe('DD/MM/YYYY');
  });

  it('every table at a terminal fits its width', async () => {
    const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
    if (!hasScript) {
      console.warn('skipped: a terminal of 120 columns needs script (util-linux)');
      return;
    }
    const command = [process.execPath, BOOKS_BIN, 'transactions', 'list', '--no-pager', ...where]
      .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
      .join(' ');
    const shown = spawnSync('script', ['-qec', `stty cols 120; ${command}`, '/dev/null'], {
      env,
      encoding: 'utf8',
    });
    const lines = shown.stdout.split(/\r?\n/).filter((line) => /[│┌└├]/.test(line));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect([...line].length, shown.stdout).toBeLessThanOrEqual(120);
    expect(shown.stdout).toContain('…');
  });

  it('a pack compared with the prior year reads right: the trial balance keeps its sides and totals, income up is up, the prior year to date is its own', async () => {
    // Last November's income, then this November's: Catering up 6,670.58.
    const entries = fileOf(
      [
        'date,account,account_type,debit,credit,entry,description',
        '2025-11-05,Cash Box,Cash,18478.00,,c1,Catering',
        '2025-11-05,Catering,Income,,18478.00,c1,Catering',
        '2025-03-05,Cash Box,Cash,1000.00,,c0,Catering',
        '2025-03-05,Catering,Income,,1000.00,c0,Catering',
        '2026-11-05,Cash Box,Cash,25148.58,,c2,Catering',
        '2026-11-05,Catering,Income,,25148.58,c2,Catering',
      ].join('\n'),
      'catering.csv',
    );
    const imported = await books('je', 'import', entries, '--create-missing-accounts', ...where);
    expect(imported.code, imported.stderr).toBe(0);
    const out = path.join(home.home, 'packs');
    const pack = await books(
      ...['report', 'pack', '--period', '2026-11', '--compare', 'prior-year', '--out', out],
      ...where,
    );
    expect(pack.code, pack.stderr).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path.join(out, 'Harbour-Café-Ltd-2026-11.xlsx'));
    const rows = (sheet: string) => {
      const found: unknown[][] = [];
      workbook
        .getWorksheet(sheet)!
        .eachRow((row) =>
          found.push(
            (row.values as unknown[]).slice(1).map((v) => (v as { result?: unknown })?.result ?? v),
          ),
        );
      return found;
    };
    const tb = rows('Trial Balance');
    const header = tb.find((row) => row.includes('Debit'))!;
    expect(header.slice(1)).toEqual(['Debit', 'Credit', 'Prior year debit', 'Prior year credit']);
    // Catering's credit: this fiscal year's 25,148.58 beside the last one's to 30 November 2025
    // (March's 1,000.00 and November's 18,478.00) — not one signed column of -25,148.58.
    const catering = tb.find((row) => String(row[0]).endsWith('Catering'))!;
    expect(catering.slice(1, 5)).toEqual([undefined, 25148.58, undefined, 19478]);
    const total = tb.find((row) => row[0] === 'Total')!;
    expect(total[1]).toBe(total[2]);
    expect(total[3]).toBe(total[4]);
    // The P&L: income up is up.
    const income = rows('Profit and Loss').find((row) => String(row[0]).endsWith('Catering'))!;
    expect(income.slice(1, 4)).toEqual([25148.58, 18478, 6670.58]);
    expect(income[4]).toBeCloseTo(0.361, 6);
    const summary = rows('Summary');
    const ytd = summary.find((row) =>
      String(row[0]).startsWith('Net income, fiscal year to date'),
    )!;
    // This year to date as the P&L has it; the prior year's own, to 30 November 2025: 19,478.00
    // (before, 0.00).
    const pl = await json('report', 'pl', '--from', '2026-01-01', '--to', '2026-11-30');
    const netIncome = pl.report.sections.find(
      (x: { section: string }) => x.section === 'netIncome',
    );
    expect(ytd.slice(1, 3)).toEqual([netIncome.total, 19478]);
    // The same in the PDF.
    const document = await getDocument({
      data: new Uint8Array(readFileSync(path.join(out, 'Harbour-Café-Ltd-2026-11.pdf'))),
      isEvalSupported: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise;
    let text = '';
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      text += `${content.items.map((item) => ('str' in item ? item.str : '')).join(' ')}\n`;
    }
    await document.destroy();
    expect(text).toMatch(/Debit\s+Credit\s+Prior year debit\s+Prior year credit/);
    expect(text).toMatch(/Catering\s+25,148\.58\s+18,478\.00\s+6,670\.58\s+36\.1%/);
    expect(text).toMatch(/Catering\s+25,148\.58\s+19,478\.00\s/);
    expect(text).toMatch(/fiscal year to date \(from 2026-01-01\)\s+[\d,.]+\s+19,478\.00/);
  });
});
