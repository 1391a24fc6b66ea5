import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  datevProblems,
  fecProblems,
  SAFT_XSD,
  sieProblems,
  XAF_XSD,
  xsdProblems,
} from '../helpers/auditFileRules.js';
import { localDay } from '../../src/cli/terminal/dates.js';
import { rangeOfWord } from '../../src/core/periods.js';
import { accountBalances, lazyTemporaryHome, runBooks, serveBooks } from '../helpers/cli.js';

/*
 * `books export DIR --format fec|saft|xaf|sie|datev`, the built binary against `books serve`:
 * an entity whose fiscal year starts on 1 July, over two fiscal years, with entries of two,
 * three and four lines and names beyond ASCII, exported for each year in each format; every
 * file checked by its format's rules (the XML by the official XSD) and read back by `books je
 * import` into a fresh entity of a workspace that keeps codes, to the figures computed here
 * from the entries, account by account.
 */

const present = existsSync(SAFT_XSD) && existsSync(XAF_XSD);
if (!present)
  console.warn(
    `skipped: the official schemas are not at ${path.dirname(path.dirname(SAFT_XSD))} (the project's ../shared/spec/formats)`,
  );

type Line = [code: string, cents: number, description?: string];
interface Entry {
  date: string;
  memo: string;
  lines: Line[];
}

const CHART: [code: string, name: string, type: string][] = [
  ['0800', 'Gezeichnetes Kapital', 'Equity'],
  ['0860', 'Gewinnvortrag vor Verwendung', 'Equity'],
  ['1200', 'Bank', 'Cash'],
  ['1400', 'Forderungen aus Lieferungen', 'Accounts Receivable'],
  ['1576', 'Vorsteuer 19 %', 'Other Current Assets'],
  ['1600', 'Verbindlichkeiten', 'Accounts Payable'],
  ['1776', 'Umsatzsteuer 19 %', 'Other Current Liabilities'],
  ['2650', 'Zinserträge', 'Other Income'],
  ['3400', 'Wareneingang', 'COGS'],
  ['4120', 'Gehälter', 'Operating Expenses'],
  ['8400', 'Erlöse Łódź', 'Income'],
];
const RESULTS = new Set(['2650', '3400', '4120', '8400']);

/** Debit-positive cents; each entry balances. */
const ENTRIES: Entry[] = [
  {
    date: '2024-07-01',
    memo: 'Einlage | Kapital "A"',
    lines: [
      ['1200', 2_500_000],
      ['0800', -2_500_000],
    ],
  },
  {
    date: '2024-08-15',
    memo: 'Verkauf nach Łódź',
    lines: [
      ['1200', 119_000],
      ['8400', -100_000, 'Erlöse Łódź'],
      ['1776', -19_000, 'USt 19 %'],
    ],
  },
  {
    date: '2024-09-30',
    memo: 'Einkauf Övningsbolaget',
    lines: [
      ['3400', 50_000],
      ['1576', 9_500],
      ['1200', -30_000],
      ['1600', -29_500],
    ],
  },
  {
    date: '2025-01-31',
    memo: '',
    lines: [
      ['4120', 200_000, 'Gehälter Januar'],
      ['1200', -200_000, 'Gehälter Januar'],
    ],
  },
  {
    date: '2025-03-31',
    memo: 'Rechnung 17',
    lines: [
      ['1400', 238_000],
      ['8400', -200_000],
      ['1776', -38_000],
    ],
  },
  {
    date: '2025-06-30',
    memo: 'Zinsen',
    lines: [
      ['1200', 1_234],
      ['2650', -1_234],
    ],
  },
  {
    date: '2025-07-15',
    memo: 'Zahlung Rechnung 17',
    lines: [
      ['1200', 238_000],
      ['1400', -238_000],
    ],
  },
  {
    date: '2025-10-01',
    memo: 'Zahlung Övningsbolaget',
    lines: [
      ['1600', 29_500],
      ['1200', -29_500],
    ],
  },
  {
    date: '2025-12-31',
    memo: 'Gehälter und Ware',
    lines: [
      ['4120', 150_000],
      ['3400', 25_000],
      ['1200', -100_000],
      ['1600', -75_000],
    ],
  },
  {
    date: '2026-02-28',
    memo: 'Verkauf',
    lines: [
      ['1200', 59_500],
      ['8400', -50_000],
      ['1776', -9_500],
    ],
  },
  {
    date: '2026-06-30',
    memo: 'Zinsen',
    lines: [
      ['1200', 66],
      ['2650', -66],
    ],
  },
];

const YEARS = [
  { from: '2024-07-01', to: '2025-06-30' },
  { from: '2025-07-01', to: '2026-06-30' },
];

/**
 * What a file for the year must read back to, by code: balance-sheet accounts as they stand at
 * its end, income and expenses over the year, the earlier years' result on `retained`.
 */
function expectedFor(year: { from: string; to: string }, retained: string): Record<string, number> {
  const balances: Record<string, number> = {};
  const add = (code: string, cents: number) => (balances[code] = (balances[code] ?? 0) + cents);
  for (const entry of ENTRIES) {
    if (entry.date > year.to) continue;
    for (const [code, cents] of entry.lines) {
      if (!RESULTS.has(code)) add(code, cents);
      else if (entry.date >= year.from) add(code, cents);
      else add(retained, cents);
    }
  }
  return Object.fromEntries(Object.entries(balances).filter(([, cents]) => cents !== 0));
}

interface Case {
  format: string;
  flags: string[];
  /** The account the earlier years' result is carried on, as the reader creates it. */
  retained: string;
  /** Whether `je import` reads the file back with the chart (`--chart`): codes without names. */
  readsChart: boolean;
  /** The file name for the year. */
  name: (year: { from: string; to: string }) => RegExp;
}

describe.skipIf(!present)('books export --format: the audit files tax law asks for', () => {
  // Made when the suite runs: skipped (no XSDs beside the clone), it leaves no HOME behind.
  const home = lazyTemporaryHome();
  let server: Awaited<ReturnType<typeof serveBooks>>;
  const books = (...args: string[]) => runBooks(args, server.env);
  const chartFile = () => path.join(home.home, 'chart.csv');
  let copies = 0;

  beforeAll(async () => {
    server = await serveBooks(home);
    const workspace = (await server.api('POST', '/platform/v1/workspaces', { name: 'Kanzlei' }))
      .body.workspace;
    await server.api('PATCH', `/sandbox/v1/workspaces/${workspace.id}`, {
      customChartOfAccounts: true,
    });
    const entity = (
      await server.api('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
        name: 'Övningsbolaget Łódź GmbH',
      })
    ).body.entity;
    expect(
      (await server.api('PATCH', `/sandbox/v1/entities/${entity.id}`, { fiscalYearStart: '07-01' }))
        .status,
    ).toBe(200);
    const ids = new Map<string, string>();
    for (const [code, name, type] of CHART) {
      const made = await server.api(
        'POST',
        `/platform/v1/entities/${entity.id}/chart-of-accounts`,
        { code, name, type },
      );
      expect(made.status).toBe(201);
      ids.set(code, made.body.account.id);
    }
    for (const entry of ENTRIES) {
      const made = await server.api('POST', `/platform/v1/entities/${entity.id}/journal-entries`, {
        date: entry.date,
        memo: entry.memo,
        lines: entry.lines.map(([code, cents, description]) => ({
          accountId: ids.get(code),
          ...(cents > 0 ? { debitAmount: cents / 100 } : { creditAmount: -cents / 100 }),
          ...(description && { description }),
        })),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    expect(
      (await books('use', '--workspace', 'Kanzlei', '--entity', 'Övningsbolaget Łódź GmbH')).code,
    ).toBe(0);
    // The chart a German client's DATEV data comes with names its numbers, 9000 included.
    writeFileSync(
      chartFile(),
      `code,name,type\n${CHART.map((row) => row.join(',')).join('\n')}\n9000,Saldenvorträge Sachkonten,Equity\n`,
    );
    const copiesWorkspace = await books('workspace', 'create', 'Kopien');
    expect(copiesWorkspace.code, copiesWorkspace.stderr).toBe(0);
    const custom = await books('sandbox', 'workspace', 'update', 'Kopien', '--custom-chart');
    expect(custom.code, custom.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    home.cleanup();
  });

  /** The file read back into a fresh entity of the workspace that keeps codes: its balances by code. */
  async function readBack(file: string, flags: string[]) {
    const entity = `Kopie ${(copies += 1)}`;
    expect((await books('sandbox', 'entity', 'create', entity, '-w', 'Kopien')).code).toBe(0);
    const imported = await books(
      'je',
      'import',
      file,
      '--create-missing-accounts',
      '-w',
      'Kopien',
      '-e',
      entity,
      ...flags,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const id = JSON.parse(
      (await books('sandbox', 'entity', 'get', entity, '-w', 'Kopien', '-o', 'json')).stdout,
    ).entity.id;
    const range = 'startDate=2000-01-01&endDate=2030-12-31';
    const [tb, pl] = await Promise.all([
      server.api('GET', `/platform/v1/entities/${id}/reports/trial-balance?${range}`),
      server.api('GET', `/platform/v1/entities/${id}/reports/profit-and-loss?${range}`),
    ]);
    return {
      stderr: imported.stderr,
      balances: Object.fromEntries(
        accountBalances(tb.body.report, pl.body.report).map((a) => [a.accountCode, a.cents]),
      ),
    };
  }

  const CASES: Case[] = [
    {
      format: 'fec',
      flags: ['--org-number', '732829320', '--retained-earnings', '0860'],
      retained: '0860',
      readsChart: true,
      name: (year) => new RegExp(`^732829320FEC${year.to.replaceAll('-', '')}\\.txt$`),
    },
    {
      format: 'saft',
      flags: [
        '--org-number',
        '999999999',
        '--contact',
        'Kari Nordmann',
        '--phone',
        '+47 22 00 00 00',
      ],
      retained: '2050',
      readsChart: false,
      name: () => /^Financial_999999999_\d{14}_1_1\.xml$/,
    },
    {
      format: 'xaf',
      flags: ['--org-number', '12345678'],
      retained: '0500',
      readsChart: false,
      name: (year) => new RegExp(`^${year.to.replaceAll('-', '')}\\.xaf$`),
    },
    {
      format: 'sie',
      flags: ['--org-number', '556334-3689'],
      retained: '2091',
      readsChart: false,
      name: (year) =>
        new RegExp(`^SIE4_${year.from.replaceAll('-', '')}-${year.to.replaceAll('-', '')}\\.SE$`),
    },
    {
      format: 'datev',
      flags: [
        '--datev-consultant',
        '29098',
        '--datev-client',
        '55003',
        '--retained-earnings',
        '0860',
      ],
      retained: '0860',
      readsChart: true,
      name: (year) =>
        new RegExp(
          `^EXTF_Buchungsstapel_${year.from.replaceAll('-', '')}_${year.to.replaceAll('-', '')}\\.csv$`,
        ),
    },
  ];

  describe.each(CASES)('--format $format', (c) => {
    it.each(YEARS)(
      '$from to $to: valid by its rules, and read back to the same figures',
      async (year) => {
        const directory = path.join(home.home, `${c.format}-${year.from}`);
        const exported = await books(
          'export',
          directory,
          '--format',
          c.format,
          '--from',
          year.from,
          '--to',
          year.to,
          ...c.flags,
          '--json',
        );
        expect(exported.code, exported.stderr).toBe(0);
        expect(exported.stderr).not.toMatch(/at .*\.js:\d+/);
        const outcome = JSON.parse(exported.stdout);
        const names = readdirSync(directory);
        expect(names).toHaveLength(1);
        expect(names[0]).toMatch(c.name(year));
        expect(outcome.file).toBe(path.join(directory, names[0]!));
        const file = outcome.file as string;
        const entries = ENTRIES.filter((e) => e.date >= year.from && e.date <= year.to);
        expect(outcome.entries).toBe(entries.length);
        expect(outcome.lines).toBe(entries.reduce((n, e) => n + e.lines.length, 0));

        if (c.format === 'saft' || c.format === 'xaf') {
          expect(await xsdProblems(file, c.format === 'saft' ? SAFT_XSD : XAF_XSD)).toEqual([]);
          const xml = readFileSync(file, 'utf8');
          expect(xml).toContain('Övningsbolaget Łódź GmbH');
          expect(xml).toContain('Gehälter');
        }
        if (c.format === 'fec') {
          expect(fecProblems(file)).toEqual([]);
          const text = readFileSync(file, 'utf8');
          expect(text).toContain('\tErlöse Łódź\t');
          // The memo's | (the validator refuses it in a tab-separated file) written as /.
          if (year.from === '2024-07-01') expect(text).toContain('Einlage / Kapital "A"');
          // The balances carried forward are entry 1, on the year's first day.
          if (year.from === '2025-07-01')
            expect(text.split('\r\n')[1]).toMatch(/^AN\t[^\t]+\t1\t20250701\t/);
        }
        if (c.format === 'sie') {
          const { problems, text } = sieProblems(file);
          expect(problems).toEqual([]);
          expect(text).toContain('#FNAMN "Övningsbolaget Lódz GmbH"');
          expect(text).toContain('#KONTO 4120 "Gehälter"');
          expect(text).toContain(
            '#RAR 0 ' + year.from.replaceAll('-', '') + ' ' + year.to.replaceAll('-', ''),
          );
          if (year.from === '2025-07-01') expect(text).toContain('#RAR -1 20240701 20250630');
          expect(text).toContain('#ORGNR 556334-3689');
          expect(exported.stderr).toContain('SIE 4 (code page 437): ');
        }
        if (c.format === 'datev') {
          const { problems, header, rows } = datevProblems(file);
          expect(problems).toEqual([]);
          expect(header.slice(10, 16)).toEqual([
            '29098',
            '55003',
            year.from.replaceAll('-', ''),
            '4',
            year.from.replaceAll('-', ''),
            year.to.replaceAll('-', ''),
          ]);
          expect(readFileSync(file).includes(Buffer.from('Gehälter', 'latin1'))).toBe(true);
          // The sale of 1,190.00 (three lines) is two rows under one Belegfeld 1, each balanced.
          if (year.from === '2024-07-01') {
            const sale = rows.filter((row) => row[10] === '"2"');
            expect(sale.map((row) => [row[0], row[6], row[7]])).toEqual([
              ['1000,00', '1200', '8400'],
              ['190,00', '1200', '1776'],
            ]);
          }
          expect(exported.stderr).toContain('Windows-1252');
        }

        const { balances } = await readBack(file, c.readsChart ? ['--chart', chartFile()] : []);
        expect(balances).toEqual(expectedFor(year, c.retained));
      },
      60_000,
    );
  });

  it('says what is missing or wrong in the identifiers, before anything is read; nothing written', async () => {
    const directory = path.join(home.home, 'refused');
    const cases: [string[], RegExp][] = [
      [['--format', 'fec'], /FEC \(article A47 A-1\) needs the company's SIREN: give --org-number/],
      [
        ['--format', 'fec', '--org-number', '732829321'],
        /732829321 is not a SIREN: its check digit \(Luhn\) does not match/,
      ],
      [
        ['--format', 'saft', '--org-number', '12345678'],
        /a Norwegian organisation number has nine digits, not "12345678"/,
      ],
      [
        ['--format', 'saft', '--org-number', '999999998', '--contact', 'A B', '--phone', '1'],
        /999999998 is not a Norwegian organisation number/,
      ],
      [
        ['--format', 'saft', '--org-number', '999999999'],
        /SAF-T Financial 1.30 needs a contact person: give --contact/,
      ],
      [
        ['--format', 'sie', '--org-number', '556334-3688'],
        /556334-3688 is not a Swedish organisation number/,
      ],
      [
        ['--format', 'datev', '--datev-client', '1'],
        /needs the Beraternummer: give --datev-consultant/,
      ],
      [
        ['--format', 'datev', '--datev-consultant', '999', '--datev-client', '1'],
        /--datev-consultant is DATEV's Beraternummer, a whole number from 1001 to 9999999, not "999"/,
      ],
      [['--format', 'xaf', '--datev-client', '1'], /--datev-client is for --format datev/],
      [['--skr', '03'], /--skr is for --format datev \(books exports both ledgers, whole\)/],
      [['--format', 'pdf'], /--format must be books, fec, saft, xaf, sie or datev, not "pdf"/],
      [['--format', 'xaf', '--basis', 'tax'], /--basis must be cash or accrual, not "tax"/],
      [
        ['--format', 'datev', '--datev-consultant', '29098', '--datev-client', '1', '--skr', '05'],
        /--skr must be 03 or 04, not "05"/,
      ],
      [
        ['--format', 'xaf', '--from', '2025-07-01', '--to', '2025-06-30'],
        /--from.*after --to|after/,
      ],
      [
        ['--format', 'sie', '--from', '2025-08-01', '--to', '2026-06-30'],
        /SIE 4E holds a fiscal year from its first day: --from 2025-07-01, not 2025-08-01/,
      ],
      [
        [
          '--format',
          'datev',
          '--datev-consultant',
          '29098',
          '--datev-client',
          '1',
          '--from',
          '2024-07-01',
          '--to',
          '2026-06-30',
        ],
        /holds one fiscal year, and 2024-07-01 to 2026-06-30 runs past the end of the one from 2024-07-01 to 2025-06-30: export each fiscal year in a file of its own/,
      ],
      [
        ['--format', 'xaf', '--currency', 'EURO'],
        /--currency is an ISO 4217 code of three letters, not "EURO"/,
      ],
      [
        ['--format', 'saft', '--org-number', '999999999', '--contact', 'Kari', '--phone', '1'],
        /--contact is a first and a last name, not "Kari"/,
      ],
      [
        ['--format', 'xaf', '--retained-earnings', '1200'],
        /--retained-earnings must be an equity account: 1200 "Bank" is a Cash account/,
      ],
    ];
    for (const [flags, message] of cases) {
      const run = await books('export', directory, ...flags);
      expect(run.code, `${flags.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
      expect(existsSync(directory) ? readdirSync(directory) : []).toEqual([]);
    }
  }, 60_000);

  it("books export and books import keep a code's leading zeros (0800)", async () => {
    // Journal lines give codes as numbers: the export took 0800 for 800 and, its months never
    // matching the trial balance, refused the entity.
    const directory = path.join(home.home, 'books-format');
    const exported = await books('export', directory);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(path.join(directory, 'journal-cash.csv'), 'utf8')).toContain(
      ',0800,Gezeichnetes Kapital,',
    );
    expect((await books('sandbox', 'entity', 'create', 'Kopie ganz', '-w', 'Kopien')).code).toBe(0);
    const imported = await books('import', directory, '-w', 'Kopien', '-e', 'Kopie ganz');
    expect(imported.code, imported.stderr).toBe(0);
    const chart = JSON.parse(
      (await books('coa', 'list', '-w', 'Kopien', '-e', 'Kopie ganz', '--all', '-o', 'json'))
        .stdout,
    ) as { code: string }[];
    expect(chart.map((a) => a.code)).toContain('0800');
  }, 60_000);

  it('without --from and --to: the last whole fiscal year, and the ledger chosen, said', async () => {
    const last = rangeOfWord('last-year', localDay(new Date()), '07-01');
    const directory = path.join(home.home, 'last-year');
    const run = await books('export', directory, '--format', 'xaf', '--json');
    expect(run.stderr).toContain(
      `books: the last fiscal year, ${last.startDate} to ${last.endDate} (--from and --to for another range)`,
    );
    expect(run.stderr).toContain(
      'books: the cash ledger (the accrual ledger is not open; --basis for the other)',
    );
    if (run.code === 0) expect(JSON.parse(run.stdout).from).toBe(last.startDate);
    else expect(run.stderr).toContain('there is nothing to export');
  });

  it('sandbox workspace update sets the chart, and says what is missing or contradicts', async () => {
    const nothing = await books('sandbox', 'workspace', 'update', 'Kopien');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change: pass --custom-chart or --standard-chart');
    const both = await books(
      'sandbox',
      'workspace',
      'update',
      '--custom-chart',
      '--standard-chart',
      '-w',
      'Kopien',
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      '--custom-chart and --standard-chart contradict each other: give one',
    );
    const standard = await books(
      'sandbox',
      'workspace',
      'update',
      'Kopien',
      '--standard-chart',
      '-o',
      'json',
    );
    expect(standard.code, standard.stderr).toBe(0);
    expect(JSON.parse(standard.stdout).workspace.customChartOfAccounts).toBe(false);
    expect(standard.stderr).toContain('standard chart of accounts');
    const custom = await books('sandbox', 'workspace', 'update', 'Kopien', '--custom-chart');
    expect(custom.stdout).toMatch(/chart\s+custom/);
  });

  it('a directory that is a file is refused before anything is read, for every format', async () => {
    const file = path.join(home.home, 'a-file');
    writeFileSync(file, 'not a directory');
    for (const format of ['books', 'xaf']) {
      const run = await books('export', path.join(file), '--format', format);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${file} is a file, not a directory`);
      expect(run.stderr).not.toContain('the cash ledger');
    }
    const below = await books('export', path.join(file, 'below'), '--format', 'xaf');
    expect(below.code).toBe(2);
    expect(below.stderr).toContain(`${file} is a file, not a directory`);
    expect(readFileSync(file, 'utf8')).toBe('not a directory');
  });

  it.skipIf(!existsSync('/proc/self'))(
    'a directory the system will not make is said plainly (exit 1), never a hang',
    async () => {
      // /proc takes no directory; Node's recursive mkdir loops forever there.
      const run = await books('export', '/proc/books-export', '--format', 'xaf');
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'cannot make the directory /proc/books-export: the file system refused it (ENOENT)',
      );
    },
  );

  it.each([
    ['saft', ['--org-number', '999999999', '--contact', 'Kari Nordmann', '--phone', '1'], SAFT_XSD],
    ['xaf', [], XAF_XSD],
  ])(
    '%s over two fiscal years in one file: valid, its periods counted per year, read back whole',
    async (format, flags, xsd) => {
      const directory = path.join(home.home, `${format}-two-years`);
      const run = await books(
        'export',
        directory,
        '--format',
        format,
        '--from',
        '2024-07-01',
        '--to',
        '2026-06-30',
        ...flags,
        '--json',
      );
      expect(run.code, run.stderr).toBe(0);
      const { file } = JSON.parse(run.stdout);
      expect(await xsdProblems(file, xsd)).toEqual([]);
      const xml = readFileSync(file, 'utf8');
      if (format === 'saft') {
        // 2026-02-28 is the eighth month of the year from July 2025.
        expect(xml).toMatch(
          /<Period>8<\/Period>\s*<PeriodYear>2025<\/PeriodYear>\s*<TransactionDate>2026-02-28</,
        );
        expect(xml).toMatch(
          /<Period>2<\/Period>\s*<PeriodYear>2024<\/PeriodYear>\s*<TransactionDate>2024-08-15</,
        );
      } else {
        expect(xml).toContain('<fiscalYear>2024-2026</fiscalYear>');
        expect(xml.match(/<period>/g)).toHaveLength(24);
      }
      const { balances } = await readBack(file, []);
      expect(balances).toEqual(expectedFor({ from: '2024-07-01', to: '2026-06-30' }, 'none'));
    },
    60_000,
  );

  it('--basis accrual where that ledger is not open: refused saying so, nothing written', async () => {
    const directory = path.join(home.home, 'accrual');
    const run = await books(
      'export',
      directory,
      '--format',
      'xaf',
      '--basis',
      'accrual',
      '--from',
      '2024-07-01',
      '--to',
      '2025-06-30',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the accrual ledger of this entity is not open');
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(existsSync(directory) ? readdirSync(directory) : []).toEqual([]);
  });

  it('a file already there is never overwritten: exit 1, the first file as it was', async () => {
    const directory = path.join(home.home, 'twice');
    const flags = ['--format', 'xaf', '--from', '2024-07-01', '--to', '2025-06-30'];
    const first = await books('export', directory, ...flags);
    expect(first.code, first.stderr).toBe(0);
    const file = first.stdout.trim();
    const before = readFileSync(file);
    const second = await books('export', directory, ...flags);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `${file} exists already: export into another directory, or move it`,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(directory)).toEqual([path.basename(file)]);
  });

  it("the format's usual retained-earnings code held by another kind of account is refused, naming it", async () => {
    // SAF-T carries earlier years on 2050 (equity in Norway's chart); here it is a loan.
    const workspace = (await server.api('GET', '/platform/v1/workspaces')).body.data.find(
      (w: { name: string }) => w.name === 'Kanzlei',
    );
    const entity = (
      await server.api('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
        name: 'Lånet AS',
      })
    ).body.entity;
    const account = async (code: string, name: string, type: string) =>
      (
        await server.api('POST', `/platform/v1/entities/${entity.id}/chart-of-accounts`, {
          code,
          name,
          type,
        })
      ).body.account.id;
    const [bank, loan, sales] = [
      await account('1920', 'Bank', 'Cash'),
      await account('2050', 'Lån', 'Long-Term Loans'),
      await account('3000', 'Salg', 'Income'),
    ];
    for (const [date, debit, credit] of [
      ['2025-03-01', bank, sales],
      ['2026-02-01', bank, loan],
    ] as const)
      await server.api('POST', `/platform/v1/entities/${entity.id}/journal-entries`, {
        date,
        lines: [
          { accountId: debit, debitAmount: 100 },
          { accountId: credit, creditAmount: 100 },
        ],
      });
    const directory = path.join(home.home, 'lan');
    const saft = [
      '--format',
      'saft',
      '--org-number',
      '999999999',
      '--contact',
      'Kari Nordmann',
      '--phone',
      '1',
    ];
    const run = await books(
      'export',
      directory,
      ...saft,
      '-e',
      entity.id,
      '--from',
      '2026-01-01',
      '--to',
      '2026-12-31',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `account 2050 "Lån" (Long-Term Loans) holds the code this format's chart gives the earlier years' results (2050 Annen egenkapital): name the equity account that carries them with --retained-earnings`,
    );
    expect(existsSync(directory) ? readdirSync(directory) : []).toEqual([]);
    // The year before carries nothing in: 2050 is a loan like any other account there.
    const first = await books(
      'export',
      directory,
      ...saft,
      '-e',
      entity.id,
      '--from',
      '2025-01-01',
      '--to',
      '2025-12-31',
    );
    expect(first.code, first.stderr).toBe(0);
  });

  it('a range with no books: refused saying so, nothing written', async () => {
    const directory = path.join(home.home, 'empty-range');
    const run = await books(
      'export',
      directory,
      '--format',
      'xaf',
      '--from',
      '2020-01-01',
      '--to',
      '2020-12-31',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'has no balance and no posting from 2020-01-01 to 2020-12-31: there is nothing to export',
    );
    expect(existsSync(directory) ? readdirSync(directory) : []).toEqual([]);
  });

  it('a year of balances and no posting is written: its openings carried to its closing', async () => {
    const directory = path.join(home.home, 'quiet-year');
    const run = await books(
      'export',
      directory,
      '--format',
      'xaf',
      '--from',
      '2026-07-01',
      '--to',
      '2027-06-30',
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const outcome = JSON.parse(run.stdout);
    expect(outcome.entries).toBe(0);
    expect(await xsdProblems(outcome.file, XAF_XSD)).toEqual([]);
    const { balances } = await readBack(outcome.file, []);
    expect(balances).toEqual(expectedFor({ from: '2026-07-01', to: '2027-06-30' }, '0500'));
  }, 60_000);
});
