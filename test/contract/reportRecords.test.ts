import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/clock.js';
import { temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { expectGolden } from '../helpers/golden.js';

/**
 * Every report as records for a spreadsheet (CSV, TSV) is tidy: the same fields on every row,
 * periods headed by their dates, amounts plain, text a spreadsheet would run as a formula
 * neutralized; `--layout long` is a row per cell. Pinned per report × `--by` × layout, and
 * parsed back with csv-parse.
 */
const clock: Clock = { now: () => new Date('2026-03-15T12:00:00Z'), sleep: async () => undefined };
const REPORTS = ['pl', 'bs', 'cf', 'tb'] as const;
const BY = ['week', 'month', 'quarter', 'year', 'total'] as const;
const PERIOD = /^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/;
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

describe('reports as CSV and TSV records', () => {
  const home = temporaryHome();
  const run = (args: string[]) => runCli(args, { env: home.env, services: { clock } });
  const ok = async (...args: string[]) => {
    const result = await run(args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };
  beforeAll(async () => {
    await ok('workspace', 'create', 'Tidy Books');
    await ok('sandbox', 'entity', 'create', 'Corner Shop', '-w', 'Tidy Books');
    await ok('use', '-w', 'Tidy Books', '-e', 'Corner Shop');
    // Names a spreadsheet would run as formulas.
    for (const [name, type] of [
      ['Checking', 'Cash'],
      ['=HYPERLINK("http://x")', 'Income'],
      ['-Refunds', 'Income'],
      ['@Rent', 'Operating Expenses'],
      ['+Equipment', 'Fixed Assets'],
      ["Owner's Equity", 'Equity'],
    ])
      await ok('coa', 'create', '--name', name!, '--type', type!);
    const entries: [string, string, string, string][] = [
      ['2026-01-02', "Owner's Equity", 'Checking', '5000'],
      ['2026-01-05', 'Checking', '=HYPERLINK("http://x")', '1200.50'],
      ['2026-01-20', '@Rent', 'Checking', '650'],
      ['2026-02-03', 'Checking', '=HYPERLINK("http://x")', '980'],
      ['2026-02-11', '-Refunds', 'Checking', '45.25'],
      ['2026-03-01', '+Equipment', 'Checking', '1500'],
      ['2026-03-09', '@Rent', 'Checking', '650'],
    ];
    for (const [date, debit, credit, amount] of entries) {
      await ok(
        'je',
        'create',
        '--date',
        date,
        '--debit',
        `${debit}=${amount}`,
        '--credit',
        `${credit}=${amount}`,
      );
    }
  }, 60_000);
  afterAll(() => home.cleanup());

  const range = ['--from', '2026-01-01', '--to', '2026-03-31'];

  /** Checks a report's records, parsed back: rectangular, dated headers, no formula. */
  const check = (text: string, format: 'csv' | 'tsv', layout: 'wide' | 'long') => {
    const rows: string[][] = parse(text, {
      delimiter: format === 'csv' ? ',' : '\t',
      ...(format === 'tsv' && { quote: false }),
      relax_column_count: true,
    });
    const [header, ...data] = rows;
    expect(data.length).toBeGreaterThan(0);
    for (const row of data) expect(row).toHaveLength(header!.length);
    if (layout === 'wide') {
      expect(header!.slice(0, 3)).toEqual(['section', 'account_code', 'account_name']);
      for (const cell of header!.slice(3)) expect(cell).toMatch(PERIOD);
    } else {
      expect(header).toEqual([
        'period_start',
        'period_end',
        'section',
        'account_code',
        'account_name',
        'amount',
      ]);
    }
    for (const row of data)
      for (const cell of row) if (!NUMBER.test(cell)) expect(cell).not.toMatch(FORMULA);
    const names = data.map((row) => row[layout === 'wide' ? 2 : 4]);
    return { header: header!, data, names };
  };

  it('every statement × --by × layout, in CSV and TSV', async () => {
    const pinned: string[] = [];
    for (const report of REPORTS) {
      for (const by of BY) {
        for (const layout of ['wide', 'long'] as const) {
          const args = ['report', report, ...range, '--by', by, '--layout', layout];
          const csv = await ok(...args, '--output', 'csv');
          const tsv = await ok(...args, '--output', 'tsv');
          const fromCsv = check(csv, 'csv', layout);
          const fromTsv = check(tsv, 'tsv', layout);
          expect(fromTsv.data).toEqual(fromCsv.data);
          pinned.push(`$ books ${args.join(' ')} --output csv\n${csv}`);
        }
      }
    }
    expectGolden('cli/reports-as-records.txt', pinned.join('\n'));
  }, 120_000);

  it('every statement on a terminal: a title, compact sections, names fitted to the width', async () => {
    const pinned: string[] = [];
    /** A report as a terminal of `columns` shows it, pinned. */
    const onTerminal = async (args: string[], columns: number) => {
      const result = await runCli(args, {
        env: { ...home.env, NO_COLOR: '1' },
        tty: true,
        columns,
        services: { clock },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(/[┌│─]/);
      pinned.push(`$ books ${args.join(' ')}   # ${columns} columns\n${result.stdout}`);
    };
    for (const report of REPORTS) {
      for (const by of ['month', 'total']) {
        for (const columns of [100, 60]) {
          await onTerminal(['report', report, ...range, '--by', by], columns);
        }
      }
    }
    for (const columns of [100, 60]) await onTerminal(['report', 'gl', ...range], columns);
    expectGolden('cli/reports-on-terminal.txt', pinned.join('\n'));
  });

  it('neutralizes formulas and keeps numbers as they are', async () => {
    const { names, data } = check(
      await ok('report', 'pl', ...range, '--output', 'csv'),
      'csv',
      'wide',
    );
    expect(names).toContain(`'=HYPERLINK("http://x")`);
    expect(names).toContain("'-Refunds");
    expect(names).toContain("'@Rent");
    // Negative amounts stay numbers.
    expect(data.flat().some((cell) => /^-\d/.test(cell))).toBe(true);
    const bs = check(await ok('report', 'bs', ...range, '--output', 'csv'), 'csv', 'wide');
    expect(bs.names).toContain("'+Equipment");
  });

  it('the general ledger: account code and name apart, plain amounts', async () => {
    const csv = await ok('report', 'gl', ...range, '--output', 'csv');
    const rows: string[][] = parse(csv);
    expect(rows[0]).toEqual([
      'account_code',
      'account_name',
      'date',
      'description',
      'debit',
      'credit',
      'balance',
    ]);
    for (const row of rows) expect(row).toHaveLength(7);
    expect(rows.map((r) => r[1])).toContain("'@Rent");
  });

  it('lists and receipts follow the same rules: formulas neutralized, numbers as they are', async () => {
    const chart: string[][] = parse(await ok('coa', 'list', '--output', 'csv'));
    const header = chart[0]!;
    const names = chart.slice(1).map((row) => row[header.indexOf('Name')]);
    expect(names).toEqual(
      expect.arrayContaining([`'=HYPERLINK("http://x")`, "'-Refunds", "'@Rent", "'+Equipment"]),
    );
    for (const row of chart.slice(1)) expect(row[header.indexOf('Code')]).toMatch(/^\d+$/);
    // A receipt names each entry by the file's own id, which may look like a formula.
    const ledger = path.join(home.home, 'formulas.csv');
    writeFileSync(
      ledger,
      'date,entry,account,debit,credit,memo\n' +
        '2026-03-20,=SUM(A1:A9),Checking,12.00,,Till\n2026-03-20,=SUM(A1:A9),@Rent,,12.00,Till\n',
    );
    const receipt = path.join(home.home, 'receipt.csv');
    await ok('je', 'import', ledger, '--receipt', receipt);
    const rows: string[][] = parse(readFileSync(receipt, 'utf8'));
    expect(rows[0]).toEqual(['line', 'entry', 'journal_entry_id']);
    expect(rows[1]).toEqual(['2', "'=SUM(A1:A9)", expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  });

  it('TSV escapes tab, CR and newline in a cell', async () => {
    await ok('coa', 'create', '--name', 'Tab\there\nand there', '--type', 'Cash');
    const tsv = await ok('coa', 'list', '--output', 'tsv');
    expect(tsv).toContain('Tab\\there\\nand there');
    for (const line of tsv.trimEnd().split('\n'))
      expect(line.split('\t')).toHaveLength(tsv.split('\n')[0]!.split('\t').length);
  });

  it('--layout is checked before any request', async () => {
    const result = await run(['report', 'pl', ...range, '--layout', 'tall']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('books: --layout must be wide or long, not "tall"\n');
  });
});
