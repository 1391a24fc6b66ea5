import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { csvField } from '../../core/csv.js';
import { nameKey } from '../../core/names.js';
import { oversize } from '../common/bounds.js';
import { csvMessage, MAX_RECORD_CHARACTERS, namedColumns } from '../common/csvRecords.js';
import { accountTypeOf } from '../options.js';
import { accountKey, type FileAccount, type LedgerLine, type Problem } from '../ledgerCsv.js';

/** An account as a chart file (`--chart`) gives it. */
export interface ChartFileAccount {
  code: string | undefined;
  name: string;
  type: string;
  /** Its line in the chart file. */
  line: number;
}

/**
 * `--chart FILE`: a CSV with a header `code,name,type` (code may be empty; a `parent` column is
 * allowed and not read), naming the accounts an export uses and giving their codes and types.
 * For exports that carry no chart (an IIF without `!ACCNT`, a CSV without account_type): the
 * user writes it once and passes it with every run. Problems are by the chart file's lines: a
 * code twice, or a name twice unless both rows have codes (real charts use one name under two
 * codes: `2000130 Consumables`, `4050150 Consumables`; the export's codes tell them apart).
 */
export function readChartFile(file: string): { accounts: ChartFileAccount[]; problems: Problem[] } {
  const problems: Problem[] = [];
  let rows: string[][];
  try {
    const size = oversize(file);
    if (size) throw new Error(`the file is ${size}: a chart of accounts is a few kilobytes`);
    rows = parse(readFileSync(file), {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARACTERS,
    });
  } catch (error) {
    const failure = error as Error & { code?: string; lines?: number };
    return {
      accounts: [],
      problems: [
        { fileLine: failure.lines ?? 1, message: `--chart ${file}: ${csvMessage(failure)}` },
      ],
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
  const byName = new Map<string, ChartFileAccount>();
  const byCode = new Map<string, ChartFileAccount>();
  rows.slice(1).forEach((row, index) => {
    const line = index + 2;
    const name = columns.cell(row, 'name');
    const type = columns.cell(row, 'type');
    const code = columns.cell(row, 'code') || undefined;
    const where = `--chart ${file}:${line}`;
    if (name === '') return problems.push({ fileLine: 1, message: `${where}: the name is empty` });
    if (!accountTypeOf(type))
      return problems.push({ fileLine: 1, message: `${where}: "${type}" is not an account type` });
    const sameCode = code === undefined ? undefined : byCode.get(code);
    if (sameCode)
      return problems.push({
        fileLine: 1,
        message: `${where}: the code ${code} is also on line ${sameCode.line}`,
      });
    const sameName = byName.get(nameKey(name));
    if (sameName && (code === undefined || sameName.code === undefined))
      return problems.push({
        fileLine: 1,
        message: `${where}: "${name}" is also on line ${sameName.line} (give each its code to keep both)`,
      });
    const account = { code, name, type, line };
    byName.set(nameKey(name), account);
    if (code !== undefined) byCode.set(code, account);
    accounts.push(account);
  });
  return { accounts, problems };
}

/**
 * Gives a line the type (and code) its account has in the chart file, when the export gave it
 * none, or only one inferred from a national chart's classes. An export that carries codes is
 * matched by code (a number also without its leading zeros, `85` as `0085`): a chart row of that
 * code whose name is not the export's is a problem naming both (once per code), unless the
 * export names the account only by its number (a DATEV Buchungsstapel names none), when the
 * chart's name is taken; a code the chart lacks may still be typed by a row of its name that has
 * no code. An export without codes is matched by name
 * (trimmed, case-insensitive), the one rule of the CLI; a name the chart has under two codes is
 * then a problem, the export giving nothing to choose by.
 */
export function chartFiller(
  accounts: readonly ChartFileAccount[],
  file: string,
): (line: LedgerLine) => Problem | undefined {
  const byCode = new Map(accounts.flatMap((a) => (a.code === undefined ? [] : [[a.code, a]])));
  const byName = new Map<string, ChartFileAccount[]>();
  for (const account of accounts) {
    const key = nameKey(account.name);
    const named = byName.get(key);
    if (named) named.push(account);
    else byName.set(key, [account]);
  }
  const reported = new Set<string>();
  const once = (key: string, problem: Problem) => {
    if (reported.has(key)) return undefined;
    reported.add(key);
    return problem;
  };
  // Numbers without their leading zeros (DATEV writes 0085 as 85), where that names one row.
  const byNumber = new Map<string, ChartFileAccount | undefined>();
  for (const account of accounts) {
    if (account.code === undefined || !/^\d+$/.test(account.code)) continue;
    const number = account.code.replace(/^0+(?=\d)/, '');
    byNumber.set(number, byNumber.has(number) ? undefined : account);
  }
  const ofCode = (code: string) =>
    byCode.get(code) ??
    (/^\d+$/.test(code) ? byNumber.get(code.replace(/^0+(?=\d)/, '')) : undefined);
  return (line) => {
    const code = line.accountCode;
    if (code !== undefined) {
      const account = ofCode(code);
      if (account === undefined) {
        const uncoded = byName
          .get(nameKey(line.accountName ?? ''))
          ?.filter((named) => named.code === undefined);
        if (uncoded?.length === 1) typeFromChart(line, uncoded[0]!.type);
        return undefined;
      }
      // A file that names no account (a DATEV Buchungsstapel) writes the number for its name:
      // the chart's is the name.
      if (line.accountName === code) {
        line.accountName = account.name;
        line.account = accountKey(code, account.name);
      } else if (
        line.accountName !== undefined &&
        !sameAccountName(line.accountName, account, code)
      ) {
        return once(`code:${code}`, {
          fileLine: line.fileLine,
          message: `account ${code} is "${line.accountName}" in the file but "${account.name}" in --chart ${file}:${account.line}`,
        });
      }
      typeFromChart(line, account.type);
      return undefined;
    }
    if (line.accountType !== undefined && !line.typeInferred) return undefined;
    const named = line.accountName ?? line.account;
    const candidates = byName.get(nameKey(named)) ?? [];
    if (candidates.length > 1) {
      return once(`name:${nameKey(named)}`, {
        fileLine: line.fileLine,
        message: `"${named}" is in --chart ${file} under ${candidates.length} codes (${candidates.map((c) => c.code).join(', ')}) and the file gives no code to choose by`,
      });
    }
    const account = candidates[0];
    if (!account) return undefined;
    typeFromChart(line, account.type);
    if (account.code !== undefined) {
      line.accountCode = account.code;
      line.accountName = named;
      line.account = accountKey(account.code, named);
    }
    return undefined;
  };
}

/**
 * The chart's type for a line the export left untyped, or typed only by inference (a national
 * chart's class): the export's own type stands, the chart's overrides an inference.
 */
function typeFromChart(line: LedgerLine, type: string): void {
  if (line.accountType !== undefined && !line.typeInferred) return;
  line.accountType = type;
  delete line.typeInferred;
}

/**
 * Whether the export's name for an account is the chart row's: alike (trimmed, any case), or
 * as a reader names apart accounts that share a name, `Name (code)`.
 */
const sameAccountName = (name: string, account: ChartFileAccount, code: string) =>
  nameKey(name) === nameKey(account.name) || nameKey(name) === nameKey(`${account.name} (${code})`);

/**
 * `--code-ranges 1=asset,2=liability,4=income`: a type for each account whose code starts with
 * the digits given (the longest that fits), when neither the export nor `--chart` typed it.
 */
export function codeRangeFiller(
  ranges: readonly [string, string][],
): (line: LedgerLine) => undefined {
  const longestFirst = [...ranges].sort((a, b) => b[0].length - a[0].length);
  return (line) => {
    if (line.accountType !== undefined || line.accountCode === undefined) return undefined;
    const code = line.accountCode;
    const range = longestFirst.find(([prefix]) => code.startsWith(prefix));
    if (range) line.accountType = range[1];
    return undefined;
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
