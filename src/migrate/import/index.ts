import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import type {
  Account,
  AccountingMigration,
  CreateJournalEntryBody,
  Entity,
  LedgerBasis,
} from '../../api/index.js';
import { unlessNotFound, type BooksApi, type Named } from '../../client/index.js';
import { csvField, spreadsheetText } from '../../core/csv.js';
import {
  addCents,
  amountToCents,
  centsToAmount,
  formatCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { chartLabel, fileLabel, planAccounts, type AccountPlan } from './accounts.js';
import { movementBetween, movementOverRange, type Balances } from '../balances.js';
import { writeChartFile } from '../../formats/chart/chartFile.js';
import { accountsKey, batchKey, type ImportScopeIds } from './batches.js';
import { checkLedger, ImportInterrupted, type LedgerSummary } from './check.js';
import { Checkpoint } from './checkpoint.js';
import { ClassBook } from './classes.js';
import { ImportError, invalidFile } from './errors.js';
import { finalizeMigration, openMigration, type MigrationEvents } from '../migration.js';
import type { ReadOptions } from '../../formats/reader.js';
import { SeenIds } from '../../formats/ledgerCsv.js';
import { reconcile, type ReconciliationRow } from './reconcile.js';
import { PartialImportError, sendBatches, type Receipt, type SendProgress } from './send.js';
import { EntrySpool, type Batch } from './spool.js';

/**
 * The import pipeline, one entry point for `je import`, `migrate run` and `demo`:
 * read (streamed) → check (pass one, against the file's rules and the live platform's) →
 * resolve and create accounts → batch → send (keyed, checkpointed) → reconcile → (a migration)
 * finalize. Commands parse flags into an ImportRequest and render what the events and the
 * outcome say; nothing here prints.
 */

export { ImportError, type ImportFailure } from './errors.js';
export type { ReconciliationRow } from './reconcile.js';
export type { SendProgress } from './send.js';
export { finalizeMigration, type MigrationEvents } from '../migration.js';

export type { Named } from '../../client/index.js';

export interface ImportScope {
  workspace: Named;
  entity: Named;
}

export interface ImportRequest {
  /** The CSV file, as given (messages show it so). */
  file: string;
  basis: LedgerBasis;
  /** Check everything (against the live chart when an entity is chosen); send nothing. */
  dryRun: boolean;
  read: Omit<ReadOptions, 'parseOnWorker'>;
  /** Batches in flight at once. */
  concurrency: number;
  /** A CSV to write, per file entry, the journal entry it became. */
  receipt?: string;
  /**
   * `--write-chart`: the file's accounts as read, as a CSV `code,name,type` with blanks where
   * the file does not say, for the user to finish and pass back with `--chart`.
   */
  writeChart?: string;
  createMissingAccounts: boolean;
  /**
   * Classes the file names by another workspace's ids (`books import`: an export's classes whose
   * label another class shares), each to the id of the class made for it here.
   */
  classAliases?: ReadonlyMap<string, string>;
  /** An accounting migration (`migrate run`): created or continued, then finalized. */
  migration?: { finalize: boolean; wait: boolean };
  /** `--tax-codes FILE`: the file's tax codes, each to the entity's code it means. */
  taxCodeMap?: ReadonlyMap<string, string>;
}

/** How far an import has come, in the phase it is in. */
export type ImportProgress =
  | { phase: 'checking'; entriesRead: number }
  | ({ phase: 'sending'; entriesTotal: number } & SendProgress)
  | { phase: 'reconciling'; postingsRead: number }
  | { phase: 'finalizing'; secondsWaited: number };

/** What the import tells as it goes, for the caller to show. */
export interface ImportEvents extends MigrationEvents {
  progress?(progress: ImportProgress): void;
  /** The reconciliation, as soon as it is known (before a migration is finalized). */
  reconciled?(reconciliation: Reconciliation): void | Promise<void>;
}

export interface Reconciliation {
  rows: ReconciliationRow[];
  matches: boolean;
  startDate: string;
  endDate: string;
  /** Each file account's balance at `endDate`, by the file's code (debit-positive). */
  balancesAtEnd: Map<string, Cents>;
}

/** Where and with what an import runs, given by its caller. */
export interface ImportSession {
  /** The platform, and the workspace and entity written to: only a dry run may go without. */
  api: BooksApi | undefined;
  scope: ImportScope | undefined;
  directories: {
    /** Checkpoints live here: they outlast the command. */
    data: string;
    /** The spool of pass one's entries, deleted when the import ends. */
    cache: string;
  };
  /** Parse the CSV on a thread of its own (not when the platform shares this process). */
  parseOnWorker: boolean;
  events: ImportEvents;
  /** Aborted: stop reading or sending as soon as can be, and say how far it got. */
  signal?: AbortSignal;
  /** For the wait on rule generation (tests pass their own clock). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** What a dry run shows: the first entries as they will be posted, and per-account totals. */
export interface DryRunPreview {
  firstEntries: {
    fileLine: number;
    entry: string | undefined;
    date: string;
    memo: string;
    lines: { account: string; debitCents: Cents; creditCents: Cents; description: string }[];
  }[];
  accounts: { account: string; type: string | undefined; lines: number; netCents: Cents }[];
}

export interface ImportOutcome {
  entries: number;
  /** With `--dry-run`. */
  preview?: DryRunPreview;
  /** Entries written by this run (the rest were in before). */
  entriesSent: number;
  dryRun: boolean;
  reconciliation?: Reconciliation;
  migration?: AccountingMigration;
}

/** What pass one checks against: the entity, its chart and classes, as they are now. */
interface LiveEntity {
  entity: Entity | undefined;
  chart: Account[];
  classes: ClassBook;
  /** The workspace is on a custom chart of accounts: file codes are kept. */
  codesKept: boolean;
  /** The entity's tax codes; undefined where it keeps none (not registered for VAT). */
  taxCodes: ReadonlySet<string> | undefined;
}

async function liveEntity(
  api: BooksApi,
  scope: ImportScope,
  classAliases?: ReadonlyMap<string, string>,
): Promise<LiveEntity> {
  // The sandbox control plane tells the lock date and the chart's kind; a platform without it
  // (the hosted one) leaves them unchecked here, and file codes are not kept.
  const [entity, workspace, chart, classes, tax] = await Promise.all([
    unlessNotFound(api.sandbox.entity(scope.entity.id)),
    unlessNotFound(api.sandbox.workspace(scope.workspace.id)),
    api.accounts.all(scope.entity.id),
    api.classes.all(scope.workspace.id),
    unlessNotFound(api.sandbox.taxSetting(scope.entity.id)),
  ]);
  return {
    entity: entity?.entity,
    chart,
    classes: new ClassBook(classes, classAliases),
    codesKept: workspace?.workspace.customChartOfAccounts ?? false,
    taxCodes: tax && new Set(tax.taxCodes.filter((c) => !c.archived).map((c) => c.code)),
  };
}

async function assertReadable(file: string): Promise<void> {
  const why = (error: NodeJS.ErrnoException) =>
    ({ ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a directory' })[
      error.code ?? ''
    ] ?? error.code;
  try {
    if ((await stat(file)).isDirectory())
      throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    await access(file);
  } catch (error) {
    throw new ImportError(
      'invalid-file',
      `cannot read ${file}: ${why(error as NodeJS.ErrnoException)}`,
    );
  }
}

const ids = (scope: ImportScope): ImportScopeIds => ({
  workspaceId: scope.workspace.id,
  entityId: scope.entity.id,
});

/** The checkpoint of this file (by its real path) into this entity and ledger basis. */
async function checkpointOf(
  session: ImportSession,
  scope: ImportScope,
  request: ImportRequest,
): Promise<Checkpoint> {
  return new Checkpoint(
    await checkpointFile(session.directories.data, scope, request.basis, request.file),
    { keepIds: request.receipt !== undefined },
  );
}

async function checkpointFile(
  dataDirectory: string,
  scope: ImportScope,
  basis: LedgerBasis,
  file: string,
): Promise<string> {
  const name = createHash('sha256')
    .update([scope.workspace.id, scope.entity.id, basis, await realpath(file)].join('\n'))
    .digest('hex')
    .slice(0, 32);
  return path.join(dataDirectory, 'checkpoints', `${name}.jsonl`);
}

/** Whether an import of this file into this entity and ledger was begun on this machine. */
export async function importBegunHere(
  dataDirectory: string,
  scope: ImportScope,
  basis: LedgerBasis,
  file: string,
): Promise<boolean> {
  try {
    await access(await checkpointFile(dataDirectory, scope, basis, file));
    return true;
  } catch {
    return false;
  }
}

/** Runs an import from the file to a reconciled (and, for a migration, finalized) ledger. */
export async function runImport(
  session: ImportSession,
  request: ImportRequest,
): Promise<ImportOutcome> {
  await assertReadable(request.file);
  const { api, scope, events } = session;
  if (!(api && scope) && !request.dryRun)
    throw new ImportError('usage', 'no entity to import into');
  const live = api && scope ? await liveEntity(api, scope, request.classAliases) : undefined;
  if (request.migration && live?.entity && !live.entity.bookkeepingStartDate) {
    throw new ImportError(
      'refused',
      `entity "${live.entity.name}" has no bookkeeping start date (the first day kept here; history precedes it): books sandbox entity update --start-date YYYY-MM-DD`,
    );
  }
  const checkpoint = scope ? await checkpointOf(session, scope, request) : undefined;
  const sent = checkpoint?.batches() ?? [];
  if (request.migration && api && scope && !request.dryRun && sent.length === 0) {
    // A finished migration has its history: a file this machine never sent would go in twice.
    const existing = await unlessNotFound(api.accountingMigration.get(scope.entity.id));
    const seeded = existing?.accountingMigration.enrichmentRulesSeededAt;
    if (seeded)
      throw new ImportError(
        'refused',
        `the accounting migration of entity "${scope.entity.name}" was finished at ${seeded}: its history is in, and ${request.file} is not a file this machine migrated (its entries would go in twice). Nothing was sent. To add entries to the books, books je import ${request.file}`,
      );
  }
  // An import allocates fast and keeps little (a batch or two, the checkpoint): left to its
  // defaults, V8 grows the heap to about four times what is live, 100 MB more than the import
  // needs. Growing it by half at each step instead costs some more collections. (Node lets
  // programs set V8 flags while running; this one is read at every collection.)
  v8.setFlagsFromString('--heap-growing-percent=50');
  // Pass one keeps the valid entries here for pass two, which then need not parse the CSV again.
  const spool = request.dryRun ? undefined : new EntrySpool(session.directories.cache);
  try {
    const summary = await checkLedger(
      request.file,
      { ...request.read, parseOnWorker: session.parseOnWorker },
      {
        lockDate: live?.entity?.lockDate,
        classes: live?.classes,
        ...(live && {
          taxCodes: {
            known: live.taxCodes,
            ...(request.taxCodeMap && { map: request.taxCodeMap }),
          },
        }),
        ...(checkpoint &&
          sent.length > 0 && {
            sent: {
              batch: (number) => checkpoint.sent(number),
              last: sent.reduce((a, b) => Math.max(a, b)),
            },
          }),
        signal: session.signal,
        read: (entriesRead) => events.progress?.({ phase: 'checking', entriesRead }),
      },
      spool,
    ).catch((error: unknown) => {
      if (error instanceof ImportInterrupted)
        throw new ImportError(
          'interrupted',
          'interrupted while checking the file; nothing was sent',
        );
      throw error;
    });
    // How the file was read, said even when it is refused: it may explain why.
    for (const note of summary.notes) events.note(`${request.file}: ${note}`);
    if (summary.taxCodesLeftOut > 0)
      events.note(
        `${request.file}: the tax codes of ${summary.taxCodesLeftOut} ${summary.taxCodesLeftOut === 1 ? 'line were' : 'lines were'} left out: entity "${scope?.entity.name ?? ''}" keeps none (books tax setup registers it for VAT)`,
      );
    if (request.writeChart !== undefined) {
      writeChartFile(request.writeChart, summary.accounts.values());
      events.note(
        `wrote the file's ${summary.accounts.size} accounts to ${request.writeChart}: fill the blank types, then pass it with --chart`,
      );
    }
    const plan = live
      ? planAccounts(summary.accounts.values(), live.chart, {
          codesKept: live.codesKept,
          createMissing: request.createMissingAccounts,
          remembered: checkpoint?.accounts() ?? new Map(),
          netOfKey: summary.totals,
        })
      : undefined;
    // What the plan decided for the file's accounts, said even when it is refused.
    for (const note of plan?.notes ?? []) events.note(note);
    const problems = [...summary.problems, ...(plan?.problems ?? [])];
    if (request.basis === 'accrual' && live?.entity && !live.entity.accrualLedgerOpen) {
      problems.push({
        fileLine: 1,
        message: `the accrual ledger of entity "${live.entity.name}" is not open: books sandbox entity open-accrual, or import to the cash ledger`,
      });
    }
    if (summary.entries === 0 && problems.length === 0)
      problems.push({ fileLine: 1, message: 'the file holds no entries' });
    // The file's own problems may be more than it kept; the others are all here.
    const found = problems.length - summary.problems.length;
    if (problems.length > 0)
      throw invalidFile(request.file, problems, summary.problemCount + found);
    const accounts = plan
      ? new Set(plan.identities.values()).size + plan.missing.length
      : undefined;
    const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    events.note(
      `${request.file}: ${count(summary.entries, 'entry', 'entries')}, ${count(accounts ?? summary.accounts.size, 'account', 'accounts')}, ${summary.startDate} to ${summary.endDate}`,
    );
    if (request.dryRun) return dryRunOutcome(session, summary, plan);
    spool!.finish();
    return await sendAndReconcile(session, request, {
      scope: scope!,
      live: live!,
      plan: plan!,
      summary,
      checkpoint: checkpoint!,
      spool: spool!,
    });
  } finally {
    spool?.remove();
  }
}

function dryRunOutcome(
  session: ImportSession,
  summary: LedgerSummary,
  plan: AccountPlan | undefined,
): ImportOutcome {
  const { events } = session;
  if (!plan) {
    events.note(
      '--dry-run: no entity is chosen, so the file was checked alone, not against a chart (choose one with --entity or books use)',
    );
  } else if (plan.missing.length > 0) {
    events.note(
      `--dry-run: would create ${plan.missing.length} account${plan.missing.length === 1 ? '' : 's'}: ${plan.missing.map((m) => `${chartLabel({ code: m.body.code ?? '', name: m.body.name })} (${m.body.type})`).join(', ')}`,
    );
  }
  events.note('--dry-run: the file is valid; nothing was sent');
  const labelOf = (key: string) => {
    const account = summary.accounts.get(key);
    return account ? fileLabel(account) : key;
  };
  return {
    entries: summary.entries,
    entriesSent: 0,
    dryRun: true,
    preview: {
      firstEntries: summary.firstEntries.map((entry) => ({
        fileLine: entry.fileLine,
        entry: entry.entry,
        date: entry.date,
        memo: entry.memo,
        lines: entry.lines.map((line) => ({
          account: labelOf(line.account),
          debitCents: line.debitCents,
          creditCents: line.creditCents,
          description: line.description,
        })),
      })),
      accounts: [...summary.accounts.values()].map((account) => ({
        account: fileLabel(account),
        type: account.accountType?.text,
        lines: account.lines,
        netCents: summary.totals.get(account.key) ?? ZERO_CENTS,
      })),
    },
  };
}

async function sendAndReconcile(
  session: ImportSession,
  request: ImportRequest,
  work: {
    scope: ImportScope;
    live: LiveEntity;
    plan: AccountPlan;
    summary: LedgerSummary;
    checkpoint: Checkpoint;
    spool: EntrySpool;
  },
): Promise<ImportOutcome> {
  const { events } = session;
  const api = session.api!;
  const { scope, live, plan, summary, checkpoint, spool } = work;
  const legacy = path.join(
    session.directories.data,
    'checkpoints',
    `${scope.entity.id}-${summary.hash.slice(0, 16)}-${request.basis}.jsonl`,
  );
  checkpoint.adopt(legacy, (batch) => summary.batches[batch]?.hash);

  const accountIds = new Map(plan.resolved);
  const created = await createAccounts(api, ids(scope), plan, accountIds);
  if (created.length > 0) {
    events.wrote(
      `created ${created.length} missing account${created.length === 1 ? '' : 's'}: ${[...created]
        .sort((a, b) => Number(a.code) - Number(b.code))
        .map(chartLabel)
        .join(', ')}`,
    );
  }
  // What earlier runs posted each name to, before this run adds to it (for the reconciliation).
  const remembered = new Map(checkpoint.accounts());
  const identities = new Map(plan.identities);
  for (const [key, id] of accountIds) identities.set(plan.identityOfKey.get(key)!.id, id);
  checkpoint.rememberAccounts(identities);
  if (request.migration) await openMigration(api, ids(scope), events);

  // The file's days as they are before this import adds to them, for the reconciliation: taken
  // before the first batch, and kept in the checkpoint for the runs that finish the import.
  const days = {
    startDate: summary.startDate!,
    endDate: summary.endDate!,
    ledgerBasis: request.basis,
  };
  const range = `${days.startDate} ${days.endDate} ${days.ledgerBasis}`;
  if (checkpoint.batches().length === 0) {
    const { movement, entries } = await daysOf(api, scope.entity.id, days);
    checkpoint.rememberDaysBefore({ range, entries, movement: Object.fromEntries(movement) });
  }
  const daysBefore = checkpoint.daysBefore();
  const before =
    daysBefore?.range === range
      ? {
          entries: daysBefore.entries,
          movement: new Map(Object.entries(daysBefore.movement)) as Balances,
        }
      : undefined;
  const entriesTotal = summary.entries;
  let results;
  try {
    results = await sendBatches(spool.batches(summary.batches), {
      checkpoint,
      concurrency: request.concurrency,
      signal: session.signal,
      onProgress: (progress) => events.progress?.({ phase: 'sending', ...progress, entriesTotal }),
      keepReceipt: request.receipt !== undefined,
      send: async (batch) =>
        (
          await api.journalEntries.bulkCreate(
            scope.entity.id,
            bulkBodies(batch, request.basis, accountIds, summary.classIds),
            batchKey(ids(scope), request.basis, batch.plan),
          )
        ).data.map((e) => e.id),
    });
  } catch (error) {
    if (!(error instanceof PartialImportError)) throw error;
    const done = `${error.batchesDone} of ${summary.batches.length} batches are in`;
    if (error.cause instanceof ImportInterrupted) {
      throw new ImportError(
        'interrupted',
        `interrupted (${done}); run the same command again to finish`,
      );
    }
    if (error.batchesDone === 0) throw error.cause;
    events.note(error.message);
    throw new ImportError(
      'part-way',
      `the import stopped part-way (${done}); run the same command again to finish`,
    );
  }
  if (results.entriesSent === 0 && results.entriesDone === summary.entries)
    events.note(
      `${request.migration ? 'already migrated' : 'already imported'}: every entry of ${path.basename(request.file)} was sent by an earlier run; nothing was sent`,
    );
  else
    events.wrote(
      `${results.entriesDone === 1 ? '1 entry' : `${results.entriesDone} entries`} of ${path.basename(request.file)} ${results.entriesDone === 1 ? 'is' : 'are'} in the ${request.basis} ledger${request.migration ? ' (migrated)' : ''}`,
    );
  if (request.receipt) {
    writeReceipt(request.receipt, results.receipt, summary.fileChecks);
    events.note(`receipt written to ${request.receipt}`);
  }

  const reconciliation = await reconcileWithPlatform(
    api,
    scope,
    days,
    summary,
    accountIds,
    plan.identityOfKey,
    live.codesKept,
    remembered,
    checkpoint,
    before,
    events,
  );
  await events.reconciled?.(reconciliation);
  const differing = reconciliation.rows.filter((r) => !r.agrees || r.fileCents !== r.platformCents);
  if (differing.length > 0) {
    throw new ImportError(
      'refused',
      `reconciliation: ${differing.length} account${differing.length === 1 ? '' : 's'} differ between the file and the entries this import posted (${reconciliation.startDate} to ${reconciliation.endDate})`,
    );
  }
  events.note(
    `reconciled ${reconciliation.rows.length} accounts with the entries this import posted, to the cent`,
  );
  for (const said of closingBalancesSaid(summary, reconciliation)) events.note(said);
  const migration =
    request.migration?.finalize === true
      ? await finalizeMigration(api, scope.entity.id, {
          wait: request.migration.wait,
          events,
          ...(session.sleep && { sleep: session.sleep }),
          ...(session.now && { now: session.now }),
        })
      : undefined;
  return {
    entries: summary.entries,
    entriesSent: results.entriesSent,
    dryRun: false,
    reconciliation,
    ...(migration && { migration }),
  };
}

/** Creates the plan's missing accounts, 100 per keyed request; `accountIds` learns their ids. */
async function createAccounts(
  api: BooksApi,
  scope: ImportScopeIds,
  plan: AccountPlan,
  accountIds: Map<string, string>,
): Promise<Account[]> {
  const created: Account[] = [];
  // Accounts with the file's codes first: one without a code (`--offset-account` on a custom
  // chart) is given the next free code of its type's range, which must not be a code the file
  // has yet to create.
  const missing = [...plan.missing].sort(
    (a, b) => Number(a.body.code === undefined) - Number(b.body.code === undefined),
  );
  for (let start = 0; start < missing.length; start += 100) {
    const chunk = missing.slice(start, start + 100);
    const bodies = chunk.map((m) => m.body);
    const { data } = await api.accounts.bulkCreate(
      scope.entityId,
      bodies,
      accountsKey(scope, bodies),
    );
    data.forEach((account, i) => {
      for (const key of chunk[i]!.keys) accountIds.set(key, account.id);
    });
    created.push(...data);
  }
  return created;
}

function bulkBodies(
  batch: Batch,
  basis: LedgerBasis,
  accountIds: ReadonlyMap<string, string>,
  classIds: ReadonlyMap<string, string>,
): CreateJournalEntryBody[] {
  return batch.entries.map((entry) => ({
    date: entry.date,
    ledgerBasis: basis,
    ...(entry.memo !== '' && { memo: entry.memo }),
    lines: entry.lines.map((line) => ({
      accountId: accountIds.get(line.account)!,
      ...(line.debitCents > 0
        ? { debitAmount: centsToAmount(line.debitCents) }
        : { creditAmount: centsToAmount(line.creditCents) }),
      ...(line.description !== '' && { description: line.description }),
      ...(line.classes.length > 0 && { classIds: line.classes.map((c) => classIds.get(c)!) }),
      ...(line.taxCode !== undefined && { taxCode: line.taxCode }),
    })),
  }));
}

/**
 * The receipt: per file entry, the journal entry it became; then, with no id, what the file
 * said against itself or what the import took for it (an audit file's checks), by line.
 */
function writeReceipt(
  file: string,
  receipt: Receipt,
  fileChecks: readonly { fileLine: number; message: string }[],
): void {
  const rows = ['line,entry,journal_entry_id'];
  for (const number of [...receipt.keys()].sort((a, b) => a - b)) {
    const { entries, ids: journalEntryIds } = receipt.get(number)!;
    entries.forEach(([fileLine, entry], i) =>
      rows.push(
        [String(fileLine), csvField(spreadsheetText(entry ?? '')), journalEntryIds[i] ?? ''].join(
          ',',
        ),
      ),
    );
  }
  for (const check of fileChecks)
    rows.push(`${check.fileLine},${csvField(spreadsheetText(`note: ${check.message}`))},`);
  writeFileSync(file, `${rows.join('\n')}\n`);
}

/**
 * What this import posted, per account, beside the file's totals: the entries it became (every
 * batch's, this run's and earlier ones'), as the platform holds them now; postings of other
 * entries on the file's days are not this import's.
 *
 * Quick where the file's days changed by this import alone: their movement by account (the
 * platform's trial balance and P&L) and their count of entries, now less `before` (as they were
 * before the import's first batch, kept in its checkpoint), is
 * what this import added. When that is the file's, account by account, and the days gained as
 * many entries as this import posted, that is the answer, in a few queries — a migration into
 * new books, an adjusting file into a busy month. Otherwise (another writer on those days
 * meanwhile, an entry changed after it was sent, an import begun by an older books) the general ledger of
 * those days is read and only this import's postings in it are counted, which tells which
 * accounts differ and by how much.
 */
async function reconcileWithPlatform(
  api: BooksApi,
  scope: ImportScope,
  range: DayRange,
  summary: LedgerSummary,
  accountIds: ReadonlyMap<string, string>,
  identityOfKey: AccountPlan['identityOfKey'],
  codesKept: boolean,
  remembered: ReadonlyMap<string, string>,
  checkpoint: Checkpoint,
  before: Pick<Days, 'movement' | 'entries'> | undefined,
  events: ImportEvents,
): Promise<Reconciliation> {
  const posted = new SeenIds();
  for (const id of checkpoint.journalEntryIds()) posted.add(id);
  const [chart, after] = await Promise.all([
    api.accounts.all(scope.entity.id),
    daysOf(api, scope.entity.id, range),
  ]);
  const codeOfId = new Map(chart.map((account) => [account.id, account.code]));
  const compare = (movement: ReadonlyMap<string, Cents>) =>
    reconcile({
      fileAccounts: [...summary.accounts.values()].map((account) => ({
        ...account,
        ...identityOfKey.get(account.key),
      })),
      totals: summary.totals,
      accountOfKey: accountIds,
      chart,
      movement,
      codesKept,
      remembered,
    });
  let compared = compare(
    before ? movementBetween(before.movement, after.movement) : after.movement,
  );
  const entriesAdded = after.entries - (before?.entries ?? 0);
  if (!(entriesAdded === posted.size && posted.size > 0 && compared.matches)) {
    compared = compare(await movementPosted(api, scope.entity.id, range, posted, codeOfId, events));
  }
  // Each file account's balance at the end, by the file's code (the platform may number it
  // otherwise), for an audit file that states its closing balances.
  const balancesAtEnd = new Map<string, Cents>();
  for (const account of summary.closingBalances.size > 0 ? summary.accounts.values() : []) {
    const platformCode = codeOfId.get(accountIds.get(account.key) ?? '');
    if (account.code !== undefined && platformCode !== undefined)
      balancesAtEnd.set(account.code, after.atEnd.get(platformCode) ?? ZERO_CENTS);
  }
  return {
    ...compared,
    startDate: range.startDate,
    endDate: range.endDate,
    balancesAtEnd,
  };
}

/** The file's days, on the ledger imported to. */
interface DayRange {
  startDate: string;
  endDate: string;
  ledgerBasis: LedgerBasis;
}

/** What a range of days holds: each account's movement over it and balance at its end, and its entries. */
interface Days {
  movement: Balances;
  atEnd: Balances;
  entries: number;
}

async function daysOf(api: BooksApi, entityId: string, range: DayRange): Promise<Days> {
  const [{ movement, atEnd }, { pagination }] = await Promise.all([
    movementOverRange(api, entityId, range),
    api.journalEntries.list(entityId, { ...range, limit: 1 }),
  ]);
  return { movement, atEnd, entries: pagination.total };
}

/**
 * The movement of the posted entries alone, by account code, from the general ledger of the
 * range; its postings read are told as progress.
 */
async function movementPosted(
  api: BooksApi,
  entityId: string,
  range: DayRange,
  posted: SeenIds,
  codeOfId: ReadonlyMap<string, string>,
  events: ImportEvents,
): Promise<Map<string, Cents>> {
  const movement = new Map<string, Cents>();
  let code: string | undefined;
  let postingsRead = 0;
  for await (const event of await api.reports.generalLedgerEvents(entityId, range)) {
    if (event.kind === 'account') code = codeOfId.get(event.account.accountId);
    if (event.kind !== 'entry') continue;
    postingsRead += 1;
    if (postingsRead % 1_000 === 0) events.progress?.({ phase: 'reconciling', postingsRead });
    if (code === undefined || !posted.has(event.entry.journalEntryId)) continue;
    const { debitAmount, creditAmount } = event.entry;
    const moved = subtractCents(
      debitAmount === null ? ZERO_CENTS : amountToCents(debitAmount),
      creditAmount === null ? ZERO_CENTS : amountToCents(creditAmount),
    );
    movement.set(code, addCents(movement.get(code) ?? ZERO_CENTS, moved));
  }
  return movement;
}

/**
 * An audit file's closing balances against the trial balance at the end of its entries, per
 * account code: how many agree, and each that does not (where the file contradicts itself, the
 * lines were imported, so it differs as said before).
 */
function closingBalancesSaid(summary: LedgerSummary, reconciliation: Reconciliation): string[] {
  if (summary.closingBalances.size === 0) return [];
  const differing: string[] = [];
  for (const [code, stated] of summary.closingBalances) {
    const balance = reconciliation.balancesAtEnd.get(code) ?? ZERO_CENTS;
    if (balance !== stated)
      differing.push(
        `closing balance of account ${code}: the file states ${formatCents(stated)}, the trial balance at ${reconciliation.endDate} is ${formatCents(balance)}`,
      );
  }
  const agreeing = summary.closingBalances.size - differing.length;
  return [
    `${agreeing} of the file's ${summary.closingBalances.size} closing balances are the trial balance at ${reconciliation.endDate}, to the cent`,
    ...differing,
  ];
}
