import { csvField } from '../core/csv.js';
import type { CliIo } from './io.js';
import { UsageError } from './exitCodes.js';

export type OutputFormat = 'table' | 'json' | 'csv';

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  align?: 'left' | 'right';
}

export interface OutputOptions {
  json?: boolean;
  output?: string;
  color?: boolean;
}

/**
 * How many items a list command fetches: `--all` every one, else `--limit N`, else 30 on a
 * terminal and 100 in a pipe.
 */
export function listLimit(flags: { limit?: string; all?: boolean }, isTTY: boolean): number {
  if (flags.all) return Number.POSITIVE_INFINITY;
  const limit = Number(flags.limit ?? (isTTY ? 30 : 100));
  if (!(Number.isInteger(limit) && limit >= 1)) {
    throw new UsageError('--limit must be a whole number ≥ 1');
  }
  return limit;
}

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
    if (format !== 'table' && format !== 'json' && format !== 'csv') {
      throw new UsageError(`--output must be table, json or csv, not "${format}"`);
    }
    this.format = format;
    this.isTTY = Boolean(io.stdout.isTTY);
    this.color = this.isTTY && options.color !== false && io.env.NO_COLOR === undefined;
  }

  get json(): boolean {
    return this.format === 'json';
  }

  /** A message for the person (stderr), never data. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  write(text: string): void {
    this.io.stdout.write(text);
  }

  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Rows as the chosen format; `json` prints `jsonValue` (the API's own shape). */
  async table<T>(
    columns: Column<T>[],
    rows: readonly T[],
    jsonValue: unknown = rows,
  ): Promise<void> {
    if (this.format === 'json') return this.printJson(jsonValue);
    if (this.format === 'csv') {
      const lines = [
        columns.map((c) => csvField(c.header)),
        ...rows.map((row) => columns.map((c) => csvField(c.value(row)))),
      ];
      this.io.stdout.write(lines.map((fields) => fields.join(',')).join('\n') + '\n');
      return;
    }
    if (!this.isTTY) {
      // Piped: a header line and tab-separated fields, nothing decorative.
      const lines = [
        columns.map((c) => c.header),
        ...rows.map((row) => columns.map((c) => c.value(row))),
      ];
      this.io.stdout.write(lines.map((fields) => fields.join('\t')).join('\n') + '\n');
      return;
    }
    const { default: Table } = await import('cli-table3');
    const table = new Table({
      head: columns.map((c) => c.header),
      colAligns: columns.map((c) => c.align ?? 'left'),
      style: { head: this.color ? ['cyan'] : [], border: this.color ? ['grey'] : [] },
    });
    for (const row of rows) table.push(columns.map((c) => c.value(row)));
    this.io.stdout.write(`${table.toString()}\n`);
  }

  /** One record as `field: value` lines (or JSON). */
  record(fields: [string, string][], jsonValue: unknown): void {
    if (this.format === 'json') return this.printJson(jsonValue);
    if (this.format === 'csv') {
      this.io.stdout.write(
        `${fields.map(([k]) => csvField(k)).join(',')}\n${fields.map(([, v]) => csvField(v)).join(',')}\n`,
      );
      return;
    }
    const width = Math.max(...fields.map(([k]) => k.length));
    this.io.stdout.write(fields.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n');
  }
}
