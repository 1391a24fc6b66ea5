import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type ExcelJS from 'exceljs';
import { zipBomb } from './bounds.js';
import type { DateFormat } from '../ledgerCsv.js';

/*
 * An Excel workbook (.xlsx) read as the same sheet saved as CSV reads: its one sheet is written
 * out as CSV text, one line per row (row N is line N), which the readers then read as any CSV
 * export. Cells are written as the reader's flags expect them: a date cell as YYYY-MM-DD (or
 * in --date-format), a number cell as its decimal, with a comma under --decimal-comma. The
 * workbook is streamed (exceljs' WorkbookReader): neither it nor the sheet is held in memory.
 */

/** The first bytes of a file show an .xlsx workbook (a zip) or an Excel 97–2003 one. */
export const looksLikeWorkbook = (head: string) => head.startsWith('PK\x03\x04');
export const looksLikeOldWorkbook = (head: string) => head.startsWith('\xd0\xcf\x11\xe0');

/** Which sheet, and how its cells are to be written. */
export interface SheetChoice {
  /** `--sheet`: the sheet's name; else the first sheet. */
  sheet?: string;
  dateFormat?: DateFormat;
  decimalComma?: boolean;
}

/** A workbook that cannot be read, or has no such sheet: said to the user as it stands. */
export class WorkbookError extends Error {
  override name = 'WorkbookError';
}

export interface SheetWritten {
  /** The sheet's name, as its tab shows it. */
  sheet: string;
  /** SHA-256 of the workbook's bytes. */
  hash: string;
  rows: number;
}

interface WorkbookModel {
  model?: { sheets?: { name: string }[] };
}

/** Writes the chosen sheet of `file` to `csvFile` as CSV text. */
export async function writeSheetAsCsv(
  file: string,
  choice: SheetChoice,
  csvFile: string,
): Promise<SheetWritten> {
  // A part that unpacks past its bound (a zip bomb) is refused from the zip's directory, before
  // anything is unpacked.
  const bomb = zipBomb(file);
  if (bomb) throw new WorkbookError(`the workbook: ${bomb}`);
  // Loaded here, not with the readers: exceljs is a fifth of a second to load, and only a
  // workbook needs it. (Before the file is opened: its bytes must not flow before exceljs reads.)
  const { default: excel } = await import('exceljs');
  const hash = createHash('sha256');
  const input = createReadStream(file);
  input.on('data', (bytes) => hash.update(bytes));
  const workbook = new excel.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  // exceljs keeps a sheet that comes before the shared strings (as Excel writes them) in a
  // temporary file of os.tmpdir(), and starts removing it only as the read ends: a command
  // that exits at once after (a refusal) left it behind. Its files go in a directory of this
  // read's own, removed with whatever is in it when the read ends.
  const spool = mkdtempSync(path.join(os.tmpdir(), 'books-workbook-'));
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = spool;
  const output = createWriteStream(csvFile);
  let failed: Error | undefined;
  output.on('error', (error) => (failed ??= error));
  let written: { sheet: string; rows: number } | undefined;
  let unreadable: WorkbookError | undefined;
  const seen: string[] = [];
  try {
    for await (const worksheet of workbook) {
      const name = (worksheet as unknown as { name?: string }).name ?? `Sheet ${seen.length + 1}`;
      seen.push(name);
      const tabs = (workbook as unknown as WorkbookModel).model?.sheets?.map((s) => s.name) ?? [];
      const wanted =
        written === undefined &&
        (choice.sheet === undefined
          ? tabs.length === 0 || tabs[0] === name
          : sameSheet(name, choice.sheet));
      if (!wanted) {
        // Read through, so that exceljs lets go of the sheet (and of any file it kept it in).
        for await (const row of worksheet) void row;
        continue;
      }
      try {
        written = { sheet: name, rows: await writeRows(worksheet, choice, output) };
      } catch (error) {
        if (!(error instanceof WorkbookError)) throw error;
        // Read the other sheets through too (exceljs lets go of their files), then say it.
        unreadable ??= error;
        written = { sheet: name, rows: 0 };
      }
    }
  } catch (error) {
    if (error instanceof WorkbookError) throw error;
    throw new WorkbookError(
      `not a workbook books can read (.xlsx, Office Open XML): ${(error as Error).message}`,
    );
  } finally {
    input.destroy();
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    rmSync(spool, { recursive: true, force: true });
    await new Promise((resolve) => output.end(resolve));
  }
  if (failed) throw failed;
  if (unreadable) throw unreadable;
  if (written === undefined) {
    throw new WorkbookError(
      seen.length === 0
        ? 'the workbook has no sheets'
        : `the workbook has no sheet "${choice.sheet}": its sheets are ${seen.map((s) => `"${s}"`).join(', ')}`,
    );
  }
  return { ...written, hash: hash.digest('hex') };
}

/** A sheet named by `--sheet`: as its tab shows it, or differing only in case and spaces. */
const sameSheet = (name: string, asked: string) =>
  name === asked || name.trim().toLowerCase() === asked.trim().toLowerCase();

/** The rows of a sheet as CSV lines, row N on line N; answers how many rows it has. */
async function writeRows(
  worksheet: AsyncIterable<ExcelJS.Row>,
  choice: SheetChoice,
  output: WriteStream,
): Promise<number> {
  let line = 0;
  let pending = '';
  let lost: WorkbookError | undefined;
  // Each row as wide as the widest so far, as a spreadsheet saves its rows (and csv-parse reads
  // rows of one width fastest: each other width costs it an Error object, stack and all).
  let width = 0;
  for await (const row of worksheet) {
    // Rows with nothing in them are not in the file: their lines are kept empty.
    pending += '\n'.repeat(Math.max(0, row.number - line - 1));
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      while (cells.length < column - 1) cells.push('');
      if (typeof cell.value === 'number' && Math.abs(cell.value) > Number.MAX_SAFE_INTEGER) {
        // An id of 18 digits (Wave's transactions) typed as a number has lost its last ones:
        // read on, two transactions could become one. The sheet is read to its end all the
        // same, so that exceljs removes the file it may keep it in.
        lost ??= new WorkbookError(
          `cell ${cell.address} holds the number ${numberText(cell.value, false)}, more digits than a spreadsheet keeps (15 or 16): its last ones are lost; export the file as CSV, or keep the column as text`,
        );
      }
      cells.push(csvField(cellText(cell, choice)));
    });
    width = Math.max(width, cells.length);
    while (cells.length < width) cells.push('');
    pending += `${cells.join(',')}\n`;
    line = row.number;
    if (pending.length >= 64 * 1024) {
      if (!output.write(pending)) await once(output, 'drain');
      pending = '';
    }
  }
  output.write(pending);
  if (lost) throw lost;
  return line;
}

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** A cell as the CSV saved from it reads to the readers: its text, date or number. */
function cellText(cell: ExcelJS.Cell, choice: SheetChoice): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value, choice.decimalComma ?? false);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value, choice.dateFormat);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('error' in value) return String(value.error);
  if ('formula' in value || 'sharedFormula' in value) {
    const result = value.result;
    if (typeof result === 'number' && isDateFormat(cell.numFmt))
      return dateText(excelDate(result), choice.dateFormat);
    return result === undefined || result === null
      ? ''
      : cellText({ value: result, numFmt: cell.numFmt } as ExcelJS.Cell, choice);
  }
  if ('text' in value) return String(value.text);
  return '';
}

/**
 * A number cell's decimal: the shortest that reads back as the same number (Excel writes
 * 2562.45 as 2562.4499999999998; this is "2562.45"), and a number within float noise of whole
 * cents (a formula's 0.1 + 0.2) as those cents. A true fraction of a cent stays, for the reader
 * to refuse as it would in a CSV.
 */
export function numberText(value: number, decimalComma: boolean): string {
  let text = String(value);
  if (/e|\.\d{3,}/i.test(text)) {
    const cents = value.toFixed(2);
    if (Math.abs(Number(cents) - value) <= (Math.abs(value) + 1) * 1e-12) text = cents;
    else if (/e-/i.test(text)) text = value.toFixed(20).replace(/0+$/, '');
  }
  if (text === '-0' || text === '-0.00') text = text.slice(1);
  return decimalComma ? text.replace('.', ',') : text;
}

/** A date cell's day (exceljs reads it as UTC midnight), with its time when it has one. */
function dateText(date: Date, format: DateFormat | undefined): string {
  const iso = date.toISOString();
  const [year, month, day] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
  const time = iso.slice(11, 19) === '00:00:00' ? '' : ` ${iso.slice(11, 19)}`;
  const shown =
    format === 'MM/DD/YYYY'
      ? `${month}/${day}/${year}`
      : format === 'DD/MM/YYYY'
        ? `${day}/${month}/${year}`
        : `${year}-${month}-${day}`;
  return shown + time;
}

/** A spreadsheet's day number as the date exceljs would read it (the 1900 date system). */
const excelDate = (serial: number) => new Date(Math.round((serial - 25569) * 24 * 3600) * 1000);

/** A number format that shows a date: a day or a year outside quotes and brackets. */
function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  return /[dy]/i.test(format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ''));
}
