import type { LedgerFormat } from './options.js';
import { bai2 } from './bai2/reader.js';
import { bankCsv } from './bankCsv/reader.js';
import { bexio } from './bexio/reader.js';
import { camt } from './camt/reader.js';
import { cfonb120 } from './cfonb120/reader.js';
import { coda } from './coda/reader.js';
import { books } from './books/reader.js';
import { datev } from './datev/reader.js';
import { fec } from './fec/reader.js';
import { firstLineOf, type LedgerFormatDefinition } from './format.js';
import { qbReport, xeroReport } from './glReport/reader.js';
import { gnucash } from './gnucash/reader.js';
import { gnucashBook } from './gnucash/bookReader.js';
import { beancount, hledger, ledger } from './hledger/reader.js';
import { iif } from './iif/reader.js';
import { mt940 } from './mt940/reader.js';
import { norma43 } from './norma43/reader.js';
import { ofx } from './ofx/reader.js';
import { qif } from './qif/reader.js';
import { infoniqa } from './infoniqa/reader.js';
import { nominalLedger } from './nominalLedger/reader.js';
import { qbTransactionDetail } from './qbDetail/reader.js';
import { saft } from './saft/reader.js';
import { sie } from './sie/reader.js';
import { wave } from './wave/reader.js';
import type { StatementFormatDefinition } from './statement.js';
import { xaf } from './xaf/reader.js';

/**
 * Every export format books reads, in the order `auto` tries them: the audit files (told by
 * their first bytes), then the CSVs told by their header, then the reports told by their
 * titles and sections; a books CSV when none is told. A new format is its module and one line
 * here (and its name in `LEDGER_FORMATS`, which `--help` reads without loading the readers).
 */
export const FORMATS: readonly LedgerFormatDefinition[] = [
  gnucashBook,
  saft,
  xaf,
  sie,
  datev,
  iif,
  gnucash,
  fec,
  wave,
  bexio,
  infoniqa,
  hledger,
  ledger,
  beancount,
  nominalLedger,
  qbTransactionDetail,
  qbReport,
  xeroReport,
  books,
];

/** The format of that name. */
export function formatNamed(name: Exclude<LedgerFormat, 'auto'>): LedgerFormatDefinition {
  const found = FORMATS.find((format) => format.name === name);
  if (!found) throw new Error(`no format named ${name} in the registry`);
  return found;
}

/** The format given, else the first whose signs a file's first 4 kB show, else a books CSV. */
export function formatTold(head: string, given: LedgerFormat | undefined): LedgerFormatDefinition {
  if (given !== undefined && given !== 'auto') return formatNamed(given);
  const firstLine = firstLineOf(head);
  return FORMATS.find((format) => format.detect?.(head, firstLine)) ?? books;
}

/**
 * Every bank statement format books reads, in the order they are told apart by a file's first
 * 4 kB: the XML camt messages, OFX (SGML or XML), SWIFT MT940/942, BAI2, QIF, the fixed records of
 * CODA, Norma 43 and CFONB 120; a bank's CSV (its
 * columns named by their headers, or `--map`) when none is told.
 */
export const STATEMENT_FORMATS: readonly StatementFormatDefinition[] = [
  camt,
  ofx,
  mt940,
  bai2,
  qif,
  coda,
  norma43,
  cfonb120,
  bankCsv,
];

/** The statement format a file's first 4 kB show, else a bank's CSV. */
export const statementFormatTold = (head: string): StatementFormatDefinition =>
  STATEMENT_FORMATS.find((format) => format.detect?.(head)) ?? bankCsv;
