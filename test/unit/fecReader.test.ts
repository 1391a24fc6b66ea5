import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLedgerFile } from '../helpers/readLedgerFile.js';
import { pcgType } from '../../src/formats/fec/reader.js';
import { formatOf } from '../../src/formats/reader.js';

/*
 * Fixtures written from the FEC's description (article A47 A-1 of the Livre des procédures
 * fiscales): 18 columns, tab or pipe, dates YYYYMMDD, amounts with a decimal comma.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'books-fec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const COLUMNS =
  'JournalCode|JournalLib|EcritureNum|EcritureDate|CompteNum|CompteLib|CompAuxNum|CompAuxLib|PieceRef|PieceDate|EcritureLib|Debit|Credit|EcritureLet|DateLet|ValidDate|Montantdevise|Idevise';
let count = 0;
const fileOf = (rows: string[], delimiter = '|') => {
  const file = path.join(dir, `fec${(count += 1)}.txt`);
  writeFileSync(
    file,
    [COLUMNS, ...rows].map((r) => r.replaceAll('|', delimiter)).join('\r\n') + '\r\n',
    'latin1',
  );
  return file;
};
const line = (
  j: string,
  n: string,
  date: string,
  account: string,
  name: string,
  label: string,
  debit: string,
  credit: string,
  aux = '',
) =>
  `${j}|Journal|${n}|${date}|${account}|${name}||${aux}|P-${n}|${date}|${label}|${debit}|${credit}|||${date}||`;

const read = (file: string, encoding?: string) =>
  readLedgerFile(file, encoding ? { encoding } : {});

describe('reading a FEC', () => {
  it('groups lines by journal and EcritureNum, reads decimal commas, and types accounts by their PCG class', async () => {
    const file = fileOf([
      line(
        'VE',
        '1',
        '20240105',
        '411000',
        'Clients',
        'Facture Dupont',
        '1200,00',
        '0,00',
        'Dupont SARL',
      ),
      line(
        'VE',
        '1',
        '20240105',
        '706000',
        'Prestations de services',
        'Facture Dupont',
        '0,00',
        '1000,00',
      ),
      line('VE', '1', '20240105', '445710', 'TVA collectée', 'Facture Dupont', '0,00', '200,00'),
      line('BQ', '1', '20240120', '512000', 'Banque', 'Règlement Dupont', '1200,00', '0,00'),
      line('BQ', '1', '20240120', '411000', 'Clients', 'Règlement Dupont', '0,00', '1200,00'),
      line('BQ', '2', '20240121', '627000', 'Services bancaires', 'Frais', '0,00', '0,00'),
    ]);
    const { entries, problems, notes } = await read(file, 'latin1');
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'read as a FEC (Fichier des Écritures Comptables): its header has JournalCode and EcritureNum',
      'encoding latin1 (--encoding)',
      'FEC: 2 entries; accounts typed by their Plan Comptable Général class',
      'FEC: 1 line of zero left out, and with them 1 entry made only of such lines',
    ]);
    expect(entries.map((e) => [e.entry, e.date, e.memo])).toEqual([
      ['VE 1', '2024-01-05', 'P-1 Facture Dupont'],
      ['BQ 1', '2024-01-20', 'P-1 Règlement Dupont'],
    ]);
    expect(
      entries[0]!.lines.map((l) => [
        l.accountCode,
        l.accountName,
        l.accountType,
        l.debitCents,
        l.creditCents,
        l.description,
      ]),
    ).toEqual([
      ['411000', 'Clients', 'Accounts Receivable', 120000, 0, 'Facture Dupont — Dupont SARL'],
      ['706000', 'Prestations de services', 'Income', 0, 100000, 'Facture Dupont'],
      ['445710', 'TVA collectée', 'Other Current Liabilities', 0, 20000, 'Facture Dupont'],
    ]);
  });

  it('reads a tab-separated FEC and a point as the decimal mark; reports bad dates, amounts and unbalanced entries', async () => {
    const file = fileOf(
      [
        line('OD', '7', '20240231', '601000', 'Achats', 'x', '10.50', '0'),
        line('OD', '8', '20240301', '601000', 'Achats', 'x', '1.234,5', '0'),
        line('OD', '9', '20240301', '601000', 'Achats', 'x', '10,00', '0'),
        line('OD', '9', '20240301', '401000', 'Fournisseurs', 'x', '0', '9,00'),
        line('OD', '10', '20240301', '', '', 'x', '1,00', '0'),
      ],
      '\t',
    );
    const { problems } = await read(file);
    expect(problems).toEqual([
      '2: EcritureDate "20240231" is not a date (YYYYMMDD)',
      '3: entry "OD 8" (line 3) is a single line: an entry needs two (debits 1,234.50, credits 0.00)',
      '4: entry "OD 9" (lines 4–5) does not balance: debits 10.00, credits 9.00',
      '6: CompteNum is empty',
    ]);
  });

  it('knows the Plan Comptable Général: class digit, then the usual sub-accounts', () => {
    expect(
      [
        '101300',
        '164000',
        '218300',
        '280000',
        '370000',
        '401000',
        '411000',
        '421000',
        '445660',
        '512000',
        '530000',
        '601000',
        '626000',
        '661000',
        '695000',
        '706000',
        '761000',
        '801000',
        'X12',
      ].map(pcgType),
    ).toEqual([
      'Equity',
      'Long-Term Loans',
      'Fixed Assets',
      'Fixed Assets',
      'Inventory',
      'Accounts Payable',
      'Accounts Receivable',
      'Payroll Liabilities',
      'Other Current Assets',
      'Cash',
      'Cash',
      'COGS',
      'Operating Expenses',
      'Other Expenses',
      'Tax Expenses',
      'Income',
      'Other Income',
      undefined,
      undefined,
    ]);
  });

  it('is told apart by its header, and refuses one that lacks its columns', async () => {
    expect(formatOf(fileOf([]), 'auto')).toBe('fec');
    const short = path.join(dir, 'short.txt');
    writeFileSync(short, 'JournalCode|EcritureNum|EcritureDate\n');
    const result = await read(short);
    expect(result.problems).toEqual(['1: not a FEC: the header lacks comptenum, debit, credit']);
  });
});
