import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { csvField } from '../core/csv.js';
import { nameKey } from '../core/names.js';
import { namedColumns } from './formats/csvRecords.js';
import type { FileAccount } from './accounts.js';
import { accountTypeOf } from './options.js';
import { accountKey, type LedgerLine, type Problem } from './formats/ledgerCsv.js';

/** An account as a chart file (`--chart`) gives it. */
export interface ChartFileAccount {
  code: string | undefined;
  name: string;
  type: string;
}

/**
 * `--chart FILE`: a CSV with a header `code,name,type` (code may be empty; a `parent` column is
 * allowed and not read), naming the accounts an export uses and giving their codes and types.
 * For exports that carry no chart (an IIF without `!ACCNT`, a CSV without account_type): the
 * user writes it once and passes it with every run. Problems are by the chart file's lines.
 */
export function readChartFile(file: string): { accounts: ChartFileAccount[]; problems: Problem[] } {
  const problems: Problem[] = [];
  let rows: string[][];
  try {
    rows = parse(readFileSync(file), {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
    });
  } catch (error) {
    return {
      accounts: [],
      problems: [{ fileLine: 1, message: `--chart ${file}: ${(error as Error).message}` }],
    };
  }
  const columns = namedColumns(rows[0] ?? [], (h) => h.trim().toLowerCase());
  if (!columns.has('name') || !columns.has('type')) {
    return {
      accounts: [],
      problems: [
        {
          fileLine: 1,
          message: `--chart ${file}: the header needs name and type (and may have code, parent)`,
        },
      ],
    };
  }
  const accounts: ChartFileAccount[] = [];
  const seen = new Map<string, number>();
  rows.slice(1).forEach((row, index) => {
    const line = index + 2;
    const name = columns.cell(row, 'name');
    const type = columns.cell(row, 'type');
    const code = columns.cell(row, 'code') || undefined;
    const where = `--chart ${file}:${line}`;
    if (name === '') return problems.push({ fileLine: 1, message: `${where}: the name is empty` });
    if (!accountTypeOf(type))
      return problems.push({ fileLine: 1, message: `${where}: "${type}" is not an account type` });
    const earlier = seen.get(nameKey(name));
    if (earlier !== undefined)
      return problems.push({
        fileLine: 1,
        message: `${where}: "${name}" is also on line ${earlier}`,
      });
    seen.set(nameKey(name), line);
    accounts.push({ code, name, type });
  });
  return { accounts, problems };
}

/**
 * Gives a line the code and type its account has in the chart file, when the export gave it
 * none: matched by name (trimmed, case-insensitive), the one rule of the CLI.
 */
export function chartFiller(accounts: readonly ChartFileAccount[]): (line: LedgerLine) => void {
  const byName = new Map(accounts.map((account) => [nameKey(account.name), account]));
  return (line) => {
    if (line.accountType !== undefined) return;
    const named = line.accountName ?? (line.accountCode === undefined ? line.account : undefined);
    const account = named === undefined ? undefined : byName.get(nameKey(named));
    if (!account) return;
    line.accountType = account.type;
    if (line.accountCode === undefined && account.code !== undefined) {
      line.accountCode = account.code;
      line.accountName = named;
      line.account = accountKey(account.code, named);
    }
  };
}

/**
 * `--code-ranges 1=asset,2=liability,4=income`: a type for each account whose code starts with
 * the digits given (the longest that fits), when neither the export nor `--chart` typed it.
 */
export function codeRangeFiller(ranges: readonly [string, string][]): (line: LedgerLine) => void {
  const longestFirst = [...ranges].sort((a, b) => b[0].length - a[0].length);
  return (line) => {
    if (line.accountType !== undefined || line.accountCode === undefined) return;
    const code = line.accountCode;
    const range = longestFirst.find(([prefix]) => code.startsWith(prefix));
    if (range) line.accountType = range[1];
  };
}

/** `--write-chart`: the accounts as read, `code,name,type`, blanks where the file is silent. */
export function writeChartFile(file: string, accounts: Iterable<FileAccount>): void {
  const rows = [...accounts].map((account) =>
    [account.code ?? '', account.name ?? account.text ?? '', account.accountType?.text ?? '']
      .map(csvField)
      .join(','),
  );
  writeFileSync(file, `code,name,type\n${rows.join('\n')}\n`);
}
