import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import iconv from 'iconv-lite';
import { Parser } from 'csv-parse';
import { utf16Of } from './byteOrderMark.js';
import { MAX_TEXT_CHARACTERS } from './bounds.js';
import { parse as parseSync } from 'csv-parse/sync';

/** One input chunk's records, each with the file line it ends on. */
export interface RecordChunk {
  records: string[][];
  lines: number[];
}

/** A file that cannot be read as CSV text: a CSV error (csv-parse's), or its bytes. */
export interface ReadFailure {
  kind: 'csv' | 'bytes';
  /** csv-parse's code, for a CSV error. */
  code?: string;
  /** The file line where reading stopped. */
  lines?: number;
  message: string;
}

export class CsvReadError extends Error implements ReadFailure {
  override name = 'CsvReadError';
  constructor(
    readonly kind: ReadFailure['kind'],
    message: string,
    readonly lines: number | undefined,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** How to read the file's bytes. */
export interface TextOptions {
  /**
   * The file's encoding (`--encoding`, any iconv-lite name). Without it: UTF-8, validated, its
   * BOM skipped; UTF-16 when the file starts with a UTF-16 BOM.
   */
  encoding?: string;
  /** The delimiter, when the format fixes it (IIF: tab); else the header line's. */
  delimiter?: string;
  /** Quotes are text, not CSV quoting (IIF: QuickBooks writes `5" screen` as is). */
  quotesAreText?: boolean;
  /**
   * A quote that does not close its field (`" "Text" "`, as DATEV's own writer leaves quotes
   * undoubled) is read as text, the field kept with its quotes for the reader to take off.
   */
  relaxQuotes?: boolean;
}

/** A record (a line, quoted line breaks included) longer than this is refused, not buffered. */
export const MAX_RECORD_CHARACTERS = MAX_TEXT_CHARACTERS;

/**
 * csv-parse's parser, fed a chunk at a time, handing over each chunk's records together with
 * the file line each ends on. csv-parse reports lines only through `info: true`, which copies
 * its whole info object for every record, and an object-mode stream costs a promise per
 * record: the two were 60% of the time spent reading a file. Here csv-parse calls `push` for
 * each record as it parses it, while `info.lines` is that record's.
 */
class NumberedRecords extends Parser {
  private chunk: RecordChunk = { records: [], lines: [] };
  /** csv-parse's parsing state: the Parser sets it, its types leave it out. */
  declare private readonly state: { expectedRecordLength: number };

  constructor(delimiter: string, quotesAreText = false, relaxQuotes = false) {
    super({
      bom: true,
      delimiter,
      ...(quotesAreText && { quote: false }),
      ...(relaxQuotes && { relax_quotes: true }),
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: MAX_RECORD_CHARACTERS,
    });
    // A CSV error reaches the caller through `parse`, below.
    this.on('error', () => {});
  }

  override push(record: unknown): boolean {
    if (record !== null) {
      this.chunk.records.push(record as string[]);
      this.chunk.lines.push(this.info.lines);
      // Under relax_column_count csv-parse still builds an error (stack, deep copies) for every
      // record whose width is not the first record's, and drops it: in a report whose first row
      // is a one-cell title, that was half the time spent reading. Compared with the last
      // record's width instead, only a change of width costs.
      this.state.expectedRecordLength = (record as string[]).length;
    }
    return true;
  }

  /** Parses `text`, or without it the end of the input; answers csv-parse's error, if any. */
  parse(text?: Buffer | string): Promise<CsvReadError | undefined> {
    return new Promise((resolve) => {
      const done = (error?: (Error & { code?: string; lines?: number }) | null) =>
        resolve(
          error ? new CsvReadError('csv', csvMessage(error), error.lines, error.code) : undefined,
        );
      if (text !== undefined) this.write(text, done);
      else this.end(done);
    });
  }

  takeParsed(): RecordChunk {
    const chunk = this.chunk;
    this.chunk = { records: [], lines: [] };
    return chunk;
  }
}

/** csv-parse's errors in the words of someone fixing the file. */
export function csvMessage(error: Error & { code?: string; field?: unknown }): string {
  switch (error.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return `a record is longer than ${MAX_RECORD_CHARACTERS.toLocaleString('en-US')} characters (an unclosed quote, or not a CSV file)`;
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_OPENING_QUOTE':
      return 'a quote inside a field that does not start with one: quote the whole field and double the quotes inside it ("a ""quoted"" word")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `a quoted field goes on after its closing quote (${error.message.replace(/^.*?got /, 'got ').replace(/ at line \d+.*$/, '')}): double a quote inside a quoted field ("")`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is still open at the end of the file: a closing quote is missing';
    default:
      return error.message;
  }
}

/**
 * The records of a CSV file, a chunk's worth at a time, parsed on this thread; `onEnd` gets the
 * SHA-256 of the file's bytes once all are read. The delimiter is the header line's most
 * frequent of `,` `;` and tab. A CSV error or bytes that are not text are thrown as a
 * CsvReadError with the file line, after the records before it.
 */
export async function* parseRecords(
  file: string,
  options: TextOptions,
  onEnd: (hash: string) => void,
): AsyncGenerator<RecordChunk> {
  const hash = createHash('sha256');
  const input = createReadStream(file, { highWaterMark: 256 * 1024 });
  let decoder: TextDecoding | undefined;
  let parser: NumberedRecords | undefined;
  try {
    for await (const bytes of input as AsyncIterable<Buffer>) {
      hash.update(bytes);
      decoder ??= textDecoding(bytes, options.encoding);
      const text = decoder.decode(bytes);
      if (typeof text === 'number') throw await bytesFailure(file, text, decoder);
      parser ??= new NumberedRecords(
        options.delimiter ?? detectDelimiter(firstLine(text)),
        options.quotesAreText,
        options.relaxQuotes,
      );
      const failure = await parser.parse(text);
      // Records parsed before a CSV error are still read (and checked) before it is reported.
      yield parser.takeParsed();
      if (failure) throw failure;
    }
    const rest = decoder?.end();
    if (typeof rest === 'number') throw await bytesFailure(file, rest, decoder!, true);
    if (parser) {
      if (rest) await parser.parse(rest);
      const failure = await parser.parse();
      yield parser.takeParsed();
      if (failure) throw failure;
    }
    onEnd(hash.digest('hex'));
  } finally {
    input.destroy();
  }
}

/**
 * Each record of a file with the line it ends on, for readers that take a record at a time
 * (the exports of other systems); `onLine` hears each line, `onEnd` the file's SHA-256.
 */
export async function* eachRecord(
  file: string,
  options: TextOptions,
  onLine: (line: number) => void,
  onEnd: (hash: string) => void,
): AsyncGenerator<{ record: string[]; fileLine: number }> {
  for await (const { records, lines } of parseRecords(file, options, onEnd)) {
    for (let i = 0; i < records.length; i += 1) {
      onLine(lines[i]!);
      yield { record: records[i]!, fileLine: lines[i]! };
    }
  }
}

/**
 * A column's name as the readers match it: its letters, in lower case, accents taken off
 * (`BU-Schlüssel` is `buschlussel`, `Memo/Description` is `memodescription`).
 */
export const lettersOf = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** A row of a file with a header row: its cells by the header's names. */
export interface NamedRow {
  record: string[];
  fileLine: number;
  columns: NamedColumns;
  /** The row's cell under `name` (as `normalize` writes names), trimmed; '' when none. */
  field(name: string): string;
}

/**
 * Each row after the header row of a file (its names as `normalize` writes them), rows of empty
 * cells skipped; `onLine` hears each line, `onEnd` the file's SHA-256.
 */
export async function* eachNamedRow(
  file: string,
  options: TextOptions,
  normalize: (name: string) => string,
  onLine: (line: number) => void,
  onEnd: (hash: string) => void,
): AsyncGenerator<NamedRow> {
  let columns: NamedColumns | undefined;
  for await (const { record, fileLine } of eachRecord(file, options, onLine, onEnd)) {
    if (!columns) {
      columns = namedColumns(record, normalize);
      continue;
    }
    if (record.every((cell) => cell.trim() === '')) continue;
    const named = columns;
    yield { record, fileLine, columns, field: (name) => named.cell(record, name) };
  }
}

/** A header row's columns by name, as `normalize` writes names (the first of a name wins). */
export interface NamedColumns {
  has(name: string): boolean;
  /** A record's cell under `name`, trimmed; '' when the header has no such column. */
  cell(record: readonly string[], name: string): string;
}

export function namedColumns(
  header: readonly string[],
  normalize: (name: string) => string,
): NamedColumns {
  const index = new Map<string, number>();
  header.forEach((name, at) => {
    const key = normalize(name);
    if (!index.has(key)) index.set(key, at);
  });
  return {
    has: (name) => index.has(name),
    cell: (record, name) => {
      const at = index.get(name);
      return at === undefined ? '' : (record[at] ?? '').trim();
    },
  };
}

function firstLine(text: Buffer | string): string {
  const head =
    typeof text === 'string'
      ? text.slice(0, 64 * 1024)
      : text.subarray(0, 64 * 1024).toString('utf8');
  return head.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
}

/**
 * The cells of one CSV line (a header, a file's first row, read to tell its format), quotes
 * taken off; undefined when the line is not CSV (a quote left open: a line cut short).
 */
export function lineCells(
  line: string,
  delimiter: string = detectDelimiter(line),
): string[] | undefined {
  try {
    return (
      (
        parseSync(line, { delimiter, relax_quotes: true, relax_column_count: true }) as string[][]
      )[0] ?? []
    );
  } catch {
    return undefined;
  }
}

/** The delimiter of a header line: the most frequent of `,` `;` and tab. */
export function detectDelimiter(headerLine: string): ',' | ';' | '\t' | '|' {
  const count = (c: string) => headerLine.split(c).length - 1;
  const candidates: (',' | ';' | '\t' | '|')[] = [',', ';', '\t', '|'];
  return candidates.reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

/**
 * A file's bytes as text, a chunk at a time: text for csv-parse, or the file offset of the first
 * byte that is not text (invalid UTF-8, or a NUL, which no CSV holds).
 */
interface TextDecoding {
  readonly name: string;
  decode(bytes: Buffer): Buffer | string | number;
  /** The end of the file: what is left, or the offset of an incomplete last character. */
  end(): string | number | undefined;
}

function textDecoding(first: Buffer, encoding: string | undefined): TextDecoding {
  if (encoding === undefined || /^utf-?8$/i.test(encoding)) {
    const utf16 = encoding === undefined ? utf16Of(first) : undefined;
    if (utf16) return iconvDecoding(utf16);
    return utf8Decoding();
  }
  return iconvDecoding(encoding);
}

/**
 * UTF-8, checked rather than decoded (csv-parse decodes it): a character split between two
 * chunks waits for the next one. Invalid bytes are never replaced by U+FFFD.
 */
function utf8Decoding(): TextDecoding {
  let carry: Buffer | undefined;
  let offset = 0;
  return {
    name: 'UTF-8',
    decode(bytes) {
      const data = carry ? Buffer.concat([carry, bytes]) : bytes;
      const complete = data.subarray(0, data.length - incompleteTail(data));
      const start = offset - (carry?.length ?? 0);
      const nul = complete.indexOf(0);
      if (!isUtf8(complete)) {
        const invalid = firstInvalidUtf8(complete);
        return start + (nul >= 0 && nul < invalid ? nul : invalid);
      }
      if (nul >= 0) return start + nul;
      carry =
        data.length > complete.length ? Buffer.from(data.subarray(complete.length)) : undefined;
      offset += bytes.length;
      return complete;
    },
    end: () => (carry ? offset - carry.length : undefined),
  };
}

/** A file's first megabyte: what the readers that tell an encoding by the bytes look at. */
export function firstMegabyte(file: string): Buffer {
  const descriptor = openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(1 << 20);
    return bytes.subarray(0, readSync(descriptor, bytes, 0, bytes.length, 0));
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Whether bytes (a file's first megabyte) are UTF-8: a character cut by their end is not a
 * reason to doubt the rest.
 */
export function isUtf8Start(bytes: Buffer): boolean {
  return isUtf8(bytes.subarray(0, bytes.length - incompleteTail(bytes)));
}

/** Bytes at the end of `data` that start a character the chunk does not finish. */
export function incompleteTail(data: Buffer): number {
  for (let back = 1; back <= Math.min(3, data.length); back += 1) {
    const byte = data[data.length - back]!;
    if (byte < 0x80) return 0;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return length > back ? back : 0;
    }
  }
  return 0;
}

/** The offset of the first byte of `bytes` that does not begin a valid UTF-8 character. */
export function firstInvalidUtf8(bytes: Buffer): number {
  for (let i = 0; i < bytes.length;) {
    const byte = bytes[i]!;
    const length =
      byte < 0x80 ? 1 : byte < 0xc2 ? 0 : byte < 0xe0 ? 2 : byte < 0xf0 ? 3 : byte < 0xf5 ? 4 : 0;
    if (length === 0 || !isUtf8(bytes.subarray(i, i + length)) || i + length > bytes.length)
      return i;
    i += length;
  }
  return bytes.length;
}

function iconvDecoding(encoding: string): TextDecoding {
  const decoder = iconv.getDecoder(encoding);
  let offset = 0;
  const checked = (text: string): string | number => {
    const nul = text.indexOf('\0');
    // A NUL's byte offset is not known after decoding: the chunk's start stands for it.
    return nul >= 0 ? offset : text;
  };
  return {
    name: encoding,
    decode(bytes) {
      const text = checked(decoder.write(bytes));
      offset += bytes.length;
      return text;
    },
    end: () => {
      const rest = decoder.end();
      return rest ? checked(rest) : undefined;
    },
  };
}

/** Why the bytes at `offset` are not text, at their file line. */
async function bytesFailure(
  file: string,
  offset: number,
  decoding: TextDecoding,
  atEnd = false,
): Promise<CsvReadError> {
  const { line, byte, around } = await lineAt(file, offset);
  if (byte === 0) {
    // Text in UTF-16: every other byte a NUL, never two in a row.
    const nuls = around.split('\0').length - 1;
    const utf16 =
      decoding.name === 'UTF-8' && nuls * 4 >= around.length && !around.includes('\0\0');
    return new CsvReadError(
      'bytes',
      utf16
        ? `the file holds NUL bytes: it looks like UTF-16 without a byte order mark; pass --encoding utf-16le (or utf-16be)`
        : `the file holds a NUL byte (at byte ${offset}): it is not a CSV text file`,
      line,
    );
  }
  if (atEnd) {
    return new CsvReadError(
      'bytes',
      `the file ends in the middle of a ${decoding.name} character`,
      line,
    );
  }
  return new CsvReadError(
    'bytes',
    `byte 0x${byte!.toString(16).toUpperCase().padStart(2, '0')} (at byte ${offset}) is not ${decoding.name}: if the file was saved in another encoding, name it with --encoding (windows-1252 and latin1 are common for Western European files)`,
    line,
  );
}

/** The file line holding byte `offset`, that byte, and the bytes around it (as latin1). */
export async function lineAt(
  file: string,
  offset: number,
): Promise<{ line: number; byte: number | undefined; around: string }> {
  // Loaded here, as the worker's module below: a command that imports this module for a
  // constant (a category's text) goes without them.
  const { open } = await import('node:fs/promises');
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    let line = 1;
    for (let position = 0; position < offset;) {
      const { bytesRead } = await handle.read(
        buffer,
        0,
        Math.min(buffer.length, offset - position),
        position,
      );
      if (bytesRead === 0) break;
      for (let i = buffer.indexOf(10, 0); i >= 0 && i < bytesRead; i = buffer.indexOf(10, i + 1))
        line += 1;
      position += bytesRead;
    }
    const start = Math.max(0, offset - 16);
    const { bytesRead } = await handle.read(buffer, 0, offset - start + 16, start);
    const window = buffer.subarray(0, bytesRead);
    return { line, byte: window[offset - start], around: window.toString('latin1') };
  } finally {
    await handle.close();
  }
}

/** What the CSV thread posts: a chunk of records, the end with the file's hash, or a failure. */
export type CsvThreadMessage =
  | { kind: 'records'; chunk: RecordChunk }
  | { kind: 'end'; hash: string }
  | { kind: 'failed'; failure: ReadFailure };

/** Chunks the CSV thread may post ahead of the reader: what waits in memory stays bounded. */
export const CHUNKS_AHEAD = 4;

/** Something to wait for until `notify` is called; one waiter at a time. */
export class Signal {
  private resume: (() => void) | undefined;

  wait(): Promise<void> {
    return new Promise((resolve) => (this.resume = resolve));
  }

  notify(): void {
    const resume = this.resume;
    this.resume = undefined;
    resume?.();
  }
}

/**
 * `parseRecords` on a worker thread (csvWorker.ts), so that parsing and the reader's checks of
 * the lines run at once. The thread posts at most CHUNKS_AHEAD chunks ahead of the reader, and
 * is stopped when the reading ends, however it ends.
 */
export async function* parseRecordsOnWorker(
  file: string,
  options: TextOptions,
  onEnd: (hash: string) => void,
): AsyncGenerator<RecordChunk> {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL('./csvWorker.js', import.meta.url), {
    workerData: { file, options },
    // The thread keeps only a few chunks: a small young generation keeps its memory small, and
    // measured as fast as the default (48 MB) on a million-line file.
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  const messages: CsvThreadMessage[] = [];
  const arrived = new Signal();
  let stopped: Error | undefined;
  worker.on('message', (message: CsvThreadMessage) => {
    messages.push(message);
    arrived.notify();
  });
  worker.on('error', (error) => {
    stopped ??= error;
    arrived.notify();
  });
  worker.on('exit', (code) => {
    stopped ??= new Error(`the CSV reading thread stopped early (exit code ${code})`);
    arrived.notify();
  });
  try {
    for (;;) {
      while (messages.length === 0) {
        if (stopped) throw stopped;
        await arrived.wait();
      }
      const message = messages.shift()!;
      if (message.kind === 'end') {
        onEnd(message.hash);
        return;
      }
      if (message.kind === 'failed') {
        const { kind, message: text, lines, code } = message.failure;
        throw new CsvReadError(kind, text, lines, code);
      }
      worker.postMessage('next');
      // Chunks waiting in `messages` are taken without returning to the event loop, which
      // would starve it (no timers, no Ctrl-C) until the reader caught up with the thread.
      await new Promise((resolve) => setImmediate(resolve));
      yield message.chunk;
    }
  } finally {
    await worker.terminate();
  }
}
