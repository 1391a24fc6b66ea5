import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLedgerFile } from '../helpers/readLedgerFile.js';
import { formatOf } from '../../src/formats/reader.js';

/* What `hledger print -O csv` and `hledger register -O csv` write (hledger 1.x, as Debian ships it). */
const PRINT = [
  '"txnidx","date","date2","status","code","description","comment","account","amount","commodity","credit","debit","posting-status","posting-comment"',
  '"1","2024-01-05","","*","F1","Client Dupont","invoice","Assets:Receivable","1200.00","EUR","","1200.00","",""',
  '"1","2024-01-05","","*","F1","Client Dupont","invoice","Revenues:Services","-1000.00","EUR","1000.00","","",""',
  '"1","2024-01-05","","*","F1","Client Dupont","invoice","Liabilities:VAT","-200.00","EUR","200.00","","",""',
  '"2","2024-01-21","","","","Fee","","Expenses:Bank","1.50","EUR","","1.50","","monthly"',
  '"2","2024-01-21","","","","Fee","","Assets:Bank","-1.50","EUR","1.50","","",""',
  '"2","2024-01-21","","","","Fee","","(Budget:Bank)","-1.50","EUR","1.50","","",""',
];
const REGISTER = [
  '"txnidx","date","code","description","account","amount","total"',
  '"1","2024-01-05","F1","Client Dupont","Assets:Receivable","1200.00 EUR","1200.00 EUR"',
  '"1","2024-01-05","F1","Client Dupont","Income:Services","-1000.00 EUR","200.00 EUR"',
  '"1","2024-01-05","F1","Client Dupont","Liabilities:VAT","-200.00 EUR","0"',
  '"2","2024-01-06","","Lunch","Expenses:Food","$12.50","$12.50"',
  '"2","2024-01-06","","Lunch","Assets:Cash","$-12.50","0"',
];
const dir = mkdtempSync(path.join(os.tmpdir(), 'books-hledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const fileOf = (lines: string[]) => {
  const file = path.join(dir, `h${(count += 1)}.csv`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
};
const read = readLedgerFile;

describe('reading hledger CSV', () => {
  it('print -O csv: transactions by txnidx, virtual postings left out, accounts typed by their top level', async () => {
    const { entries, problems, notes } = await read(fileOf(PRINT));
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'read as hledger CSV (print or register -O csv): its header has txnidx and account',
      'encoding UTF-8',
      'hledger: 2 transactions; accounts by full name, typed by their top-level name',
      'hledger: 1 virtual posting ((Account) or [Account]) left out',
    ]);
    expect(entries.map((e) => [e.entry, e.date, e.memo])).toEqual([
      ['1', '2024-01-05', 'F1 Client Dupont invoice'],
      ['2', '2024-01-21', 'Fee'],
    ]);
    expect(
      entries[0]!.lines.map((l) => [l.account, l.accountType, l.debitCents, l.creditCents]),
    ).toEqual([
      ['Assets:Receivable', 'asset', 120000, 0],
      ['Revenues:Services', 'income', 0, 100000],
      ['Liabilities:VAT', 'liability', 0, 20000],
    ]);
    expect(entries[1]!.lines[0]!.description).toBe('monthly');
  });

  it('register -O csv: amounts with their commodity; two commodities refused unless --currency keeps one', async () => {
    const file = fileOf(REGISTER);
    expect((await read(file)).problems).toEqual([
      '1: the file holds 2 commodities: EUR (3 postings), $ (2 postings); an entity keeps its books in one: keep one with --currency CODE',
    ]);
    const kept = await read(file, { currency: 'EUR' });
    expect(kept.problems).toEqual([]);
    expect(kept.entries.map((e) => e.lines.length)).toEqual([3]);
    expect(kept.notes).toContain(
      'hledger: 2 postings in other commodities than EUR left out (--currency)',
    );
    const dollars = await read(file, { currency: '$' });
    expect(dollars.entries[0]!.lines.map((l) => [l.account, l.debitCents, l.creditCents])).toEqual([
      ['Expenses:Food', 1250, 0],
      ['Assets:Cash', 0, 1250],
    ]);
  });

  it('is told apart by its header, and refuses one without its columns', async () => {
    expect(formatOf(fileOf(PRINT), 'auto')).toBe('hledger');
    expect((await read(fileOf(['"txnidx","account"']), { format: 'hledger' })).problems).toEqual([
      '1: not hledger CSV: the header lacks date, amount',
    ]);
  });
});

/* What `ledger csv` writes (ledger 3, as Debian ships it), run on a journal of four transactions. */
const LEDGER_CSV = [
  '"2025/01/03","101","Bakery sales","Assets:Checking","$","1200","*",""',
  '"2025/01/03","101","Bakery sales","Income:Sales","$","-1200","*",""',
  '"2025/01/05","","Landlord","Expenses:Rent","$","650","",""',
  '"2025/01/05","","Landlord","(Budget:Rent)","$","-650","",""',
  '"2025/01/05","","Landlord","Assets:Checking","$","-650","",""',
  '"2025/01/05","","Landlord","Expenses:Rent","$","10","",""',
  '"2025/01/05","","Landlord","Assets:Checking","$","-10","",""',
  '"2025/01/07","","Euro trip","Expenses:Travel","EUR","100","",""',
  '"2025/01/07","","Euro trip","Assets:Checking","EUR","-100","",""',
];

/** Per account, debits less credits. */
const net = (entries: Awaited<ReturnType<typeof read>>['entries']) => {
  const totals: Record<string, number> = {};
  for (const entry of entries)
    for (const line of entry.lines)
      totals[line.account] = (totals[line.account] ?? 0) + line.debitCents - line.creditCents;
  return totals;
};

describe('reading `ledger csv` and bean-query CSV', () => {
  it('ledger csv: headerless; virtual postings left out; one commodity, or --currency', async () => {
    const file = fileOf(LEDGER_CSV);
    expect(formatOf(file, 'auto')).toBe('ledger');
    const mixed = await read(file);
    expect(mixed.problems).toEqual([
      '1: the file holds 2 commodities: $ (6 postings), EUR (2 postings); an entity keeps its books in one: keep one with --currency CODE',
    ]);
    const { entries, problems, notes } = await read(file, { currency: '$' });
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.date, e.lines.length])).toEqual([
      ['2025-01-03', 2],
      ['2025-01-05', 2],
      ['2025-01-05', 2],
    ]);
    expect(net(entries)).toEqual({
      'Assets:Checking': 54_000,
      'Income:Sales': -120_000,
      'Expenses:Rent': 66_000,
    });
    expect(entries[0]!.lines.map((l) => l.accountType)).toEqual(['asset', 'income']);
    expect(notes).toContain('ledger: 1 virtual posting ((Account) or [Account]) left out');
    expect(notes).toContain('ledger: 2 postings in other commodities than $ left out (--currency)');
  });

  it('bean-query -f csv: position or number and currency; by id when selected', async () => {
    const byId = fileOf([
      'id,date,flag,payee,narration,account,position',
      'a1,2025-01-03,*,Bakery,January sales,Assets:Bank:Checking,1200.00 USD',
      'a1,2025-01-03,*,Bakery,January sales,Income:Sales,-1200.00 USD',
      'b2,2025-01-05,*,Landlord,Rent,Expenses:Rent,650.00 USD',
      'b2,2025-01-05,*,Landlord,Rent,Assets:Bank:Checking,-650.00 USD',
    ]);
    expect(formatOf(byId, 'auto')).toBe('beancount');
    const read1 = await read(byId);
    expect(read1.problems).toEqual([]);
    expect(read1.entries.map((e) => [e.entry, e.memo])).toEqual([
      ['a1', 'Bakery January sales'],
      ['b2', 'Landlord Rent'],
    ]);
    const numbers = fileOf([
      'date,payee,narration,account,number,currency',
      '2025-01-03,Bakery,January sales,Assets:Bank:Checking,1200.00,USD',
      '2025-01-03,Bakery,January sales,Income:Sales,-1200.00,USD',
      '2025-01-05,Landlord,Rent,Expenses:Rent,650.00,USD',
      '2025-01-05,Landlord,Rent,Liabilities:Card,-650.00,USD',
    ]);
    const read2 = await read(numbers);
    expect(read2.problems).toEqual([]);
    expect(net(read2.entries)).toEqual({
      'Assets:Bank:Checking': 120_000,
      'Income:Sales': -120_000,
      'Expenses:Rent': 65_000,
      'Liabilities:Card': -65_000,
    });
  });
});
