import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { textPool } from '../core/names.js';
import { statementFormatTold } from './registry.js';
import { UnreadableStatement, type StatementFile, type StatementReadOptions } from './statement.js';

/** A statement file that is not there, or not a file: the user's to fix (not the file's). */
export class MissingStatement extends Error {
  override name = 'MissingStatement';
}

/** The first 4 kB of a file, as Latin-1 (what tells its format). */
function headOf(file: string): string {
  const descriptor = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    return head.subarray(0, readSync(descriptor, head, 0, head.length, 0)).toString('latin1');
  } finally {
    closeSync(descriptor);
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
  const format = statementFormatTold(headOf(file));
  const read = await format.read(file, options);
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
