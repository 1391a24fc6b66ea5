import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { utf16Of } from './byteOrderMark.js';
import { MAX_WHOLE_FILE_BYTES, megabytes, overlongLine, overlongText, oversize } from './bounds.js';
import { UnreadableStatement, type StatementCheck } from '../statement.js';

/**
 * A statement file's bytes, whole: one over the bound (statements are read whole) is refused,
 * saying how large it is.
 */
export async function statementBytes(file: string): Promise<Buffer> {
  const size = oversize(file);
  if (size)
    throw new UnreadableStatement(
      `the file is ${size}, and a statement (read whole) may be ${megabytes(MAX_WHOLE_FILE_BYTES)}: split it by month`,
    );
  return readFile(file);
}

/**
 * A statement file's text, whole (statements are read whole: a year of a busy account is a few
 * megabytes). `--encoding` if given; else UTF-16 by its byte order mark, UTF-8 when the bytes are
 * UTF-8, and otherwise Windows-1252 — what banks that write umlauts in MT940 or QIF use —,
 * said. A NUL byte is a binary file, not a statement.
 */
export async function decodedText(
  file: string,
  encoding: string | undefined,
  checks: StatementCheck[],
  format: string,
  /** Lines may run past a million characters: records end to end, or several to a line. */
  longLines = false,
): Promise<string> {
  const bytes = await statementBytes(file);
  const overlong = longLines ? undefined : overlongLine(bytes);
  if (overlong) throw new UnreadableStatement(overlongText(`${format}: the line`), overlong.line);
  if (encoding !== undefined) {
    if (!iconv.encodingExists(encoding))
      throw new UnreadableStatement(`--encoding ${encoding} is not an encoding books knows`);
    return iconv.decode(bytes, encoding).replace(/^\uFEFF/, '');
  }
  const utf16 = utf16Of(bytes);
  if (utf16) return iconv.decode(bytes, utf16).replace(/^\uFEFF/, '');
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const line = bytes.subarray(0, nul).toString('latin1').split('\n').length;
    throw new UnreadableStatement(`byte ${nul} is NUL: this is not a text file`, line);
  }
  if (isUtf8(bytes)) return bytes.toString('utf8').replace(/^\uFEFF/, '');
  checks.push({
    line: 1,
    message: `${format}: the file is not UTF-8: read as Windows-1252 (--encoding names another)`,
  });
  return iconv.decode(bytes, 'windows-1252');
}
