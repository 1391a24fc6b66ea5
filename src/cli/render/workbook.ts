import { once } from 'node:events';
import ExcelJS from 'exceljs';
import type { GeneralLedgerRow } from './generalLedger.js';
import type { Statement } from './statements.js';
import {
  figureCells,
  figureColumns,
  packCells,
  packColumns,
  type KeyFigure,
  type PackColumn,
  type PackHeading,
} from './pack.js';

/**
 * A month-end pack as one Excel workbook, written streamed (exceljs' WorkbookWriter: each row
 * goes to the file as it is committed): a Summary sheet, then each statement on a sheet of its
 * own. Amounts are numbers with an accounting format (negatives in parentheses), percents are
 * numbers with a percent format, headings are frozen, columns sized, totals bold, accounts
 * indented under their sections, and every sheet says the entity, period, basis and when it was
 * prepared. Each figure is the statement's, the same as its `--output csv`.
 */

/** A percent (12.5) as the fraction a spreadsheet shows with a percent format (0.125). */
const asFraction = (percent: number | null) => (percent === null ? null : percent / PERCENT);
const PERCENT = 100;

/** A row of a label and its figures, as numbers in each column's format (percents as fractions). */
function figuresRow(
  sheet: ExcelJS.Worksheet,
  label: string,
  columns: PackColumn[],
  cells: (number | null)[],
): ExcelJS.Row {
  const percent = (i: number) => columns[i]?.kind === 'percent';
  const line = sheet.addRow([label, ...cells.map((c, i) => (percent(i) ? asFraction(c) : c))]);
  columns.forEach((_, i) => {
    line.getCell(i + 2).numFmt = percent(i) ? PERCENT_FORMAT : AMOUNT_FORMAT;
  });
  return line;
}

/** exceljs calls the deprecated Buffer(): its warning would reach the person, who can do nothing. */
function quietExcel(): void {
  process.noDeprecation = true;
}

export const AMOUNT_FORMAT = '#,##0.00;(#,##0.00);0.00';
export const PERCENT_FORMAT = '0.0%;-0.0%;0.0%';

/** Rows of a sheet above its column headings: entity, title, period and basis, preparation. */
const TITLE_ROWS = 4;

function headingRows(sheet: ExcelJS.Worksheet, heading: PackHeading, title: string): void {
  sheet.addRow([heading.entity]).font = { bold: true, size: 14 };
  sheet.addRow([title]).font = { bold: true, size: 12 };
  sheet.addRow([`${heading.period}, ${heading.basis} basis`]);
  sheet.addRow([`Prepared ${heading.preparedAt}`]).font = {
    italic: true,
    color: { argb: 'FF666666' },
  };
  sheet.addRow([]);
}

/** One statement on a sheet of its own. */
function statementSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  heading: PackHeading,
  statement: Statement,
): void {
  const columns = packColumns(statement);
  const labelWidth = Math.min(
    60,
    Math.max(24, ...statement.rows.map((row) => row.label.length + 2 * row.depth + 2)),
  );
  const sheet = workbook.addWorksheet(name, {
    views: [{ state: 'frozen', xSplit: 1, ySplit: TITLE_ROWS + 2 }],
    pageSetup: { orientation: columns.length > 4 ? 'landscape' : 'portrait', fitToWidth: 1 },
  });
  sheet.columns = [
    { width: labelWidth },
    ...columns.map((c) => ({ width: Math.max(14, c.heading.length + 2) })),
  ];
  headingRows(sheet, heading, statement.title);
  const header = sheet.addRow(['', ...columns.map((c) => c.heading)]);
  header.font = { bold: true };
  header.alignment = { horizontal: 'right' };
  header.getCell(1).alignment = { horizontal: 'left' };
  header.commit();
  for (const row of statement.rows) {
    const line = figuresRow(sheet, row.label, columns, packCells(statement, row));
    line.getCell(1).alignment = { indent: row.depth * 2 };
    if (row.kind !== 'line') line.font = { bold: true };
    line.commit();
  }
  sheet.commit();
}

/** The Summary sheet: the key figures against their comparison, and what the pack holds. */
function summarySheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  heading: PackHeading,
  figures: KeyFigure[],
  options: { comparisonLabel?: string | undefined; empty: boolean; sheets: string[] },
): void {
  const sheet = workbook.addWorksheet('Summary', {
    views: [{ state: 'frozen', ySplit: TITLE_ROWS + 2 }],
  });
  sheet.columns = [{ width: 32 }, { width: 16 }, { width: 16 }, { width: 16 }, { width: 10 }];
  headingRows(sheet, heading, 'Summary');
  const columns = figureColumns(options.comparisonLabel);
  const header = sheet.addRow(['', ...columns.map((column) => column.heading)]);
  header.font = { bold: true };
  header.commit();
  for (const figure of figures) {
    const cells = figureCells(figure, options.comparisonLabel !== undefined);
    const line = figuresRow(sheet, figure.label, columns, cells);
    line.commit();
  }
  sheet.addRow([]);
  if (options.empty)
    sheet.addRow(['No entries in the books for this period.']).font = { bold: true };
  sheet.addRow([`Sheets: ${options.sheets.join(', ')}`]);
  sheet.commit();
}

/**
 * Waits while the sheet's compressor is behind. exceljs hands each sheet's XML to the zip
 * without heeding backpressure (its StreamBuf ignores what write() returns), so a sheet of a
 * million rows piled up hundreds of MB ahead of the deflate; its destination still says when it
 * needs draining. (Reached through exceljs' own fields: if they are not there, no wait.)
 */
async function compressorCaughtUp(sheet: ExcelJS.Worksheet): Promise<void> {
  const destination = (
    sheet as unknown as {
      stream?: { pipes?: (NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } })[] };
    }
  ).stream?.pipes?.[0];
  if (destination?._writableState?.needDrain) await once(destination, 'drain');
}

/** Rows between checks that the compressor keeps up. */
const ROWS_PER_CHECK = 1000;

/** The General Ledger sheet, filled line by line as the ledger streams in. */
async function generalLedgerSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  heading: PackHeading,
  rows: AsyncIterable<GeneralLedgerRow>,
): Promise<void> {
  const sheet = workbook.addWorksheet('General Ledger', {
    views: [{ state: 'frozen', ySplit: TITLE_ROWS + 2 }],
    pageSetup: { orientation: 'landscape', fitToWidth: 1 },
  });
  sheet.columns = [{ width: 12 }, { width: 48 }, { width: 14 }, { width: 14 }, { width: 16 }];
  headingRows(sheet, heading, 'General Ledger');
  const header = sheet.addRow(['Date', 'Description', 'Debit', 'Credit', 'Balance']);
  header.font = { bold: true };
  header.commit();
  let written = 0;
  for await (const posting of rows) {
    if (++written % ROWS_PER_CHECK === 0) await compressorCaughtUp(sheet);
    if (posting.kind === 'opening') {
      const title = sheet.addRow([`${posting.accountCode} ${posting.accountName}`]);
      title.font = { bold: true };
      title.commit();
    }
    const row = sheet.addRow([
      posting.date === '' ? null : new Date(`${posting.date}T00:00:00Z`),
      posting.description,
      posting.debit,
      posting.credit,
      posting.balance,
    ]);
    row.getCell(1).numFmt = 'yyyy-mm-dd';
    row.getCell(2).alignment = { indent: 1 };
    for (const column of [3, 4, 5]) row.getCell(column).numFmt = AMOUNT_FORMAT;
    if (posting.kind === 'closing') row.font = { bold: true };
    row.commit();
  }
  sheet.commit();
}

/**
 * Writes the workbook to `file`: the Summary, each statement, and with `generalLedger` a General
 * Ledger sheet filled account by account as they come (nothing of it held).
 */
export async function writePackWorkbook(
  file: string,
  heading: PackHeading,
  content: {
    figures: KeyFigure[];
    comparisonLabel?: string | undefined;
    empty: boolean;
    statements: { sheet: string; statement: Statement }[];
    generalLedger?: AsyncIterable<GeneralLedgerRow> | undefined;
  },
): Promise<void> {
  quietExcel();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'books';
  const sheets = [
    ...content.statements.map((s) => s.sheet),
    ...(content.generalLedger ? ['General Ledger'] : []),
  ];
  summarySheet(workbook, heading, content.figures, {
    comparisonLabel: content.comparisonLabel,
    empty: content.empty,
    sheets,
  });
  for (const { sheet, statement } of content.statements) {
    statementSheet(workbook, sheet, heading, statement);
  }
  if (content.generalLedger) await generalLedgerSheet(workbook, heading, content.generalLedger);
  await workbook.commit();
}

/** A report of a few statements of the pack's kind as a workbook: a sheet each, as the pack's. */
export async function writeReportWorkbook(
  file: string,
  heading: PackHeading,
  statements: { sheet: string; statement: Statement }[],
): Promise<void> {
  quietExcel();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'books';
  for (const { sheet, statement } of statements)
    statementSheet(workbook, sheet, heading, statement);
  await workbook.commit();
}
