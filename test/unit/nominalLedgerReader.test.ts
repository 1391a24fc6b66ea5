import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLedgerFile } from '../helpers/readLedgerFile.js';
import { formatOf } from '../../src/formats/reader.js';
import {
  NOMINAL_HEADER as HEADER,
  NOMINAL_TWO_SIDED,
  nominalLedgerFile,
  nominalOpening as opening,
  nominalRow as row,
} from '../helpers/reportFixtures.js';

/*
 * Fixtures written from how Sage-style ERPs print a "Nominal Ledger Transaction History": a
 * title block, a section per account with a column header, an opening balance row, rows with a
 * running balance, and a footer.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'books-nominal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const fileOf = (lines: readonly string[]) => {
  const file = path.join(dir, `n${(count += 1)}.csv`);
  writeFileSync(file, nominalLedgerFile(lines).join('\n') + '\n');
  return file;
};

const read = readLedgerFile;

describe('reading a nominal ledger report', () => {
  it('pairs the rows of each reference and day across the sections into balanced entries', async () => {
    const { entries, problems, notes } = await read(fileOf(NOMINAL_TWO_SIDED));
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'read as a nominal ledger report: its title, or sections headed "Account: CODE - NAME"',
      'encoding UTF-8',
      'nominal ledger: 3 account sections, 4 rows, dates DD/MM/YYYY; rows paired by reference and date',
      'nominal ledger: 1 row of zero left out',
    ]);
    expect(
      entries.map((e) => [
        e.entry,
        e.date,
        e.lines.map((l) => [l.accountCode, l.accountName, l.debitCents, l.creditCents]),
      ]),
    ).toEqual([
      [
        'J1 of 2018-01-15',
        '2018-01-15',
        [
          ['1200', 'Bank', 120000, 0],
          ['4000', 'Sales', 0, 120000],
        ],
      ],
      [
        'J2 of 2018-01-31',
        '2018-01-31',
        [
          ['1200', 'Bank', 0, 50000],
          ['7100', 'Rent', 50000, 0],
        ],
      ],
    ]);
  });

  it('posts a single-sided report against --offset-account, opening balances included', async () => {
    const file = fileOf([
      ',Account: 1200 - Bank',
      HEADER,
      opening('250.00'),
      row('J1', 'Takings', '15/01/2018', '100.00', '0.00', '350.00'),
    ]);
    const { entries, problems } = await read(file, { offsetAccount: 'Suspense' });
    expect(problems).toEqual([]);
    expect(
      entries.map((e) => [
        e.date,
        e.lines.map((l) => [l.account.replace('\u0000', ' '), l.debitCents, l.creditCents]),
      ]),
    ).toEqual([
      [
        '2018-01-01',
        [
          ['1200 Bank', 25000, 0],
          ['Suspense', 0, 25000],
        ],
      ],
      [
        '2018-01-15',
        [
          ['1200 Bank', 10000, 0],
          ['Suspense', 0, 10000],
        ],
      ],
    ]);
  });

  it('refuses what it cannot pair, a section whose rows do not make its balance, and dates that read both ways', async () => {
    const cut = fileOf([
      ',Account: 1200 - Bank',
      HEADER,
      opening('0.00'),
      row('J1', 'Takings', '15/01/2018', '100.00', '0.00', '90.00'),
      row('', 'Fee', '16/01/2018', '0.00', '5.00', '85.00'),
    ]);
    expect((await read(cut)).problems).toEqual([
      '4: account 1200 - Bank: its rows make 95.00, its running balance ends at 85.00 (an edited or cut report)',
      '7: reference J1 of 2018-01-15: its row (line 7) does not balance: 100.00 left over; a single-sided report needs --offset-account',
      '8: a row without a Reference cannot be paired with its other side: pass --offset-account',
    ]);
    const ambiguous = fileOf([
      ',Account: 1200 - Bank',
      HEADER,
      row('J1', 'A', '01/02/2018', '1.00', '0.00', '1.00'),
    ]);
    expect((await read(ambiguous, { offsetAccount: 'S' })).problems).toEqual([
      '1: the dates read two ways, as MM/DD/YYYY and as DD/MM/YYYY (no day is over 12): 01/02/2018 reads 2018-01-02 as MM/DD/YYYY and 2018-02-01 as DD/MM/YYYY: pass --date-format MM/DD/YYYY or --date-format DD/MM/YYYY (books config set date-format DD/MM/YYYY settles it for every such file)',
    ]);
    expect(
      (await read(ambiguous, { offsetAccount: 'S', dateFormat: 'MM/DD/YYYY' })).entries[0]!.date,
    ).toBe('2018-01-02');
  });

  it('names apart two accounts the report gives one name, and says so', async () => {
    const file = fileOf([
      ',Account: 2000130 - Consumables',
      HEADER,
      row('A', 'x', '13/01/2018', '1.00', '0.00', '1.00'),
      ',Account: 4050150 - consumables',
      HEADER,
      row('B', 'y', '13/01/2018', '2.00', '0.00', '2.00'),
    ]);
    const { entries, notes } = await read(file, { offsetAccount: 'S' });
    expect(entries.map((e) => e.lines[0]!.accountName)).toEqual([
      'Consumables (2000130)',
      'consumables (4050150)',
    ]);
    expect(notes).toContain(
      'nominal ledger: 1 name is used by more than one account code: those accounts are named "Name (code)"',
    );
  });

  it('is told apart by its title or sections, and says when it holds none', async () => {
    expect(formatOf(fileOf(NOMINAL_TWO_SIDED), 'auto')).toBe('nominal-ledger');
    const none = path.join(dir, 'none.csv');
    writeFileSync(none, 'Nominal Ledger Transaction History\nnothing here\n');
    expect((await read(none)).problems).toEqual([
      '1: not a nominal ledger report: no "Account: CODE - NAME" section',
    ]);
  });
});
