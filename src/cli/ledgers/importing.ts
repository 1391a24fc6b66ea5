import { formatCents, subtractCents } from '../../core/money.js';
import type { DryRunPreview } from '../../migrate/import/index.js';
import type {
  ImportOutcome,
  ImportProgress,
  ImportRequest,
  ImportScope,
  MigrationEvents,
  Reconciliation,
} from '../../migrate/import/index.js';
import type { CommandContext } from '../context.js';
import { amountColumn } from '../terminal/output.js';
import { booksPaths } from '../config/paths.js';
import { usualDateFormat } from '../config/profileInUse.js';
import { workProgress, type ProgressMode } from '../terminal/progress.js';

/**
 * What `je import`, `migrate run` and `demo` share: the import pipeline of src/migrate run with
 * this command's platform, entity, directories and Ctrl-C, its events shown on stderr (progress
 * on a terminal, a spinner while rules generate) and its reconciliation on stdout.
 */
export async function importWith(
  ctx: CommandContext,
  request: ImportRequest,
  scope?: ImportScope,
  options: {
    /** `when-it-differs` (`books import`): the table only when the file and ledger disagree. */
    reconciliation?: 'always' | 'when-it-differs';
    /** `--progress`: `auto` unless told. */
    progress?: ProgressMode;
  } = {},
): Promise<ImportOutcome> {
  const { runImport } = await import('../../migrate/import/index.js');
  const chosen = scope ?? (await chosenScope(ctx, request.dryRun));
  // Days a file does not order itself: as the profile settles them (books config set date-format).
  const usual = request.read.dateFormat === undefined ? await usualDateFormat(ctx) : undefined;
  if (usual) request = { ...request, read: { ...request.read, usualDateFormat: usual } };
  // A dry run with no entity chosen checks the file alone: no platform is opened.
  const api = chosen ? await ctx.api() : undefined;
  // csv-parse runs on a thread of its own, beside the checks, unless this process is also to
  // run the embedded platform's engine: the thread costs 20 to 40 MB while the file is read, and
  // an embedded import's memory is near its 200 MB bound already.
  const parseOnWorker = request.dryRun || (await ctx.target()).kind === 'remote';
  const { dataDir, cacheDir } = booksPaths(ctx.io.env);
  const interrupt = new AbortController();
  void ctx.io.stopSignal.then(() => interrupt.abort());
  const progress = importProgress(ctx, options.progress ?? 'auto', request.file);
  try {
    const outcome = await runImport(
      {
        api,
        scope: chosen,
        directories: { data: dataDir, cache: cacheDir },
        parseOnWorker,
        signal: interrupt.signal,
        sleep: (ms) => ctx.clock.sleep(ms),
        now: () => ctx.clock.now().getTime(),
        events: {
          ...migrationEvents(ctx),
          progress: progress.show,
          reconciled: async (reconciliation) => {
            progress.end();
            if (options.reconciliation === 'when-it-differs' && reconciliation.matches) return;
            await showReconciliation(ctx, reconciliation);
          },
        },
      },
      request,
    );
    if (outcome.preview) await showPreview(ctx, outcome.preview);
    return outcome;
  } finally {
    progress.end();
  }
}

/**
 * A dry run's preview: the first entries as they will be posted (stderr, for the person
 * checking), then each account's net total (stdout, or JSON with both).
 */
async function showPreview(ctx: CommandContext, preview: DryRunPreview): Promise<void> {
  if (!ctx.output.json) {
    for (const entry of preview.firstEntries) {
      ctx.output.note(
        `  line ${entry.fileLine}  ${entry.date}  ${entry.entry ?? ''}${entry.memo ? `  ${entry.memo}` : ''}`,
      );
      for (const line of entry.lines) {
        const side =
          line.debitCents > 0
            ? `Dr ${formatCents(line.debitCents)}`
            : `Cr ${formatCents(line.creditCents)}`;
        ctx.output.note(
          `      ${line.account}  ${side}${line.description ? `  ${line.description}` : ''}`,
        );
      }
    }
  }
  await ctx.output.table<DryRunPreview['accounts'][number]>(
    [
      { header: 'File account', value: (a) => a.account },
      { header: 'Type', value: (a) => a.type ?? '' },
      { header: 'Lines', value: (a) => String(a.lines), align: 'right' },
      amountColumn('Debits − credits', (a) => a.netCents),
    ],
    preview.accounts,
    { dryRun: true, ...preview },
  );
}

/**
 * The entity an import writes to. A dry run may go without one (then the file is checked alone),
 * but only when none is chosen at all: a choice that does not resolve is an error all the same.
 */
async function chosenScope(ctx: CommandContext, dryRun: boolean): Promise<ImportScope | undefined> {
  const profile = (await ctx.target()).profile;
  const anything =
    ctx.options.workspace ?? ctx.options.entity ?? profile.workspace ?? profile.entity;
  if (dryRun && anything === undefined) return undefined;
  return ctx.chosenEntity();
}

/** What the migration steps say, on stderr; a spinner while rules generate, on a terminal. */
export function migrationEvents(ctx: CommandContext): MigrationEvents {
  return {
    note: (text) => ctx.output.note(`books: ${text}`),
    wrote: (text) => ctx.wrote(text),
    waiting: async () => {
      if (!(ctx.io.stderr.isTTY && ctx.output.color)) return () => {};
      const { default: ora } = await import('ora');
      const spinner = ora({
        text: 'generating transaction rules from the migrated history',
        stream: ctx.io.stderr,
      }).start();
      return () => spinner.stop();
    },
  };
}

/**
 * Each phase of an import as it goes. At a terminal, a line per phase rewritten in place: `checking
 * ledger.csv  40,000 entries  20,000 entries/s`, `N/M entries  X entries/s  ETA Ys`,
 * `reconciling  N postings read` (the wait for the rules has its spinner); in a log, a line every
 * ten seconds saying which phase and how far. The rate counts the entries this run sent (a
 * resumed run skips the others).
 */
const importProgress = (ctx: CommandContext, mode: ProgressMode, file: string) =>
  workProgress<ImportProgress>(ctx, mode, {
    phase: (p) => p.phase,
    doing: (p) =>
      ({
        checking: `checking ${file}:`,
        sending: 'importing',
        reconciling: 'reconciling: read',
        finalizing: 'finalizing: waiting for the transaction rules',
      })[p.phase],
    measure: (p) => {
      switch (p.phase) {
        case 'checking':
          return { done: p.entriesRead, unit: 'entries' };
        case 'sending':
          return {
            done: p.entriesDone,
            total: p.entriesTotal,
            moved: p.entriesSent,
            unit: 'entries',
          };
        case 'reconciling':
          return { done: p.postingsRead, unit: 'postings' };
        case 'finalizing':
          return undefined;
      }
    },
    bar: (p, seconds) => {
      const n = (count: number) => count.toLocaleString('en-US');
      switch (p.phase) {
        case 'checking':
          return `checking ${file}  ${n(p.entriesRead)} entries  ${n(Math.round(p.entriesRead / seconds))} entries/s`;
        case 'sending': {
          const rate = p.entriesSent / seconds;
          const eta = rate > 0 ? Math.ceil((p.entriesTotal - p.entriesDone) / rate) : 0;
          return `${p.entriesDone}/${p.entriesTotal} entries  ${Math.round(rate)} entries/s  ETA ${eta}s`;
        }
        case 'reconciling':
          return `reconciling  ${n(p.postingsRead)} postings read`;
        case 'finalizing':
          return undefined;
      }
    },
  });

/** The reconciliation as a table: every account when it matches, else those that differ. */
async function showReconciliation(
  ctx: CommandContext,
  { rows, matches }: Reconciliation,
): Promise<void> {
  const shown = matches ? rows : rows.filter((r) => !r.agrees || r.fileCents !== r.platformCents);
  await ctx.output.table<Reconciliation['rows'][number]>(
    [
      { header: 'File account', value: (r) => r.file },
      { header: 'Platform account', value: (r) => `${r.platform}${r.agrees ? '' : '  ≠'}` },
      amountColumn('File', (r) => r.fileCents),
      amountColumn('Platform', (r) => r.platformCents),
      amountColumn('Difference', (r) => subtractCents(r.platformCents, r.fileCents)),
    ],
    shown,
    { reconciled: matches, accounts: rows },
  );
}
