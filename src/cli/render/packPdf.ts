import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import PDFDocument from 'pdfkit';
import { displayPercent } from './comparedCells.js';
import type { GeneralLedgerRow } from './generalLedger.js';
import {
  figureCells,
  figureColumns,
  packCells,
  packColumns,
  type KeyFigure,
  type MonthResult,
  type PackColumn,
  type PackHeading,
  type Paper,
} from './pack.js';
import { PdfText, type TextStyle } from './pdfText.js';
import {
  displayAmount,
  monthLabel,
  monthName,
  type Statement,
  type StatementRow,
} from './statements.js';

/**
 * A month-end pack as one PDF, drawn with pdfkit (no browser): a cover (entity, period, basis,
 * date of preparation, contents with page numbers), a summary page (the key figures against
 * their comparison and a chart, drawn as vectors, of income, expenses and net income by month
 * over the trailing twelve months, with its figures below it as text), then each statement on
 * pages of its own, its headings repeated on every page, and with `--general-ledger` the
 * general ledger, drawn as it streams in (pages go to the file as they are finished). Every
 * page but the cover has a footer with the entity, the pack and the page number. All text is
 * text (a PDF-to-text tool finds each figure); the fonts are embedded subsets (pdfText.ts).
 */

/** Page sizes in points. */
const PAGE_SIZES: Record<Paper, [number, number]> = {
  a4: [595.28, 841.89],
  letter: [612, 792],
};

const MARGIN = 48;
const FOOTER_GAP = 28;
const BODY_SIZE = 8.5;
const ROW_HEIGHT = 13.5;
/** Where a statement's rows start: under the title block and the column headings. */
const TABLE_TOP = 122;
const INDENT = 10;
const GREY = '#666666';
const RULE = '#999999';

const TITLE: TextStyle = { size: 13, bold: true };
const SUBTITLE: TextStyle = { size: 11, bold: true };
const NOTE: TextStyle = { size: 8, color: GREY };
const BODY: TextStyle = { size: BODY_SIZE };
const BOLD: TextStyle = { size: BODY_SIZE, bold: true };

export interface PdfPack {
  heading: PackHeading;
  /** When it was prepared (the document's creation date). */
  preparedAt: Date;
  /** The period as the cover names it: `January 2026`. */
  periodTitle: string;
  paper: Paper;
  figures: KeyFigure[];
  comparisonLabel?: string | undefined;
  empty: boolean;
  /** The trailing twelve months, oldest first. */
  months: MonthResult[];
  statements: { sheet: string; statement: Statement }[];
  generalLedger?: AsyncIterable<GeneralLedgerRow> | undefined;
}

/** The rows of a statement, page by page; a heading never ends a page. */
export function paginate<T extends { kind: string }>(rows: readonly T[], perPage: number): T[][] {
  const pages: T[][] = [];
  let page: T[] = [];
  for (const row of rows) {
    if (page.length === perPage) {
      const carried: T[] = [];
      while (page.length > 1 && page[page.length - 1]!.kind === 'heading')
        carried.unshift(page.pop()!);
      pages.push(page);
      page = carried;
    }
    page.push(row);
  }
  if (page.length > 0 || pages.length === 0) pages.push(page);
  return pages;
}

/** A step for an axis of about `ticks` intervals over `span`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(span: number, ticks = 5): number {
  if (!(span > 0)) return 1;
  const raw = span / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw)!;
  return step * power;
}

class PackDocument {
  readonly doc: PDFKit.PDFDocument;
  readonly text: PdfText;
  readonly width: number;
  readonly height: number;
  page = 0;

  constructor(
    readonly pack: PdfPack,
    readonly title: string,
  ) {
    const [width, height] = PAGE_SIZES[pack.paper];
    this.width = width;
    this.height = height;
    this.doc = new PDFDocument({
      size: [width, height],
      margin: MARGIN,
      autoFirstPage: false,
      // No default font: pdfkit would load its Helvetica, and a default of our own would be
      // reopened on every switch back to it (pdfkit caches it under another key).
      font: null as unknown as string,
      fontLayoutCache: false,
      compress: true,
      info: {
        Title: `${pack.heading.entity}: ${title}`,
        Author: 'books',
        Creator: 'books',
        Subject: `${pack.heading.period}, ${pack.heading.basis} basis`,
        CreationDate: pack.preparedAt,
      },
      displayTitle: true,
      lang: 'en',
    } as PDFKit.PDFDocumentOptions);
    this.text = new PdfText(this.doc);
  }

  get right(): number {
    return this.width - MARGIN;
  }

  get bottom(): number {
    return this.height - MARGIN - FOOTER_GAP + ROW_HEIGHT;
  }

  /** Rows of a table that fit on a page under the title block. */
  get rowsPerPage(): number {
    return Math.floor((this.bottom - TABLE_TOP) / ROW_HEIGHT);
  }

  /** A new page, with the footer (all but the cover). */
  newPage(footer = true): void {
    this.doc.addPage();
    this.page += 1;
    if (!footer) return;
    const y = this.height - MARGIN;
    this.doc
      .moveTo(MARGIN, y - 6)
      .lineTo(this.right, y - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    this.text.draw(`${this.pack.heading.entity} · ${this.title}`, MARGIN, y, {
      ...NOTE,
      width: this.right - MARGIN - 80,
    });
    this.text.draw(`Page ${this.page}`, this.right, y, { ...NOTE, align: 'right' });
  }

  /** The block at the top of a page: entity, what the page holds, the period and basis. */
  titleBlock(title: string): void {
    const { heading } = this.pack;
    this.text.draw(heading.entity, MARGIN, MARGIN, { ...TITLE, width: this.right - MARGIN });
    this.text.draw(title, MARGIN, MARGIN + 18, SUBTITLE);
    this.text.draw(
      `${heading.period}, ${heading.basis} basis · prepared ${heading.preparedAt}`,
      MARGIN,
      MARGIN + 34,
      NOTE,
    );
  }

  rule(x1: number, x2: number, y: number, weight = 0.5): void {
    this.doc.moveTo(x1, y).lineTo(x2, y).lineWidth(weight).strokeColor('#000000').stroke();
  }

  /** Lets the file catch up with the pages drawn (a general ledger can be thousands). */
  async drained(out: NodeJS.WritableStream & { writableNeedDrain: boolean }): Promise<void> {
    if (out.writableNeedDrain) await once(out, 'drain');
  }
}

/** Column positions of a table: the label's width and each value column's edges. */
interface Layout {
  labelWidth: number;
  lefts: number[];
  rights: number[];
}

/** Value columns as wide as their widest cell (at least 52 pt), from the right; the label gets the rest. */
function tableLayout(pdf: PackDocument, columns: string[][]): Layout {
  const lefts: number[] = [];
  const rights: number[] = [];
  let x = pdf.right;
  for (const cells of [...columns].reverse()) {
    rights.unshift(x);
    x -= Math.max(52, ...cells.map((cell) => pdf.text.width(cell, BOLD) + 12));
    lefts.unshift(x);
  }
  return { labelWidth: Math.max(60, x - MARGIN - 8), lefts, rights };
}

const cellText = (column: PackColumn, value: number | null) =>
  column.kind === 'percent' ? displayPercent(value) : displayAmount(value);

/** The column headings of a table, right-aligned over their columns, and a rule. */
function columnHeadings(pdf: PackDocument, layout: Layout, headings: string[], y: number): void {
  headings.forEach((heading, i) => {
    pdf.text.draw(heading, layout.rights[i]!, y, { ...BOLD, align: 'right' });
  });
  pdf.rule(MARGIN, pdf.right, y + ROW_HEIGHT - 2);
}

/** One row of a table: the label indented by depth, the values right-aligned. */
function tableRow(
  pdf: PackDocument,
  layout: Layout,
  row: { label: string; depth: number; kind: string },
  cells: string[],
  y: number,
): void {
  const style = row.kind === 'line' ? BODY : BOLD;
  const indent = row.depth * INDENT;
  pdf.text.draw(row.label, MARGIN + indent, y, { ...style, width: layout.labelWidth - indent });
  cells.forEach((cell, i) => {
    pdf.text.draw(cell, layout.rights[i]! - 2, y, { ...style, align: 'right' });
  });
  if (row.kind === 'total' && cells.some(Boolean)) {
    pdf.rule((layout.lefts[0] ?? pdf.right) + 8, pdf.right, y - 1.5, 0.4);
  }
}

/** One statement over as many pages as it needs, its headings on each. */
function statementPages(pdf: PackDocument, sheet: string, statement: Statement): void {
  const columns = packColumns(statement);
  const cells = (row: StatementRow) =>
    packCells(statement, row).map((value, i) => cellText(columns[i]!, value));
  const rendered = statement.rows.map((row) => ({ row, cells: cells(row) }));
  const layout = tableLayout(
    pdf,
    columns.map((column, i) => [column.heading, ...rendered.map((r) => r.cells[i] ?? '')]),
  );
  const pages = paginate(
    rendered.map((r) => ({ ...r, kind: r.row.kind })),
    pdf.rowsPerPage,
  );
  pages.forEach((page, i) => {
    pdf.newPage();
    pdf.titleBlock(i === 0 ? sheet : `${sheet} (continued)`);
    columnHeadings(
      pdf,
      layout,
      columns.map((c) => c.heading),
      TABLE_TOP - ROW_HEIGHT - 4,
    );
    page.forEach(({ row, cells: rowCells }, n) => {
      tableRow(pdf, layout, row, rowCells, TABLE_TOP + n * ROW_HEIGHT);
    });
  });
}

/** How many pages a statement takes (for the contents, before anything is drawn). */
const pagesOf = (pdf: PackDocument, statement: Statement) =>
  paginate(statement.rows, pdf.rowsPerPage).length;

function cover(pdf: PackDocument, contents: [string, number][]): void {
  const { pack } = pdf;
  pdf.newPage(false);
  const width = pdf.right - MARGIN;
  let y = pdf.height * 0.28;
  pdf.text.draw('Report pack', MARGIN, y, { size: 12, color: GREY });
  y += 24;
  let size = 26;
  while (size > 12 && pdf.text.width(pack.heading.entity, { size, bold: true }) > width) size -= 1;
  pdf.text.draw(pack.heading.entity, MARGIN, y, { size, bold: true, width });
  y += size + 14;
  pdf.text.draw(pack.periodTitle, MARGIN, y, { size: 16 });
  y += 26;
  const lines = [
    `${pack.heading.period}, ${pack.heading.basis} basis`,
    ...(pack.comparisonLabel ? [`Compared with the ${pack.comparisonLabel.toLowerCase()}`] : []),
    `Prepared ${pack.heading.preparedAt}`,
  ];
  for (const line of lines) {
    pdf.text.draw(line, MARGIN, y, { size: 10, color: GREY });
    y += 15;
  }
  if (pack.empty) {
    y += 10;
    pdf.text.draw('No entries in the books for this period.', MARGIN, y, { size: 11, bold: true });
    y += 15;
  }
  y += 30;
  pdf.text.draw('Contents', MARGIN, y, { size: 10, bold: true });
  y += 18;
  for (const [title, page] of contents) {
    pdf.text.draw(title, MARGIN, y, { size: 10 });
    pdf.text.draw(String(page), MARGIN + 260, y, { size: 10, align: 'right' });
    y += 15;
  }
}

/** An axis label: whole amounts with thousands, decimals only when the step has them. */
const axisLabel = (value: number, step: number) =>
  value.toLocaleString('en-US', {
    minimumFractionDigits: step < 1 ? 2 : 0,
    maximumFractionDigits: step < 1 ? 2 : 0,
  });

const SERIES = {
  income: { label: 'Income', color: '#2E7D5B' },
  expenses: { label: 'Expenses', color: '#C0504D' },
  netIncome: { label: 'Net income', color: '#1F4E79' },
};

/** The chart: income and expenses as bars, net income as a line with points, by month. */
function chart(pdf: PackDocument, months: MonthResult[], top: number, height: number): void {
  const { doc } = pdf;
  const values = months.flatMap((m) => [m.income, m.expenses, m.netIncome]);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const step = niceStep(high - low || 1);
  const min = Math.floor(low / step) * step;
  const max = Math.max(Math.ceil(high / step) * step, min + step);
  const left = MARGIN + 62;
  const width = pdf.right - left;
  const y = (value: number) => top + ((max - value) / (max - min)) * height;
  for (let tick = min; tick <= max + step / 2; tick += step) {
    doc
      .moveTo(left, y(tick))
      .lineTo(pdf.right, y(tick))
      .lineWidth(0.3)
      .strokeColor('#DDDDDD')
      .stroke();
    pdf.text.draw(axisLabel(tick, step), left - 6, y(tick) - 4, {
      size: 7,
      color: GREY,
      align: 'right',
    });
  }
  const slot = width / Math.max(1, months.length);
  const bar = slot * 0.3;
  months.forEach((month, i) => {
    const x = left + i * slot + slot * 0.18;
    for (const [n, key] of (['income', 'expenses'] as const).entries()) {
      const value = month[key];
      if (value === 0) continue;
      const from = y(Math.max(0, value));
      doc.rect(x + n * bar, from, bar, Math.abs(y(value) - y(0))).fill(SERIES[key].color);
    }
    pdf.text.draw(monthName(month.month), left + i * slot + slot / 2 - 7, top + height + 4, {
      size: 7,
      color: GREY,
    });
    if (i === 0 || month.month.endsWith('-01')) {
      pdf.text.draw(month.month.slice(0, 4), left + i * slot + slot / 2 - 9, top + height + 13, {
        size: 7,
        color: GREY,
      });
    }
  });
  doc.moveTo(left, y(0)).lineTo(pdf.right, y(0)).lineWidth(0.8).strokeColor('#000000').stroke();
  const points = months.map((m, i) => [left + i * slot + slot / 2, y(m.netIncome)] as const);
  points.forEach(([px, py], i) => (i === 0 ? doc.moveTo(px, py) : doc.lineTo(px, py)));
  doc.lineWidth(1.5).strokeColor(SERIES.netIncome.color).stroke();
  for (const [px, py] of points) doc.circle(px, py, 2.2).fill(SERIES.netIncome.color);
  let x = left;
  const legendY = top + height + 28;
  for (const series of Object.values(SERIES)) {
    doc.rect(x, legendY + 1, 8, 8).fill(series.color);
    pdf.text.draw(series.label, x + 12, legendY, { size: 8 });
    x += 24 + pdf.text.width(series.label, { size: 8 });
  }
}

function summaryPage(pdf: PackDocument): void {
  const { pack } = pdf;
  pdf.newPage();
  pdf.titleBlock('Summary');
  const compared = pack.comparisonLabel !== undefined;
  const columns = figureColumns(pack.comparisonLabel);
  const rows = pack.figures.map((figure) => ({
    row: { label: figure.label, depth: 0, kind: 'line' },
    cells: figureCells(figure, compared).map((value, i) => cellText(columns[i]!, value)),
  }));
  const layout = tableLayout(
    pdf,
    columns.map((column, i) => [column.heading, ...rows.map((r) => r.cells[i] ?? '')]),
  );
  let y = TABLE_TOP - ROW_HEIGHT - 4;
  columnHeadings(
    pdf,
    layout,
    columns.map((c) => c.heading),
    y,
  );
  y = TABLE_TOP;
  for (const { row, cells } of rows) {
    tableRow(pdf, layout, row, cells, y);
    y += ROW_HEIGHT;
  }
  if (pack.empty) {
    y += 6;
    pdf.text.draw('No entries in the books for this period.', MARGIN, y, BOLD);
    y += ROW_HEIGHT;
  }
  y += 18;
  const months = pack.months;
  const span =
    months.length === 0
      ? ''
      : `, ${monthLabel(months[0]!.month)} to ${monthLabel(months.at(-1)!.month)}`;
  pdf.text.draw(`Income, expenses and net income by month${span}`, MARGIN, y, SUBTITLE);
  y += 24;
  const chartHeight = Math.min(220, pdf.height * 0.26);
  chart(pdf, months, y, chartHeight);
  y += chartHeight + 52;
  // The chart's figures as text, so that every amount drawn can also be read and found.
  const monthColumns: PackColumn[] = Object.values(SERIES).map((s) => ({
    heading: s.label,
    kind: 'amount',
  }));
  const monthRows = months.map((m) => ({
    row: { label: monthLabel(m.month), depth: 0, kind: 'line' },
    cells: [m.income, m.expenses, m.netIncome].map((v) => displayAmount(v)),
  }));
  const monthLayout = tableLayout(
    pdf,
    monthColumns.map((column, i) => [column.heading, ...monthRows.map((r) => r.cells[i]!)]),
  );
  columnHeadings(
    pdf,
    monthLayout,
    monthColumns.map((c) => c.heading),
    y,
  );
  y += ROW_HEIGHT + 2;
  for (const { row, cells } of monthRows) {
    tableRow(pdf, monthLayout, row, cells, y);
    y += ROW_HEIGHT - 1.5;
  }
}

const GENERAL_LEDGER_HEADINGS = ['Debit', 'Credit', 'Balance'];
/** Widest amount a general ledger cell is given room for: (999,999,999.99). */
const WIDEST_AMOUNT = '(999,999,999.99)';

/** The general ledger, page after page as its lines arrive; an account's title repeated. */
async function generalLedgerPages(
  pdf: PackDocument,
  rows: AsyncIterable<GeneralLedgerRow>,
  out: NodeJS.WritableStream & { writableNeedDrain: boolean },
): Promise<void> {
  const amountWidth = pdf.text.width(WIDEST_AMOUNT, BOLD) + 12;
  const rights = [pdf.right - 2 * amountWidth, pdf.right - amountWidth, pdf.right];
  const dateWidth = pdf.text.width('2026-12-31', BODY) + 10;
  const description = MARGIN + dateWidth;
  const descriptionWidth = rights[0]! - amountWidth - description - 6;
  const perPage = pdf.rowsPerPage;
  let line = 0;
  /** The account whose lines are being drawn ('' between accounts). */
  let account = '';
  const startPage = async (continued: boolean) => {
    await pdf.drained(out);
    pdf.newPage();
    pdf.titleBlock(continued ? 'General Ledger (continued)' : 'General Ledger');
    const y = TABLE_TOP - ROW_HEIGHT - 4;
    pdf.text.draw('Date', MARGIN, y, BOLD);
    pdf.text.draw('Description', description, y, BOLD);
    GENERAL_LEDGER_HEADINGS.forEach((heading, i) => {
      pdf.text.draw(heading, rights[i]!, y, { ...BOLD, align: 'right' });
    });
    pdf.rule(MARGIN, pdf.right, y + ROW_HEIGHT - 2);
    line = 0;
    if (continued && account !== '') {
      pdf.text.draw(`${account} (continued)`, MARGIN, TABLE_TOP, { ...BOLD, color: GREY });
      line = 1;
    }
  };
  /** The top of the next line, on a new page when this one is full. */
  const place = async () => {
    if (line >= perPage) await startPage(true);
    return TABLE_TOP + line++ * ROW_HEIGHT;
  };
  await startPage(false);
  let empty = true;
  for await (const row of rows) {
    empty = false;
    if (row.kind === 'opening') {
      // A blank line between accounts; an account's title never alone at a page's foot.
      if (line > 0) line = line + 3 > perPage ? perPage : line + 1;
      const title = `${row.accountCode} ${row.accountName}`;
      pdf.text.draw(title, MARGIN, await place(), { ...BOLD, width: pdf.right - MARGIN });
      account = title;
    }
    const y = await place();
    const style = row.kind === 'entry' ? BODY : BOLD;
    if (row.date) pdf.text.draw(row.date, MARGIN, y, style);
    pdf.text.draw(row.description, description, y, { ...style, width: descriptionWidth });
    [row.debit, row.credit, row.balance].forEach((amount, i) => {
      if (amount !== null) {
        pdf.text.draw(displayAmount(amount), rights[i]! - 2, y, { ...style, align: 'right' });
      }
    });
    if (row.kind === 'closing') {
      pdf.rule(rights[2]! - amountWidth + 8, pdf.right, y - 1.5, 0.4);
      account = '';
    }
  }
  if (empty) pdf.text.draw('No postings in this period.', MARGIN, TABLE_TOP, BODY);
}

/**
 * Writes the pack's PDF to `file`. The cover's contents know every statement's pages before
 * any is drawn (rows have one height, cut to fit rather than wrapped); the general ledger, last,
 * starts on the page after them.
 */
export async function writePackPdf(file: string, pack: PdfPack): Promise<void> {
  const pdf = new PackDocument(pack, 'Report pack');
  const out = createWriteStream(file);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  pdf.doc.on('data', (chunk: Buffer) => out.write(chunk));
  const work = (async () => {
    const contents: [string, number][] = [['Summary', 2]];
    let page = 3;
    for (const { sheet, statement } of pack.statements) {
      contents.push([sheet, page]);
      page += pagesOf(pdf, statement);
    }
    if (pack.generalLedger) contents.push(['General Ledger', page]);
    cover(pdf, contents);
    summaryPage(pdf);
    for (const { sheet, statement } of pack.statements) statementPages(pdf, sheet, statement);
    if (pack.generalLedger) await generalLedgerPages(pdf, pack.generalLedger, out);
    const ended = once(pdf.doc, 'end');
    pdf.doc.end();
    await ended;
    out.end();
    await once(out, 'finish');
  })();
  await Promise.race([work, failed]);
}

/**
 * A report of a few statements of the pack's kind (a reconciliation, a close review) as one
 * PDF in the pack's style: each statement on its pages, headed and footed as the pack's are,
 * without the pack's cover and summary.
 */
export async function writeReportPdf(
  file: string,
  report: Pick<PdfPack, 'heading' | 'preparedAt' | 'paper'> & {
    title: string;
    statements: { sheet: string; statement: Statement }[];
  },
): Promise<void> {
  const pdf = new PackDocument(
    { ...report, periodTitle: report.heading.period, figures: [], empty: false, months: [] },
    report.title,
  );
  const out = createWriteStream(file);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  pdf.doc.on('data', (chunk: Buffer) => out.write(chunk));
  const work = (async () => {
    for (const { sheet, statement } of report.statements) statementPages(pdf, sheet, statement);
    const ended = once(pdf.doc, 'end');
    pdf.doc.end();
    await ended;
    out.end();
    await once(out, 'finish');
  })();
  await Promise.race([work, failed]);
}
