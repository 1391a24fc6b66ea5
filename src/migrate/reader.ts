import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Parser, type Options as ParserOptions } from 'csv-parse';
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

interface NumberedRecord {
  record: string[];
  /** The file line the record ends on. */
  line: number;
}

/**
 * csv-parse's parser, fed a chunk at a time, handing over each chunk's records together with
 * the file line each ends on. csv-parse reports lines only through `info: true`, which copies
 * its whole info object for every record, and an object-mode stream costs a promise per
 * record: the two were 60% of the time spent reading a file. Here csv-parse calls `push` for
 * each record as it parses it, while `info.lines` is that record's.
 */
class NumberedRecords extends Parser {
  private parsed: NumberedRecord[] = [];

  constructor(options: ParserOptions) {
    super(options);
    // A CSV error reaches the caller through the callback of `write` or `end`, below.
    this.on('error', () => {});
  }

  override push(record: unknown): boolean {
    if (record !== null) this.parsed.push({ record: record as string[], line: this.info.lines });
    return true;
  }

  /** The records of `input`, a chunk's worth at a time; `onChunk` sees every chunk's bytes. */
  async *recordsOf(
    input: AsyncIterable<Buffer>,
    onChunk: (chunk: Buffer) => void,
  ): AsyncGenerator<NumberedRecord[]> {
    const settled =
      (resolve: () => void, reject: (error: Error) => void) => (error?: Error | null) =>
        error ? reject(error) : resolve();
    for await (const chunk of input) {
      onChunk(chunk);
      await new Promise<void>((resolve, reject) => this.write(chunk, settled(resolve, reject)));
      yield this.takeParsed();
    }
    await new Promise<void>((resolve, reject) => this.end(settled(resolve, reject)));
    yield this.takeParsed();
  }

  private takeParsed(): NumberedRecord[] {
    const records = this.parsed;
    this.parsed = [];
    return records;
  }
}

/**
 * Streams the entries of a CSV general ledger, never holding the file: problems (with their
 * file line numbers) go to `result.problems` and reading goes on, so one pass finds them all.
 * `result` is complete once the iteration ends.
 */
export async function* readLedger(
  file: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  const header = await headerLine(file);
  const hash = createHash('sha256');
  const input = createReadStream(file, { highWaterMark: 256 * 1024 });
  const parser = new NumberedRecords({
    bom: true,
    delimiter: detectDelimiter(header),
    skip_empty_lines: true,
    relax_column_count: true,
  });
  const ready: LedgerEntry[] = [];
  let grouper: EntryGrouper | undefined;
  let columns: ReturnType<typeof mapColumns> | undefined;
  try {
    for await (const records of parser.recordsOf(input, (chunk) => hash.update(chunk))) {
      for (const { record, line } of records) {
        result.lines = line;
        if (!columns) {
          try {
            columns = mapColumns(record, options.map);
          } catch (error) {
            if (!(error instanceof LedgerFormatError)) throw error;
            result.problems.push({ fileLine: line, message: error.message });
            return;
          }
          grouper = new EntryGrouper(
            columns.entry !== undefined,
            (entry) => ready.push(entry),
            (p) => result.problems.push(p),
          );
          continue;
        }
        if (record.every((field) => field.trim() === '')) continue;
        const ledgerLine = readLine(record, line, columns, options.dateFormat ?? 'YYYY-MM-DD');
        if (isProblem(ledgerLine)) result.problems.push(ledgerLine);
        else grouper!.add(ledgerLine);
      }
      yield* ready;
      ready.length = 0;
    }
    grouper?.finish();
    yield* ready;
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
