import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import os from 'node:os';
import { formatCents, negateCents, type Cents } from '../../core/money.js';
import path from 'node:path';
import {
  detectDelimiter,
  eachRecord,
  parseRecords,
  parseRecordsOnWorker,
  type ReadFailure,
} from './csvRecords.js';
import { chartFiller, codeRangeFiller, readChartFile } from '../chartFile.js';
import { fecDelimiter, looksLikeFec, readFec, type FecFacts } from './fec.js';
import { looksLikeGnuCash, readGnuCash, type GnuCashFacts } from './gnucash.js';
import {
  looksLikeGlReport,
  looksLikeQboLedger,
  readGlReport,
  type GlReportFacts,
} from './glReport.js';
import {
  looksLikeBeancount,
  looksLikeHledger,
  looksLikeLedgerCsv,
  readHledger,
  type HledgerFacts,
} from './hledger.js';
import { looksLikeIif, readIif, type IifFacts } from './iif.js';
import { looksLikeSaft, readSaft } from './saft.js';
import { looksLikeXaf, readXaf } from './xaf.js';
import { looksLikeSie, readSie } from './sie.js';
import { looksLikeWave, readWave, type WaveFacts } from './wave.js';
import { looksLikeBexio, readBexio, type BexioFacts } from './bexio.js';
import { looksLikeInfoniqa, readInfoniqa, type InfoniqaFacts } from './infoniqa.js';
import { looksLikeDatev, readDatev, type DatevFacts, type DatevVat, type Skr } from './datev.js';
import type { AuditFacts } from './auditFile.js';
import {
  looksLikeNominalLedger,
  readNominalLedger,
  type NominalLedgerFacts,
} from './nominalLedger.js';
import {
  EntryGrouper,
  isProblem,
  isZeroLine,
  LedgerFormatError,
  mapColumns,
  readLine,
  reportProblem,
  type DateFormat,
  type LedgerEntry,
  type LedgerField,
  type LedgerLine,
  type LineFormat,
  type Problem,
  dateOrderOrProblem,
  dayMonthOrder,
  slashedPair,
  ZeroEntries,
} from './ledgerCsv.js';

import {
  looksLikeOldWorkbook,
  looksLikeWorkbook,
  WorkbookError,
  writeSheetAsCsv,
  type SheetWritten,
} from './workbook.js';

export { LEDGER_FORMATS, type LedgerFormat } from '../options.js';
import type { LedgerFormat } from '../options.js';

export interface ReadOptions {
  /** The file's format; `auto` (the default) reads its first line to tell. */
  format?: LedgerFormat;
  /** `--chart`: a CSV `code,name,type` giving the codes and types the export does not. */
  chartFile?: string;
  /** `--code-ranges 1=asset,2=liability,…`: types by the leading digits of account codes. */
  codeRanges?: readonly [string, string][];
  /** `--offset-account`: the other side of every row of a single-sided report. */
  offsetAccount?: string;
  /** `--currency`: the one currency kept from a file of several. */
  currency?: string;
  map?: Partial<Record<LedgerField, string>>;
  /** `--date-format`; without it YYYY-MM-DD, or what a format that tells its dates finds. */
  dateFormat?: DateFormat;
  /** Decimals written with a comma: `1.234,56`. */
  decimalComma?: boolean;
  /** The file's encoding (`--encoding`); else UTF-8, or UTF-16 with its byte order mark. */
  encoding?: string;
  /** `--datev-vat`: how a DATEV file's rows that imply VAT are posted. */
  datevVat?: DatevVat;
  /** `--skr`: the DATEV chart (SKR03 or SKR04) when the file's header names none. */
  skr?: Skr;
  /** `--opening-date`: the day an IIF chart's OBAMOUNTs stand at. */
  openingDate?: string;
  /** `--opening-balances`: post an IIF chart's OBAMOUNTs though the file has transactions. */
  openingBalances?: boolean;
  /** `--sheet`: the sheet of an .xlsx workbook to read; else its first. */
  sheet?: string;
  /**
   * Parse the CSV on a worker thread while this one checks the lines: on a million-line file,
   * a quarter less time, for 20 to 40 MB more memory while the file is read.
   */
  parseOnWorker?: boolean;
}

export interface ReadResult {
  /** SHA-256 of the file's bytes. */
  hash: string;
  lines: number;
  /** The problems found, in the order found (the first ones, when there are very many). */
  problems: Problem[];
  /** How many problems there are, kept or not. */
  problemCount: number;
  /** What the reader chose or skipped, for the import to say (format, lines left out…). */
  notes: string[];
  /**
   * What an audit file says against itself or what the import took for it (a closing balance
   * its lines do not make, the difference `--offset-account` took), by file line: said on
   * stderr, and kept in the receipt.
   */
  fileChecks: { fileLine: number; message: string }[];
  /** The closing balance an audit file states per account code (debit-positive). */
  closingBalances: Map<string, Cents>;
}

export const newReadResult = (): ReadResult => ({
  hash: '',
  lines: 0,
  problems: [],
  problemCount: 0,
  notes: [],
  fileChecks: [],
  closingBalances: new Map(),
});

/** The file's first 4 kB, to tell formats apart; '' when unreadable. */
function headOf(file: string): string {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, 'r');
    const head = Buffer.alloc(4096);
    const read = readSync(descriptor, head, 0, head.length, 0);
    return head.subarray(0, read).toString('latin1');
  } catch {
    return '';
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The format a file is in: the one given, else the one its first line shows. */
export function formatOf(
  file: string,
  given: LedgerFormat | undefined,
): Exclude<LedgerFormat, 'auto'> {
  return formatIn(headOf(file), given);
}

const firstLineOf = (head: string) => head.split(/\r?\n/)[0] ?? '';

/** The format given, else the one a file's first 4 kB show. */
function formatIn(head: string, given: LedgerFormat | undefined): Exclude<LedgerFormat, 'auto'> {
  if (given !== undefined && given !== 'auto') return given;
  const first = firstLineOf(head);
  if (looksLikeSaft(head)) return 'saft';
  if (looksLikeXaf(head)) return 'xaf';
  if (looksLikeSie(head)) return 'sie';
  if (looksLikeDatev(head)) return 'datev';
  if (looksLikeIif(first)) return 'iif';
  if (looksLikeGnuCash(first)) return 'gnucash';
  if (looksLikeFec(first)) return 'fec';
  if (looksLikeWave(first)) return 'wave';
  if (looksLikeBexio(first)) return 'bexio';
  if (looksLikeInfoniqa(first)) return 'infoniqa';
  if (looksLikeHledger(first)) return 'hledger';
  if (looksLikeLedgerCsv(first)) return 'ledger';
  if (looksLikeBeancount(first)) return 'beancount';
  if (looksLikeNominalLedger(head)) return 'nominal-ledger';
  if (looksLikeQboLedger(head)) return 'qb-report';
  if (looksLikeGlReport(head))
    return /account transactions|\(\d+\)\s*["]?\s*(,|$)/im.test(head) ? 'xero-report' : 'qb-report';
  return 'books';
}

const isReadFailure = (error: unknown): error is ReadFailure =>
  (error as ReadFailure)?.kind === 'csv' || (error as ReadFailure)?.kind === 'bytes';

/**
 * Streams the entries of a CSV general ledger, never holding the file: problems (with their
 * file line numbers) go to `result.problems` and reading goes on, so one pass finds them all;
 * a CSV error, or bytes that are not text, end the reading there. `result` is complete once the
 * iteration ends.
 */
export async function* readLedger(
  file: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  const head = headOf(file);
  if (looksLikeOldWorkbook(head)) {
    reportProblem(result, {
      fileLine: 1,
      message:
        'an Excel 97-2003 workbook (.xls): books reads .xlsx workbooks and CSV; save it as either',
    });
  } else if (looksLikeWorkbook(head)) {
    yield* readWorkbook(file, options, result);
  } else if (options.sheet !== undefined) {
    reportProblem(result, {
      fileLine: 1,
      message: `--sheet names a sheet of an .xlsx workbook, and this file is not one`,
    });
  } else {
    yield* readText(file, head, options, result);
  }
}

/** The formats a workbook's sheet is read in: the report-shaped ones. */
const WORKBOOK_FORMATS: readonly LedgerFormat[] = [
  'books',
  'qb-report',
  'xero-report',
  'nominal-ledger',
  'wave',
  'bexio',
  'infoniqa',
];

/**
 * An .xlsx workbook: its sheet written out as CSV text in a directory of its own (removed
 * however the reading ends), then read as that CSV; the hash is the workbook's.
 */
async function* readWorkbook(
  file: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'books-sheet-'));
  try {
    const csv = path.join(directory, 'sheet.csv');
    let written: SheetWritten;
    try {
      written = await writeSheetAsCsv(
        file,
        {
          ...(options.sheet !== undefined && { sheet: options.sheet }),
          ...(options.dateFormat !== undefined && { dateFormat: options.dateFormat }),
          ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
        },
        csv,
      );
    } catch (error) {
      if (!(error instanceof WorkbookError)) throw error;
      reportProblem(result, { fileLine: 1, message: error.message });
      return;
    }
    const head = headOf(csv);
    const format = formatIn(head, options.format);
    if (!WORKBOOK_FORMATS.includes(format)) {
      reportProblem(result, {
        fileLine: 1,
        message: `sheet "${written.sheet}" reads as ${format}: a workbook is read as a books CSV, a QuickBooks or Xero ledger report, a nominal ledger, or a Wave, bexio or Infoniqa journal; export the ${format} file as it comes`,
      });
      return;
    }
    result.notes.push(
      `read sheet "${written.sheet}" of the workbook (${written.rows} rows) as the sheet saved as CSV reads: dates from date cells, amounts from number cells`,
    );
    const { sheet: _sheet, encoding: _encoding, ...textOptions } = options;
    yield* readText(csv, head, textOptions, result, true);
    result.hash = written.hash;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A text export (CSV, IIF, a journal's CSV), its first 4 kB in `head`. */
async function* readText(
  file: string,
  head: string,
  options: ReadOptions,
  result: ReadResult,
  /** It is a workbook's sheet written out: its encoding is no news. */
  fromSheet = false,
): AsyncGenerator<LedgerEntry> {
  const fillers: ((line: LedgerLine) => Problem | undefined)[] = [];
  if (options.chartFile !== undefined) {
    const chart = readChartFile(options.chartFile);
    for (const problem of chart.problems) reportProblem(result, problem);
    if (chart.problems.length > 0) return;
    fillers.push(chartFiller(chart.accounts, options.chartFile));
    result.notes.push(
      `${chart.accounts.length} accounts named, coded and typed by ${options.chartFile}`,
    );
  }
  if (options.codeRanges !== undefined) fillers.push(codeRangeFiller(options.codeRanges));
  const format = formatIn(head, options.format);
  if (format !== 'books' && options.format !== format) {
    result.notes.push(
      format === 'iif'
        ? 'read as IIF (QuickBooks Desktop): its first line is an IIF header'
        : format === 'gnucash'
          ? 'read as GnuCash "Export Transactions to CSV": its header has Transaction ID and Full Account Name'
          : format === 'fec'
            ? 'read as a FEC (Fichier des Écritures Comptables): its header has JournalCode and EcritureNum'
            : format === 'hledger'
              ? 'read as hledger CSV (print or register -O csv): its header has txnidx and account'
              : format === 'ledger'
                ? 'read as `ledger csv` output: eight quoted fields, no header'
                : format === 'beancount'
                  ? 'read as bean-query CSV: its header has date, account and a position (or number and currency)'
                  : format === 'saft'
                    ? 'read as SAF-T Financial: its root is an AuditFile in a SAF-T namespace'
                    : format === 'wave'
                      ? 'read as a Wave "Account Transactions" export: its header has Transaction ID and two-column amounts'
                      : format === 'bexio'
                        ? 'read as a bexio export: its header has Datum, Soll, Haben and Betrag in Basiswährung (a journal) or Kontonummer, GK and Saldo (an account ledger)'
                        : format === 'infoniqa'
                          ? 'read as an Infoniqa ONE 50 journal: its header has Blg, Kto, S/H and Netto'
                          : format === 'datev'
                            ? 'read as a DATEV Buchungsstapel: its first line is an EXTF header'
                            : format === 'sie'
                              ? 'read as SIE 4: its first line is a SIE label (#FLAGGA)'
                              : format === 'xaf'
                                ? 'read as an XML Auditfile Financieel (XAF): its root is an auditfile in the auditfiles.nl namespace'
                                : format === 'nominal-ledger'
                                  ? 'read as a nominal ledger report: its title, or sections headed "Account: CODE - NAME"'
                                  : `read as a ${format === 'xero-report' ? 'Xero' : 'QuickBooks'} ledger report: its title, and a Total row per account section`,
    );
  }
  if (format !== 'books' && format !== 'datev' && !fromSheet)
    result.notes.push(
      format === 'sie' && options.encoding === undefined
        ? 'encoding CP437 (PC8, as SIE files are written)'
        : `encoding ${encodingShown(head, options.encoding)}`,
    );
  const entries =
    format === 'books'
      ? readBooksCsv(file, head, options, result)
      : readOtherFormat(format, file, head, options, result);
  if (fillers.length === 0) {
    yield* entries;
    return;
  }
  for await (const entry of entries) {
    for (const line of entry.lines) {
      for (const fill of fillers) {
        const problem = fill(line);
        if (problem) reportProblem(result, problem);
      }
    }
    yield entry;
  }
}

/**
 * What an audit file's reader found, said: counts, the opening entry, what it left out; what
 * the file says against itself, and what `--offset-account` took, also go to the receipt.
 */
function auditNotes(
  format: string,
  facts: AuditFacts,
  offsetAccount: string | undefined,
  typedBy: string,
  result: ReadResult,
): (string | false)[] {
  const took =
    facts.offsetTook !== undefined &&
    `the opening balances do not net to zero; ${offsetAccount} (--offset-account) took ${formatCents(facts.offsetTook < 0 ? negateCents(facts.offsetTook) : facts.offsetTook)} as a ${facts.offsetTook < 0 ? 'credit' : 'debit'}`;
  const checks = [
    ...(took ? [{ fileLine: facts.openingLine ?? 1, message: took }] : []),
    ...facts.contradictions,
  ];
  result.fileChecks.push(...checks.map((c) => ({ ...c, message: `${format}: ${c.message}` })));
  for (const [code, cents] of facts.closingBalances) result.closingBalances.set(code, cents);
  return [
    `${format}: ${count(facts.journals, 'journal', 'journals')}, ${count(facts.transactions, 'transaction', 'transactions')}, ${count(facts.lines, 'line', 'lines')}; ${count(facts.accounts, 'account', 'accounts')} in its chart, typed by ${typedBy}`,
    facts.openingBalances > 0 &&
      `${format}: the opening balances of ${count(facts.openingBalances, 'account', 'accounts')} posted as one entry on ${facts.firstDay}, the first day of its period`,
    facts.zeroLines > 0 && `${format}: ${count(facts.zeroLines, 'line', 'lines')} of zero left out`,
    ...facts.leftOut.map((said) => `${format}: ${said}`),
    ...checks.map((c) => `${format}: ${c.message}`),
  ];
}

/** `3 entries`, `1 entry`. */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A reader's date order as said: YYYY-MM-DD stands for "no date of two readings". */
const datesSaid = (format: DateFormat) =>
  format === 'YYYY-MM-DD' ? 'each of one reading (none written a/b/year)' : format;

/** What lines of zero took with them: the entries made only of such lines. */
const zeroWhole = (entries: number | undefined, one: string, many: string) =>
  entries ? `, and with them ${count(entries, one, many)} made only of such lines` : '';

type ExportReader<F> = (
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: F) => void,
) => AsyncGenerator<LedgerEntry>;

/**
 * Runs an export's reader: its problems, lines read and hash go to `result`, and what it found
 * beside the entries is said by `say`; bytes that are not text end it with their line.
 */
async function* readExport<F>(
  result: ReadResult,
  read: ExportReader<F>,
  say: (facts: F) => (string | false)[],
): AsyncGenerator<LedgerEntry> {
  const report = (problem: Problem) => reportProblem(result, problem);
  try {
    yield* read(
      report,
      (line) => (result.lines = line),
      (hash, facts) => {
        result.hash = hash;
        for (const note of say(facts)) if (note) result.notes.push(note);
      },
    );
  } catch (error) {
    if (!isReadFailure(error)) throw error;
    report({ fileLine: error.lines ?? result.lines + 1, message: error.message });
  }
}

/** The entries of an export in a format of another system, with what its reader said. */
function readOtherFormat(
  format: Exclude<LedgerFormat, 'auto' | 'books'>,
  file: string,
  /** Its first 4 kB. */
  head: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  const text = { encoding: options.encoding };
  const dates = { ...(options.dateFormat !== undefined && { dateFormat: options.dateFormat }) };
  const currency = { ...(options.currency !== undefined && { currency: options.currency }) };
  const decimals = {
    ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
  };
  const reportOptions = {
    ...text,
    ...dates,
    ...decimals,
    ...(options.offsetAccount !== undefined && { offsetAccount: options.offsetAccount }),
  };
  const auditOptions = {
    ...text,
    ...(options.offsetAccount !== undefined && { offsetAccount: options.offsetAccount }),
  };
  switch (format) {
    case 'iif':
      return readExport<IifFacts>(
        result,
        (...hooks) =>
          readIif(
            file,
            {
              ...auditOptions,
              ...(options.openingDate !== undefined && { openingDate: options.openingDate }),
              ...(options.openingBalances !== undefined && {
                openingBalances: options.openingBalances,
              }),
            },
            ...hooks,
          ),
        (facts) => [
          `IIF: ${count(facts.transactions, 'transaction', 'transactions')}, ${count(facts.chartAccounts, 'chart account', 'chart accounts')} (!ACCNT)`,
          facts.zeroLines > 0 &&
            `IIF: ${count(facts.zeroLines, 'line', 'lines')} of zero left out${zeroWhole(facts.zeroEntries, 'transaction', 'transactions')}`,
          facts.openingBalances > 0 &&
            `IIF: the OBAMOUNTs of ${count(facts.openingBalances, 'account', 'accounts')} posted as one opening entry on ${facts.openingDay}${options.openingDate === undefined ? ' (the day before the first transaction; --opening-date to say another)' : ' (--opening-date)'}`,
          facts.offsetTook !== undefined &&
            `IIF: the OBAMOUNTs do not net to zero; ${options.offsetAccount} (--offset-account) took ${formatCents(facts.offsetTook < 0 ? negateCents(facts.offsetTook) : facts.offsetTook)} as a ${facts.offsetTook < 0 ? 'credit' : 'debit'}`,
          facts.obAmountsLeftAside > 0 &&
            `IIF: ${count(facts.obAmountsLeftAside, 'OBAMOUNT', 'OBAMOUNTs')} of the chart left aside: the transactions make the balances (--opening-balances posts them as well)`,
          facts.skippedLists.size > 0 &&
            `IIF: lists that are not the books left out: ${[...facts.skippedLists].map(([kind, rows]) => `${kind} ${rows}`).join(', ')}`,
        ],
      );
    case 'gnucash':
      return readExport<GnuCashFacts>(
        result,
        (...hooks) => readGnuCash(file, { ...text, ...dates, ...currency, ...decimals }, ...hooks),
        (facts) => [
          Boolean(facts.currencyLeftOut) &&
            `GnuCash: ${count(facts.currencyLeftOut ?? 0, 'split', 'splits')} in other currencies than ${options.currency} left out (--currency)`,
          `GnuCash: ${count(facts.transactions, 'transaction', 'transactions')}, dates ${datesSaid(facts.dateFormat)}, decimals with a ${facts.decimalComma ? 'comma' : 'point'}; accounts by full name, typed by their top-level name`,
          facts.zeroSplits > 0 &&
            `GnuCash: ${count(facts.zeroSplits, 'split', 'splits')} of zero left out${zeroWhole(facts.zeroEntries, 'transaction', 'transactions')}`,
        ],
      );
    case 'nominal-ledger':
      return readExport<NominalLedgerFacts>(
        result,
        (...hooks) => readNominalLedger(file, reportOptions, ...hooks),
        (facts) => [
          `nominal ledger: ${count(facts.sections, 'account section', 'account sections')}, ${count(facts.rows, 'row', 'rows')}, dates ${datesSaid(facts.dateFormat)}; ${options.offsetAccount === undefined ? 'rows paired by reference and date' : `each row against ${options.offsetAccount}`}`,
          facts.zeroRows > 0 &&
            `nominal ledger: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
          facts.sharedNames > 0 &&
            `nominal ledger: ${count(facts.sharedNames, 'name is', 'names are')} used by more than one account code: those accounts are named "Name (code)"`,
        ],
      );
    case 'qb-report':
    case 'xero-report':
      return readExport<GlReportFacts>(
        result,
        (...hooks) => readGlReport(file, reportOptions, ...hooks),
        (facts) => [
          `ledger report: ${count(facts.sections, 'account section', 'account sections')}, ${count(facts.rows, 'row', 'rows')}, dates ${datesSaid(facts.dateFormat)}; ${options.offsetAccount === undefined ? 'rows paired by date, type, number and name' : `each row against ${options.offsetAccount}`}`,
          facts.signedAmounts &&
            options.offsetAccount === undefined &&
            `ledger report: one Amount column in each account's own sense; ${count(facts.creditSense, 'account is', 'accounts are')} in the credit sense, told from the pairs`,
          facts.openingBalances > 0 &&
            `ledger report: ${count(facts.openingBalances, 'opening balance', 'opening balances')} posted as one entry on the report's first day`,
          facts.senseFromOpenings.length > 0 &&
            `ledger report: ${facts.senseFromOpenings.join(', ')} in the credit sense, told by the opening balances (no pair names it; they must balance)`,
          facts.deletedAccounts.length > 0 &&
            `ledger report: ${count(facts.deletedAccounts.length, 'deleted account', 'deleted accounts')} kept, named as QuickBooks names them: ${facts.deletedAccounts.join(', ')}`,
          facts.zeroRows > 0 &&
            `ledger report: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
        ],
      );
    case 'saft':
      return readExport<AuditFacts>(
        result,
        (...hooks) => readSaft(file, auditOptions, ...hooks),
        (facts) =>
          auditNotes(
            'SAF-T',
            facts,
            options.offsetAccount,
            "Norway's standard chart (StandardAccountID)",
            result,
          ),
      );
    case 'xaf':
      return readExport<AuditFacts>(
        result,
        (...hooks) => readXaf(file, auditOptions, ...hooks),
        (facts) =>
          auditNotes(
            'XAF',
            facts,
            options.offsetAccount,
            'the RGS code of each (leadReference), else its class of the Dutch chart',
            result,
          ),
      );
    case 'sie':
      return readExport<AuditFacts>(
        result,
        (...hooks) => readSie(file, auditOptions, ...hooks),
        (facts) =>
          auditNotes(
            'SIE',
            facts,
            options.offsetAccount,
            "#KTYP and the BAS chart's classes",
            result,
          ),
      );
    case 'datev':
      return readExport<DatevFacts>(
        result,
        (...hooks) =>
          readDatev(
            file,
            {
              ...text,
              ...(options.datevVat !== undefined && { datevVat: options.datevVat }),
              ...(options.skr !== undefined && { skr: options.skr }),
            },
            ...hooks,
          ),
        (facts) => [
          `DATEV: ${count(facts.transactions, 'booking', 'bookings')}, ${facts.encoding}; accounts typed by ${facts.skr ? `SKR${facts.skr}` : 'nothing (no SKR: --skr 03 or 04, or --chart)'}`,
          facts.grossRows > 0 &&
            `DATEV: ${count(facts.grossRows, 'row', 'rows')} with a tax key, a Skonto or an automatic account posted as written (--datev-vat gross): the VAT DATEV would post beside them is not posted`,
          facts.vatLines > 0 &&
            `DATEV: the VAT of ${count(facts.vatLines, 'row', 'rows')} posted to the VAT accounts of SKR${facts.skr} (--datev-vat split)`,
          facts.zeroLines > 0 &&
            `DATEV: ${count(facts.zeroLines / 2, 'booking', 'bookings')} of zero left out`,
        ],
      );
    case 'wave':
      return readExport<WaveFacts>(
        result,
        (...hooks) => readWave(file, text, ...hooks),
        (facts) => [
          `Wave: ${count(facts.transactions, 'transaction', 'transactions')}, ${count(facts.rows, 'row', 'rows')}; posted from the two-column Debit and Credit amounts (the one-column Amount, signed by account type, left aside); accounts typed by the Account Type and Account Group Wave writes`,
          facts.zeroRows > 0 && `Wave: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
        ],
      );
    case 'bexio':
      return readExport<BexioFacts>(
        result,
        (...hooks) => readBexio(file, text, ...hooks),
        (facts) => [
          `bexio ${facts.layout}: ${count(facts.bookings, 'booking', 'bookings')}; accounts typed by the Swiss SME chart (Kontenrahmen KMU)`,
          facts.layout === 'journal' &&
            `bexio journal: amounts in the base currency (Betrag in Basiswährung)${facts.foreignRows > 0 ? `; ${count(facts.foreignRows, 'row is', 'rows are')} in another currency, its Betrag left aside` : ''}`,
          facts.layout === 'account ledger' &&
            'bexio account ledger: each row against its GK account; the running Saldo checked row by row',
          facts.lostCharacters > 0 &&
            `bexio: ${count(facts.lostCharacters, 'row holds', 'rows hold')} characters a past re-encoding already lost (U+FFFD, �), read as they are`,
          facts.zeroRows > 0 && `bexio: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
        ],
      );
    case 'infoniqa':
      return readExport<InfoniqaFacts>(
        result,
        (...hooks) => readInfoniqa(file, text, ...hooks),
        (facts) => [
          `Infoniqa: ${count(facts.vouchers, 'voucher', 'vouchers')}, ${count(facts.rows, 'row', 'rows')}, gathered by Blg over the whole file; Netto posted${facts.taxRows > 0 ? ` (on ${count(facts.taxRows, 'tax row', 'tax rows')}, BTyp 2, it is the tax)` : ''}; accounts typed by the Swiss SME chart (Kontenrahmen KMU)`,
          facts.foreignAmounts > 0 &&
            `Infoniqa: ${count(facts.foreignAmounts, 'FW-Betrag', 'FW-Beträge')} (a foreign amount, its currency not in the file) left aside`,
          facts.zeroRows > 0 &&
            `Infoniqa: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
        ],
      );
    case 'fec':
      return readExport<FecFacts>(
        result,
        (...hooks) =>
          readFec(file, { ...text, delimiter: fecDelimiter(firstLineOf(head)) }, ...hooks),
        (facts) => [
          `FEC: ${count(facts.entries, 'entry', 'entries')}; accounts typed by their Plan Comptable Général class`,
          facts.zeroLines > 0 &&
            `FEC: ${count(facts.zeroLines, 'line', 'lines')} of zero left out${zeroWhole(facts.zeroEntries, 'entry', 'entries')}`,
        ],
      );
    case 'hledger':
    case 'ledger':
    case 'beancount':
      return readExport<HledgerFacts>(
        result,
        (...hooks) =>
          readHledger(file, { ...text, ...currency, ...decimals, flavor: format }, ...hooks),
        (facts) => [
          `${format}: ${count(facts.transactions, 'transaction', 'transactions')}${format === 'ledger' ? ' (it writes no ids: consecutive postings of a date, closed as they balance)' : ''}; accounts by full name, typed by their top-level name`,
          facts.virtualPostings > 0 &&
            `${format}: ${count(facts.virtualPostings, 'virtual posting', 'virtual postings')} ((Account) or [Account]) left out`,
          facts.zeroPostings > 0 &&
            `${format}: ${count(facts.zeroPostings, 'posting', 'postings')} of zero left out${zeroWhole(facts.zeroEntries, 'transaction', 'transactions')}`,
          facts.otherCommodity > 0 &&
            `${format}: ${count(facts.otherCommodity, 'posting', 'postings')} in other commodities than ${options.currency} left out (--currency)`,
        ],
      );
  }
}

/** The encoding a file's first bytes show, as said to the person importing it. */
function encodingShown(head: string, given: string | undefined): string {
  if (given !== undefined) return `${given} (--encoding)`;
  if (head.startsWith('\xff\xfe')) return 'UTF-16LE (its byte order mark)';
  if (head.startsWith('\xfe\xff')) return 'UTF-16BE (its byte order mark)';
  return head.startsWith('\xef\xbb\xbf') ? 'UTF-8 (with a byte order mark)' : 'UTF-8';
}

const DELIMITER_NAMES: Record<string, string> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
  '|': 'pipes',
};

/**
 * The order of day and month of a file's `a/b/year` dates, told over the whole file (one more
 * pass, made only when such a date is met without `--date-format`).
 */
async function dateOrderOfColumn(
  file: string,
  encoding: string | undefined,
  column: number,
): Promise<DateFormat | { problem: string }> {
  const pairs: [number, number][] = [];
  let example: string | undefined;
  let header = true;
  for await (const { record } of eachRecord(
    file,
    { encoding },
    () => {},
    () => {},
  )) {
    if (header) {
      header = false;
      continue;
    }
    const text = record[column] ?? '';
    const pair = slashedPair(text);
    if (pair) {
      pairs.push(pair);
      example ??= text.trim();
    }
  }
  return dateOrderOrProblem(dayMonthOrder(pairs), example);
}

/** `books`: the CSV general ledger of cli.md. */
async function* readBooksCsv(
  file: string,
  /** Its first 4 kB. */
  head: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  let hash = '';
  const chunks = (options.parseOnWorker ? parseRecordsOnWorker : parseRecords)(
    file,
    { encoding: options.encoding },
    (digest) => (hash = digest),
  );
  const ready: LedgerEntry[] = [];
  const report = (problem: Problem) => reportProblem(result, problem);
  let grouper: EntryGrouper | undefined;
  let columns: ReturnType<typeof mapColumns> | undefined;
  let zeroLines = 0;
  const zeroEntries = new ZeroEntries();
  const format: LineFormat = {
    dateFormat: options.dateFormat ?? 'YYYY-MM-DD',
    decimalComma: options.decimalComma ?? false,
  };
  /** Whether the order of a/b/year dates is known (given, or told over the file). */
  let orderKnown = options.dateFormat !== undefined;
  let dates =
    options.dateFormat === undefined
      ? datesSaid('YYYY-MM-DD')
      : `${options.dateFormat} (--date-format)`;
  let reading: string | undefined;
  try {
    for await (const { records, lines } of chunks) {
      for (let i = 0; i < records.length; i += 1) {
        const record = records[i]!;
        const line = lines[i]!;
        result.lines = line;
        if (!columns) {
          try {
            columns = mapColumns(record, options.map);
          } catch (error) {
            if (!(error instanceof LedgerFormatError)) throw error;
            report({ fileLine: line, message: error.message });
            return;
          }
          grouper = new EntryGrouper(
            columns.entry !== undefined,
            (entry) => ready.push(entry),
            report,
          );
          const mapped = Object.entries(columns)
            .map(
              ([field, index]) =>
                `${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} ← "${record[index]!.trim()}"`,
            )
            .join(', ');
          reading = `${encodingShown(head, options.encoding)}, fields separated by ${DELIMITER_NAMES[detectDelimiter(firstLineOf(head))]}, amounts with a decimal ${format.decimalComma ? 'comma (--decimal-comma)' : 'point'}; columns ${mapped}`;
          continue;
        }
        if (record.every((field) => field.trim() === '')) continue;
        if (!orderKnown && slashedPair(record[columns.date!] ?? '')) {
          orderKnown = true;
          const found = await dateOrderOfColumn(file, options.encoding, columns.date!);
          if (typeof found !== 'string') {
            report({ fileLine: 1, message: found.problem });
            return;
          }
          format.dateFormat = found;
          dates = `${found} (told over the whole file)`;
        }
        const ledgerLine = readLine(record, line, columns, format);
        if (isZeroLine(ledgerLine)) {
          zeroLines += 1;
          zeroEntries.line(ledgerLine.entry, true);
          continue;
        }
        if (isProblem(ledgerLine)) report(ledgerLine);
        else {
          zeroEntries.line(ledgerLine.entry, false);
          grouper!.add(ledgerLine);
        }
      }
      yield* ready;
      ready.length = 0;
    }
    grouper?.finish();
    yield* ready;
    if (!columns) report({ fileLine: 1, message: 'the file is empty: a header row is required' });
    zeroEntries.finish();
    if (reading) result.notes.push(`read as a books CSV: ${reading}; dates ${dates}`);
    if (zeroLines > 0) {
      result.notes.push(
        `${count(zeroLines, 'line', 'lines')} of zero left out${zeroWhole(zeroEntries.count, 'entry', 'entries')}`,
      );
    }
  } catch (error) {
    if (!isReadFailure(error)) throw error;
    report({ fileLine: error.lines ?? result.lines + 1, message: error.message });
  }
  result.hash = hash;
}
