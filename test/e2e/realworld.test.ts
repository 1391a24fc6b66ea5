import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importIntoNewEntity,
  lazyTemporaryHome,
  runBooks,
  trialBalanceOf,
} from '../helpers/cli.js';
import {
  iifTotals,
  gnucashTotals,
  nominalLedgerTotals,
  nonZero,
  saftTotals,
  xafTotals,
  sieTotals,
  datevTotals,
  waveTotals,
  bexioTotals,
  infoniqaTotals,
} from '../helpers/fileTotals.js';

/**
 * Real exports from other systems (../shared/realworld/, see its SOURCES.md), imported as they
 * are by the built `books` into a new entity each; the trial balance must then equal the file's
 * own per-account totals, computed here in a few lines that share nothing with `books`.
 */
const REALWORLD =
  process.env.BOOKS_REALWORLD_DIR ??
  path.resolve(import.meta.dirname, '../../../shared/realworld/files');
const present = existsSync(REALWORLD);
if (!present) {
  console.warn(
    `skipped: the real exports are not at ${REALWORLD} (the project's ../shared/realworld/files; or set BOOKS_REALWORLD_DIR)`,
  );
}

describe.skipIf(!present)('real exports import as they are', () => {
  const home = lazyTemporaryHome();
  const books = (...args: string[]) => runBooks(args, home.env);
  beforeAll(async () => {
    expect((await books('workspace', 'create', 'Real Exports', '--timezone', 'UTC')).code).toBe(0);
  });
  afterAll(() => home.cleanup());

  /** A new entity, the file imported into it, and its trial balance by account name. */
  const importInto = (entity: string, file: string, extra: string[] = []) =>
    importIntoNewEntity(home.env, 'Real Exports', entity, file, extra);

  const trialBalance = (where: string[]) => trialBalanceOf(home.env, where);

  /** Where the chart below is written (named in the table of cases before HOME exists). */
  const CHARTLESS = '<chart.csv>';
  const chartless = () => path.join(home.home, 'chart.csv');
  beforeAll(() => {
    // What a user writes for an IIF with no !ACCNT list: the two accounts the Kit's examples use.
    writeFileSync(
      chartless(),
      'code,name,type\n1010,Checking,Cash\n6000,Expense Account,Operating Expenses\n',
    );
  });

  it.each([
    ['iif_intuit_kit_2007_invoice_salestax.iif', []],
    ['iif_intuit_kit_2007_check.iif', ['--chart', CHARTLESS]],
    ['iif_intuit_kit_2007_general_journal.iif', ['--chart', CHARTLESS]],
  ])('%s: the trial balance equals the file’s own totals, to the cent', async (name, extra) => {
    const file = path.join(REALWORLD, name);
    const { imported, where } = await importInto(
      name.replace(/\.iif$/, ''),
      file,
      extra.map((arg) => (arg === CHARTLESS ? chartless() : arg)),
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as IIF (QuickBooks Desktop)');
    expect(imported.stderr).toContain('reconciled');
    expect(await trialBalance(where)).toEqual(iifTotals(file));
  });

  it('gnucash_transactions_export_ledger-explorer.csv: the trial balance equals the file’s own totals, to the cent', async () => {
    const file = path.join(REALWORLD, 'gnucash_transactions_export_ledger-explorer.csv');
    const { imported, where } = await importInto('ledger-explorer', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as GnuCash');
    expect(imported.stderr).toContain('dates MM/DD/YYYY');
    expect(await trialBalance(where)).toEqual(gnucashTotals(file));
  });

  it('nominal_ledger_transaction_history_nibe_2018_excerpt.csv (single-sided: an excerpt): each account ends at the report’s own balance', async () => {
    const file = path.join(REALWORLD, 'nominal_ledger_transaction_history_nibe_2018_excerpt.csv');
    const entity = 'nibe-marketing';
    expect((await books('sandbox', 'entity', 'create', entity, '-w', 'Real Exports')).code).toBe(0);
    const where = ['-w', 'Real Exports', '-e', entity];
    // Rows whose other sides the excerpt cut go against an account the user makes for them.
    expect(
      (await books('coa', 'create', '--name', 'Report Offset', '--type', 'Equity', ...where)).code,
    ).toBe(0);
    const imported = await books(
      'je',
      'import',
      file,
      '--create-missing-accounts',
      ...where,
      '--offset-account',
      'Report Offset',
      // The report carries no types: the user gives them by code, as its chart is laid out.
      '--code-ranges',
      '1=income,11=cogs,14=expense,15=income,17=cogs,19=expense,2=expense,4=expense,5=expense,6=fixed assets',
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as a nominal ledger report');
    const expected = nominalLedgerTotals(file);
    const sum = [...expected.values()].reduce((a, b) => a + b, 0);
    expected.set('Report Offset', -sum);
    expect(await trialBalance(where)).toEqual(expected);
  });

  it('nibe with --chart: its accounts as the export prints them, one name under two codes, matched by code', async () => {
    const file = path.join(REALWORLD, 'nominal_ledger_transaction_history_nibe_2018_excerpt.csv');
    // Types by the chart's layout, as the user types them (the --code-ranges of the test above).
    const ranges: [string, string][] = [
      ['11', 'cogs'],
      ['14', 'expense'],
      ['15', 'income'],
      ['17', 'cogs'],
      ['19', 'expense'],
      ['1', 'income'],
      ['2', 'expense'],
      ['4', 'expense'],
      ['5', 'expense'],
      ['6', 'fixed assets'],
    ];
    const typeOf = (code: string) => ranges.find(([prefix]) => code.startsWith(prefix))![1];
    const offset = ['--offset-account', 'Report Offset'];
    const expected = nominalLedgerTotals(file);
    expected.set('Report Offset', -[...expected.values()].reduce((a, b) => a + b, 0));
    const entityWithOffset = async (entity: string) => {
      expect((await books('sandbox', 'entity', 'create', entity, '-w', 'Real Exports')).code).toBe(
        0,
      );
      const where = ['-w', 'Real Exports', '-e', entity];
      const account = ['coa', 'create', '--name', 'Report Offset', '--type', 'Equity', ...where];
      expect((await books(...account)).code).toBe(0);
      return where;
    };
    const importWithChart = async (where: string[], chart: string) => {
      const imported = await books(
        'je',
        'import',
        file,
        '--create-missing-accounts',
        '--chart',
        chart,
        ...offset,
        ...where,
      );
      expect(imported.code, imported.stderr).toBe(0);
      expect(await trialBalance(where)).toEqual(expected);
    };

    // 1. A chart typed by hand from the report's section headings: "Consumables" twice.
    const sections = [...readFileSync(file, 'utf8').matchAll(/Account: (\S+) - ([^,\n"]+)/g)].map(
      (m) => [m[1]!, m[2]!.trim()] as const,
    );
    const chart = path.join(home.home, 'nibe-chart.csv');
    writeFileSync(
      chart,
      `code,name,type\n${sections.map(([code, name]) => `${code},"${name}",${typeOf(code)}`).join('\n')}\n`,
    );
    expect(sections.filter(([, name]) => name === 'Consumables').map(([code]) => code)).toEqual([
      '2000130',
      '4050150',
    ]);
    await importWithChart(await entityWithOffset('nibe-charted'), chart);

    // 2. The chart --write-chart wrote, once typed.
    const written = path.join(home.home, 'nibe-written-chart.csv');
    const where = await entityWithOffset('nibe-written');
    const untyped = await books(
      'je',
      'import',
      file,
      '--create-missing-accounts',
      ...offset,
      '--write-chart',
      written,
      ...where,
    );
    expect(untyped.code).toBe(3);
    expect(untyped.stderr).toContain(`wrote the file's 94 accounts to ${written}`);
    const rows = (parse(readFileSync(written)) as string[][]).slice(1);
    // (Named apart as the reader names them, "Consumables (2000130)"; either form reads back.)
    expect(
      rows.filter(([, name]) => /^Consumables( \(\d+\))?$/.test(name!)).map(([code]) => code),
    ).toEqual(['2000130', '4050150']);
    // The user types each coded account; the offset account (no code) is already in the books.
    const typed = rows.filter(([code]) => code !== '');
    writeFileSync(
      written,
      `code,name,type\n${typed.map(([code, name]) => `${code},"${name}",${typeOf(code!)}`).join('\n')}\n`,
    );
    await importWithChart(where, written);
  });

  it('saft-no_financial-example (SAF-T Financial): every account ends at the file’s own figure; its three contradictions named', async () => {
    const file = path.join(REALWORLD, 'saft-no_financial-example-888888888_skatteetaten.xml');
    const receipt = path.join(home.home, 'saft-receipt.csv');
    const { imported, where } = await importInto('toyen-lekefabrikk', file, [
      '--offset-account',
      'Opening Offset',
      '--receipt',
      receipt,
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as SAF-T Financial');
    for (const account of ['1920 Bankinnskudd', '2711 Inngående', '2740 Oppgjørskonto'])
      expect(imported.stderr).toContain(`account ${account}`);
    // After sending: the file's closing balances against the trial balance at its end; the
    // three that contradict the lines differ, as said before.
    expect(imported.stderr).toContain(
      "19 of the file's 22 closing balances are the trial balance at 2017-04-30, to the cent",
    );
    expect(imported.stderr).toContain(
      'closing balance of account 1920: the file states 670,568.75, the trial balance at 2017-04-30 is 724,407.00',
    );
    const notes = readFileSync(receipt, 'utf8')
      .split('\n')
      .filter((row) => row.includes('note: '));
    expect(notes).toHaveLength(4);
    expect(notes[0]).toMatch(
      /^46,"note: SAF-T: the opening balances do not net to zero; Opening Offset \(--offset-account\) took 2,545,410.00 as a credit",$/,
    );
    const { totals, openings } = saftTotals(file);
    totals.set('Opening Offset', -openings);
    expect(await trialBalance(where)).toEqual(nonZero(totals));
  });

  it('exact-online_xaf32 (XAF 3.2): every account ends at the file’s own lines, typed by RGS', async () => {
    const file = path.join(
      REALWORLD,
      'exact-online_xaf32_auditfile_2016_bananaaccounting-netherlands.xml',
    );
    const { imported, where } = await importInto('toro-rosso', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as an XML Auditfile Financieel (XAF)');
    expect(await trialBalance(where)).toEqual(nonZero(xafTotals(file)));
  });

  it('sie4_bl-administration (SIE 4, CP437): every account ends at its #UB or #RES', async () => {
    const file = path.join(
      REALWORLD,
      'sie4_bl-administration_ovningsforetaget-2017_blinfo-sie4j.se',
    );
    const { imported, where } = await importInto('ovningsforetaget', file, [
      '--offset-account',
      'Opening Offset',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as SIE 4');
    const { totals, openings } = sieTotals(file);
    totals.set('Opening Offset', -openings);
    expect(await trialBalance(where)).toEqual(nonZero(totals));
  });

  it('datev-extf_buchungsstapel: refused listing its VAT rows; with --datev-vat gross --skr 03 every account ends at its rows', async () => {
    const file = path.join(
      REALWORLD,
      'datev-extf_buchungsstapel_banana-export_bananaaccounting-germany.csv',
    );
    const refused = await importInto('datev-refused', file, ['--skr', '03']);
    expect(refused.imported.code).toBe(3);
    expect(refused.imported.stderr).toContain('13 problems');
    expect(refused.imported.stderr).toContain(
      ':3: BU-Schlüssel 101: DATEV would post more than the row',
    );
    const { imported, where } = await importInto('datev-gross', file, [
      '--datev-vat',
      'gross',
      '--skr',
      '03',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('13 rows with a tax key');
    expect(await trialBalance(where)).toEqual(nonZero(datevTotals(file)));
  });

  it('wave_accounting_transactions (Wave): every account ends at the sum of its lines, typed by Wave', async () => {
    const file = path.join(REALWORLD, 'wave_accounting_transactions_invoiceninja_expenses.csv');
    const { imported, where } = await importInto('wave-expenses', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as a Wave "Account Transactions" export');
    expect(await trialBalance(where)).toEqual(nonZero(waveTotals(file)));
  });

  it('bexio_journal_export (CSV, and its Excel workbook): every account ends at the sum of its lines in the base currency', async () => {
    const csv = path.join(REALWORLD, 'bexio_journal_export_2022_bananaaccounting-switzerland.csv');
    const fromCsv = await importInto('bexio-csv', csv);
    expect(fromCsv.imported.code, fromCsv.imported.stderr).toBe(0);
    expect(fromCsv.imported.stderr).toContain(
      'rows hold characters a past re-encoding already lost',
    );
    const expected = nonZero(bexioTotals(csv));
    expect(await trialBalance(fromCsv.where)).toEqual(expected);
    const xlsx = path.join(
      REALWORLD,
      'bexio_journal_export_2022_bananaaccounting-switzerland.xlsx',
    );
    const fromXlsx = await importInto('bexio-xlsx', xlsx);
    expect(fromXlsx.imported.code, fromXlsx.imported.stderr).toBe(0);
    // The workbook Excel saved holds the same amounts (2584.8000000000002 is 2,584.80); its
    // names lost other characters than the CSV's, so accounts are compared by their balances.
    const [fromCsvTb, fromXlsxTb] = [
      await trialBalance(fromCsv.where),
      await trialBalance(fromXlsx.where),
    ];
    expect([...fromXlsxTb.values()].sort()).toEqual([...fromCsvTb.values()].sort());
  });

  it('infoniqa-one50_journal_export (Infoniqa ONE 50): every account ends at the sum of its lines', async () => {
    const file = path.join(
      REALWORLD,
      'infoniqa-one50_journal_export_2024_bananaaccounting-switzerland.csv',
    );
    const { imported, where } = await importInto('infoniqa', file);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as an Infoniqa ONE 50 journal');
    expect(await trialBalance(where)).toEqual(nonZero(infoniqaTotals(file)));
  });

  it('QuickBooks Desktop lists with OBAMOUNTs: one opening entry on --opening-date; uneven ones need --offset-account', async () => {
    const file = path.join(home.home, 'lists.iif');
    writeFileSync(
      file,
      [
        '!ACCNT\tNAME\tACCNTTYPE\tACCNUM\tOBAMOUNT',
        'ACCNT\tChecking\tBANK\t1000\t"99,250.02"',
        'ACCNT\tAccounts Payable\tAP\t2000\t-1250.02',
        'ACCNT\tOwner Equity\tEQUITY\t3000\t"-98,000.00"',
      ].join('\r\n'),
    );
    const { imported, where } = await importInto('iif-lists', file, [
      '--opening-date',
      '2025-12-31',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await trialBalance(where)).toEqual(
      new Map([
        ['Checking', 9_925_002],
        ['Accounts Payable', -125_002],
        ['Owner Equity', -9_800_000],
      ]),
    );
    const uneven = path.join(home.home, 'uneven.iif');
    writeFileSync(uneven, readFileSync(file, 'utf8').replace('-1250.02', '-1200.02'));
    const refused = await importInto('iif-uneven', uneven, ['--opening-date', '2025-12-31']);
    expect(refused.imported.code).toBe(3);
    expect(refused.imported.stderr).toContain('the opening balances do not net to zero');
  });

  it('--write-chart writes what cannot be typed; filled in, it goes back with --chart', async () => {
    const file = path.join(REALWORLD, 'iif_intuit_kit_2007_general_journal.iif');
    const written = path.join(home.home, 'written-chart.csv');
    const { imported, where } = await importInto('round-trip', file, ['--write-chart', written]);
    expect(imported.code).toBe(3);
    expect(imported.stderr).toContain(
      '"Checking" is not in the chart, and neither the file nor a flag types it',
    );
    expect(readFileSync(written, 'utf8')).toBe('code,name,type\n,Checking,\n,Expense Account,\n');
    expect(imported.stderr).toContain(
      `wrote the file's 2 accounts to ${written}: fill the blank types, then pass it with --chart`,
    );
    // The user fills the types in.
    writeFileSync(written, 'code,name,type\n,Checking,Cash\n,Expense Account,expense\n');
    const again = await books(
      'je',
      'import',
      file,
      '--create-missing-accounts',
      '--chart',
      written,
      ...where,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(await trialBalance(where)).toEqual(iifTotals(file));
  });

  it('--dry-run shows the first entries as they will be posted and each account’s total, sending nothing', async () => {
    const file = path.join(REALWORLD, 'iif_intuit_kit_2007_invoice_salestax.iif');
    const text = await books('je', 'import', file, '--dry-run');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(
      '  line 24  2006-08-02  INVOICE 10\n      1200 "Accounts Receivable"  Dr 10.25  Customer\n',
    );
    expect(text.stdout.split('\n')).toEqual([
      'File account\tType\tLines\tDebits − credits',
      '1200 "Accounts Receivable"\tAccounts Receivable\t1\t10.25',
      '"Income Account"\tIncome\t2\t-10.00',
      '2200 "Sales Tax Payable"\tOther Current Liabilities\t1\t-0.25',
      '',
    ]);
    const json = await books('je', 'import', file, '--dry-run', '-o', 'json');
    const preview = JSON.parse(json.stdout);
    expect(preview.firstEntries[0].lines).toHaveLength(4);
    expect(preview.accounts.map((a: { netCents: number }) => a.netCents)).toEqual([
      1025, -1000, -25,
    ]);
  });

  it('iif_square-bridge_cash_sales.iif: its 5 unbalanced transactions are listed, exit 3, nothing sent', async () => {
    const file = path.join(REALWORLD, 'iif_square-bridge_cash_sales.iif');
    const { imported, where } = await importInto('square-bridge', file);
    expect(imported.code).toBe(3);
    const unbalanced = imported.stderr
      .split('\n')
      .filter((line) => line.includes('does not balance'));
    expect(unbalanced.map((line) => /entry "([^"]+)"/.exec(line)![1])).toEqual([
      'CASH SALE 1E4MKM2FRQTAK',
      'CASH SALE CYC5NR6CGNNJY',
      'CASH SALE 4QK9G2140CX7S',
      'CASH SALE 54CRMJ8B213K9',
      'CASH SALE E3KTA9EFSX13V',
    ]);
    expect(imported.stderr).toContain('nothing was sent');
    const entries = await books(
      'je',
      'list',
      '--from',
      '2000-01-01',
      '--to',
      '2030-12-31',
      '-o',
      'json',
      ...where,
    );
    expect(JSON.parse(entries.stdout)).toEqual([]);
  });
});

describe('a FEC, written from its description, imports end to end', () => {
  const home = lazyTemporaryHome();
  afterAll(() => home.cleanup());

  it('into a new entity: accounts created with their PCG types, the trial balance as the file says', async () => {
    const books = (...args: string[]) => runBooks(args, home.env);
    const file = path.join(home.home, 'FEC20241231.txt');
    writeFileSync(
      file,
      [
        'JournalCode\tJournalLib\tEcritureNum\tEcritureDate\tCompteNum\tCompteLib\tCompAuxNum\tCompAuxLib\tPieceRef\tPieceDate\tEcritureLib\tDebit\tCredit\tEcritureLet\tDateLet\tValidDate\tMontantdevise\tIdevise',
        'AN\tA nouveaux\t1\t20240101\t512000\tBanque\t\t\tAN1\t20240101\tA nouveaux\t5000,00\t0,00\t\t\t20240101\t\t',
        'AN\tA nouveaux\t1\t20240101\t101000\tCapital\t\t\tAN1\t20240101\tA nouveaux\t0,00\t5000,00\t\t\t20240101\t\t',
        'VE\tVentes\t1\t20240105\t411000\tClients\t\t\tF1\t20240105\tFacture 1\t1200,00\t0,00\t\t\t20240105\t\t',
        'VE\tVentes\t1\t20240105\t706000\tPrestations\t\t\tF1\t20240105\tFacture 1\t0,00\t1000,00\t\t\t20240105\t\t',
        'VE\tVentes\t1\t20240105\t445710\tTVA collectée\t\t\tF1\t20240105\tFacture 1\t0,00\t200,00\t\t\t20240105\t\t',
      ].join('\r\n') + '\r\n',
      'latin1',
    );
    expect((await books('workspace', 'create', 'Cabinet', '--timezone', 'UTC')).code).toBe(0);
    expect((await books('sandbox', 'entity', 'create', 'SARL Dupont', '-w', 'Cabinet')).code).toBe(
      0,
    );
    const where = ['-w', 'Cabinet', '-e', 'SARL Dupont'];
    const imported = await books(
      'je',
      'import',
      file,
      '--encoding',
      'latin1',
      '--create-missing-accounts',
      ...where,
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('read as a FEC');
    const chart = JSON.parse((await books('coa', 'list', '-o', 'json', ...where)).stdout) as {
      name: string;
      type: string;
    }[];
    expect(Object.fromEntries(chart.map((a) => [a.name, a.type]))).toMatchObject({
      Banque: 'Cash',
      Capital: 'Equity',
      Clients: 'Accounts Receivable',
      Prestations: 'Income',
      'TVA collectée': 'Other Current Liabilities',
    });
    expect(await trialBalanceOf(home.env, where)).toEqual(
      new Map([
        ['Banque', 500000],
        ['Capital', -500000],
        ['Clients', 120000],
        ['Prestations', -100000],
        ['TVA collectée', -20000],
      ]),
    );
  });
});

const hledgerInstalled = spawnSync('hledger', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hledgerInstalled) {
  console.warn(
    'skipped: importing `hledger print -O csv` needs hledger on the PATH (apt-get install hledger)',
  );
}

describe.skipIf(!hledgerInstalled)('what hledger exports imports end to end', () => {
  const home = lazyTemporaryHome();
  afterAll(() => home.cleanup());

  it('hledger print -O csv: the trial balance equals `hledger balance`, to the cent', async () => {
    const books = (...args: string[]) => runBooks(args, home.env);
    const journal = path.join(home.home, 'books.journal');
    writeFileSync(
      journal,
      [
        '2024-01-01 Opening',
        '    assets:bank           5000.00 EUR',
        '    equity:opening',
        '',
        '2024-01-05 * (F1) Client Dupont  ; invoice',
        '    assets:receivable     1200.00 EUR',
        '    revenues:services    -1000.00 EUR',
        '    liabilities:vat       -200.00 EUR',
        '',
        '2024-01-20 Deposit',
        '    assets:bank           1200.00 EUR',
        '    assets:receivable',
        '',
        '2024-01-21 Bank fee',
        '    expenses:bank            1.50 EUR',
        '    assets:bank',
        '    (budget:bank)           -1.50 EUR',
        '',
      ].join('\n'),
    );
    const csv = path.join(home.home, 'print.csv');
    writeFileSync(
      csv,
      spawnSync('hledger', ['-f', journal, 'print', '-O', 'csv'], { encoding: 'utf8' }).stdout,
    );
    const balances = spawnSync(
      'hledger',
      ['-f', journal, 'balance', '--flat', '--real', '-O', 'csv', '--no-total'],
      {
        encoding: 'utf8',
      },
    ).stdout;
    const expected = new Map(
      (parse(balances) as string[][])
        .slice(1)
        .map(([account, amount]) => [
          account!,
          Math.round(Number(amount!.replace(/[^\d.-]/g, '')) * 100),
        ]),
    );
    expect((await books('workspace', 'create', 'Plain Text', '--timezone', 'UTC')).code).toBe(0);
    expect(
      (await books('sandbox', 'entity', 'create', 'From hledger', '-w', 'Plain Text')).code,
    ).toBe(0);
    const where = ['-w', 'Plain Text', '-e', 'From hledger'];
    const imported = await books('je', 'import', csv, '--create-missing-accounts', ...where);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('1 virtual posting ((Account) or [Account]) left out');
    expect(await trialBalanceOf(home.env, where)).toEqual(
      new Map([...expected].filter(([, cents]) => cents !== 0)),
    );
  });
});
