import { writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import {
  ACCOUNT_TYPES,
  type AccountType,
  type CreateJournalEntryBody,
  type LedgerBasis,
} from '../../../api/index.js';
import { addDays } from '../../../core/calendar.js';
import { formatCents } from '../../../core/money.js';
import {
  DATE_FORMATS,
  parseMapOption,
  type DateFormat,
  type Problem,
} from '../../../migrate/ledgerCsv.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, UserError, UsageError } from '../../exitCodes.js';
import { csvField } from '../../output.js';
import { booksPaths } from '../../paths.js';
import type { EntrySpool } from '../../../migrate/spool.js';

export interface ImportOptions {
  file: string;
  basis: LedgerBasis;
  dryRun: boolean;
  map: ReturnType<typeof parseMapOption>;
  dateFormat: DateFormat;
  decimalComma: boolean;
  concurrency: number;
  receipt?: string;
  createMissingAccounts: boolean;
}

export function parseImport(
  file: string,
  flags: {
    basis?: string;
    dryRun?: boolean;
    map?: string;
    dateFormat?: string;
    decimalComma?: boolean;
    concurrency?: string;
    receipt?: string;
    createMissingAccounts?: boolean;
  },
): ImportOptions {
  if (flags.basis !== undefined && flags.basis !== 'cash' && flags.basis !== 'accrual') {
    throw new UsageError(`--basis must be cash or accrual, not "${flags.basis}"`);
  }
  if (
    flags.dateFormat !== undefined &&
    !(DATE_FORMATS as readonly string[]).includes(flags.dateFormat)
  ) {
    throw new UsageError(`--date-format must be one of ${DATE_FORMATS.join(', ')}`);
  }
  const concurrency = Number(flags.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
    throw new UsageError('--concurrency must be 1 to 16');
  let map;
  try {
    map = parseMapOption(flags.map);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return {
    file: path.resolve(file),
    basis: (flags.basis ?? 'cash') as LedgerBasis,
    dryRun: Boolean(flags.dryRun),
    map,
    dateFormat: (flags.dateFormat ?? 'YYYY-MM-DD') as DateFormat,
    decimalComma: Boolean(flags.decimalComma),
    concurrency,
    ...(flags.receipt && { receipt: path.resolve(flags.receipt) }),
    createMissingAccounts: Boolean(flags.createMissingAccounts),
  };
}

const SHOWN_PROBLEMS = 200;

function invalidFile(file: string, problems: Problem[]): UserError {
  const sorted = [...problems].sort((a, b) => a.fileLine - b.fileLine);
  const lines = sorted.slice(0, SHOWN_PROBLEMS).map((p) => `${file}:${p.fileLine}: ${p.message}`);
  if (sorted.length > SHOWN_PROBLEMS)
    lines.push(`... and ${sorted.length - SHOWN_PROBLEMS} more problems`);
  lines.push(
    `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${file}; nothing was sent`,
  );
  return new UserError(lines.join('\n'), ExitCode.InvalidFile);
}

/**
 * `je import FILE.csv`: the whole file is checked first (every problem by line, exit 3, nothing
 * sent); then entries go in bulk batches of 100, several in flight, each keyed by entity, file
 * and batch, recorded in a checkpoint, so running the same command again after any failure
 * sends only what is missing. Ends by reconciling the file against the trial balance.
 */
export async function run(ctx: CommandContext, options: ImportOptions): Promise<number> {
  await importLedger(ctx, options);
  return ExitCode.Success;
}

export interface ImportHooks {
  /** Runs once the file is valid and accounts are resolved, before any entry is sent. */
  beforeSending?: (entityId: string) => Promise<void>;
  /** A label for the success message (`migrated`, `imported`). */
  verb?: string;
}

/** The whole import: check, resolve, send in batches with a checkpoint, receipt, reconcile. */
export async function importLedger(
  ctx: CommandContext,
  options: ImportOptions,
  hooks: ImportHooks = {},
): Promise<{ entityId: string; entries: number; dryRun: boolean }> {
  // An import allocates fast and keeps little (a batch or two, the checkpoint): left to its
  // defaults, V8 grows the heap to about four times what is live, 100 MB more than the import
  // needs. Growing it by half at each step instead costs some more collections. (Node lets
  // programs set V8 flags while running; this one is read at every collection.)
  v8.setFlagsFromString('--heap-growing-percent=50');
  const { EntrySpool } = await import('../../../migrate/spool.js');
  // Pass one keeps the valid entries here for pass two, which then need not parse the CSV again.
  const spool = options.dryRun ? undefined : new EntrySpool(booksPaths(ctx.io.env).cacheDir);
  try {
    return await checkAndSend(ctx, options, hooks, spool);
  } finally {
    spool?.remove();
  }
}

async function checkAndSend(
  ctx: CommandContext,
  options: ImportOptions,
  hooks: ImportHooks,
  spool: EntrySpool | undefined,
): Promise<{ entityId: string; entries: number; dryRun: boolean }> {
  const { summarizeLedger, batchKey, sendBatches, reconcile, PartialImportError } =
    await import('../../../migrate/importer.js');
  const { Checkpoint } = await import('../../../migrate/checkpoint.js');
  // csv-parse runs on a thread of its own, beside the checks, unless this process is also to
  // run the embedded platform's engine: the thread costs 20 to 40 MB while the file is read, and
  // an embedded import's memory is near its 200 MB bound already.
  const parseOnWorker = options.dryRun || (await ctx.target()).kind === 'remote';
  const readOptions = {
    map: options.map,
    dateFormat: options.dateFormat,
    decimalComma: options.decimalComma,
    parseOnWorker,
  };
  const summary = await summarizeLedger(options.file, readOptions, spool).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EISDIR' || error.code === 'EACCES') {
        throw new UserError(`cannot read ${options.file}: ${error.code}`, ExitCode.InvalidFile);
      }
      throw error;
    },
  );
  if (summary.entries === 0 && summary.problems.length === 0) {
    summary.problems.push({ fileLine: 1, message: 'the file holds no entries' });
  }
  if (summary.problems.length > 0) throw invalidFile(options.file, summary.problems);
  spool?.finish();
  ctx.output.note(
    `books: ${options.file}: ${summary.entries} entries, ${summary.accounts.size} accounts, ${summary.startDate} to ${summary.endDate}`,
  );
  if (options.dryRun) {
    ctx.output.note('books: --dry-run: the file is valid; nothing was sent');
    return { entityId: '', entries: summary.entries, dryRun: true };
  }

  const api = await ctx.api();
  const entityId = await ctx.entityId();
  const accountIds = await resolveAccounts(ctx, entityId, summary, options);
  const classIds = await resolveClasses(ctx, summary, options.file);
  await hooks.beforeSending?.(entityId);

  const checkpoint = new Checkpoint(
    path.join(
      booksPaths(ctx.io.env).dataDir,
      'checkpoints',
      `${entityId}-${summary.hash.slice(0, 16)}-${options.basis}.jsonl`,
    ),
    { keepIds: options.receipt !== undefined },
  );
  const started = performance.now();
  const progress = ctx.io.stderr.isTTY
    ? (p: { entriesDone: number; entriesSent: number }) => {
        const seconds = (performance.now() - started) / 1000;
        const rate = p.entriesSent / Math.max(seconds, 0.001);
        const eta = rate > 0 ? Math.ceil((summary.entries - p.entriesDone) / rate) : 0;
        ctx.io.stderr.write(
          `\r  ${p.entriesDone}/${summary.entries} entries  ${Math.round(rate)} entries/s  ETA ${eta}s   `,
        );
      }
    : undefined;
  let results;
  try {
    results = await sendBatches(spool!.batches(100), {
      checkpoint,
      concurrency: options.concurrency,
      onProgress: progress,
      keepReceipt: options.receipt !== undefined,
      send: async (batch) => {
        const journalEntries: CreateJournalEntryBody[] = batch.entries.map((entry) => ({
          date: entry.date,
          ledgerBasis: options.basis,
          ...(entry.memo !== '' && { memo: entry.memo }),
          lines: entry.lines.map((line) => ({
            accountId: accountIds.get(line.account)!,
            ...(line.debitCents > 0
              ? { debitAmount: line.debitCents / 100 }
              : { creditAmount: line.creditCents / 100 }),
            ...(line.description !== '' && { description: line.description }),
            ...(line.classes.length > 0 && { classIds: line.classes.map((c) => classIds.get(c)!) }),
          })),
        }));
        const key = batchKey(entityId, summary.hash, options.basis, batch.number);
        return (await api.journalEntries.bulkCreate(entityId, journalEntries, key)).data.map(
          (e) => e.id,
        );
      },
    });
  } catch (error) {
    if (progress) ctx.io.stderr.write('\n');
    if (error instanceof PartialImportError && error.batchesDone > 0) {
      ctx.output.note(`books: ${error.message}`);
      throw new UserError(
        `the import stopped part-way (${error.batchesDone} of ${Math.ceil(summary.entries / 100)} batches are in); run the same command again to finish`,
        ExitCode.Resumable,
      );
    }
    throw error instanceof PartialImportError ? error.cause : error;
  }
  if (progress) ctx.io.stderr.write('\n');
  const sent = results.entriesDone;
  ctx.wrote(
    `entity ${entityId}: ${sent} entries of ${path.basename(options.file)} are in the ${options.basis} ledger${hooks.verb ? ` (${hooks.verb})` : ''}`,
  );

  if (options.receipt) {
    const rows = ['line,entry,journal_entry_id'];
    for (const number of [...results.receipt.keys()].sort((a, b) => a - b)) {
      const { entries, ids } = results.receipt.get(number)!;
      entries.forEach(([fileLine, entry], i) =>
        rows.push([String(fileLine), csvField(entry), ids[i] ?? ''].join(',')),
      );
    }
    writeFileSync(options.receipt, `${rows.join('\n')}\n`);
    ctx.output.note(`books: receipt written to ${options.receipt}`);
  }

  // Reconciliation: the platform's movement over the file's days, per account, from the trial balance.
  const query = { ledgerBasis: options.basis, groupBy: 'total' as const };
  const [after, before] = await Promise.all([
    api.reports.trialBalance(entityId, {
      ...query,
      startDate: summary.startDate!,
      endDate: summary.endDate!,
    }),
    api.reports.trialBalance(entityId, {
      ...query,
      startDate: addDays(summary.startDate!, -1),
      endDate: addDays(summary.startDate!, -1),
    }),
  ]);
  const net = (rows: { accountCode: string; debit: number; credit: number }[]) =>
    new Map(
      rows.map((r) => [r.accountCode, Math.round(r.debit * 100) - Math.round(r.credit * 100)]),
    );
  const end = net(after.report.rows);
  const start = net(before.report.rows);
  const movement = new Map([...end].map(([code, cents]) => [code, cents - (start.get(code) ?? 0)]));
  for (const [code, cents] of start) if (!end.has(code)) movement.set(code, -cents);
  const chart = await api.accounts.all(entityId);
  const labelById = new Map(chart.map((a) => [a.id, `${a.code} ${a.name}`]));
  const labelByCode = new Map(chart.map((a) => [a.code, `${a.code} ${a.name}`]));
  const platform = new Map(
    [...movement].map(([code, cents]) => [labelByCode.get(code) ?? code, cents]),
  );
  const { rows, matches } = reconcile(
    summary.totals,
    (ref) => labelById.get(accountIds.get(ref)!)!,
    platform,
  );
  const shown = matches ? rows : rows.filter((r) => r.fileCents !== r.platformCents);
  await ctx.output.table(
    [
      { header: 'Account', value: (r) => r.account },
      { header: 'File', value: (r) => formatCents(r.fileCents), align: 'right' },
      { header: 'Platform', value: (r) => formatCents(r.platformCents), align: 'right' },
      {
        header: 'Difference',
        value: (r) => formatCents(r.platformCents - r.fileCents),
        align: 'right',
      },
    ],
    shown,
    { reconciled: matches, accounts: rows },
  );
  if (!matches) {
    throw new UserError(
      `reconciliation: ${shown.length} account${shown.length === 1 ? '' : 's'} differ between the file and the trial balance for ${summary.startDate} to ${summary.endDate}`,
      ExitCode.Refused,
    );
  }
  ctx.output.note(`books: reconciled ${rows.length} accounts with the trial balance to the cent`);
  return { entityId, entries: sent, dryRun: false };
}

/** Accounts by id, code, or name (case-insensitively); missing ones created when asked. */
async function resolveAccounts(
  ctx: CommandContext,
  entityId: string,
  summary: {
    accounts: Map<string, { firstLine: number; accountType: string | undefined }>;
    hash: string;
  },
  options: ImportOptions,
): Promise<Map<string, string>> {
  const api = await ctx.api();
  const chart = await api.accounts.all(entityId);
  const find = (ref: string) =>
    chart.find((a) => a.id === ref) ??
    chart.find((a) => a.code === ref) ??
    chart.find((a) => a.name.toLowerCase() === ref.toLowerCase());
  const ids = new Map<string, string>();
  const missing: {
    ref: string;
    firstLine: number;
    type: AccountType | undefined;
    given: string | undefined;
  }[] = [];
  for (const [ref, { firstLine, accountType }] of summary.accounts) {
    const account = find(ref);
    if (account) ids.set(ref, account.id);
    else {
      const type = ACCOUNT_TYPES.find((t) => t.toLowerCase() === accountType?.toLowerCase());
      missing.push({ ref, firstLine, type, given: accountType });
    }
  }
  if (missing.length === 0) return ids;
  if (!options.createMissingAccounts) {
    throw invalidFile(
      options.file,
      missing.map((m) => ({
        fileLine: m.firstLine,
        message: `no account "${m.ref}" in the chart (add it, or pass --create-missing-accounts with an account_type column)`,
      })),
    );
  }
  const untyped = missing.filter((m) => m.type === undefined);
  if (untyped.length > 0) {
    throw invalidFile(
      options.file,
      untyped.map((m) => ({
        fileLine: m.firstLine,
        message: `account "${m.ref}" is not in the chart and ${m.given ? `"${m.given}" is not an account type` : 'has no account_type'}`,
      })),
    );
  }
  for (let start = 0; start < missing.length; start += 100) {
    const chunk = missing.slice(start, start + 100);
    const key = `books-import-accounts-${summary.hash.slice(0, 32)}-${entityId.slice(0, 8)}-${start / 100}`;
    const { data } = await api.accounts.bulkCreate(
      entityId,
      chunk.map((m) => ({ name: m.ref, type: m.type! })),
      key,
    );
    data.forEach((account, i) => ids.set(chunk[i]!.ref, account.id));
  }
  ctx.wrote(
    `entity ${entityId}: created ${missing.length} missing account${missing.length === 1 ? '' : 's'}: ${missing.map((m) => m.ref).join(', ')}`,
  );
  return ids;
}

/** Classes of the workspace by id or exact label. */
async function resolveClasses(
  ctx: CommandContext,
  summary: { classes: Map<string, number> },
  file: string,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (summary.classes.size === 0) return ids;
  const classes = await (await ctx.api()).classes.all(await ctx.workspaceId());
  const problems: Problem[] = [];
  for (const [ref, firstLine] of summary.classes) {
    const match = classes.find((c) => c.id === ref) ?? classes.find((c) => c.label === ref);
    if (match) ids.set(ref, match.id);
    else problems.push({ fileLine: firstLine, message: `no class "${ref}" in the workspace` });
  }
  if (problems.length > 0) throw invalidFile(file, problems);
  return ids;
}
