import { closeSync, openSync, readSync, statSync } from 'node:fs';
import iconv from 'iconv-lite';
import { textPool } from '../core/names.js';
import { utf16Of } from './common/byteOrderMark.js';
import { statementFormatTold } from './registry.js';
import {
  dropSharedReferences,
  UnreadableStatement,
  type StatementFile,
  type StatementReadOptions,
} from './statement.js';

/** A statement file that is not there, or not a file: the user's to fix (not the file's). */
export class MissingStatement extends Error {
  override name = 'MissingStatement';
}

/** The first bytes of a file (4 kB tell its format). */
function headOf(file: string, bytes = 4096): Buffer {
  const descriptor = openSync(file, 'r');
  try {
    const head = Buffer.alloc(bytes);
    return head.subarray(0, readSync(descriptor, head, 0, head.length, 0));
  } finally {
    closeSync(descriptor);
  }
}

/**
 * A file's first bytes as the text its format is told by: UTF-16 where its byte order mark says
 * so (what Windows writes as "Unicode", Excel's "Unicode Text" among them), else a character a
 * byte (every format's marks are ASCII).
 */
function headText(bytes: Buffer): string {
  const utf16 = utf16Of(bytes);
  return utf16 ? iconv.decode(bytes, utf16).replace(/^\uFEFF/, '') : bytes.toString('latin1');
}

/**
 * The format a file's first bytes show, and its first 64 kB (to its last whole line) as text:
 * UTF-16 by its byte order mark, UTF-8 where they are, else Latin-1.
 */
export function statementFormatOf(file: string): { name: string; head: string } {
  const bytes = headOf(file, 65536);
  const name = statementFormatTold(headText(bytes.subarray(0, 4096))).name;
  if (utf16Of(bytes)) {
    const text = headText(bytes.subarray(0, bytes.length - (bytes.length % 2)));
    return { name, head: text.slice(0, text.lastIndexOf('\n') + 1 || text.length) };
  }
  const lines = bytes.subarray(0, bytes.lastIndexOf(10) + 1 || bytes.length);
  try {
    return { name, head: new TextDecoder('utf-8', { fatal: true }).decode(lines) };
  } catch {
    return { name, head: lines.toString('latin1') };
  }
}

/**
 * Reads a bank statement file in whichever format its first bytes show. A file that is not
 * there is a MissingStatement; one that cannot be read (cut short, not what it claims, bytes
 * that are not text) an UnreadableStatement naming the line.
 */
export async function readStatementFile(
  file: string,
  options: StatementReadOptions = {},
): Promise<StatementFile> {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new MissingStatement(`${file} is a directory, not a statement`);
    size = stat.size;
  } catch (error) {
    if (error instanceof MissingStatement) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new MissingStatement(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code}`,
    );
  }
  if (size === 0) throw new UnreadableStatement('the file is empty');
  const format = statementFormatTold(headText(headOf(file)));
  const read = await format.read(file, options);
  dropSharedReferences(read.statements, read.checks, format.title);
  const kept = textPool();
  for (const statement of read.statements)
    for (const entry of statement.entries) {
      entry.bookingDate = kept(entry.bookingDate);
      if (entry.valueDate !== null) entry.valueDate = kept(entry.valueDate);
      if (entry.counterparty !== null) entry.counterparty = kept(entry.counterparty);
      entry.description = kept(entry.description);
    }
  return { file, ...read };
}
