import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse';
import {
  detectDelimiter,
  EntryGrouper,
  isProblem,
  LedgerFormatError,
  mapColumns,
  readLine,
  type DateFormat,
  type LedgerEntry,
  type LedgerField,
  type Problem,
} from './ledgerCsv.js';

export interface ReadOptions {
  map?: Partial<Record<LedgerField, string>>;
  dateFormat?: DateFormat;
}

export interface ReadResult {
  /** SHA-256 of the file's bytes: the file's identity for idempotency keys and checkpoints. */
  hash: string;
  lines: number;
  problems: Problem[];
}

async function headerLine(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return (
      buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[0] ?? ''
    );
  } finally {
    await handle.close();
  }
}

/**
 * Streams the entries of a CSV general ledger, never holding the file: problems (with their
 * file line numbers) go to `result.problems` and reading goes on, so one pass finds them all.
 * `result` is complete once the iteration ends. `checkRepeats: false` skips the check that an
 * entry's lines are together, for a second pass over a file the first has checked.
 */
export async function* readLedger(
  file: string,
  options: ReadOptions,
  result: ReadResult,
  { checkRepeats = true }: { checkRepeats?: boolean } = {},
): AsyncGenerator<LedgerEntry> {
  const header = await headerLine(file);
  const hash = createHash('sha256');
  const input = createReadStream(file);
  input.on('data', (chunk) => hash.update(chunk));
  const parser = input.pipe(
    parse({
      bom: true,
      delimiter: detectDelimiter(header),
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }),
  );
  const ready: LedgerEntry[] = [];
  let grouper: EntryGrouper | undefined;
  let columns: ReturnType<typeof mapColumns> | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      result.lines = info.lines;
      if (!columns) {
        try {
          columns = mapColumns(record, options.map);
        } catch (error) {
          if (!(error instanceof LedgerFormatError)) throw error;
          result.problems.push({ fileLine: info.lines, message: error.message });
          return;
        }
        grouper = new EntryGrouper(
          columns.entry !== undefined,
          (entry) => ready.push(entry),
          (p) => result.problems.push(p),
          checkRepeats,
        );
        continue;
      }
      if (record.every((field) => field.trim() === '')) continue;
      const line = readLine(record, info.lines, columns, options.dateFormat ?? 'YYYY-MM-DD');
      if (isProblem(line)) result.problems.push(line);
      else grouper!.add(line);
      while (ready.length > 0) yield ready.shift()!;
    }
    grouper?.finish();
    while (ready.length > 0) yield ready.shift()!;
    if (!columns)
      result.problems.push({ fileLine: 1, message: 'the file is empty: a header row is required' });
  } catch (error) {
    const csvError = error as { code?: string; lines?: number; message: string };
    if (!csvError.code?.startsWith('CSV_')) throw error;
    result.problems.push({
      fileLine: csvError.lines ?? result.lines,
      message: csvError.message.replace(/^Invalid \w+: /, ''),
    });
  } finally {
    input.destroy();
  }
  result.hash = hash.digest('hex');
}
