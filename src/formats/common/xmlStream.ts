import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import iconv from 'iconv-lite';
import { SaxesParser } from 'saxes';
import { utf16Of } from './byteOrderMark.js';
import {
  compressedBomb,
  fileBytes,
  MAX_TEXT_CHARACTERS,
  overlongText,
  unpackBound,
} from './bounds.js';
import { CsvReadError, firstInvalidUtf8, lineAt } from './csvRecords.js';

/*
 * An XML export read as a stream of elements (saxes, a SAX parser): never the document whole.
 * Names come without their namespace prefix (`n1:Amount` is `Amount`): an audit file's namespace
 * is told from its root, and its elements are named alike in every version.
 */

export interface XmlElements {
  /** An element opens, `path` its ancestors' names and its own (the root first). */
  open(path: readonly string[], attributes: Readonly<Record<string, string>>, line: number): void;
  /** It closes: the text directly inside it, trimmed. */
  close(path: readonly string[], text: string, line: number): void;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * A text of its own: the parser's are slices of the chunk they were read from, and a reader
 * that keeps one (an entry's reference) would keep the whole 256 kB chunk alive with it. The
 * concatenation is flattened into a new string of the text's length (V8 copies shorter ones).
 */
const ownText = (text: string) => (text.length < 13 ? text : (' ' + text).slice(1));

/**
 * Feeds the file to `elements`, yielding after each chunk (so that what a chunk completed can be
 * handed on before the next is read); `onEnd` gets the SHA-256 of its bytes. The bytes are
 * UTF-8 unless `encoding` says otherwise (or the file starts with a UTF-16 byte order mark):
 * bytes that are not are a CsvReadError of kind `bytes` naming the line and the byte, and an
 * XML error one of kind `csv` (the kind the readers report as a file's own).
 */
export async function* readXml(
  file: string,
  encoding: string | undefined,
  elements: XmlElements,
  onEnd: (hash: string) => void,
  /** The file is gzip-compressed (a GnuCash book): read through gunzip, hashed as it is. */
  options: { gzip?: boolean } = {},
): AsyncGenerator<void> {
  const hash = createHash('sha256');
  const parser = new SaxesParser({ position: true });
  const path: string[] = [];
  const texts: string[] = [];
  let failure: Error | undefined;
  parser.on('opentag', (tag) => {
    path.push(localName(tag.name));
    texts.push('');
    elements.open(path, tag.attributes as Record<string, string>, parser.line);
  });
  const text = (t: string) => {
    if (texts.length > 0) texts[texts.length - 1] += t;
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('closetag', () => {
    elements.close(path, ownText(texts.pop()!.trim()), parser.line);
    path.pop();
  });
  parser.on('error', (error) => (failure ??= error));

  const raw = createReadStream(file, { highWaterMark: 256 * 1024 });
  let input: NodeJS.ReadableStream = raw;
  if (options.gzip) {
    raw.on('data', (bytes) => hash.update(bytes));
    const gunzip = createGunzip();
    raw.on('error', (error) => gunzip.destroy(error));
    input = raw.pipe(gunzip);
  }
  let decoder: { write(bytes: Buffer): string; end(): string | undefined } | undefined;
  let offset = 0;
  // Characters since the last `<`: a text, a name or a value (none holds a `<`) so long is no
  // export's, and the parser would hold it whole. Gzip may unpack so far, and no further.
  let sinceMarkup = 0;
  const unpackLimit = options.gzip ? unpackBound(fileBytes(file)) : Infinity;
  try {
    for await (const bytes of gunzipped(input as AsyncIterable<Buffer>, parser)) {
      if (!options.gzip) hash.update(bytes);
      decoder ??= xmlDecoder(bytes, encoding);
      const chunk = options.gzip
        ? decodeOrFailAt(decoder, bytes, parser.line)
        : await decodeOrFail(decoder, bytes, file, offset);
      offset += bytes.length;
      if (offset > unpackLimit)
        throw new CsvReadError(
          'csv',
          compressedBomb('the gzip-compressed data', fileBytes(file), offset),
          parser.line,
        );
      const firstMarkup = chunk.indexOf('<');
      if (sinceMarkup + (firstMarkup < 0 ? chunk.length : firstMarkup) > MAX_TEXT_CHARACTERS)
        throw new CsvReadError(
          'csv',
          overlongText('a text, name or value (the characters between two tags)'),
          parser.line,
        );
      sinceMarkup =
        firstMarkup < 0 ? sinceMarkup + chunk.length : chunk.length - chunk.lastIndexOf('<') - 1;
      parser.write(chunk);
      if (failure) throw xmlFailure(failure, parser.line);
      yield;
    }
    const rest = decoder?.end();
    if (rest) parser.write(rest);
    parser.close();
    if (failure) throw xmlFailure(failure, parser.line);
    yield;
    onEnd(hash.digest('hex'));
  } finally {
    raw.destroy();
  }
}

/** The decompressed chunks; damaged gzip data is the file's own error, at the line reached. */
async function* gunzipped(
  input: AsyncIterable<Buffer>,
  parser: { line: number },
): AsyncGenerator<Buffer> {
  try {
    yield* input;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('Z_'))
      throw new CsvReadError(
        'bytes',
        `the gzip-compressed data is damaged (${(error as Error).message}): the file was cut short or changed`,
        parser.line,
      );
    throw error;
  }
}

/** A decompressed chunk decoded; bytes that are not UTF-8 fail at the line the parser reached. */
function decodeOrFailAt(decoder: { write(bytes: Buffer): string }, bytes: Buffer, line: number) {
  try {
    return decoder.write(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new CsvReadError('bytes', 'bytes that are not UTF-8, which a GnuCash book is', line);
  }
}

/** An XML error in the words of someone fixing the file: saxes' message without its position. */
function xmlFailure(error: Error, line: number): CsvReadError {
  const message = error.message.replace(/^[^:]*:\d+:\d+: /, '');
  return new CsvReadError('csv', `not well-formed XML: ${message}`, line);
}

/**
 * The decoder of the file's bytes: `--encoding`, else a UTF-16 byte order mark, else the
 * encoding its XML declaration names, else UTF-8 (checked: never a U+FFFD in silence).
 */
function xmlDecoder(
  first: Buffer,
  encoding: string | undefined,
): { write(bytes: Buffer): string; end(): string | undefined } {
  const utf16 = encoding === undefined ? utf16Of(first) : undefined;
  if (utf16) return iconv.getDecoder(utf16);
  const declared = /^(?:\uFEFF|\xEF\xBB\xBF)?<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/.exec(
    first.subarray(0, 256).toString('latin1'),
  )?.[1];
  const chosen = encoding ?? declared;
  if (chosen === undefined || /^utf-?8$/i.test(chosen) || !iconv.encodingExists(chosen)) {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
    return {
      write: (bytes) => decoder.decode(bytes, { stream: true }),
      end: () => decoder.decode(),
    };
  }
  return iconv.getDecoder(chosen);
}

/** A chunk decoded; bytes that are not UTF-8 fail with their line and offset. */
async function decodeOrFail(
  decoder: { write(bytes: Buffer): string },
  bytes: Buffer,
  file: string,
  offset: number,
): Promise<string> {
  try {
    return decoder.write(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    // A character split across chunks is decoded whole: the first bad byte is in this chunk,
    // or within the three before it.
    const at = offset + firstInvalidUtf8(bytes);
    const { line, byte } = await lineAt(file, at);
    return Promise.reject(
      new CsvReadError(
        'bytes',
        `byte 0x${(byte ?? 0).toString(16).toUpperCase().padStart(2, '0')} (at byte ${at}) is not UTF-8, which the file is read as (its XML declaration, or no --encoding): if it was saved in another encoding, name it with --encoding (latin1, windows-1252)`,
        line,
      ),
    );
  }
}
