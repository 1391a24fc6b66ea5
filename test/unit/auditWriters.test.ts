import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPES, CLASS_OF_TYPE } from '../../src/api/index.js';
import type { Cents } from '../../src/core/money.js';
import type { AuditBooks } from '../../src/formats/audit/books.js';
import { datevWriter, pairedRows } from '../../src/formats/datev/writer.js';
import {
  BadIdentifier,
  datevNumber,
  kvkNumber,
  norwegianOrganisationNumber,
  siren,
  swedishOrganisationNumber,
} from '../../src/formats/audit/identifiers.js';
import { GROUPING } from '../../src/formats/saft/groupings.js';
import { sieWriter } from '../../src/formats/sie/writer.js';
import { CharsetText } from '../../src/formats/audit/text.js';
import { datevFile } from '../helpers/formatFiles.js';
import { readLedgerFile } from '../helpers/readLedgerFile.js';

const c = (n: number) => n as Cents;

describe('identifiers, checked as their registers define them', () => {
  it.each([
    [norwegianOrganisationNumber, '999 999 999', '999999999'],
    [norwegianOrganisationNumber, '923609016', '923609016'],
    [siren, '732 829 320', '732829320'],
    [siren, '552100554', '552100554'],
    [swedishOrganisationNumber, '5563343689', '556334-3689'],
    [swedishOrganisationNumber, '16556334-3689', '556334-3689'],
    [kvkNumber, '12345678', '12345678'],
  ] as const)('%o accepts %s as %s', (check, given, written) => {
    expect(check(given)).toBe(written);
  });

  it.each([
    [norwegianOrganisationNumber, '999999998', /check digit/],
    [norwegianOrganisationNumber, '99999999', /nine digits/],
    [siren, '732829321', /Luhn/],
    [siren, 'ABC', /nine digits/],
    [swedishOrganisationNumber, '556334-3688', /Luhn/],
    [swedishOrganisationNumber, '55633436', /ten digits/],
    [kvkNumber, '1234567', /eight digits/],
  ] as const)('%o refuses %s, saying why', (check, given, message) => {
    expect(() => check(given)).toThrow(BadIdentifier);
    expect(() => check(given)).toThrow(message);
  });

  it('a Norwegian number whose check digit would be 10 is no number at all', () => {
    // 1 2 3 4 5 6 7 8 weighted 3 2 7 6 5 4 3 2: 138; 138 mod 11 = 6; check 11 − 6 = 5.
    expect(norwegianOrganisationNumber('123456785')).toBe('123456785');
    // 0 0 0 0 0 0 0 6: 6 × 2 = 12; 12 mod 11 = 1; 11 − 1 = 10: no ninth digit will do.
    for (const last of '0123456789')
      expect(() => norwegianOrganisationNumber(`00000006${last}`)).toThrow(/check digit/);
  });

  it("DATEV's numbers in their ranges", () => {
    expect(datevNumber('29098', 'consultant')).toBe(29098);
    expect(datevNumber('1', 'client')).toBe(1);
    expect(() => datevNumber('1000', 'consultant')).toThrow(/1001 to 9999999/);
    expect(() => datevNumber('100000', 'client')).toThrow(/1 to 99999/);
    expect(() => datevNumber('12a', 'client')).toThrow(BadIdentifier);
  });
});

describe('text a character set cannot hold', () => {
  it('is written as the nearest letters the set has, and said once with examples', () => {
    const cp437 = new CharsetText('SIE 4 (code page 437)', 'cp437');
    expect(cp437.text('Gehälter')).toBe('Gehälter');
    expect(cp437.text('Övningsbolaget')).toBe('Övningsbolaget');
    expect(cp437.text('Erlöse Łódź')).toBe('Erlöse Lódz');
    expect(cp437.text('Zahlung – 5 €')).toBe('Zahlung - 5 EUR');
    expect(cp437.text('Smørrebrød')).toBe('Smorrebrod');
    expect(cp437.text('漢字')).toBe('??');
    expect(cp437.summary()).toBe(
      'SIE 4 (code page 437): 4 texts had characters it cannot hold, written as the nearest it has ("Erlöse Łódź" → "Erlöse Lódz", "Zahlung – 5 €" → "Zahlung - 5 EUR", "Smørrebrød" → "Smorrebrod", …)',
    );
    const windows1252 = new CharsetText('DATEV (Windows-1252)', 'windows-1252');
    expect(windows1252.text('Smørrebrød – 5 €')).toBe('Smørrebrød – 5 €');
    expect(windows1252.text('Łódź')).toBe('Lódz');
    expect(new CharsetText('x', 'utf-8').text('Łódź 漢字')).toBe('Łódź 漢字');
  });

  it("turns control characters into spaces and a format's separator into its replacement", () => {
    const fec = new CharsetText('the FEC', 'utf-8', new Set('|'), '/');
    expect(fec.text('a\tb\r\nc|d')).toBe('a b  c/d');
    expect(fec.summary()).toContain('1 text');
    expect(new CharsetText('x', 'utf-8').summary()).toBeUndefined();
  });
});

describe('DATEV: an entry of more than two lines as rows that each balance', () => {
  const line = (code: string, cents: number, description = '') => ({
    code,
    debit: c(cents > 0 ? cents : 0),
    credit: c(cents < 0 ? -cents : 0),
    description,
  });

  const rowsOf = (lines: ReturnType<typeof line>[]) =>
    pairedRows(lines).map(({ debitCode, creditCode, amount, description }) => ({
      debitCode,
      creditCode,
      amount,
      description,
    }));

  it('pairs debits and credits first to first, the smaller amount each time', () => {
    expect(
      rowsOf([line('1200', 11_900), line('8400', -10_000), line('1776', -1_900, 'USt')]),
    ).toEqual([
      { debitCode: '1200', creditCode: '8400', amount: 10_000, description: '' },
      { debitCode: '1200', creditCode: '1776', amount: 1_900, description: 'USt' },
    ]);
    expect(
      rowsOf([
        line('3400', 50_000),
        line('1576', 9_500),
        line('1200', -30_000),
        line('1600', -29_500),
      ]),
    ).toEqual([
      { debitCode: '3400', creditCode: '1200', amount: 30_000, description: '' },
      { debitCode: '3400', creditCode: '1600', amount: 20_000, description: '' },
      { debitCode: '1576', creditCode: '1600', amount: 9_500, description: '' },
    ]);
  });

  it('makes, over any balanced entry, rows whose accounts net to the lines', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let round = 0; round < 200; round += 1) {
      const count = 2 + (next() % 6);
      const lines = Array.from({ length: count - 1 }, (_, i) =>
        line(String(1000 + i), (next() % 100_000) * (next() % 2 ? 1 : -1) || 1),
      );
      const net = lines.reduce((sum, l) => sum + l.debit - l.credit, 0);
      if (net === 0) continue;
      lines.push(line('9999', -net));
      const rows = pairedRows(lines);
      expect(rows.length).toBeLessThanOrEqual(lines.length - 1);
      const byAccount = new Map<string, number>();
      for (const row of rows) {
        expect(row.amount).toBeGreaterThan(0);
        byAccount.set(row.debitCode, (byAccount.get(row.debitCode) ?? 0) + row.amount);
        byAccount.set(row.creditCode, (byAccount.get(row.creditCode) ?? 0) - row.amount);
      }
      const expected = new Map<string, number>();
      for (const l of lines) expected.set(l.code, (expected.get(l.code) ?? 0) + l.debit - l.credit);
      expect(new Map([...byAccount].filter(([, v]) => v !== 0))).toEqual(
        new Map([...expected].filter(([, v]) => v !== 0)),
      );
    }
  });
});

describe("SAF-T: every account type's grouping is in Skatteetaten's list, on the right side", () => {
  const list = path.resolve(
    import.meta.dirname,
    '../../../shared/spec/formats/saft-no/grouping-category-code-1.3/naeringsspesifikasjon.csv',
  );
  const BALANCE = new Set([
    'balanseverdiForAnleggsmiddel',
    'balanseverdiForOmloepsmiddel',
    'egenkapital',
    'kortsiktigGjeld',
    'langsiktigGjeld',
  ]);
  it.skipIf(!existsSync(list))('each of the 23 types', () => {
    const rows = new Set(
      readFileSync(list, 'utf8')
        .split(/\r?\n/)
        .map((row) => row.split(';'))
        .map((fields) => `${fields[0]};${fields[3]}`),
    );
    for (const type of ACCOUNT_TYPES) {
      const [category, code] = GROUPING[type];
      expect(rows.has(`${category};${code}`), `${type}: ${category} ${code}`).toBe(true);
      const balance = ['Assets', 'Liabilities', 'Equity'].includes(CLASS_OF_TYPE[type]);
      expect(BALANCE.has(category), type).toBe(balance);
    }
  });
});

describe('DATEV reader: BU-Schlüssel 40 turns the automatic off', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-datev-40-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a row on an automatic account with key 40 is read as written; without it, it is a problem', async () => {
    const file = (name: string, key: string) => {
      const written = path.join(dir, name);
      writeFileSync(
        written,
        datevFile(
          [
            {
              cents: 10_000,
              konto: '1200',
              gegenkonto: '8400',
              date: '2025-03-01',
              text: 'Verkauf',
              beleg: '1',
              key,
            },
          ],
          { version: 700, length: 4, skr: '03', encoding: 'windows-1252' },
          { from: '2025-01-01', to: '2025-12-31' },
        ),
      );
      return written;
    };
    const suspended = await readLedgerFile(file('a.csv', '40'));
    expect(suspended.problems).toEqual([]);
    expect(
      suspended.entries.flatMap((e) =>
        e.lines.map((l) => [l.accountCode ?? l.account, l.debitCents, l.creditCents]),
      ),
    ).toEqual([
      ['1200', 10_000, 0],
      ['8400', 0, 10_000],
    ]);
    const automatic = await readLedgerFile(file('b.csv', ''));
    expect(automatic.problems).toEqual([
      expect.stringContaining('automatic account 8400 (SKR03): DATEV would post more than the row'),
    ]);
  });
});

describe('what SIE and DATEV cannot write is refused, naming it', () => {
  const booksWith = (codes: string[], openings = 0) =>
    ({
      accounts: codes.map((code) => ({ code, name: `Account ${code}` })),
      openings: Array.from({ length: openings }, () => ({ code: codes[0], amount: 100 })),
      from: '2025-01-01',
    }) as unknown as AuditBooks;
  const options = {} as never;

  it('a code that is not a number', () => {
    const books = booksWith(['1200', 'KASSE', 'A-1', 'B', 'C', 'D', 'E']);
    expect(sieWriter.refusal!(books, options)).toBe(
      'SIE accounts are numbers: "KASSE" (Account KASSE), "A-1" (Account A-1), "B" (Account B), "C" (Account C), "D" (Account D) and 1 more cannot be written',
    );
    expect(datevWriter.refusal!(books, options)).toMatch(/^DATEV accounts are numbers: "KASSE"/);
    expect(sieWriter.refusal!(booksWith(['1200', '0800']), options)).toBeUndefined();
  });

  it('DATEV: a code longer than its 8 digits, and a chart that leaves no account for balances carried in', () => {
    expect(datevWriter.refusal!(booksWith(['1200', '123456789']), options)).toBe(
      "DATEV's G/L accounts have at most 8 digits (Sachkontenlänge), and account 123456789 has 9",
    );
    const full = ['1200', '9000', '9008', '9009', '9090'];
    expect(datevWriter.refusal!(booksWith(full), options)).toBeUndefined();
    expect(datevWriter.refusal!(booksWith(full, 1), options)).toBe(
      'the chart uses 9000, 9008, 9009, 9090, the accounts DATEV books carried balances against: there is none left for the balances on 2025-01-01',
    );
  });
});
