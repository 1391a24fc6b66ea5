import { formatCents, negateCents, type Cents } from '../core/money.js';
import type { DatevVat, LedgerFormat, Skr } from './options.js';
import type { AuditFacts } from './common/auditFile.js';
import type { ReadFailure } from './common/csvRecords.js';
import {
  reportProblem,
  type DateFormat,
  type LedgerEntry,
  type LedgerField,
  type Problem,
} from './ledgerCsv.js';

/*
 * What every export format hands the registry (registry.ts), and what their readers share: the
 * options of a reading, its result, and the sentences they say.
 */

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
  /**
   * The order of `a/b/year` days where the file does not tell it (no day over 12), as a person
   * settled it (`books config set date-format`); a file that tells its order is read so.
   */
  usualDateFormat?: DateFormat;
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
   * its lines do not make, a count that is not its lines', the difference `--offset-account`
   * took), by file line: said on stderr, and kept in the receipt.
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

/**
 * An export format: one module hands over one of these, and the registry lists them in the
 * order `auto` tries them. Adding a format touches its module and one line of the registry.
 */
export interface LedgerFormatDefinition {
  name: Exclude<LedgerFormat, 'auto'>;
  /** What the format is, in a few words (`SIE 4 (Sweden)`). */
  title: string;
  /**
   * How `auto` tells it from the others: the file's first 4 kB (bytes as Latin-1) and their
   * first line. None: only by `--format` (a books CSV, the default, has none).
   */
  detect?: (head: string, firstLine: string) => boolean;
  /** Why `auto` read the file so, as said: `read as SIE 4: its first line is …`. */
  toldBy: string;
  /** Read from an .xlsx workbook's sheet as well (written out as CSV first). */
  fromSheet?: boolean;
  /**
   * The encoding as said (`encoding CP437 (…)`); none: the reader says it itself, or the
   * general sentence (UTF-8, a byte order mark, `--encoding`) is said for it.
   */
  encodingSaid?: ((head: string, options: ReadOptions) => string | undefined) | false;
  /** The file's entries; problems, notes and the hash go to `result`. */
  read(
    file: string,
    head: string,
    options: ReadOptions,
    result: ReadResult,
  ): AsyncGenerator<LedgerEntry>;
}

export const isReadFailure = (error: unknown): error is ReadFailure =>
  (error as ReadFailure)?.kind === 'csv' || (error as ReadFailure)?.kind === 'bytes';

export const firstLineOf = (head: string) => head.split(/\r?\n/)[0] ?? '';

/** The encoding a file's first bytes show, as said to the person importing it. */
export function encodingShown(head: string, given: string | undefined): string {
  if (given !== undefined) return `${given} (--encoding)`;
  if (head.startsWith('\xff\xfe')) return 'UTF-16LE (its byte order mark)';
  if (head.startsWith('\xfe\xff')) return 'UTF-16BE (its byte order mark)';
  return head.startsWith('\xef\xbb\xbf') ? 'UTF-8 (with a byte order mark)' : 'UTF-8';
}

/** `3 entries`, `1 entry`. */
export const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A reader's date order as said: YYYY-MM-DD stands for "no date of two readings". */
export const datesSaid = (format: DateFormat) =>
  format === 'YYYY-MM-DD' ? 'each of one reading (none written a/b/year)' : format;

/** What lines of zero took with them: the entries made only of such lines. */
export const zeroWhole = (entries: number | undefined, one: string, many: string) =>
  entries ? `, and with them ${count(entries, one, many)} made only of such lines` : '';

/** A reader of another system's export, given where its problems, lines and hash go. */
export type ExportReader<F> = (
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: F) => void,
) => AsyncGenerator<LedgerEntry>;

/**
 * Runs an export's reader: its problems, lines read and hash go to `result`, and what it found
 * beside the entries is said by `say`; bytes that are not text end it with their line.
 */
export async function* readExport<F>(
  result: ReadResult,
  read: ExportReader<F>,
  say: (facts: F) => (string | false | undefined)[],
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

/** The options every reader of an audit file takes. */
export const auditOptions = (options: ReadOptions) => ({
  encoding: options.encoding,
  ...(options.offsetAccount !== undefined && { offsetAccount: options.offsetAccount }),
});

/**
 * The `read` of an audit file's definition: its reader given the audit options, and what it
 * found said under `short` (`SAF-T`), after what `said` adds of its own.
 */
export const readAuditFile =
  <F extends AuditFacts>(
    short: string,
    reader: (
      file: string,
      options: ReturnType<typeof auditOptions>,
      ...hooks: Parameters<ExportReader<F>>
    ) => AsyncGenerator<LedgerEntry>,
    said: (facts: F) => (string | false | undefined)[] = () => [],
  ): LedgerFormatDefinition['read'] =>
  (file, _head, options, result) =>
    readExport<F>(
      result,
      (...hooks) => reader(file, auditOptions(options), ...hooks),
      (facts) => [
        ...said(facts),
        ...auditNotes(short, facts, options.offsetAccount, typedBySaid(facts.typedBy), result),
      ],
    );

/** How many of an audit file's own figures that differ are said on stderr (all are kept). */
const CHECKS_SAID = 20;

/**
 * What an audit file's reader found, said: counts, the opening entry, what it left out; what
 * the file says against itself, and what `--offset-account` took, also go to the receipt.
 */
export function auditNotes(
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
    `${format}${facts.version ? ` ${facts.version}` : ''}: ${count(facts.journals, 'journal', 'journals')}, ${count(facts.transactions, 'transaction', 'transactions')}, ${count(facts.lines, 'line', 'lines')}; ${count(facts.accounts, 'account', 'accounts')} in its chart, typed by ${typedBy}`,
    facts.openingBalances > 0 &&
      `${format}: the opening balances of ${count(facts.openingBalances, 'account', 'accounts')} posted as one entry on ${facts.firstDay}, the first day of its period`,
    facts.zeroLines > 0 && `${format}: ${count(facts.zeroLines, 'line', 'lines')} of zero left out`,
    ...facts.leftOut.map((said) => `${format}: ${said}`),
    // A file that states every closing balance wrong would fill the screen: the first ones are
    // said, all go to the receipt.
    ...checks.slice(0, CHECKS_SAID).map((c) => `${format}: ${c.message}`),
    checks.length > CHECKS_SAID &&
      `${format}: and ${checks.length - CHECKS_SAID} more of its own figures that differ, each in the receipt (--receipt FILE)`,
  ];
}

/**
 * How an audit file's accounts were typed, said from the tally of what typed each
 * (`StandardAccountID 12, the side of its balance 3`), in the order first met.
 */
export function typedBySaid(tally: ReadonlyMap<string, number>): string {
  if (tally.size === 0) return 'nothing the file states';
  return [...tally].map(([how, n]) => `${how} (${n})`).join(', ');
}
