import {
  closeSync,
  createWriteStream,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { once } from 'node:events';
import type {
  Account,
  AccountGroup,
  AccountType,
  Class,
  JournalEntry,
  LedgerBasis,
  TransactionRule,
} from '../../api/index.js';
import { ApiError, type BooksApi, type Named } from '../../client/index.js';
import { journalEntryPages } from '../../client/journalEntryPages.js';
import {
  balanceRows,
  balancesOverRange,
  FIRST_DAY,
  movementBetween,
  type Balances,
  type TrialBalanceRow,
} from '../balances.js';
import { addDays, calendarDayAt, type CalendarDay } from '../../core/calendar.js';
import { csvField } from '../../core/csv.js';
import {
  addCents,
  amountToCents,
  centsToAmount,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';

/**
 * `books export DIR`: an entity's books, read through the API (so from any platform), written as
 * files that `books import` (or `coa import` then `je import`) reads back:
 *
 * - `chart.csv` — code, name, type, group, archived (what `coa import` reads; `archived` is set
 *   after the entries are in, since an archived account takes no new lines);
 * - `groups.json` — the account groups, parents first;
 * - `journal-cash.csv`, `journal-accrual.csv` — every posting of each ledger as the books CSV
 *   (`entry,date,account_code,account_name,debit,credit,description,memo,classes,source,tax_code`), in
 *   ascending date: journal entries as they are (`entry` their id, classes by label), and the
 *   postings the platform makes itself (bank transactions, opening balances: not journal entries,
 *   so only the general ledger shows them) as entries of their own, `source` saying which;
 * - `classes.json`, `rules.json` — the workspace's classes (parents first) and transaction
 *   rules, accounts named by code and name;
 * - `manifest.json` — what was exported, its counts, each ledger's balances at export time
 *   and the balances its entries make (what an import into an empty entity must show); each
 *   account's balance from its first posting, income and expenses too (balancesOverRange).
 *
 * Entries are read a month at a time, several months at once within the client's pace, each
 * month's pages walked by `journalEntryPages`; months are written in order as they complete, so
 * memory holds a few months' CSV, never the books. Each month's postings are checked against the
 * platform's trial balance before they are written: a month whose movement the journal entries
 * do not make has its other postings read from the general ledger; one that still differs (the
 * books changed meanwhile) stops the export. Files are written as `NAME.partial` and renamed when
 * the whole export has checked, so a directory never holds half an export under the real names.
 */

export const EXPORT_FORMAT = 'books-export';
export const EXPORT_VERSION = 1;

export const JOURNAL_COLUMNS = [
  'entry',
  'date',
  'account_code',
  'account_name',
  'debit',
  'credit',
  'description',
  'memo',
  'classes',
  'source',
  'tax_code',
] as const;

/** A ledger's balances as the manifest keeps them: per account, debit and credit. */
export type { TrialBalanceRow } from '../balances.js';

export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  workspace: { id: string; name: string; timezone: string };
  entity: { id: string; name: string };
  /** The entries' range as asked (`null`: from the first, to the last). */
  range: { from: CalendarDay | null; to: CalendarDay | null };
  files: {
    chart: string;
    groups: string;
    classes: string;
    rules: string;
    journals: Partial<Record<LedgerBasis, string>>;
  };
  counts: {
    accounts: number;
    archivedAccounts: number;
    groups: number;
    classes: number;
    rules: number;
    journalEntries: Partial<Record<LedgerBasis, number>>;
    /** Bank transactions and opening balances, written as entries. */
    platformPostings: Partial<Record<LedgerBasis, number>>;
    lines: Partial<Record<LedgerBasis, number>>;
  };
  /**
   * Each ledger's balances at export time, at the range's end (all time without `--to`): each
   * account's debits less credits from its first posting, on the side where they fall — income
   * and expense accounts too, summed over every fiscal year rather than closed into Retained
   * Earnings as the trial balance report shows them, so that the figures do not depend on the
   * entity's fiscal year (a copy into an entity whose year starts elsewhere compares the same).
   */
  trialBalance: Partial<Record<LedgerBasis, TrialBalanceRow[]>>;
  /** The same, of the exported entries alone: an import into an empty entity shows this. */
  entriesTrialBalance: Partial<Record<LedgerBasis, TrialBalanceRow[]>>;
}

export interface ExportRequest {
  directory: string;
  from?: CalendarDay | undefined;
  to?: CalendarDay | undefined;
  /** Months read at once. */
  concurrency: number;
}

export interface ExportScope {
  workspace: Named & { timezone: string };
  entity: Named;
}

export interface ExportProgress {
  basis: LedgerBasis;
  entriesDone: number;
  entriesTotal: number;
}

export interface ExportEvents {
  note?: (text: string) => void;
  progress?: (progress: ExportProgress) => void;
}

/** The books changed while they were read, or the platform's reports disagree with its entries. */
export class ExportDisagrees extends Error {
  override name = 'ExportDisagrees';
}

/** A range of days whose postings are read together, with what the trial balance says moved. */
interface Window {
  startDate: CalendarDay;
  endDate: CalendarDay;
  /** Whether journal entries are listed for it (the days before and after them have none). */
  listed: boolean;
  movement: Map<string, Cents>;
}

/**
 * A window read: its journal entries in a spool file (pages as they came, newest first, each
 * page's text oldest first, with each entry's day and size), and its other postings in order.
 */
interface WindowRows {
  spool: WindowSpool | undefined;
  platformRows: { date: CalendarDay; text: string }[];
  journalEntries: number;
  platformPostings: number;
  lines: number;
}

/** What the export wrote, for the command to report. */
export interface ExportOutcome {
  manifest: ExportManifest;
  directory: string;
}

const LAST_DAY = '9999-12-31';
const JOURNAL_SOURCES = new Set(['manual', 'migration']);

export async function exportBooks(
  api: BooksApi,
  scope: ExportScope,
  request: ExportRequest,
  events: ExportEvents = {},
  now: () => Date = () => new Date(),
): Promise<ExportOutcome> {
  const { directory } = request;
  const entityId = scope.entity.id;
  mkdirSync(directory, { recursive: true });
  // Pages are parsed and dropped fast: grown by half a step (as an import's), V8's heap stays
  // near what is live instead of four times it.
  v8.setFlagsFromString('--heap-growing-percent=50');
  const [accounts, groups, classes, rules] = await Promise.all([
    api.accounts.all(entityId),
    api.accountGroups.all(entityId),
    api.classes.all(scope.workspace.id),
    api.transactionRules.all(scope.workspace.id),
  ]);
  const files = {
    chart: 'chart.csv',
    groups: 'groups.json',
    classes: 'classes.json',
    rules: 'rules.json',
  };
  const written: string[] = [];
  const writeWhole = (name: string, text: string) => {
    writeFileSync(path.join(directory, `${name}.partial`), text);
    written.push(name);
  };
  try {
    writeWhole(files.chart, chartCsv(accounts, groups));
    writeWhole(files.groups, `${JSON.stringify(groupsInOrder(groups), null, 2)}\n`);
    writeWhole(files.classes, `${JSON.stringify(classesInOrder(classes), null, 2)}\n`);
    writeWhole(files.rules, `${JSON.stringify(exportedRules(rules, accounts), null, 2)}\n`);

    const classLabels = classLabelsOf(classes);
    const manifest: ExportManifest = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: now().toISOString(),
      workspace: {
        id: scope.workspace.id,
        name: scope.workspace.name,
        timezone: scope.workspace.timezone,
      },
      entity: { id: entityId, name: scope.entity.name },
      range: { from: request.from ?? null, to: request.to ?? null },
      files: { ...files, journals: {} },
      counts: {
        accounts: accounts.length,
        archivedAccounts: accounts.filter((a) => a.isDisabled).length,
        groups: groups.length,
        classes: classes.length,
        rules: rules.length,
        journalEntries: {},
        platformPostings: {},
        lines: {},
      },
      trialBalance: {},
      entriesTrialBalance: {},
    };
    for (const basis of ['cash', 'accrual'] as const) {
      const name = `journal-${basis}.csv`;
      const exported = await exportLedgerPostings(
        api,
        scope,
        request,
        basis,
        path.join(directory, `${name}.partial`),
        events,
        { accounts, classLabels },
      );
      if (exported === undefined) {
        events.note?.(`the ${basis} ledger is not open: not exported`);
        continue;
      }
      const { counts, ledger } = exported;
      written.push(name);
      manifest.files.journals[basis] = name;
      manifest.counts.journalEntries[basis] = counts.journalEntries;
      manifest.counts.platformPostings[basis] = counts.platformPostings;
      manifest.counts.lines[basis] = counts.lines;
      manifest.trialBalance[basis] = balanceRows(ledger.balancesAtEnd, accounts);
      manifest.entriesTrialBalance[basis] = balanceRows(counts.balances, accounts);
    }
    writeWhole('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    for (const name of written) {
      renameSync(path.join(directory, `${name}.partial`), path.join(directory, name));
    }
    return { manifest, directory };
  } catch (error) {
    for (const name of written) rmSync(path.join(directory, `${name}.partial`), { force: true });
    throw error;
  }
}

/**
 * One ledger's postings over the request's range as the books CSV (`JOURNAL_COLUMNS`) in `file`,
 * in ascending date, each month checked against the trial balance (see the top of this file):
 * what `books export` writes per ledger, and what the audit-file writers read (src/formats/<format>/writer.ts). With
 * no `from`, the postings before the first journal entry are written too. Undefined when the
 * ledger is not open.
 */
export async function exportLedgerPostings(
  api: BooksApi,
  scope: ExportScope,
  request: Pick<ExportRequest, 'from' | 'to' | 'concurrency'>,
  basis: LedgerBasis,
  file: string,
  events: ExportEvents = {},
  context: { accounts?: readonly Account[]; classLabels?: Map<string, string> } = {},
) {
  const accounts = context.accounts ?? (await api.accounts.all(scope.entity.id));
  const ledger = new LedgerExport(
    api,
    scope,
    request,
    basis,
    context.classLabels ?? new Map(),
    new Map(accounts.map((account) => [account.id, account.code])),
    events,
  );
  const windows = await ledger.windows();
  if (windows === undefined) return undefined;
  return { counts: await ledger.write(file, windows), ledger };
}

/** One ledger's postings, month by month. */
class LedgerExport {
  /** Each account's balance at the range's end, as the platform reports it (balancesOverRange). */
  balancesAtEnd: Balances = new Map();
  private entriesTotal = 0;
  private entriesDone = 0;
  private spoolDirectory = '';
  private spools = 0;

  constructor(
    private readonly api: BooksApi,
    private readonly scope: ExportScope,
    private readonly request: Pick<ExportRequest, 'from' | 'to' | 'concurrency'>,
    private readonly basis: LedgerBasis,
    private readonly classLabels: Map<string, string>,
    /**
     * Each account's code by id, from the chart: journal lines and the general ledger give a
     * code as a number (platform-api.md), which loses a code's leading zeros (`0800`).
     */
    private readonly codes: Map<string, string>,
    private readonly events: ExportEvents,
  ) {}

  /**
   * The months holding journal entries, and (without `--from`/`--to`) the days before and after
   * them, each with its movement by account from the trial balance. Undefined when the ledger is
   * not open.
   */
  async windows(): Promise<Window[] | undefined> {
    const { from, to } = this.request;
    const range = { startDate: from, endDate: to, ledgerBasis: this.basis };
    let latest;
    try {
      latest = await this.api.journalEntries.list(this.scope.entity.id, { ...range, limit: 1 });
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.status >= 400 &&
        error.status < 500 &&
        this.basis === 'accrual'
      ) {
        return undefined;
      }
      throw error;
    }
    this.entriesTotal = latest.pagination.total;
    const earliest =
      latest.pagination.total > 1
        ? await this.api.journalEntries.list(this.scope.entity.id, {
            ...range,
            limit: 1,
            offset: latest.pagination.total - 1,
          })
        : latest;
    const first = from ?? earliest.data[0]?.dateOnly;
    const last = to ?? latest.data[0]?.dateOnly;
    const windows: Window[] = [];
    // Each account's balance before the months listed, at each month's end, and at the end of
    // all: income and expenses summed across fiscal years as well (balancesOverRange).
    if (first !== undefined && last !== undefined && first <= last) {
      const byMonth = await this.balances(first, last, 'month');
      let previous = byMonth.opening;
      byMonth.periods.forEach((period, index) => {
        const balances = byMonth.columns[index]!;
        windows.push({ ...period, listed: true, movement: movementBetween(previous, balances) });
        previous = balances;
      });
      const before = addDays(first, -1);
      if (from === undefined && before >= FIRST_DAY) {
        windows.unshift({
          startDate: FIRST_DAY,
          endDate: before,
          listed: false,
          movement: movementBetween(new Map(), byMonth.opening),
        });
      }
      // The last month's column is the balances at `to` (a report's last column ends there).
      this.balancesAtEnd = previous;
      if (to === undefined) {
        this.balancesAtEnd = (await this.balances(LAST_DAY, LAST_DAY, 'total')).columns[0]!;
        windows.push({
          startDate: addDays(last, 1),
          endDate: LAST_DAY,
          listed: false,
          movement: movementBetween(previous, this.balancesAtEnd),
        });
      }
    } else if (from === undefined && to === undefined) {
      // No journal entries at all: whatever the ledger holds comes from the general ledger.
      this.balancesAtEnd = (await this.balances(LAST_DAY, LAST_DAY, 'total')).columns[0]!;
      windows.push({
        startDate: FIRST_DAY,
        endDate: LAST_DAY,
        listed: false,
        movement: movementBetween(new Map(), this.balancesAtEnd),
      });
    }
    return windows.filter((w) => w.listed || [...w.movement.values()].some((c) => c !== 0));
  }

  /**
   * Every window's rows into `file`, in order: up to `concurrency` windows read at once, each
   * written when those before it are.
   */
  async write(file: string, windows: Window[]) {
    this.spoolDirectory = path.dirname(file);
    const out = createWriteStream(file);
    const put = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    const balances = new Map<string, Cents>();
    const counts = { journalEntries: 0, platformPostings: 0, lines: 0, balances };
    const started: (Promise<WindowRows> | undefined)[] = [];
    try {
      await put(`${JOURNAL_COLUMNS.join(',')}\n`);
      let next = 0;
      const startNext = () => {
        if (next >= windows.length) return;
        const reading = this.read(windows[next]!, balances);
        reading.catch(() => undefined);
        started[next] = reading;
        next += 1;
      };
      for (let i = 0; i < this.request.concurrency; i += 1) startNext();
      for (let index = 0; index < windows.length; index += 1) {
        const window = await started[index]!;
        started[index] = undefined;
        startNext();
        counts.journalEntries += window.journalEntries;
        counts.platformPostings += window.platformPostings;
        counts.lines += window.lines;
        try {
          if (window.spool) await window.spool.writeInOrder(put, window.platformRows);
          else for (const row of window.platformRows) await put(row.text);
        } finally {
          window.spool?.remove();
        }
      }
      out.end();
      await once(out, 'finish');
    } catch (error) {
      out.destroy();
      // Windows still being read keep their spools until they end: each is removed then.
      for (const reading of started)
        void reading?.then(
          (w) => w.spool?.remove(),
          () => {},
        );
      throw error;
    }
    return counts;
  }

  /**
   * One window's postings, checked against the trial balance's movement: its journal entries
   * spooled to a file a page at a time (a dense month need not be held), its others in memory.
   */
  private async read(window: Window, balances: Map<string, Cents>): Promise<WindowRows> {
    const entityId = this.scope.entity.id;
    const moved = new Map<string, Cents>();
    let journalEntries = 0;
    let lines = 0;
    let spool: WindowSpool | undefined;
    try {
      if (window.listed) {
        spool = new WindowSpool(
          path.join(this.spoolDirectory, `.${this.basis}-${(this.spools += 1)}.partial`),
        );
        const pages = journalEntryPages((query) => this.api.journalEntries.list(entityId, query), {
          startDate: window.startDate,
          endDate: window.endDate,
          ledgerBasis: this.basis,
        });
        for await (const page of pages) {
          const entries = page.items.reverse().map((entry) => ({
            date: entry.dateOnly,
            text: this.journalEntryRows(entry, moved),
          }));
          spool.add(entries);
          journalEntries += entries.length;
          lines += page.items.reduce((n, entry) => n + entry.lines.length, 0);
          this.entriesDone += page.items.length;
          this.events.progress?.({
            basis: this.basis,
            entriesDone: this.entriesDone,
            entriesTotal: this.entriesTotal,
          });
        }
      }
      const platformRows: WindowRows['platformRows'] = [];
      let platformPostings = 0;
      if (!sameMovement(moved, window.movement)) {
        for (const posting of await this.platformPostings(window)) {
          platformPostings += 1;
          lines += posting.lines.length;
          platformRows.push({ date: posting.date, text: this.postingRows(posting, moved) });
        }
        if (!sameMovement(moved, window.movement)) {
          throw new ExportDisagrees(
            `the ${this.basis} ledger from ${window.startDate} to ${window.endDate}: ${differences(moved, window.movement)}; the books changed while they were read, or the platform's trial balance disagrees with its postings. Nothing was written: export again`,
          );
        }
      }
      for (const [code, cents] of moved)
        balances.set(code, addCents(balances.get(code) ?? ZERO_CENTS, cents));
      return { spool, platformRows, journalEntries, platformPostings, lines };
    } catch (error) {
      spool?.remove();
      throw error;
    }
  }

  private journalEntryRows(entry: JournalEntry, moved: Map<string, Cents>): string {
    let text = '';
    entry.lines.forEach((line, index) => {
      const debit = line.debitAmount === null ? ZERO_CENTS : amountToCents(line.debitAmount);
      const credit = line.creditAmount === null ? ZERO_CENTS : amountToCents(line.creditAmount);
      const code = this.codes.get(line.accountId) ?? String(line.accountCode);
      moved.set(code, addCents(moved.get(code) ?? ZERO_CENTS, subtractCents(debit, credit)));
      text += row([
        entry.id,
        entry.dateOnly,
        code,
        line.accountName,
        amountText(debit),
        amountText(credit),
        line.description,
        index === 0 ? (entry.memo ?? '') : '',
        line.classIds.map((id) => this.classLabels.get(id) ?? id).join(';'),
        entry.sourceType,
        line.taxCode ?? '',
      ]);
    });
    return text;
  }

  private postingRows(posting: PlatformPosting, moved: Map<string, Cents>): string {
    let text = '';
    posting.lines.forEach((line, index) => {
      moved.set(
        line.accountCode,
        addCents(moved.get(line.accountCode) ?? ZERO_CENTS, subtractCents(line.debit, line.credit)),
      );
      text += row([
        `${posting.sourceType}:${posting.id}`,
        posting.date,
        line.accountCode,
        line.accountName,
        amountText(line.debit),
        amountText(line.credit),
        line.description,
        index === 0 ? posting.memo : '',
        '',
        posting.sourceType,
        line.taxCode ?? '',
      ]);
    });
    return text;
  }

  /** The window's postings that are not journal entries, from the general ledger, by source. */
  private async platformPostings(window: Window): Promise<PlatformPosting[]> {
    const events = await this.api.reports.generalLedgerEvents(this.scope.entity.id, {
      startDate: window.startDate,
      endDate: window.endDate,
      ledgerBasis: this.basis,
    });
    const bySource = new Map<string, PlatformPosting>();
    let account: { accountId: string; accountCode: number; accountName: string } | undefined;
    for await (const event of events) {
      if (event.kind === 'account') account = event.account;
      if (event.kind !== 'entry' || JOURNAL_SOURCES.has(event.entry.sourceType)) continue;
      const { entry } = event;
      let posting = bySource.get(entry.journalEntryId);
      if (!posting) {
        posting = {
          id: entry.journalEntryId,
          sourceType: entry.sourceType,
          date: calendarDayAt(new Date(entry.date), this.scope.workspace.timezone),
          memo: entry.memo,
          lines: [],
        };
        bySource.set(entry.journalEntryId, posting);
      }
      posting.lines.push({
        accountCode: this.codes.get(account!.accountId) ?? String(account!.accountCode),
        accountName: account!.accountName,
        debit: entry.debitAmount === null ? ZERO_CENTS : amountToCents(entry.debitAmount),
        credit: entry.creditAmount === null ? ZERO_CENTS : amountToCents(entry.creditAmount),
        description: entry.description,
        ...(entry.taxCode !== undefined && { taxCode: entry.taxCode }),
      });
    }
    return [...bySource.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** Each account's balance before the range and at each column's end (balancesOverRange). */
  private balances(startDate: CalendarDay, endDate: CalendarDay, groupBy: 'month' | 'total') {
    return balancesOverRange(this.api, this.scope.entity.id, {
      startDate,
      endDate,
      groupBy,
      ledgerBasis: this.basis,
    });
  }
}

/**
 * A window's journal entries as read, newest page first, in a file of its own: written back in
 * ascending date, merged with the window's other postings (already in date order).
 */
class WindowSpool {
  private readonly fd: number;
  private size = 0;
  private readonly pages: { position: number; entries: { date: CalendarDay; bytes: number }[] }[] =
    [];

  constructor(private readonly file: string) {
    this.fd = openSync(file, 'w+', 0o600);
  }

  /** A page's entries, oldest first. */
  add(entries: { date: CalendarDay; text: string }[]): void {
    const text = entries.map((e) => e.text).join('');
    const bytes = Buffer.from(text);
    writeSync(this.fd, bytes, 0, bytes.length, this.size);
    this.pages.push({
      position: this.size,
      entries: entries.map((e) => ({ date: e.date, bytes: Buffer.byteLength(e.text) })),
    });
    this.size += bytes.length;
  }

  async writeInOrder(
    put: (text: string) => Promise<void>,
    others: readonly { date: CalendarDay; text: string }[],
  ): Promise<void> {
    let other = 0;
    for (let index = this.pages.length - 1; index >= 0; index -= 1) {
      const page = this.pages[index]!;
      const length = page.entries.reduce((n, e) => n + e.bytes, 0);
      const buffer = Buffer.alloc(length);
      readSync(this.fd, buffer, 0, length, page.position);
      let at = 0;
      for (const entry of page.entries) {
        while (other < others.length && others[other]!.date < entry.date) {
          await put(others[other]!.text);
          other += 1;
        }
        await put(buffer.toString('utf8', at, at + entry.bytes));
        at += entry.bytes;
      }
    }
    for (; other < others.length; other += 1) await put(others[other]!.text);
  }

  remove(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Closed already.
    }
    rmSync(this.file, { force: true });
  }
}

interface PlatformPosting {
  id: string;
  sourceType: string;
  date: CalendarDay;
  memo: string;
  lines: {
    accountCode: string;
    accountName: string;
    debit: Cents;
    credit: Cents;
    description: string;
    taxCode?: string;
  }[];
}

const row = (fields: string[]) => `${fields.map(csvField).join(',')}\n`;
const amountText = (cents: Cents) => (cents === 0 ? '' : centsToAmount(cents).toFixed(2));

function sameMovement(moved: Map<string, Cents>, expected: Map<string, Cents>): boolean {
  for (const code of new Set([...moved.keys(), ...expected.keys()])) {
    if ((moved.get(code) ?? 0) !== (expected.get(code) ?? 0)) return false;
  }
  return true;
}

function differences(moved: Map<string, Cents>, expected: Map<string, Cents>): string {
  const differing = [...new Set([...moved.keys(), ...expected.keys()])].filter(
    (code) => (moved.get(code) ?? 0) !== (expected.get(code) ?? 0),
  );
  return differing
    .slice(0, 5)
    .map(
      (code) =>
        `account ${code} moved ${centsToAmount(moved.get(code) ?? ZERO_CENTS).toFixed(2)} in what was read, ${centsToAmount(expected.get(code) ?? ZERO_CENTS).toFixed(2)} by the trial balance`,
    )
    .join('; ');
}

/** The chart as `coa import` reads it, with `archived`. */
function chartCsv(accounts: readonly Account[], groups: readonly AccountGroup[]): string {
  const groupNames = new Map(groups.map((g) => [g.id, g.name]));
  let text = 'code,name,type,group,archived\n';
  for (const account of [...accounts].sort((a, b) => Number(a.code) - Number(b.code))) {
    text += row([
      account.code,
      account.name,
      account.type,
      account.groupId ? (groupNames.get(account.groupId) ?? '') : '',
      account.isDisabled ? 'yes' : '',
    ]);
  }
  return text;
}

/** An account group as exported: named, with its parent's name. */
export interface ExportedGroup {
  name: string;
  type: AccountType;
  parent: string | null;
}

function groupsInOrder(groups: readonly AccountGroup[]): ExportedGroup[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  return parentsFirst(
    groups,
    (g) => g.id,
    (g) => g.parentGroupId,
  ).map((g) => ({
    name: g.name,
    type: g.type,
    parent: g.parentGroupId ? (byId.get(g.parentGroupId)?.name ?? null) : null,
  }));
}

/** A class as exported: its label and its parents' labels, from the root. */
export interface ExportedClass {
  id: string;
  label: string;
  path: string[];
}

function classesInOrder(classes: readonly Class[]): ExportedClass[] {
  const byId = new Map(classes.map((c) => [c.id, c]));
  return parentsFirst(
    classes,
    (c) => c.id,
    (c) => c.parentClassId,
  ).map((c) => {
    const pathToIt: string[] = [];
    for (let at = byId.get(c.parentClassId ?? ''); at; at = byId.get(at.parentClassId ?? '')) {
      pathToIt.unshift(at.label);
    }
    return { id: c.id, label: c.label, path: pathToIt };
  });
}

/**
 * How each class is written in the `classes` column: its label, unless another class of the
 * workspace carries it too (then its id, which `books import` maps to the class it creates).
 */
function classLabelsOf(classes: readonly Class[]): Map<string, string> {
  const carrying = new Map<string, number>();
  const key = (label: string) => label.trim().toLowerCase();
  for (const c of classes) carrying.set(key(c.label), (carrying.get(key(c.label)) ?? 0) + 1);
  return new Map(
    classes.map((c) => [
      c.id,
      carrying.get(key(c.label)) === 1 && !c.label.includes(';') ? c.label : c.id,
    ]),
  );
}

/** A rule as exported: accounts by code and name, classes by id (classes.json has them). */
export interface ExportedRule {
  conditions: TransactionRule['conditions'];
  actions: { actionType: string; value: string; account?: { code: string; name: string } }[];
  note: string | null;
  isDisabled: boolean;
}

function exportedRules(
  rules: readonly TransactionRule[],
  accounts: readonly Account[],
): ExportedRule[] {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return rules.map((rule) => ({
    conditions: rule.conditions,
    actions: rule.actions.map((action) => {
      const account = action.actionType === 'account_id' ? byId.get(action.value) : undefined;
      return {
        ...action,
        ...(account && { account: { code: account.code, name: account.name } }),
      };
    }),
    note: rule.note,
    isDisabled: rule.isDisabled,
  }));
}

function parentsFirst<T>(
  items: readonly T[],
  id: (item: T) => string,
  parent: (item: T) => string | null,
): T[] {
  const ordered: T[] = [];
  const placed = new Set<string>();
  let left = [...items];
  while (left.length > 0) {
    const ready = left.filter((item) => {
      const p = parent(item);
      return p === null || placed.has(p) || !items.some((other) => id(other) === p);
    });
    if (ready.length === 0) break;
    for (const item of ready) {
      ordered.push(item);
      placed.add(id(item));
    }
    left = left.filter((item) => !placed.has(id(item)));
  }
  return ordered;
}
