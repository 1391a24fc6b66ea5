import { JOURNAL_MEMO_MAX_LENGTH, type Class } from '../../api/index.js';
import type { CalendarDay } from '../../core/calendar.js';
import { addCents, subtractCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { listed, nameKey } from '../../core/names.js';
import type { FileAccount } from './accounts.js';
import { BATCH_BYTES, BatchCutter, entryBytes, entryContent, type BatchPlan } from './batches.js';
import type { SentBatch } from './checkpoint.js';
import type { ClassBook } from './classes.js';
import {
  reportProblem,
  type LedgerEntry,
  type LedgerLine,
  type Problem,
} from '../../formats/ledgerCsv.js';
import {
  newReadResult,
  readLedger,
  type ReadOptions,
  type ReadResult,
} from '../../formats/reader.js';
import type { EntrySpool } from './spool.js';

/**
 * What the platform will enforce on these entries, known before the file is read, so that pass
 * one refuses what the platform would refuse part-way (undefined: not known, not checked).
 */
export interface PassOneRules {
  /** Entries dated on or before it are refused (409). */
  lockDate?: CalendarDay | null;
  /** The workspace's classes, for the `classes` column. */
  classes?: ClassBook;
  /** What earlier runs of this import sent: batches that must not have changed. */
  sent?: {
    batch(number: number): SentBatch | undefined;
    /** The highest batch number sent. */
    last: number;
  };
  /** Stop reading (Ctrl-C). */
  signal?: AbortSignal;
  /** Hears how many entries are read so far, every thousand. */
  read?(entriesRead: number): void;
  /**
   * The entity's tax codes (undefined: it keeps none — not registered for VAT, or a platform
   * without them — and the file's codes are left out, counted), and `--tax-codes`' map of the
   * file's codes to them.
   */
  taxCodes?: { known: ReadonlySet<string> | undefined; map?: ReadonlyMap<string, string> };
}

/** What one pass over the file learns, before anything is sent. */
export interface LedgerSummary extends ReadResult {
  entries: number;
  /** Each distinct way the file names an account, with its first line and lines. */
  accounts: Map<string, FileAccount>;
  /** Debits minus credits per account key. */
  totals: Map<string, Cents>;
  /** Class labels (or ids) → class ids, for the labels that resolved. */
  classIds: Map<string, string>;
  /** The batches pass two sends. */
  batches: BatchPlan[];
  startDate: string | undefined;
  endDate: string | undefined;
  /** The file's first entries, for `--dry-run` to show as they will be posted. */
  firstEntries: LedgerEntry[];
  /** Lines whose tax code was left out: the entity keeps no tax codes. */
  taxCodesLeftOut: number;
}

/** How many of the file's first entries a dry run shows. */
export const PREVIEW_ENTRIES = 5;

/** A class label problem, reported once with its first line and how many lines carry it. */
interface LabelProblem {
  firstLine: number;
  lines: number;
  message: string;
}

export class ImportInterrupted extends Error {
  override name = 'ImportInterrupted';
}

/**
 * Pass one: reads the whole file once, checking every line and entry against the file's rules
 * and the platform's (field lengths, lines per entry, amounts, the lock date, classes, batch
 * sizes, batches already sent), holding only summaries. Each entry also goes to `spool`, when
 * given, for pass two to send.
 */
export async function checkLedger(
  file: string,
  options: ReadOptions,
  rules: PassOneRules,
  spool?: EntrySpool,
): Promise<LedgerSummary> {
  const summary: LedgerSummary = {
    ...newReadResult(),
    entries: 0,
    taxCodesLeftOut: 0,
    accounts: new Map(),
    totals: new Map(),
    classIds: new Map(),
    batches: [],
    startDate: undefined,
    endDate: undefined,
    firstEntries: [],
  };
  const report = (problem: Problem) => reportProblem(summary, problem);
  const labelProblems = new Map<string, LabelProblem>();
  // An entry on or before the lock date is a problem unless an earlier run sent it, unchanged
  // (a finished migration run again after the month's close): held until its batch is known.
  let lockProblems: Problem[] = [];
  const cutter = new BatchCutter(
    (plan, lines, fingerprints) => {
      const sent = rules.sent?.batch(plan.number);
      if (sent && sent.hash !== plan.hash) report(changedBatch(plan, sent, lines, fingerprints));
      const inBatch = lockProblems.filter((p) => p.fileLine <= plan.lastLine);
      lockProblems = lockProblems.filter((p) => p.fileLine > plan.lastLine);
      if (!(sent && sent.hash === plan.hash)) for (const problem of inBatch) report(problem);
    },
    (batch) => rules.sent?.batch(batch) !== undefined,
  );
  for await (const entry of readLedger(file, options, summary)) {
    if (rules.signal?.aborted) throw new ImportInterrupted('interrupted');
    summary.entries += 1;
    if (summary.entries % 1_000 === 0) rules.read?.(summary.entries);
    if (summary.firstEntries.length < PREVIEW_ENTRIES) summary.firstEntries.push(entry);
    if (summary.startDate === undefined || entry.date < summary.startDate)
      summary.startDate = entry.date;
    if (summary.endDate === undefined || entry.date > summary.endDate) summary.endDate = entry.date;
    checkEntry(entry, rules, report, (problem) => lockProblems.push(problem));
    for (const line of entry.lines) {
      const account = summary.accounts.get(line.account);
      if (account) {
        account.lines += 1;
        if (line.accountType !== undefined && line.accountType !== account.accountType?.text) {
          if (account.accountType === undefined)
            account.accountType = { text: line.accountType, line: line.fileLine };
          else if (nameKey(account.accountType.text) !== nameKey(line.accountType))
            report({
              fileLine: line.fileLine,
              message: `account_type is "${line.accountType}" here and "${account.accountType.text}" on line ${account.accountType.line} for the same account`,
            });
        }
        if (line.accountKind !== undefined && account.kind === undefined)
          account.kind = { kind: line.accountKind, line: line.fileLine };
      } else {
        summary.accounts.set(line.account, {
          key: line.account,
          code: line.accountCode,
          name: line.accountName,
          text:
            line.accountCode === undefined && line.accountName === undefined
              ? line.account
              : undefined,
          firstLine: line.fileLine,
          lines: 1,
          accountType:
            line.accountType === undefined
              ? undefined
              : { text: line.accountType, line: line.fileLine },
          kind:
            line.accountKind === undefined
              ? undefined
              : { kind: line.accountKind, line: line.fileLine },
        });
      }
      summary.totals.set(
        line.account,
        addCents(
          summary.totals.get(line.account) ?? ZERO_CENTS,
          subtractCents(line.debitCents, line.creditCents),
        ),
      );
      if (line.taxCode !== undefined && rules.taxCodes)
        checkTaxCode(line, rules.taxCodes, summary, labelProblems);
      if (line.classes.length > 0 && rules.classes)
        checkClasses(
          line.classes,
          line.fileLine,
          rules.classes,
          summary.classIds,
          labelProblems,
          report,
        );
    }
    const bytes = entryBytes(entry);
    if (bytes > BATCH_BYTES) {
      report({
        fileLine: entry.fileLine,
        message: `the entry is too large for one request: about ${(bytes / 1024 / 1024).toFixed(1)} MB, where books sends at most ${BATCH_BYTES / 1024 / 1024} MB (the platform takes 5 MB)`,
      });
    }
    // What the entry says, in the text its hashes are taken of: for pass two's copy, and for
    // the batch hashes of keys and of comparisons with what was sent (a dry run of a file never
    // sent needs neither).
    const content = spool || rules.sent ? entryContent(entry) : '';
    spool?.add(entry.fileLine, entry.entry, content);
    cutter.add(entry.fileLine, entry.lines[entry.lines.length - 1]!.fileLine, content, bytes);
  }
  cutter.finish();
  summary.batches = cutter.plans;
  for (const { firstLine, lines, message } of labelProblems.values())
    report({
      fileLine: firstLine,
      message: `${message} (${lines === 1 ? '1 line' : `${lines} lines`})`,
    });
  const last = rules.sent?.last;
  if (last !== undefined && last >= summary.batches.length && summary.problemCount === 0) {
    report({
      fileLine: summary.lines,
      message: `an earlier run of this import sent ${last + 1} batches, and the file now holds ${summary.batches.length}: entries it sent are no longer in the file; put them back, or import the file under another name`,
    });
  }
  return summary;
}

/** The rules of one entry beyond the file's: its memo's length and the lock date. */
function checkEntry(
  entry: LedgerEntry,
  rules: PassOneRules,
  report: (p: Problem) => void,
  reportLocked: (p: Problem) => void,
): void {
  if (
    entry.memo.length > JOURNAL_MEMO_MAX_LENGTH &&
    [...entry.memo].length > JOURNAL_MEMO_MAX_LENGTH
  ) {
    report({
      fileLine: entry.fileLine,
      message: `the memo has ${[...entry.memo].length} characters; the platform takes at most ${JOURNAL_MEMO_MAX_LENGTH}`,
    });
  }
  if (rules.lockDate && entry.date <= rules.lockDate) {
    reportLocked({
      fileLine: entry.fileLine,
      message: `the entry is dated ${entry.date}, on or before the entity's lock date (${rules.lockDate}): the platform refuses it`,
    });
  }
}

/**
 * A line's tax code, as the file names it, to the entity's (through `--tax-codes`): unknown ones
 * are problems named once with their lines; where the entity keeps no codes, left out, counted.
 */
function checkTaxCode(
  line: LedgerLine,
  taxCodes: NonNullable<PassOneRules['taxCodes']>,
  summary: LedgerSummary,
  labelProblems: Map<string, LabelProblem>,
): void {
  const given = line.taxCode!;
  if (taxCodes.known === undefined) {
    delete line.taxCode;
    summary.taxCodesLeftOut += 1;
    return;
  }
  const code = taxCodes.map?.get(given) ?? given;
  if (taxCodes.known.has(code)) {
    line.taxCode = code;
    return;
  }
  const key = `tax code ${given}`;
  const known = labelProblems.get(key);
  if (known) known.lines += 1;
  else
    labelProblems.set(key, {
      firstLine: line.fileLine,
      lines: 1,
      message: `tax code "${given}"${code === given ? '' : ` (--tax-codes: ${code})`} is not a code of the entity: books tax codes lists them, --tax-codes FILE maps the file's codes (theirs,ours) to them`,
    });
}

/** A line's classes: each a class of the workspace, at most one per root (dimension). */
function checkClasses(
  labels: string[],
  fileLine: number,
  classes: ClassBook,
  classIds: Map<string, string>,
  labelProblems: Map<string, LabelProblem>,
  report: (p: Problem) => void,
): void {
  const roots = new Map<string, string>();
  for (const label of labels) {
    const resolution = classes.resolve(label);
    const found: Class | undefined = resolution.found;
    if (!found) {
      const known = labelProblems.get(label);
      if (known) known.lines += 1;
      else
        labelProblems.set(label, {
          firstLine: fileLine,
          lines: 1,
          message: resolution.ambiguous
            ? `class "${label}" names ${resolution.ambiguous.length} classes of the workspace: ${resolution.ambiguous.map((c) => classes.describe(c)).join(', ')}; use the id`
            : `no class "${label}" in the workspace`,
        });
      continue;
    }
    classIds.set(label, found.id);
    const other = roots.get(found.rootClassId);
    if (other !== undefined) {
      report({
        fileLine,
        message: `classes "${other}" and "${label}" are of the same dimension: a line carries at most one class per dimension`,
      });
    }
    roots.set(found.rootClassId, label);
  }
}

/** A batch that an earlier run sent and whose entries the file now gives otherwise. */
function changedBatch(
  plan: BatchPlan,
  sent: SentBatch,
  lines: number[],
  fingerprints: string[],
): Problem {
  const before = sent.fingerprints === '' ? undefined : sent.fingerprints.split(',');
  // An entry beyond those it sent counts as changed too: the batch would not be the one sent.
  const changed = before ? lines.filter((_, i) => before[i] !== fingerprints[i]) : [];
  const which =
    changed.length > 0
      ? `its entries on line${changed.length === 1 ? '' : 's'} ${listed(changed.map(String), 5)} have changed since`
      : 'its entries have changed since';
  const gone =
    before && before.length > lines.length
      ? `, and ${before.length - lines.length} of the entries it sent are no longer in it`
      : '';
  return {
    fileLine: changed[0] ?? plan.firstLine,
    message: `batch ${plan.number + 1} (lines ${plan.firstLine}–${plan.lastLine}) was sent by an earlier run of this import; ${which}${gone}. A batch is never sent twice: put these lines back as they were sent and correct the entries on the platform (books je update), or import the changes from a file of their own`,
  };
}
