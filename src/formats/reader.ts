import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chartFiller, codeRangeFiller, readChartFile } from './chart/chartFile.js';
import type { LedgerFormat } from './options.js';
import { encodingShown, type ReadOptions, type ReadResult } from './format.js';
import { reportProblem, type LedgerEntry, type LedgerLine, type Problem } from './ledgerCsv.js';
import { FORMATS, formatTold } from './registry.js';
import {
  looksLikeOldWorkbook,
  looksLikeWorkbook,
  WorkbookError,
  writeSheetAsCsv,
  type SheetWritten,
} from './common/workbook.js';

export { LEDGER_FORMATS, type LedgerFormat } from './options.js';
export { newReadResult, type ReadOptions, type ReadResult } from './format.js';

/** The file's first 4 kB, to tell formats apart; '' when unreadable. */
function headOf(file: string): string {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, 'r');
    const head = Buffer.alloc(4096);
    const read = readSync(descriptor, head, 0, head.length, 0);
    return head.subarray(0, read).toString('latin1');
  } catch {
    return '';
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The format a file is in: the one given, else the one its first bytes show. */
export function formatOf(
  file: string,
  given: LedgerFormat | undefined,
): Exclude<LedgerFormat, 'auto'> {
  return formatTold(headOf(file), given).name;
}

/**
 * Streams the entries of a CSV general ledger, never holding the file: problems (with their
 * file line numbers) go to `result.problems` and reading goes on, so one pass finds them all;
 * a CSV error, or bytes that are not text, end the reading there. `result` is complete once the
 * iteration ends.
 */
export async function* readLedger(
  file: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  const head = headOf(file);
  if (looksLikeOldWorkbook(head)) {
    reportProblem(result, {
      fileLine: 1,
      message:
        'an Excel 97-2003 workbook (.xls): books reads .xlsx workbooks and CSV; save it as either',
    });
  } else if (looksLikeWorkbook(head)) {
    yield* readWorkbook(file, options, result);
  } else if (options.sheet !== undefined) {
    reportProblem(result, {
      fileLine: 1,
      message: `--sheet names a sheet of an .xlsx workbook, and this file is not one`,
    });
  } else {
    yield* readText(file, head, options, result);
  }
}

/**
 * An .xlsx workbook: its sheet written out as CSV text in a directory of its own (removed
 * however the reading ends), then read as that CSV; the hash is the workbook's.
 */
async function* readWorkbook(
  file: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'books-sheet-'));
  try {
    const csv = path.join(directory, 'sheet.csv');
    let written: SheetWritten;
    try {
      written = await writeSheetAsCsv(
        file,
        {
          ...(options.sheet !== undefined && { sheet: options.sheet }),
          ...(options.dateFormat !== undefined && { dateFormat: options.dateFormat }),
          ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
        },
        csv,
      );
    } catch (error) {
      if (!(error instanceof WorkbookError)) throw error;
      reportProblem(result, { fileLine: 1, message: error.message });
      return;
    }
    const head = headOf(csv);
    const format = formatTold(head, options.format);
    if (!format.fromSheet) {
      const readable = FORMATS.filter((f) => f.fromSheet && f.name !== 'books').map((f) => f.title);
      reportProblem(result, {
        fileLine: 1,
        message: `sheet "${written.sheet}" reads as ${format.name}: a workbook is read as a books CSV, or as a ${readable.join(', ')}; export the ${format.name} file as it comes`,
      });
      return;
    }
    result.notes.push(
      `read sheet "${written.sheet}" of the workbook (${written.rows} rows) as the sheet saved as CSV reads: dates from date cells, amounts from number cells`,
    );
    const { sheet: _sheet, encoding: _encoding, ...textOptions } = options;
    yield* readText(csv, head, textOptions, result, true);
    result.hash = written.hash;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A text export (CSV, IIF, a journal's CSV), its first 4 kB in `head`. */
async function* readText(
  file: string,
  head: string,
  options: ReadOptions,
  result: ReadResult,
  /** It is a workbook's sheet written out: its encoding is no news. */
  fromSheet = false,
): AsyncGenerator<LedgerEntry> {
  const fillers: ((line: LedgerLine) => Problem | undefined)[] = [];
  if (options.chartFile !== undefined) {
    const chart = readChartFile(options.chartFile);
    for (const problem of chart.problems) reportProblem(result, problem);
    if (chart.problems.length > 0) return;
    fillers.push(chartFiller(chart.accounts, options.chartFile));
    result.notes.push(
      `${chart.accounts.length} accounts named, coded and typed by ${options.chartFile}`,
    );
  }
  if (options.codeRanges !== undefined) fillers.push(codeRangeFiller(options.codeRanges));
  const format = formatTold(head, options.format);
  if (format.detect !== undefined && options.format !== format.name)
    result.notes.push(format.toldBy);
  const encoding =
    format.encodingSaid === false || fromSheet
      ? undefined
      : format.encodingSaid
        ? format.encodingSaid(head, options)
        : `encoding ${encodingShown(head, options.encoding)}`;
  if (encoding !== undefined) result.notes.push(encoding);
  const entries = format.read(file, head, options, result);
  if (fillers.length === 0) {
    yield* entries;
    return;
  }
  for await (const entry of entries) {
    for (const line of entry.lines) {
      for (const fill of fillers) {
        const problem = fill(line);
        if (problem) reportProblem(result, problem);
      }
    }
    yield entry;
  }
}
