import { once } from 'node:events';
import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import type { LedgerBasis } from '../../api/index.js';
import type { BooksApi } from '../../client/index.js';
import type { CalendarDay } from '../../core/calendar.js';
import { absCents, centsToAmount, formatCents, type Cents } from '../../core/money.js';
import type { FiscalYearStart } from '../../core/periods.js';
import type { ExportEvents, ExportScope } from './bookExport.js';
import type { AuditBooks, RetainedEarningsAccount } from '../../formats/audit/books.js';
import { auditBooksOf } from './auditBooks.js';
import { CharsetText } from '../../formats/audit/text.js';
import type { AuditFileWriter, AuditFormat, WriterOptions } from '../../formats/audit/writer.js';
import { AUDIT_WRITERS } from '../../formats/writers.js';

export { NothingToExport, UnusableAccount, withArticle } from './auditBooks.js';
export { ExportDisagrees } from './bookExport.js';
export { BadIdentifier } from '../../formats/audit/identifiers.js';
export * as identifiers from '../../formats/audit/identifiers.js';
export { AUDIT_FORMATS, type AuditFormat, type WriterOptions } from '../../formats/audit/writer.js';
export { AUDIT_WRITERS } from '../../formats/writers.js';

/*
 * `books export DIR --format fec|saft|xaf|sie|datev`: an entity's books over a range in the audit
 * file its country's tax law asks for, one file, written beside its name and moved into place
 * when whole.
 */

/** The books cannot be written in the format asked for (a code it cannot hold, …). */
export class UnwritableBooks extends Error {
  override name = 'UnwritableBooks';
}

export interface AuditExportRequest {
  /** Where the file is written: a directory that exists (the CLI makes it, saying why it cannot). */
  directory: string;
  format: AuditFormat;
  from: CalendarDay;
  to: CalendarDay;
  basis: LedgerBasis;
  fiscalYearStart: FiscalYearStart;
  /**
   * `--retained-earnings`: the entity's own account for the earlier years' results, an equity
   * account of its chart (the CLI finds it and refuses any other).
   */
  retainedEarnings?: RetainedEarningsAccount | undefined;
  concurrency: number;
  options: WriterOptions;
}

export interface AuditExportOutcome {
  file: string;
  format: AuditFormat;
  from: CalendarDay;
  to: CalendarDay;
  basis: LedgerBasis;
  accounts: number;
  entries: number;
  lines: number;
  totalDebit: number;
  totalCredit: number;
  openings: number;
  notes: string[];
}

/** Bytes written at once: text is gathered to this size before it is encoded and written. */
const CHUNK = 256 * 1024;

export async function writeAuditFile(
  api: BooksApi,
  scope: ExportScope,
  request: AuditExportRequest,
  events: ExportEvents = {},
): Promise<AuditExportOutcome> {
  const writer = AUDIT_WRITERS[request.format];
  const { options } = request;
  const books = await auditBooksOf(
    api,
    scope,
    {
      from: request.from,
      to: request.to,
      basis: request.basis,
      fiscalYearStart: request.fiscalYearStart,
      retainedEarnings: request.retainedEarnings,
      usualRetainedEarnings: (carried: Cents) => writer.retainedEarnings(options, carried),
      concurrency: request.concurrency,
      directory: request.directory,
      previousYear: request.format === 'sie',
    },
    events,
  );
  const file = path.join(request.directory, writer.fileName(books, options));
  const partial = `${file}.partial`;
  try {
    const refusal = writer.refusal?.(books, options);
    if (refusal !== undefined) throw new UnwritableBooks(`${writer.title}: ${refusal}`);
    if (existsSync(file))
      throw new UnwritableBooks(
        `${file} exists already: export into another directory, or move it`,
      );
    const text = new CharsetText(
      writer.charset,
      writer.encoding,
      new Set(writer.forbidden?.characters ?? ''),
      writer.forbidden?.replacement,
    );
    await writeEncoded(partial, writer.encoding, (put) => writer.write(books, put, text, options));
    renameSync(partial, file);
    return {
      file,
      format: request.format,
      from: books.from,
      to: books.to,
      basis: books.basis,
      accounts: books.accounts.length,
      entries: books.totals.entries,
      lines: books.totals.lines,
      totalDebit: centsToAmount(books.totals.debit),
      totalCredit: centsToAmount(books.totals.credit),
      openings: books.openings.length,
      notes: notesOf(books, writer, options, text),
    };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    books.dispose();
  }
}

/** Streams what `write` puts into `file`, encoded, gathered into chunks; closes it whole. */
async function writeEncoded(
  file: string,
  encoding: string,
  write: (put: (text: string) => Promise<void>) => Promise<void>,
): Promise<void> {
  const out = createWriteStream(file, { mode: 0o644 });
  let pending = '';
  const flush = async () => {
    if (pending === '') return;
    const bytes =
      encoding === 'utf-8' ? Buffer.from(pending, 'utf8') : iconv.encode(pending, encoding);
    pending = '';
    if (!out.write(bytes)) await once(out, 'drain');
  };
  try {
    await write(async (text) => {
      pending += text;
      if (pending.length >= CHUNK) await flush();
    });
    await flush();
    out.end();
    await once(out, 'finish');
  } catch (error) {
    out.destroy();
    throw error;
  }
}

function notesOf(
  books: AuditBooks,
  writer: AuditFileWriter,
  options: WriterOptions,
  text: CharsetText,
): string[] {
  const notes: string[] = [];
  const retained = books.retainedEarnings;
  if (retained.amount !== 0)
    notes.push(
      `the results of the years before ${books.from} (${formatCents(absCents(retained.amount))} ${retained.amount < 0 ? 'profit' : 'loss'}) are carried in on ${retained.code} ${retained.name}${retained.added ? ', an account the chart does not have: added to the file' : ''}`,
    );
  if (books.leftOut.lines > 0)
    notes.push(
      `${books.leftOut.lines} lines of a zero amount left out${books.leftOut.entries > 0 ? ` (${books.leftOut.entries} entries had nothing else)` : ''}`,
    );
  notes.push(...(writer.notes?.(books, options) ?? []));
  const replaced = text.summary();
  if (replaced) notes.push(replaced);
  return notes;
}
