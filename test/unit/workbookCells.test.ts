import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { numberText, writeSheetAsCsv } from '../../src/formats/common/workbook.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'books-cells-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a number cell's decimal", () => {
  it.each([
    [2562.45, '2562.45'],
    // What Excel writes for 2562.45 in the file's XML reads back as the same number.
    [Number('2562.4499999999998'), '2562.45'],
    [0.1 + 0.2, '0.30'],
    [-53277.15, '-53277.15'],
    [1041, '1041'],
    [-0, '0'],
    // A true fraction of a cent stays, for the reader to refuse.
    [1.005, '1.005'],
    [1e-7, '0.0000001'],
  ])('%s is "%s"', (value, text) => {
    expect(numberText(value, false)).toBe(text);
  });

  it('takes a decimal comma under --decimal-comma', () => {
    expect(numberText(-2562.45, true)).toBe('-2562,45');
  });
});

describe('a sheet written out as CSV', () => {
  it('writes each kind of cell as the readers expect it, row N on line N', async () => {
    const file = path.join(dir, 'cells.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Ledger');
    sheet.getCell('A1').value = 'date';
    sheet.getCell('B1').value = 'memo';
    sheet.getCell('C1').value = 'amount';
    sheet.getCell('A2').value = new Date('2026-01-31T00:00:00Z');
    sheet.getCell('A2').numFmt = 'mm/dd/yyyy';
    sheet.getCell('B2').value = { richText: [{ text: 'Rent, ' }, { text: '"January"' }] };
    sheet.getCell('C2').value = -650;
    sheet.getCell('C2').numFmt = '#,##0.00;(#,##0.00)';
    // Row 3 is empty; row 4 has a formula of a date and one of an amount, a flag and an error.
    sheet.getCell('A4').value = { formula: 'A2+1', result: 46054 };
    sheet.getCell('A4').numFmt = 'd-mmm-yy';
    sheet.getCell('B4').value = true;
    sheet.getCell('C4').value = { formula: 'C2/3', result: -650 / 3 };
    sheet.getCell('E4').value = { error: '#N/A' };
    await workbook.xlsx.writeFile(file);

    const csv = path.join(dir, 'cells.csv');
    const written = await writeSheetAsCsv(file, { dateFormat: 'DD/MM/YYYY' }, csv);
    expect(written).toMatchObject({ sheet: 'Ledger', rows: 4 });
    expect(written.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(csv, 'utf8')).toBe(
      [
        'date,memo,amount',
        '31/01/2026,"Rent, ""January""",-650',
        '',
        '01/02/2026,TRUE,-216.66666666666666,,#N/A',
        '',
      ].join('\n'),
    );
  });
});

describe('a number a spreadsheet could not keep whole', () => {
  it('is refused naming its cell: an 18-digit id typed as a number has lost its last digits', async () => {
    const file = path.join(dir, 'ids.xlsx');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Wave');
    sheet.addRow(['Transaction ID', 'Transaction Date']);
    sheet.addRow([Number('537537669383611013'), '2015-12-30']);
    await workbook.xlsx.writeFile(file);
    await expect(writeSheetAsCsv(file, {}, path.join(dir, 'ids.csv'))).rejects.toThrow(
      'cell A2 holds the number 537537669383611000, more digits than a spreadsheet keeps (15 or 16): its last ones are lost; export the file as CSV, or keep the column as text',
    );
  });
});
