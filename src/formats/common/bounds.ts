import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';

/*
 * What no export holds, refused in one sentence before it is held in memory: a text, line or
 * field of more than a million characters; compressed data that unpacks past a hundred times
 * its size (and 256 MB); a file read whole (a bank statement) of more than 128 MB. Each reader
 * family applies them where it reads: the XML stream, the CSV parser, the lines of text formats,
 * gzip, a workbook's zip, a SQLite book's texts.
 */

/** A text, line or field longer than this is no export's. */
export const MAX_TEXT_CHARACTERS = 1024 * 1024;

/** A file read whole (statements are) may be this large. */
export const MAX_WHOLE_FILE_BYTES = 128 * 1024 * 1024;

/** Compressed data may unpack to this many times its size… */
export const MAX_UNPACK_RATIO = 100;
/** …and to this much whatever its size. */
const MIN_UNPACK_BYTES = 256 * 1024 * 1024;

/** How far compressed data of `packedBytes` may unpack. */
export const unpackBound = (packedBytes: number) =>
  Math.max(MIN_UNPACK_BYTES, MAX_UNPACK_RATIO * packedBytes);

/** `295 kB`, `812 MB`: sizes as the sentences say them. */
export const megabytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.ceil(bytes / 1024).toLocaleString('en-US')} kB`
    : `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;

/** The sentence of a text over the bound. */
export const overlongText = (what: string) =>
  `${what} is longer than ${MAX_TEXT_CHARACTERS.toLocaleString('en-US')} characters, which no export's is: refused`;

/** The sentence of compressed data that unpacks past its bound. */
export const compressedBomb = (what: string, packedBytes: number, unpackedBytes: number) =>
  `${what} unpacks to more than ${megabytes(unpackedBytes)} from ${megabytes(packedBytes)}, past ${MAX_UNPACK_RATIO} times its size: a compressed bomb, refused`;

/**
 * The first line of `bytes` longer than the bound (counted in bytes, line breaks of any kind):
 * its number and length; undefined where none is.
 */
export function overlongLine(bytes: Buffer): { line: number; length: number } | undefined {
  let line = 1;
  let start = 0;
  for (let at = 0; at <= bytes.length; at++) {
    const byte = at < bytes.length ? bytes[at] : 10;
    if (byte !== 10 && byte !== 13) continue;
    if (at - start > MAX_TEXT_CHARACTERS) return { line, length: at - start };
    if (byte === 13 && bytes[at + 1] === 10) at += 1;
    line += 1;
    start = at + 1;
  }
  return undefined;
}

/** A file's size, where it is a file (its reader says what else it is). */
export function fileBytes(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The size of a file too large to be read whole (`200 MB`), as said; undefined where it is not. */
export function oversize(file: string): string | undefined {
  const size = fileBytes(file);
  return size > MAX_WHOLE_FILE_BYTES ? megabytes(size) : undefined;
}

/** A file too large to read whole, said; read whole (UTF-8) where it is not. */
export function boundedText(file: string): string {
  const size = oversize(file);
  if (size)
    throw new Error(
      `the file is ${size}, more than the ${megabytes(MAX_WHOLE_FILE_BYTES)} such a file may be: refused`,
    );
  return readFileSync(file, 'utf8');
}

/**
 * Where a text runs more than the bound without `mark` (a `<`: between two tags of OFX or XML,
 * a text, name or value): the line it starts on; undefined where it does not.
 */
export function overlongRun(text: string, mark: string): number | undefined {
  let start = 0;
  for (let at = text.indexOf(mark); ; at = text.indexOf(mark, start)) {
    const end = at < 0 ? text.length : at;
    if (end - start > MAX_TEXT_CHARACTERS) {
      let line = 1;
      for (let i = text.indexOf('\n'); i >= 0 && i < start; i = text.indexOf('\n', i + 1))
        line += 1;
      return line;
    }
    if (at < 0) return undefined;
    start = at + 1;
  }
}

/**
 * Text chunks passed on as they come, until a line runs past the bound: then `refuse` is
 * thrown with the line's number (for readers of lines: readline would hold the line whole).
 */
export async function* boundedLines(
  chunks: AsyncIterable<string>,
  refuse: (line: number) => Error,
): AsyncGenerator<string> {
  let line = 1;
  let run = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let at = chunk.indexOf('\n'); at >= 0; at = chunk.indexOf('\n', start)) {
      if (run + at - start > MAX_TEXT_CHARACTERS) throw refuse(line);
      run = 0;
      line += 1;
      start = at + 1;
    }
    run += chunk.length - start;
    if (run > MAX_TEXT_CHARACTERS) throw refuse(line);
    yield chunk;
  }
}

/** A zip's parts as its central directory lists them: name, packed and unpacked bytes. */
export interface ZipPart {
  name: string;
  packed: number;
  unpacked: number;
}

/**
 * The parts of a zip file (an .xlsx workbook) from its central directory, read without
 * unpacking anything; undefined where the file has no readable directory (its reader says so).
 * A part of four gigabytes or more (ZIP64's 0xFFFFFFFF) is listed at that size.
 */
export function zipParts(file: string): ZipPart[] | undefined {
  const size = fileBytes(file);
  if (size < 22) return undefined;
  const descriptor = openSync(file, 'r');
  try {
    const read = (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      readSync(descriptor, buffer, 0, length, position);
      return buffer;
    };
    // The end of central directory record: its signature within the last 64 kB and 22 bytes.
    const tailLength = Math.min(size, 65_557);
    const tail = read(size - tailLength, tailLength);
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0) return undefined;
    const count = tail.readUInt16LE(end + 10);
    const directoryBytes = tail.readUInt32LE(end + 12);
    const directoryAt = tail.readUInt32LE(end + 16);
    if (directoryAt + directoryBytes > size) return undefined;
    const directory = read(directoryAt, directoryBytes);
    const parts: ZipPart[] = [];
    let at = 0;
    for (let i = 0; i < count && at + 46 <= directory.length; i++) {
      if (directory.readUInt32LE(at) !== 0x02014b50) return undefined;
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      parts.push({
        packed: directory.readUInt32LE(at + 20),
        unpacked: directory.readUInt32LE(at + 24),
        name: directory.toString('utf8', at + 46, at + 46 + nameLength),
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return parts;
  } finally {
    closeSync(descriptor);
  }
}

/** The first part of a zip that unpacks past its bound, with the sentence that refuses it. */
export function zipBomb(file: string): string | undefined {
  const parts = zipParts(file) ?? [];
  const total = parts.reduce((sum, part) => sum + part.unpacked, 0);
  const bound = unpackBound(fileBytes(file));
  const part = parts.find((p) => p.unpacked > bound);
  if (part) return compressedBomb(`its part ${part.name}`, part.packed, part.unpacked);
  if (total > bound) return compressedBomb('it', fileBytes(file), total);
  return undefined;
}
