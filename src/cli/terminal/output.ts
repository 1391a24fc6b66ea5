import type { ListPage } from '../../client/client.js';
import { csvField, spreadsheetText, tsvField } from '../../core/csv.js';
import { formatCents, type Cents } from '../../core/money.js';
import type { CliIo } from '../io.js';
import { UsageError } from '../exitCodes.js';

export const OUTPUT_FORMATS = ['table', 'json', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The first `limit` of a list fetched whole (a tree needs every parent to label its rows). */
export const firstOf = <T>(items: T[], limit: number): ListPage<T> => ({
  items: items.slice(0, limit),
  total: items.length,
});

/**
 * The output format the arguments ask for, read before anything is parsed (so that a usage
 * error is in JSON too): `--json`, `-o json`, `-ojson`, `--output json`, `--output=json`.
 */
export function requestedFormat(args: readonly string[]): string | undefined {
  let format: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === '--json') format = 'json';
    else if (arg === '-o' || arg === '--output') format = args[i + 1];
    else if (arg.startsWith('--output=')) format = arg.slice('--output='.length);
    else if (/^-o[^-]/.test(arg)) format = arg.slice(2).replace(/^=/, '');
  }
  return format;
}

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** The cell in CSV/TSV records, when it differs from the terminal's (a plain number). */
  record?: (row: T) => string;
  align?: 'left' | 'right';
  /** At a terminal too narrow for the table, left out (after the columns no row fills). */
  optional?: boolean;
}

/**
 * A column of amounts: `-17,828.24` on a terminal, `-17828.24` in records, a number that a
 * script or a spreadsheet reads as one (never grouped, so never quoted or taken for a formula).
 */
export function amountColumn<T>(header: string, cents: (row: T) => Cents): Column<T> {
  return {
    header,
    value: (row) => formatCents(cents(row)),
    record: (row) => formatCents(cents(row), { thousands: false }),
    align: 'right',
  };
}

const recordCell = <T>(column: Column<T>, row: T) => (column.record ?? column.value)(row);

export interface OutputOptions {
  json?: boolean;
  output?: string;
  color?: boolean;
}

/**
 * A value as `JSON.stringify(value, null, 2)` writes it, its lines after the first indented by
 * `depth` spaces: for JSON written piece by piece inside an outer array or object (where a value
 * with no JSON of its own, undefined, is null).
 */
export const indentedJson = (value: unknown, depth: number): string =>
  ((JSON.stringify(value, null, 2) as string | undefined) ?? 'null').replace(
    /\n/g,
    `\n${' '.repeat(depth)}`,
  );

/** How much JSON `printJsonList` gathers before it writes (characters). */
const JSON_PIECE = 1 << 20;

/**
 * Where data goes (stdout) and messages go (stderr), and in what form: a table on a terminal,
 * plain tab-separated text when piped (stable for scripts), JSON, or CSV.
 */
export class Output {
  readonly format: OutputFormat;
  readonly isTTY: boolean;
  readonly color: boolean;

  constructor(
    private readonly io: CliIo,
    options: OutputOptions,
  ) {
    const format = options.json ? 'json' : (options.output ?? 'table');
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`--output must be table, json, csv or tsv, not "${format}"`);
    }
    this.format = format as OutputFormat;
    this.isTTY = Boolean(io.stdout.isTTY);
    this.color = this.isTTY && options.color !== false && io.env.NO_COLOR === undefined;
  }

  get json(): boolean {
    return this.format === 'json';
  }

  /** A line of stderr left open (a progress bar rewritten in place), and what ends it. */
  private openLine: (() => void) | undefined;

  /**
   * Says that a line of stderr stays open until `end` (undefined: none is): a message ends it
   * first, and so has a line of its own.
   */
  holdLine(end: (() => void) | undefined): void {
    this.openLine = end;
  }

  /** A message for the person (stderr), never data. */
  note(text: string): void {
    this.openLine?.();
    this.io.stderr.write(`${text}\n`);
  }

  write(text: string): void {
    this.io.stdout.write(text);
  }

  /**
   * Waits until what was written has left (stdout to a pipe buffers what its reader has not
   * taken): a command writing records as they arrive holds no more than a piece of them.
   */
  async drained(): Promise<void> {
    const stdout = this.io.stdout as Partial<NodeJS.WriteStream>;
    if (!stdout.writableNeedDrain || typeof stdout.on !== 'function') return;
    // A reader that goes away drains nothing: its close (or error) ends the wait, and the next
    // write says so (OutputClosed).
    const events = ['drain', 'close', 'error'];
    await new Promise<void>((resolve) => {
      const done = () => {
        for (const event of events) stdout.off!(event, done);
        resolve();
      };
      for (const event of events) stdout.on!(event, done);
    });
  }

  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /**
   * A value as `printJson` writes it; a list a piece at a time, each piece taken by the reader
   * before the next is made: never one string of all of it, nor all of it waiting in a pipe
   * (10,000 transactions with their suggestions are 9 MB).
   */
  async printJsonList(value: unknown): Promise<void> {
    if (!Array.isArray(value) || value.length === 0) return this.printJson(value);
    let text = '[\n  ';
    for (const [index, item] of value.entries()) {
      const json = indentedJson(item, 2);
      text += index === 0 ? json : `,\n  ${json}`;
      if (text.length >= JSON_PIECE) {
        this.io.stdout.write(text);
        text = '';
        await this.drained();
      }
    }
    this.io.stdout.write(`${text}\n]\n`);
  }

  /**
   * How many items a list command fetches: `--all` every one, else `--limit N`, else 30 on a
   * terminal and every one in a pipe (a script gets the whole list unless it asks for less).
   */
  listLimit(flags: { limit?: string | undefined; all?: boolean | undefined }): number {
    if (flags.all) return Number.POSITIVE_INFINITY;
    if (flags.limit === undefined) return this.isTTY ? 30 : Number.POSITIVE_INFINITY;
    const limit = Number(flags.limit);
    if (!(Number.isInteger(limit) && limit >= 1)) {
      throw new UsageError(`--limit must be a whole number ≥ 1, not "${flags.limit}"`);
    }
    return limit;
  }

  /** A list's page as rows; when it is not the whole list, says so on stderr. */
  async list<T>(
    columns: Column<T>[],
    page: ListPage<T>,
    jsonValue: unknown = page.items,
  ): Promise<void> {
    await this.table(columns, page.items, jsonValue);
    this.noteCut(page.items.length, page.total);
  }

  /** Says on stderr when a list shows fewer than it has. */
  private noteCut(shown: number, total: number): void {
    if (shown < total) this.note(`books: showing ${shown} of ${total}; use --all for every one`);
  }

  /**
   * A list written page by page as it arrives (one of any length, `je list --all` on a million
   * entries): JSON and records go out as each page comes, holding one page; a table on a terminal
   * is drawn once its rows are in (it is cut at 30 unless asked otherwise).
   */
  async listPages<T>(columns: Column<T>[], pages: AsyncIterable<ListPage<T>>): Promise<void> {
    let shown = 0;
    let total = 0;
    if (this.format === 'json') {
      for await (const page of pages) {
        let text = '';
        for (const item of page.items) {
          text += `${shown++ === 0 ? '[\n' : ',\n'}  ${indentedJson(item, 2)}`;
        }
        if (text !== '') this.write(text);
        total = page.total;
      }
      this.write(shown === 0 ? '[]\n' : '\n]\n');
    } else if (this.asRecords) {
      this.writeRecords([columns.map((c) => c.header)]);
      for await (const page of pages) {
        if (page.items.length > 0) {
          this.writeRecords(page.items.map((row) => columns.map((c) => recordCell(c, row))));
        }
        shown += page.items.length;
        total = page.total;
      }
    } else {
      const items: T[] = [];
      for await (const page of pages) {
        items.push(...page.items);
        total = page.total;
      }
      return this.list(columns, { items, total });
    }
    this.noteCut(shown, total);
  }

  /**
   * Records for a spreadsheet or a script: CSV, or TSV (`--output tsv`, or any table piped), a
   * header line first; text cells that a spreadsheet would run as formulas are neutralized.
   */
  writeRecords(records: readonly (readonly string[])[]): void {
    this.io.stdout.write(this.recordsText(records));
  }

  /** Records as `writeRecords` writes them, for a command that writes them as they come. */
  recordsText(records: readonly (readonly string[])[]): string {
    const [field, separator] = this.format === 'csv' ? [csvField, ','] : [tsvField, '\t'];
    return (
      records
        .map((cells) => cells.map((c) => field(spreadsheetText(c))).join(separator))
        .join('\n') + '\n'
    );
  }

  /** The terminal's width in columns (80 when not told). */
  get width(): number {
    return (this.io.stdout as { columns?: number }).columns ?? 80;
  }

  /** Whether rows go out as records (CSV or TSV) rather than as a table on a terminal. */
  get asRecords(): boolean {
    return (
      this.format === 'csv' || this.format === 'tsv' || (this.format === 'table' && !this.isTTY)
    );
  }

  /** Rows as the chosen format; `json` prints `jsonValue` (the API's own shape). */
  async table<T>(
    columns: Column<T>[],
    rows: readonly T[],
    jsonValue: unknown = rows,
  ): Promise<void> {
    if (this.format === 'json') return this.printJsonList(jsonValue);
    if (this.asRecords) {
      this.writeRecords([
        columns.map((c) => c.header),
        ...rows.map((row) => columns.map((c) => recordCell(c, row))),
      ]);
      return;
    }
    const { default: Table } = await import('cli-table3');
    let cells = rows.map((row) => columns.map((c) => c.value(row)));
    let shown = [...columns];
    // Fitted to the terminal's width where it tells it (a terminal always does).
    const width = (this.io.stdout as { columns?: number }).columns ?? Number.POSITIVE_INFINITY;
    if (tableWidth(naturalWidths(shown, cells)) > width && rows.length > 0) {
      // Too wide: a column no row fills says nothing, and goes first; then those the command
      // calls optional (who decided, when a status and a category say what).
      const kept = columns.map(
        (column, i) => !column.optional && cells.some((row) => row[i] !== ''),
      );
      shown = columns.filter((_, i) => kept[i]);
      cells = cells.map((row) => row.filter((_, i) => kept[i]));
    }
    const table = new Table({
      head: shown.map((c) => c.header),
      colAligns: shown.map((c) => c.align ?? 'left'),
      colWidths: fittedWidths(shown, cells, width),
      style: { head: this.color ? ['cyan'] : [], border: this.color ? ['grey'] : [] },
    });
    for (const row of cells) table.push(row);
    this.io.stdout.write(`${table.toString()}\n`);
  }

  /** One record as `field: value` lines (or JSON). */
  record(fields: [string, string][], jsonValue: unknown): void {
    if (this.format === 'json') return this.printJson(jsonValue);
    if (this.format === 'csv' || this.format === 'tsv') {
      this.writeRecords([fields.map(([k]) => k), fields.map(([, v]) => v)]);
      return;
    }
    const width = Math.max(...fields.map(([k]) => k.length));
    this.io.stdout.write(fields.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n');
  }
}

/** A terminal's color codes (ESC [ … m), which take no room. */
const COLOR_CODE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The characters a cell takes on a terminal (its widest line). */
const cellWidth = (text: string) =>
  Math.max(0, ...text.split('\n').map((line) => [...line.replace(COLOR_CODE, '')].length));

/** Each column's width as its widest cell makes it, with its padding. */
const naturalWidths = <T>(columns: readonly Column<T>[], cells: readonly (readonly string[])[]) =>
  columns.map(
    (column, i) =>
      Math.max(cellWidth(column.header), ...cells.map((row) => cellWidth(row[i]!))) + 2,
  );

/** A table's width on a terminal: its columns and their borders. */
const tableWidth = (widths: readonly number[]) =>
  widths.reduce((sum, width) => sum + width, 0) + widths.length + 1;

/**
 * Each column's width (with its padding) so that a table fits the terminal: a description
 * first (to 12 characters) and a moment (to its day), then the widest texts (an account's name, a status) are shortened,
 * with an ellipsis, to no less than 6 characters; amounts, days and ids are never cut (an id
 * is copied whole). A table that cannot fit so is drawn as narrow as it can be.
 */
export function fittedWidths<T>(
  columns: readonly Column<T>[],
  cells: readonly (readonly string[])[],
  terminalWidth: number,
): number[] {
  const natural = columns.map(
    (column, i) =>
      Math.max(cellWidth(column.header), ...cells.map((row) => cellWidth(row[i]!))) + 2,
  );
  const widths = [...natural];
  const borders = columns.length + 1;
  const total = () => widths.reduce((sum, width) => sum + width, 0) + borders;
  const cuttable = columns.map(
    (column, i) =>
      (column.align ?? 'left') === 'left' &&
      !/\b(id|date)\b/i.test(column.header) &&
      !cells.every((row) => /^[0-9a-f-]{36}$/i.test(row[i]!) || row[i] === ''),
  );
  // A description gives way first (to 12 characters), and a moment to its day; then the widest
  // text, to 6.
  const stamps = columns.map(
    (_, i) =>
      cells.length > 0 &&
      cells.every((row) => /^\d{4}-\d{2}-\d{2}T/.test(row[i]!) || row[i] === ''),
  );
  const first = columns.map(
    (column, i) => /^(description|memo|text)$/i.test(column.header) || stamps[i]!,
  );
  const cut = (floorOf: (i: number) => number, only: (i: number) => boolean) => {
    while (total() > terminalWidth) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++)
        if (
          cuttable[i] &&
          only(i) &&
          widths[i]! > floorOf(i) &&
          (widest < 0 || widths[i]! > widths[widest]!)
        )
          widest = i;
      if (widest < 0) return;
      widths[widest]! -= 1;
    }
  };
  cut(
    (i) => (stamps[i] ? 10 : 12) + 2,
    (i) => first[i]!,
  );
  cut(
    () => 6 + 2,
    () => true,
  );
  return widths;
}
