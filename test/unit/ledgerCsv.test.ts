import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectDelimiter } from '../../src/formats/common/csvRecords.js';
import {
  dateOrderOrProblem,
  dayMonthOrder,
  mapColumns,
  parseLedgerDate,
  parseMapOption,
  SeenIds,
} from '../../src/formats/ledgerCsv.js';
import { newReadResult, readLedger, type ReadOptions } from '../../src/formats/reader.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNumber = 0;
const fileOf = (text: string | Buffer) => {
  const file = path.join(dir, `ledger-${++fileNumber}.csv`);
  writeFileSync(file, text);
  return file;
};
describe('the order of day and month, told over a file', () => {
  it('a first number over 12 is a day, so is a second one; both at once, or neither, is a problem', () => {
    expect(
      dateOrderOrProblem(
        dayMonthOrder([
          [25, 1],
          [3, 4],
        ]),
      ),
    ).toBe('DD/MM/YYYY');
    expect(
      dateOrderOrProblem(
        dayMonthOrder([
          [1, 25],
          [3, 4],
        ]),
      ),
    ).toBe('MM/DD/YYYY');
    expect(dateOrderOrProblem(dayMonthOrder([]))).toBe('YYYY-MM-DD');
    expect(
      dateOrderOrProblem(
        dayMonthOrder([
          [25, 1],
          [1, 25],
        ]),
      ),
    ).toEqual({
      problem:
        'the dates read neither as MM/DD/YYYY nor as DD/MM/YYYY throughout (some have a first number over 12, some a second): pass --date-format, and the lines that do not read so are listed',
    });
    expect(dateOrderOrProblem(dayMonthOrder([[3, 4]]), '3/4/2025')).toEqual({
      problem:
        'the dates read two ways, as MM/DD/YYYY and as DD/MM/YYYY (no day is over 12): 3/4/2025 reads 2025-03-04 as MM/DD/YYYY and 2025-04-03 as DD/MM/YYYY: pass --date-format MM/DD/YYYY or --date-format DD/MM/YYYY (books config set date-format DD/MM/YYYY settles it for every such file)',
    });
  });
});

describe('dates', () => {
  it.each([
    ['2026-01-31', 'YYYY-MM-DD', '2026-01-31'],
    ['01/31/2026', 'MM/DD/YYYY', '2026-01-31'],
    ['1/5/2026', 'MM/DD/YYYY', '2026-01-05'],
    ['31/01/2026', 'DD/MM/YYYY', '2026-01-31'],
    ['29/02/2024', 'DD/MM/YYYY', '2024-02-29'],
    // Shapes that read one way only, whatever the order given.
    ['20180131', 'YYYY-MM-DD', '2018-01-31'],
    ['2018/01/31', 'MM/DD/YYYY', '2018-01-31'],
    ['31.01.2018', 'YYYY-MM-DD', '2018-01-31'],
    ['31 Jan 2018', 'MM/DD/YYYY', '2018-01-31'],
    ['31-Jan-18', 'YYYY-MM-DD', '2018-01-31'],
    ['5 September 2018', 'YYYY-MM-DD', '2018-09-05'],
    ['Jan 31, 2018', 'DD/MM/YYYY', '2018-01-31'],
    // D/M/YY: two-digit years are 19YY from 70.
    ['5/1/18', 'DD/MM/YYYY', '2018-01-05'],
    ['5/1/99', 'MM/DD/YYYY', '1999-05-01'],
    ['05-01-2018', 'DD/MM/YYYY', '2018-01-05'],
  ] as const)('%s in %s', (text, format, day) => {
    expect(parseLedgerDate(text, format)).toBe(day);
  });
  it.each([
    ['31/01/2026', 'MM/DD/YYYY'],
    ['2026-02-30', 'YYYY-MM-DD'],
    ['29/02/2025', 'DD/MM/YYYY'],
    ['01/05/2026', 'YYYY-MM-DD'],
    ['31.02.2026', 'YYYY-MM-DD'],
    ['31 Foo 2026', 'YYYY-MM-DD'],
    ['20261301', 'YYYY-MM-DD'],
  ] as const)('refuses %s in %s', (text, format) => {
    expect(parseLedgerDate(text, format)).toBeUndefined();
  });
  it('reads the same text again the same way, and in another format differently', () => {
    expect(parseLedgerDate('03/04/2026', 'MM/DD/YYYY')).toBe('2026-03-04');
    expect(parseLedgerDate('03/04/2026', 'MM/DD/YYYY')).toBe('2026-03-04');
    expect(parseLedgerDate('03/04/2026', 'DD/MM/YYYY')).toBe('2026-04-03');
    expect(parseLedgerDate('2026-02-30')).toBeUndefined();
    expect(parseLedgerDate('2026-02-30')).toBeUndefined();
  });
});

describe('headers', () => {
  it('matches names case-insensitively, ignoring spaces and underscores, with aliases', () => {
    expect(
      mapColumns(['Transaction ID', 'DATE', 'Account_Code', 'Debit', 'credit', 'Memo']),
    ).toEqual({
      entry: 0,
      date: 1,
      accountCode: 2,
      debit: 3,
      credit: 4,
      memo: 5,
    });
    for (const alias of ['entry', 'Entry ID', 'journal', 'ref']) {
      expect(mapColumns([alias, 'date', 'account', 'amount']).entry).toBe(0);
    }
  });

  it('--map maps other exports’ columns', () => {
    const map = parseMapOption('account=GL Account,amount=Net Amount,date=Posted');
    expect(mapColumns(['Posted', 'GL Account', 'Net Amount'], map)).toEqual({
      date: 0,
      account: 1,
      amount: 2,
    });
    expect(() => parseMapOption('colour=Red')).toThrow('--map takes target=Header pairs');
    expect(() => mapColumns(['date', 'account', 'amount'], { memo: 'Notes' })).toThrow(
      '--map memo=Notes: no such column',
    );
  });

  it('says what a header lacks', () => {
    expect(() => mapColumns(['date', 'account', 'debit'])).toThrow(
      'the header lacks debit and credit, or amount',
    );
    expect(() => mapColumns(['when', 'what', 'amount'])).toThrow(
      'the header lacks date; account (or account_code / account_name)',
    );
  });

  it('detects the delimiter', () => {
    expect(detectDelimiter('date,account,amount')).toBe(',');
    expect(detectDelimiter('date;account;amount')).toBe(';');
    expect(detectDelimiter('date\taccount\tamount')).toBe('\t');
  });
});

/**
 * The built reader (dist/): its CSV thread runs the compiled csvWorker.js, which the TypeScript
 * sources that vitest runs do not provide.
 */
const builtReadLedger = async () =>
  (
    (await import(new URL('../../dist/formats/reader.js', import.meta.url).href)) as {
      readLedger: typeof readLedger;
    }
  ).readLedger;

describe.each([
  { parsing: 'on this thread', reader: async () => readLedger, parseOnWorker: false },
  { parsing: 'on a worker thread', reader: builtReadLedger, parseOnWorker: true },
])('reading a ledger file (streamed), csv-parse $parsing', ({ reader, parseOnWorker }) => {
  async function read(text: string | Buffer, options: ReadOptions = {}) {
    const result = newReadResult();
    const entries = [];
    const readWith = await reader();
    for await (const entry of readWith(fileOf(text), { ...options, parseOnWorker }, result))
      entries.push(entry);
    const sorted = [...result.problems].sort((a, b) => a.fileLine - b.fileLine);
    return { entries, result, problems: sorted.map((p) => `${p.fileLine}: ${p.message}`) };
  }

  it('reads UTF-8 with a BOM, `;`, quoted fields and an entry column', async () => {
    const text =
      '\uFEFFEntry;Date;Account;Debit;Credit;Description;Memo;Classes\n' +
      'J1;2026-01-05;1000;"$1,234.56";;"Deposit; cash";Sales day;"West;Retail"\n' +
      'J1;2026-01-05;Sales;;1,234.56;;;\n' +
      'J2;2026-01-06;Rent;(50.00);;refund;;\n' +
      'J2;2026-01-06;1000;50;;;;\n';
    const { entries, problems, result } = await read(text);
    expect(problems).toEqual([]);
    expect(result.lines).toBe(5);
    expect(result.hash).toBe(createHash('sha256').update(text).digest('hex'));
    expect(entries.map((e) => [e.fileLine, e.entry, e.date, e.memo, e.lines.length])).toEqual([
      [2, 'J1', '2026-01-05', 'Sales day', 2],
      [4, 'J2', '2026-01-06', '', 2],
    ]);
    expect(entries[0]!.lines[0]).toMatchObject({
      account: '1000',
      debitCents: 123456,
      creditCents: 0,
      description: 'Deposit; cash',
      classes: ['West', 'Retail'],
    });
    // A negative debit is a credit.
    expect(entries[1]!.lines[0]).toMatchObject({
      account: 'Rent',
      debitCents: 0,
      creditCents: 5000,
    });
  });

  it('reads tab-separated files with a signed amount column', async () => {
    const { entries, problems } = await read(
      'date\taccount\tamount\n2026-02-01\tChecking\t100\n2026-02-01\tSales\t-100\n',
    );
    expect(problems).toEqual([]);
    expect(entries[0]!.lines.map((l) => [l.debitCents, l.creditCents])).toEqual([
      [10000, 0],
      [0, 10000],
    ]);
  });

  it('without an entry column, groups consecutive lines of one date as soon as they balance', async () => {
    const { entries, problems } = await read(
      'date,account,debit,credit\n' +
        '2026-03-01,Checking,100,\n2026-03-01,Sales,,60\n2026-03-01,Sales,,40\n' +
        '2026-03-01,Rent,25,\n2026-03-01,Checking,,25\n' +
        '2026-03-02,Rent,10,\n2026-03-02,Checking,,10\n',
    );
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.fileLine, e.date, e.lines.length])).toEqual([
      [2, '2026-03-01', 3],
      [5, '2026-03-01', 2],
      [7, '2026-03-02', 2],
    ]);
  });

  it('reads dates in the given format', async () => {
    const { entries, problems } = await read(
      'date,account,amount\n03/15/2026,A,5\n03/15/2026,B,-5\n',
      { dateFormat: 'MM/DD/YYYY' },
    );
    expect(problems).toEqual([]);
    expect(entries[0]!.date).toBe('2026-03-15');
  });

  it('leaves out lines of zero, and entries made only of them, and says how many', async () => {
    const { entries, problems, result } = await read(
      'entry,date,account,debit,credit\n' +
        'A,2026-01-01,Checking,10,\n' +
        'A,2026-01-01,Fees,0.00,\n' +
        'A,2026-01-01,Sales,,10\n' +
        'B,2026-01-02,Checking,0,\n' +
        'B,2026-01-02,Sales,,0.00\n' +
        'C,2026-01-03,Checking,5,\n' +
        'C,2026-01-03,Sales,,5\n',
    );
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.entry, e.lines.length])).toEqual([
      ['A', 2],
      ['C', 2],
    ]);
    expect(result.notes).toEqual([
      'read as a books CSV: UTF-8, fields separated by commas, amounts with a decimal point; columns date ← "date", account ← "account", debit ← "debit", credit ← "credit", entry ← "entry"; dates each of one reading (none written a/b/year)',
      '3 lines of zero left out, and with them 1 entry made only of such lines',
    ]);
  });

  it('tells the order of day and month over the whole file, and says how it read it', async () => {
    const { entries, problems, result } = await read(
      'Date|Account|Amount|Memo\n' +
        '03/04/2025|Cash|10|a\n' +
        '03/04/2025|Sales|-10|a\n' +
        '2025-04-05|Cash|5|b\n' +
        '2025-04-05|Sales|-5|b\n' +
        '25/04/2025|Cash|1 Dr|c\n' +
        '25/04/2025|Sales|1 Cr|c\n',
    );
    expect(problems).toEqual([]);
    expect(entries.map((e) => e.date)).toEqual(['2025-04-03', '2025-04-05', '2025-04-25']);
    expect(result.notes).toEqual([
      'read as a books CSV: UTF-8, fields separated by pipes, amounts with a decimal point; columns date ← "Date", account ← "Account", amount ← "Amount", memo ← "Memo"; dates DD/MM/YYYY (told over the whole file)',
    ]);
  });

  it('stops when the dates read two ways, listing both readings', async () => {
    const { entries, problems } = await read(
      'date,account,amount\n03/04/2025,Cash,10\n03/04/2025,Sales,-10\n',
    );
    expect(entries).toEqual([]);
    expect(problems).toEqual([
      '1: the dates read two ways, as MM/DD/YYYY and as DD/MM/YYYY (no day is over 12): 03/04/2025 reads 2025-03-04 as MM/DD/YYYY and 2025-04-03 as DD/MM/YYYY: pass --date-format MM/DD/YYYY or --date-format DD/MM/YYYY (books config set date-format DD/MM/YYYY settles it for every such file)',
    ]);
    const given = await read('date,account,amount\n03/04/2025,Cash,10\n03/04/2025,Sales,-10\n', {
      dateFormat: 'MM/DD/YYYY',
    });
    expect(given.entries.map((e) => e.date)).toEqual(['2025-03-04']);
  });

  it('reports every problem with its line number, all in one pass', async () => {
    const { problems } = await read(
      'entry,date,account,debit,credit\n' +
        'A,2026-01-01,Checking,10,\n' + // 2
        'A,2026-01-01,Sales,,9\n' + // 3: A does not balance
        'B,2026-13-01,Sales,,1\n' + // 4: bad date
        'B,2026-01-02,,5,\n' + // 5: no account
        'B,2026-01-02,X,5,5\n' + // 6: both sides
        'C,2026-01-03,X,1.234,\n' + // 7: three decimals
        'C,2026-01-03,Y,,\n' + // 8: no amount
        'D,2026-01-04,X,5,\n' + // 9
        'D,2026-01-05,Y,,5\n' + // 10: two dates
        'A,2026-01-06,X,1,\n' + // 11: A again
        'A,2026-01-06,Y,,1\n',
    );
    expect(problems).toEqual([
      '2: entry "A" (lines 2–3) does not balance: debits 10.00, credits 9.00',
      '4: date "2026-13-01" is not a date (YYYY-MM-DD)',
      '5: the account is empty',
      '6: both debit and credit hold an amount',
      '7: the amount "1.234" has more than 2 decimals (with --decimal-comma it reads 1,234.00)',
      '8: the line has no amount',
      '10: entry "D" has two dates: 2026-01-04 and 2026-01-05',
      '11: entry "A" appears again after other entries; keep its lines together',
    ]);
  });

  it('reports unbalanced date groups, single lines and bad files', async () => {
    expect((await read('date,account,amount\n2026-01-01,A,5\n2026-01-02,B,-5\n')).problems).toEqual(
      [
        '2: line 2 of 2026-01-01 is a single line: an entry needs two (debits 5.00, credits 0.00)',
        '3: line 3 of 2026-01-02 is a single line: an entry needs two (debits 0.00, credits 5.00)',
      ],
    );
    expect((await read('date,account,amount\n2026-01-01,A,5\n2026-01-01,B,-3\n')).problems).toEqual(
      ['2: lines 2–3 of 2026-01-01 do not balance: debits 5.00, credits 3.00'],
    );
    expect((await read('')).problems).toEqual(['1: the file is empty: a header row is required']);
    expect((await read('when,what\n1,2\n')).problems[0]).toMatch(/^1: the header lacks date/);
    expect((await read('date,account,amount\n2026-01-01,"A,5\n')).problems[0]).toMatch(/^2: /);
  });

  it('reads bytes as text: UTF-8 checked across chunks, UTF-16 by its mark, other encodings when named', async () => {
    const header = 'date,account,amount,description\n';
    // A two-byte character split by the 256 kB chunk boundary.
    const pad = 256 * 1024 - header.length - '2026-01-01,A,5,'.length - 1;
    const split = await read(`${header}2026-01-01,A,5,${'x'.repeat(pad)}é\n2026-01-01,B,-5,été\n`);
    expect(split.problems).toEqual([]);
    expect(split.entries[0]!.lines[0]!.description.endsWith('xé')).toBe(true);
    expect(split.entries[0]!.lines[1]!.description).toBe('été');

    const invalid = Buffer.concat([
      Buffer.from(`${header}${'2026-01-01,A,5,ok\n2026-01-01,B,-5,ok\n'.repeat(10_000)}`),
      Buffer.from('2026-01-02,Caf\xe9,5,\n', 'latin1'),
    ]);
    expect((await read(invalid)).problems).toEqual([
      `20002: byte 0xE9 (at byte ${invalid.length - 5}) is not UTF-8: if the file was saved in another encoding, name it with --encoding (windows-1252 and latin1 are common for Western European files)`,
    ]);
    expect(
      (await read(Buffer.from(`${header}2026-01-01,A,5,\xe2\x82`, 'latin1'))).problems,
    ).toEqual(['2: the file ends in the middle of a UTF-8 character']);
    expect((await read(`${header}2026-01-01,A\u0000,5,\n`)).problems).toEqual([
      `2: the file holds a NUL byte (at byte ${header.length + 12}): it is not a CSV text file`,
    ]);
    expect((await read(Buffer.from(header + '2026-01-01,A,5,\n', 'utf16le'))).problems).toEqual([
      '1: the file holds NUL bytes: it looks like UTF-16 without a byte order mark; pass --encoding utf-16le (or utf-16be)',
    ]);

    const euro = Buffer.from(`${header}2026-01-01,Caf\xe9,5,\x80 5\n2026-01-01,B,-5,\n`, 'latin1');
    const western = await read(euro, { encoding: 'windows-1252' });
    expect(western.problems).toEqual([]);
    expect(western.entries[0]!.lines[0]).toMatchObject({ account: 'Café', description: '€ 5' });

    const bigEndian = Buffer.from(
      `\uFEFF${header}2026-01-01,Ärger,5,\n2026-01-01,B,-5,\n`,
      'utf16le',
    ).swap16();
    const wide = await read(bigEndian);
    expect(wide.problems).toEqual([]);
    expect(wide.entries[0]!.lines[0]!.account).toBe('Ärger');
  });

  it('numbers lines across quoted line breaks and across the chunks a large file is read in', async () => {
    const pair = (day: number) =>
      `2026-01-${String((day % 28) + 1).padStart(2, '0')},A,5\n` +
      `2026-01-${String((day % 28) + 1).padStart(2, '0')},B,-5\n`;
    // ~1.6 MB: more chunks than the CSV thread may post ahead of the reader.
    const body = Array.from({ length: 50_000 }, (_, i) => pair(i)).join('');
    const multiLine = await read(
      'date,account,amount,description\n2026-01-01,A,5,"two\nlines"\n2026-01-01,B,-5,\n',
    );
    expect(multiLine.problems).toEqual([]);
    expect(multiLine.entries[0]!.lines[0]!.description).toBe('two\nlines');
    expect(multiLine.result.lines).toBe(4);

    const whole = await read('date,account,amount\n' + body);
    expect(whole.problems).toEqual([]);
    expect(whole.entries).toHaveLength(50_000);
    expect(whole.entries.at(-1)!.fileLine).toBe(100_000);

    // A quoting error deep in the file is reported at its line, with what came before it.
    const broken = await read('date,account,amount\n' + body + '2026-01-01,"A"x,5\n' + body);
    expect(broken.problems).toEqual([expect.stringMatching(/^100002: .*quote/i)]);
    // Problems on lines before a quoting error, in the same chunk, are reported with it.
    const both = await read('date,account,amount\n2026-13-01,A,5\n2026-01-01,"A"x,5\n');
    expect(both.problems).toEqual([
      '2: date "2026-13-01" is not a date (YYYY-MM-DD)',
      expect.stringMatching(/^3: .*quote/i),
    ]);
  });
});

describe('SeenIds (entry ids closed so far, kept as hashes)', () => {
  it('finds every id added, among a hundred thousand, and none that was not', () => {
    const seen = new SeenIds();
    for (let i = 0; i < 100_000; i += 1) seen.add(`JE-2025-${i}`);
    seen.add('JE-2025-7');
    expect(seen.size).toBe(100_000);
    for (let i = 0; i < 100_000; i += 1) expect(seen.has(`JE-2025-${i}`)).toBe(true);
    for (let i = 100_000; i < 200_000; i += 1) expect(seen.has(`JE-2025-${i}`)).toBe(false);
    expect(seen.has('')).toBe(false);
    expect(seen.has('je-2025-1')).toBe(false);
  });
});
