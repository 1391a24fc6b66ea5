import iconv from 'iconv-lite';
import type { PushTransactionsBody } from '../../api/index.js';
import { centsToAmount } from '../../core/money.js';
import { DATE_FORMATS, type DateFormat } from '../../formats/ledgerCsv.js';
import {
  BANK_CSV_FIELDS,
  type BankCsvField,
  type BankStatement,
  type StatementFile,
  type StatementReadOptions,
} from '../../formats/statement.js';
import { flag, text } from '../command.js';
import type { CommandContext } from '../context.js';
import { ExitCode, UsageError, UserError } from '../exitCodes.js';
import { usualDateFormat } from '../config/profileInUse.js';

/*
 * Bank statements as the commands that take them read them (statement show, reconcile, feed
 * push, close review): the flags that say how a bank's CSV is written, the files read with
 * what they say against themselves on stderr, and the JSON `statement show` prints.
 */

/** The flags that say how a statement file is written, where it does not say itself. */
export const statementReadOptions = {
  map: text(
    '--map <field=Header,...>',
    `a bank CSV's columns: ${[...BANK_CSV_FIELDS, 'side'].join(', ')} (e.g. date=Booked,amount=Sum)`,
  ),
  dateFormat: text(
    '--date-format <format>',
    'the order of a/b/year days where the file does not tell it: MM/DD/YYYY or DD/MM/YYYY',
    { choices: DATE_FORMATS },
  ),
  decimalComma: flag('--decimal-comma', 'amounts write decimals with a comma: 1.234,56'),
  encoding: text(
    '--encoding <name>',
    "the file's encoding where it does not say: windows-1252, latin1, …",
  ),
  saveLayout: text(
    '--save-layout <name>',
    'remember what this bank CSV needs (--map, --date-format, --decimal-comma, --encoding, as given): its next files of this shape need no flags',
  ),
} as const;

export interface StatementReadFlags {
  saveLayout?: string | undefined;
  map?: string | undefined;
  dateFormat?: string | undefined;
  decimalComma?: boolean | undefined;
  encoding?: string | undefined;
}

/** `--map date=Booked,amount=Sum`: each field of a bank CSV to its header. */
function parseStatementMap(textValue: string): Partial<Record<BankCsvField | 'side', string>> {
  const fields = [...BANK_CSV_FIELDS, 'side'] as const;
  const map: Partial<Record<BankCsvField | 'side', string>> = {};
  for (const pair of textValue.split(',')) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const field = fields.find((f) => f.toLowerCase() === name.replace(/[_-]/g, '').toLowerCase());
    if (at <= 0 || field === undefined || pair.slice(at + 1).trim() === '')
      throw new UsageError(
        `--map takes field=Header pairs, fields among ${fields.join(', ')}; got "${pair}"`,
      );
    map[field] = pair.slice(at + 1).trim();
  }
  return map;
}

/** How the files are read, and the name to keep a bank CSV's layout under (`--save-layout`). */
export type StatementRequest = StatementReadOptions & { saveLayout?: string };

/** The read options the flags give, checked before any file is opened. */
export function statementOptionsOf(flags: StatementReadFlags): StatementRequest {
  if (flags.encoding !== undefined && !iconv.encodingExists(flags.encoding))
    throw new UsageError(
      `--encoding ${flags.encoding} is not an encoding books knows (utf-8, windows-1252, latin1, …)`,
    );
  if (
    flags.saveLayout !== undefined &&
    !/^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,59}$/u.test(flags.saveLayout)
  )
    throw new UsageError(
      `--save-layout takes a name of letters, digits, spaces, dots, dashes and underscores; got "${flags.saveLayout}"`,
    );
  return {
    ...(flags.saveLayout !== undefined && { saveLayout: flags.saveLayout }),
    ...(flags.map !== undefined && { map: parseStatementMap(flags.map) }),
    ...(flags.dateFormat !== undefined && { dateFormat: flags.dateFormat as DateFormat }),
    ...(flags.decimalComma && { decimalComma: true }),
    ...(flags.encoding !== undefined && { encoding: flags.encoding }),
  };
}

/**
 * Reads statement files, in order, saying on stderr what each says against itself. A file that
 * is not there, or cannot be read, is exit 3, naming the line (a
 * bank CSV's rows that cannot be read, every one of them); a file that holds no statement is
 * one that cannot be read.
 */
export async function readStatements(
  ctx: CommandContext,
  files: readonly string[],
  request: StatementRequest,
  /** Rows that cannot be read are the caller's to list with its own (feed push). */
  keepProblems = false,
): Promise<StatementFile[]> {
  const { saveLayout: layoutName, ...options } = request;
  const layouts = await import('./layouts.js');
  const { readStatementFile, MissingStatement } = await import('../../formats/statements.js');
  const { UnreadableStatement } = await import('../../formats/statement.js');
  const read: StatementFile[] = [];
  const usual = options.dateFormat === undefined ? await usualDateFormat(ctx) : undefined;
  for (const file of files) {
    let statementFile: StatementFile;
    const fileOptions = await layouts.withSavedLayout(ctx, file, {
      ...options,
      ...(usual && { usualDateFormat: usual }),
    });
    try {
      statementFile = await readStatementFile(file, fileOptions);
    } catch (error) {
      // A file not there is an input file that cannot be used: exit 3, as every command's.
      if (error instanceof MissingStatement)
        throw new UserError(error.message, ExitCode.InvalidFile);
      if (error instanceof UnreadableStatement)
        throw new UserError(
          `${file}${error.line !== undefined ? `:${error.line}` : ''}: cannot read the statement: ${error.message}`,
          ExitCode.InvalidFile,
        );
      throw error;
    }
    for (const check of statementFile.checks)
      ctx.output.note(`books: ${file}:${check.line}: ${check.message}`);
    const problems = statementFile.problems ?? [];
    if (problems.length > 0 && !keepProblems)
      throw new UserError(
        `${problems.map((p) => `${file}:${p.line}: ${p.message}`).join('\n')}\ncannot read the statement: ${problems.length === 1 ? 'a row' : `${problems.length} rows`} of it cannot be read`,
        ExitCode.InvalidFile,
      );
    if (statementFile.statements.length === 0)
      throw new UserError(
        `${file}: cannot read the statement: it holds no bank or card statement`,
        ExitCode.InvalidFile,
      );
    if (layoutName !== undefined) {
      if (statementFile.format !== 'bank-csv')
        throw new UsageError(
          `--save-layout keeps a bank CSV's layout; ${file} is ${statementFile.format}`,
        );
      await layouts.saveLayout(ctx, layoutName, file, fileOptions);
    }
    read.push(statementFile);
  }
  return read;
}

/** A statement as `statement show --json` prints it: amounts as numbers, no line numbers. */
export const statementJson = (statement: BankStatement) => ({
  account: statement.account,
  currency: statement.currency,
  from: statement.from,
  to: statement.to,
  opening: statement.opening === null ? null : centsToAmount(statement.opening),
  closing: statement.closing === null ? null : centsToAmount(statement.closing),
  entries: statement.entries.map((entry) => ({
    bookingDate: entry.bookingDate,
    valueDate: entry.valueDate,
    amount: centsToAmount(entry.amount),
    reference: entry.reference,
    counterparty: entry.counterparty,
    counterpartyAccount: entry.counterpartyAccount ?? null,
    description: entry.description,
    status: entry.status,
  })),
});

export const statementFileJson = (file: StatementFile) => ({
  file: file.file,
  format: file.format,
  statements: file.statements.map(statementJson),
});

/**
 * What statement files bring as bank transactions: their booked entries (pending ones and
 * those for information left out, counted), a batch per file with the days it covers. Each is
 * keyed by the bank's reference where it gives one; where it gives none the platform tells it
 * by its day, amount and text (so that the same file, another layout of it or a later
 * statement repeating those days brings nothing twice). An entry of 0.00 moves no money and is
 * left out, counted; one without a text is a problem of its line.
 */
export function statementTransactions(files: readonly StatementFile[]): {
  batches: StatementBatch[];
  problems: string[];
  pending: number;
  /** Booked entries of 0.00, left out (a bank transaction moves money). */
  zero: number;
} {
  const problems = files.flatMap((read) =>
    (read.problems ?? []).map((p) => `${read.file}:${p.line}: ${p.message}`),
  );
  const batches: StatementBatch[] = [];
  let pending = 0;
  let zero = 0;
  for (const read of files) {
    const transactions: PushTransactionsBody['transactions'] = [];
    const days: string[] = [];
    for (const statement of read.statements) {
      if (statement.from !== null) days.push(statement.from);
      if (statement.to !== null) days.push(statement.to);
      for (const entry of statement.entries) {
        if (entry.status !== 'booked') {
          pending += 1;
          continue;
        }
        const text = [entry.counterparty, entry.description].filter((t): t is string =>
          Boolean(t?.trim()),
        );
        const description =
          text.length === 2 && text[1]!.includes(text[0]!) ? text[1]! : text.join(': ');
        // A movement of 0.00 (a fee waived, a card renewed) moves no money: left out, counted.
        if (entry.amount === 0) {
          zero += 1;
          continue;
        }
        if (description.trim() === '') {
          problems.push(`${read.file}:${entry.line}: the description is empty`);
          continue;
        }
        const kept = [...description.trim()].slice(0, 1000).join('');
        days.push(entry.bookingDate);
        transactions.push({
          date: entry.bookingDate,
          amount: centsToAmount(entry.amount),
          description: kept,
          ...(entry.reference && { externalId: [...entry.reference].slice(0, 255).join('') }),
        });
      }
    }
    if (transactions.length === 0) continue;
    days.sort();
    batches.push({
      file: read.file,
      period: { startDate: days[0]!, endDate: days.at(-1)! },
      transactions,
    });
  }
  return { batches, problems, pending, zero };
}

/** One file's booked entries, and the days it covers. */
export interface StatementBatch {
  file: string;
  period: { startDate: string; endDate: string };
  transactions: PushTransactionsBody['transactions'];
}
