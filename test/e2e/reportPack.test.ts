import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/clock.js';
import { temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * `books report pack`: the workbook read back with exceljs, every cell of every statement sheet
 * against the same report's `--output csv`; and every entity of a workspace in one run, one of
 * them failing.
 */
const clock: Clock = { now: () => new Date('2026-02-10T09:30:00Z'), sleep: async () => undefined };

describe('books report pack', () => {
  let server: TestServer;
  const home = temporaryHome();
  const out = mkdtempSync(path.join(os.tmpdir(), 'books-packs-'));
  let env: NodeJS.ProcessEnv;
  const run = (...args: string[]) => runCli(args, { env, services: { clock } });
  const ok = async (...args: string[]) => {
    const result = await run(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    server = await startServer();
    env = { ...home.env, BOOKS_BASE_URL: server.baseUrl, BOOKS_TOKEN: server.orgToken };
    await ok('workspace', 'create', 'Pack Books', '--timezone', 'UTC');
    for (const name of ['Müller & Łódź GmbH', 'Quiet Co', 'Tokyo 東京']) {
      await ok(
        'sandbox',
        'entity',
        'create',
        name,
        '-w',
        'Pack Books',
        '--start-date',
        '2025-01-01',
      );
    }
    await ok('use', '-w', 'Pack Books', '-e', 'Müller & Łódź GmbH');
    // Known books: sales in both Januaries, rent only in 2026 (a zero base), a card with a credit
    // balance (negative in debit-less-credit terms), an owner's investment. (Made entry by
    // entry: an import from a remote platform reads its file on a worker built with the bundle.)
    const entries: [string, string, string, string][] = [
      ['2025-01-02', 'Checking', 'Owner', '10000.00'],
      ['2025-01-15', 'Checking', 'Sales', '2500.50'],
      ['2026-01-10', 'Checking', 'Sales', '3100.25'],
      ['2026-01-20', 'Rent', 'Checking', '1200.00'],
      ['2026-01-25', 'Supplies', 'Visa', '86.40'],
    ];
    const accounts: [string, string][] = [
      ['Checking', 'Cash'],
      ['Visa', 'Credit Cards'],
      ['Owner', 'Equity'],
      ['Sales', 'Income'],
      ['Rent', 'Operating Expenses'],
      ['Supplies', 'Operating Expenses'],
    ];
    for (const entity of ['Müller & Łódź GmbH', 'Tokyo 東京']) {
      for (const [name, type] of accounts) {
        await ok('coa', 'create', '--name', name, '--type', type, '-e', entity);
      }
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
          '-e',
          entity,
        );
      }
    }
  }, 60_000);
  afterAll(async () => {
    await server.close();
    home.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const read = async (file: string) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    return workbook;
  };
  /** A sheet's rows below its headings: the label (trimmed) and its cells. */
  const sheetRows = (sheet: ExcelJS.Worksheet) => {
    const rows = new Map<string, ExcelJS.CellValue[]>();
    sheet.eachRow((row, number) => {
      if (number <= 6) return;
      const values = (row.values as ExcelJS.CellValue[]).slice(1);
      rows.set(String(values[0] ?? '').trim(), values.slice(1));
    });
    return rows;
  };

  it("writes one workbook whose every figure is the CSV report's, as numbers with an accounting format", async () => {
    const stdout = await ok(
      'report',
      'pack',
      '--period',
      '2026-01',
      '--compare',
      'prior-year',
      '--out',
      out,
    );
    const file = path.join(out, 'Müller-Łódź-GmbH-2026-01.xlsx');
    expect(stdout).toBe(`${file}\n`);
    const workbook = await read(file);
    expect(workbook.worksheets.map((s) => s.name)).toEqual([
      'Summary',
      'Profit and Loss',
      'Balance Sheet',
      'Cash Flow',
      'Trial Balance',
    ]);
    for (const [sheetName, report] of [
      ['Profit and Loss', 'pl'],
      ['Balance Sheet', 'bs'],
      ['Cash Flow', 'cf'],
      ['Trial Balance', 'tb'],
    ] as const) {
      const sheet = workbook.getWorksheet(sheetName)!;
      expect(sheet.getCell('A1').value).toBe('Müller & Łódź GmbH');
      expect(sheet.getCell('A3').value).toBe('2026-01-01 to 2026-01-31, cash basis');
      expect(sheet.getCell('A4').value).toBe('Prepared 2026-02-10 09:30 UTC');
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 6 });
      const csv = parse(
        await ok(
          'report',
          report,
          '--from',
          '2026-01-01',
          '--to',
          '2026-01-31',
          '--compare',
          'prior-year',
          '-o',
          'csv',
        ),
      ) as string[][];
      const rows = sheetRows(sheet);
      for (const [, code, name, ...figures] of csv.slice(1)) {
        const label = code ? `${code} ${name}` : name!;
        const cells = rows.get(label);
        expect(cells, `${sheetName}: ${label}`).toBeDefined();
        figures.forEach((figure, i) => {
          const cell = cells![i];
          if (figure === '') return expect(cell ?? null, `${label} ${i}`).toBeNull();
          expect(typeof cell, `${label} ${i}`).toBe('number');
          // The percent column holds a fraction (formatted 0.0%).
          const value = i % 4 === 3 ? Math.round((cell as number) * 1000) / 10 : (cell as number);
          expect(value.toFixed(i % 4 === 3 ? 1 : 2), `${sheetName}: ${label} column ${i}`).toBe(
            figure,
          );
        });
      }
      sheet.eachRow((row, number) => {
        if (number <= 6) return;
        row.eachCell((cell, column) => {
          if (column > 1 && typeof cell.value === 'number') expect(cell.numFmt).toMatch(/\(|%/);
        });
      });
    }
    // A total is bold; an account is indented under its section.
    const pl = workbook.getWorksheet('Profit and Loss')!;
    const labels: Record<string, ExcelJS.Row> = {};
    pl.eachRow((row) => (labels[String(row.getCell(1).value)] = row));
    expect(labels['Net Income']!.font?.bold ?? labels['Net Income']!.getCell(1).font?.bold).toBe(
      true,
    );
    expect(labels['4000 Sales']!.getCell(1).alignment?.indent).toBe(2);
    // The Summary's key figures: revenue, net income, cash at the end, against the prior year.
    const summary = sheetRows(workbook.getWorksheet('Summary')!);
    expect(summary.get('Revenue')).toEqual([3100.25, 2500.5, 599.75, 0.24]);
    expect(summary.get('Net income')).toEqual([1813.85, 2500.5, -686.65, -0.275]);
    expect(summary.get('Cash at the end of the period')).toEqual([
      14400.75, 12500.5, 1900.25, 0.152,
    ]);
  });

  it("adds the general ledger sheet with --general-ledger, its balances the CSV ledger's", async () => {
    await ok(
      'report',
      'pack',
      '--period',
      '2026-01',
      '--general-ledger',
      '--out',
      out,
      '-e',
      'Tokyo 東京',
    );
    const workbook = await read(path.join(out, 'Tokyo-東京-2026-01.xlsx'));
    const sheet = workbook.getWorksheet('General Ledger')!;
    const csv = parse(
      await ok(
        'report',
        'gl',
        '--from',
        '2026-01-01',
        '--to',
        '2026-01-31',
        '-e',
        'Tokyo 東京',
        '-o',
        'csv',
      ),
    ) as string[][];
    const balances: number[] = [];
    sheet.eachRow((row, number) => {
      if (number > 6 && typeof row.getCell(5).value === 'number')
        balances.push(row.getCell(5).value as number);
    });
    expect(balances.map((b) => b.toFixed(2))).toEqual(csv.slice(1).map((row) => row[6]));
  });

  /** January's packs of every entity of the workspace, into `dir`. */
  const packAll = (dir: string) =>
    run('report', 'pack', '--period', '2026-01', '--all-entities', '--out', dir);

  it('writes a pack per entity with --all-entities, one saying its books are empty', async () => {
    const dir = path.join(out, 'all');
    const result = await packAll(dir);
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([
      'Müller-Łódź-GmbH-2026-01.xlsx',
      'Quiet-Co-2026-01.xlsx',
      'Tokyo-東京-2026-01.xlsx',
    ]);
    expect(result.stdout.split('\n')[0]).toBe('Entity\tFiles\tStatus');
    const quiet = await read(path.join(dir, 'Quiet-Co-2026-01.xlsx'));
    const said: string[] = [];
    quiet.getWorksheet('Summary')!.eachRow((row) => said.push(String(row.getCell(1).value)));
    expect(said).toContain('No entries in the books for this period.');
  });

  it('keeps going past an entity whose reports fail, and exits non-zero naming it', async () => {
    const entities = JSON.parse(await ok('sandbox', 'entity', 'list', '--json')) as {
      id: string;
      name: string;
    }[];
    const tokyo = entities.find((e) => e.name === 'Tokyo 東京')!;
    const fault = await server.request('POST', '/sandbox/v1/faults', {
      body: {
        pathPrefix: `/platform/v1/entities/${tokyo.id}/reports`,
        mode: 'reject',
        status: 500,
        count: 100,
      },
    });
    expect(fault.status).toBe(201);
    try {
      const dir = path.join(out, 'faulty');
      const result = await packAll(dir);
      expect(result.code).toBe(1);
      expect(readdirSync(dir).sort()).toEqual([
        'Müller-Łódź-GmbH-2026-01.xlsx',
        'Quiet-Co-2026-01.xlsx',
      ]);
      expect(result.stdout).toMatch(/Tokyo 東京\t\tfailed: /);
      expect(result.stderr).toContain('books: 1 of 3 packs failed');
      expect(existsSync(path.join(dir, 'Tokyo-東京-2026-01.xlsx'))).toBe(false);
    } finally {
      await server.request('DELETE', '/sandbox/v1/faults');
    }
  });

  it('refuses a period it cannot read', async () => {
    const result = await runCli(['report', 'pack', '--period', '2026-13'], { env });
    expect(result).toMatchObject({
      code: 2,
      stderr:
        'books: --period must be a month (2025-01), a quarter (2025-Q1) or a year (2025), not "2026-13"\n',
    });
  });
});
