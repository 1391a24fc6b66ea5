import { readdirSync } from 'node:fs';
import { DATE_WORDS } from '../../core/periods.js';
import {
  auditFileOptions,
  EXPORT_FORMATS,
  exportAuditFile,
  exportFormat,
} from '../ledgers/auditFiles.js';
import { argument, defineCommand, text, wholeNumber } from '../command.js';
import type { CommandContext } from '../context.js';
import { namesFiscalYear, parseDateRange } from '../terminal/dates.js';
import { ExitCode, UsageError, UserError } from '../exitCodes.js';
import { directoryToWrite } from '../config/paths.js';
import {
  progressMode,
  progressOptions,
  workProgress,
  type ProgressMode,
} from '../terminal/progress.js';

/**
 * `books export DIR`: the chosen entity's books as files that `books import` reads back (see
 * src/migrate/bookExport.ts), read through the API, so from the local platform or any other.
 */
export const command = defineCommand({
  summary:
    "Export the entity's books to a directory books import reads, or as an audit file (FEC, SAF-T, XAF, SIE, DATEV)",
  arguments: {
    directory: argument('a new or empty directory (an audit file: any directory)', {
      names: 'directory',
    }),
  },
  options: {
    format: text(
      '--format <format>',
      'books (chart, both ledgers, classes, rules: what books import reads), or an audit file: fec, saft, xaf, sie, datev',
      { default: 'books', choices: EXPORT_FORMATS },
    ),
    from: text('--from <date>', 'the first day of the entries exported (default: the first)', {
      choices: DATE_WORDS,
    }),
    to: text('--to <date>', 'the last day of the entries exported (default: the last)', {
      choices: DATE_WORDS,
    }),
    concurrency: text('--concurrency <n>', 'months read at once', { default: '6' }),
    rate: text('--rate <n>', "requests a second at most (the platform's rate limit; 0: no limit)", {
      default: '100',
    }),
    ...progressOptions,
    ...auditFileOptions,
  },
  examples: [
    'books export ./acme-books',
    'books export ./acme-2025 --from 2025-01-01 --to 2025-12-31',
    'books import ./acme-books -w Acme -e "Acme (copy)"',
    'books export ./for-the-auditor --format fec --org-number 732829320 --from last-year --to last-year',
    'books export . --format saft --org-number 999999999 --contact "Kari Nordmann" --phone "+47 22 00 00 00"',
    'books export . --format datev --datev-consultant 29098 --datev-client 55003 --from 2025-01-01 --to 2025-12-31',
  ],
  async run(ctx, flags) {
    const format = exportFormat(flags);
    const concurrency = wholeNumber(flags.concurrency, '--concurrency', 1, 32);
    if (format !== 'books') {
      ctx.paceRequests(wholeNumber(flags.rate, '--rate', 0, 100_000));
      return exportAuditFile(ctx, format, { ...flags, concurrency });
    }
    const mode = progressMode(flags);
    let range = parseDateRange(flags, ctx.today());
    const rate = wholeNumber(flags.rate, '--rate', 0, 100_000);
    const directory = directoryToWrite(flags.directory);
    if (readdirSync(directory).length > 0) {
      throw new UsageError(`${flags.directory} is not empty: export into a new or empty directory`);
    }
    ctx.paceRequests(rate);
    const [{ exportBooks, ExportDisagrees }, { workspace, entity }] = await Promise.all([
      import('../../migrate/export/bookExport.js'),
      ctx.chosenEntity(),
    ]);
    const api = await ctx.api();
    if (namesFiscalYear(flags))
      range = parseDateRange(flags, ctx.today(), await ctx.fiscalYearStart(entity.id));
    const { timezone } = (await api.workspaces.get(workspace.id)).workspace;
    const started = ctx.clock.now().getTime();
    const progress = entryProgress(ctx, mode);
    let outcome;
    try {
      outcome = await exportBooks(
        api,
        { workspace: { ...workspace, timezone }, entity },
        { directory, from: range.startDate, to: range.endDate, concurrency },
        { note: (note) => ctx.output.note(`books: ${note}`), progress: progress.show },
        () => ctx.clock.now(),
      );
    } catch (error) {
      if (error instanceof ExportDisagrees) throw new UserError(error.message, ExitCode.Refused);
      throw error;
    } finally {
      progress.end();
    }
    const { manifest } = outcome;
    const seconds = ((ctx.clock.now().getTime() - started) / 1000).toFixed(1);
    const entries = (['cash', 'accrual'] as const)
      .filter((basis) => manifest.files.journals[basis])
      .map(
        (basis) =>
          `${basis} ${(manifest.counts.journalEntries[basis] ?? 0).toLocaleString('en-US')} entries${manifest.counts.platformPostings[basis] ? ` and ${manifest.counts.platformPostings[basis]!.toLocaleString('en-US')} bank transactions and opening balances` : ''}`,
      );
    ctx.wrote(
      `exported ${entity.name} to ${flags.directory}: ${manifest.counts.accounts} accounts, ${entries.join(', ')} (${seconds} s)`,
    );
    ctx.output.record(
      [
        ['Directory', directory],
        ['Accounts', String(manifest.counts.accounts)],
        ['Classes', String(manifest.counts.classes)],
        ['Rules', String(manifest.counts.rules)],
        ...(['cash', 'accrual'] as const)
          .filter((basis) => manifest.files.journals[basis])
          .map((basis): [string, string] => [
            `Entries (${basis})`,
            (
              (manifest.counts.journalEntries[basis] ?? 0) +
              (manifest.counts.platformPostings[basis] ?? 0)
            ).toLocaleString('en-US'),
          ]),
      ],
      { directory, manifest },
    );
    return ExitCode.Success;
  },
});

/** `cash 12,000/220,000 entries  1,900 entries/s` on one line of a terminal's stderr. */
const entryProgress = (ctx: CommandContext, mode: ProgressMode) =>
  workProgress<{ basis: string; entriesDone: number; entriesTotal: number }>(ctx, mode, {
    doing: 'exporting',
    measure: (p) => ({ done: p.entriesDone, total: p.entriesTotal, unit: `${p.basis} entries` }),
    bar: (p, seconds) =>
      `${p.basis} ${p.entriesDone.toLocaleString('en-US')}/${p.entriesTotal.toLocaleString('en-US')} entries  ${Math.round(p.entriesDone / seconds).toLocaleString('en-US')} entries/s`,
  });
