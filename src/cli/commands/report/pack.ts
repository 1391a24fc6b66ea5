import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LEDGER_BASES, type LedgerBasis } from '../../../api/index.js';
import type { BooksApi } from '../../../client/index.js';
import { COMPARISONS, namedPeriod, type Comparison, type Period } from '../../../core/periods.js';
import { defineCommand, flag, oneOf, text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { parseDateRange } from '../../dates.js';
import { ExitCode, UsageError } from '../../exitCodes.js';
import { generalLedgerRows } from '../../render/generalLedger.js';
import type { Statement } from '../../render/statements.js';
import type { KeyFigure, PackHeading } from '../../render/workbook.js';
import { buildStatement, parseComparison, type SummaryReport } from './shared.js';

/**
 * `books report pack`: the month-end pack of the chosen entity (or, with `--all-entities`, of
 * every entity of the workspace) as one Excel workbook: a Summary of the key figures, then the
 * profit and loss, balance sheet, cash flow and trial balance of the period, each beside its
 * comparison with `--compare`, and with `--general-ledger` the general ledger, streamed.
 */
export const command = defineCommand({
  summary: "Write the entity's month-end report pack: one workbook of its statements",
  options: {
    period: text('--period <period>', 'a month 2025-01, a quarter 2025-Q1 or a year 2025'),
    from: text('--from <date>', 'first day (instead of --period)'),
    to: text('--to <date>', 'last day (instead of --period)'),
    basis: text('--basis <basis>', 'cash or accrual', { default: 'cash', choices: LEDGER_BASES }),
    compare: text('--compare <with>', 'prior-period or prior-year beside each statement', {
      choices: COMPARISONS,
    }),
    out: text('--out <directory>', 'where the files go (default: the working directory)'),
    format: text('--format <format>', 'xlsx (the workbook)', {
      default: 'xlsx',
      choices: ['xlsx'],
    }),
    generalLedger: flag('--general-ledger', 'add the general ledger (streamed; any size)'),
    allEntities: flag('--all-entities', 'a pack for every entity of the workspace (-w)'),
  },
  examples: [
    'books report pack --period 2026-01 --compare prior-year',
    'books report pack --period 2026-Q1 --all-entities -w "Blue Bottle Books" --out packs/',
  ],
  async run(ctx, flags) {
    const range = packPeriod(flags, ctx.today());
    const basis = oneOf('--basis', flags.basis, LEDGER_BASES);
    oneOf('--format', flags.format, ['xlsx']);
    const compare = parseComparison(flags.compare);
    const directory = path.resolve(flags.out ?? '.');
    mkdirSync(directory, { recursive: true });
    const api = await ctx.api();
    const options = {
      ...range,
      basis,
      compare,
      directory,
      generalLedger: Boolean(flags.generalLedger),
    };
    if (!flags.allEntities) {
      const { entity } = await ctx.chosenEntity();
      const files = await writePack(ctx, api, entity, options);
      ctx.wrote(`wrote the ${range.name} pack: ${files.join(', ')}`);
      if (ctx.output.json) return ctx.output.printJson({ entity: entity.name, files });
      ctx.output.write(`${files.join('\n')}\n`);
      return ExitCode.Success;
    }
    const workspaceId = await ctx.workspaceId();
    const entities = await api.sandbox.entities(workspaceId);
    const outcomes: { entity: string; files: string[]; status: string; error?: string }[] = [];
    for (const [i, entity] of entities.entries()) {
      ctx.output.note(`books: [${i + 1}/${entities.length}] ${entity.name}`);
      try {
        const files = await writePack(ctx, api, entity, options);
        outcomes.push({ entity: entity.name, files, status: 'written' });
      } catch (error) {
        const message = (error as Error).message;
        ctx.output.note(`books: ${entity.name}: ${message}`);
        outcomes.push({ entity: entity.name, files: [], status: 'failed', error: message });
      }
    }
    await ctx.output.table(
      [
        { header: 'Entity', value: (o) => o.entity },
        { header: 'Files', value: (o) => o.files.map((f) => path.basename(f)).join(' ') },
        { header: 'Status', value: (o) => (o.error ? `failed: ${o.error}` : o.status) },
      ],
      outcomes,
      { packs: outcomes },
    );
    const failed = outcomes.filter((o) => o.status === 'failed').length;
    if (failed > 0) {
      ctx.output.note(`books: ${failed} of ${outcomes.length} packs failed`);
      return ExitCode.Refused;
    }
    return ExitCode.Success;
  },
});

/** The pack's period: `--period`, else `--from` and `--to`; named for its files. */
function packPeriod(
  flags: { period?: string | undefined; from?: string | undefined; to?: string | undefined },
  today: string,
): Period & { name: string } {
  if (flags.period !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined) {
      throw new UsageError('give --period or --from and --to, not both');
    }
    const period = namedPeriod(flags.period);
    if (!period) {
      throw new UsageError(
        `--period must be a month (2025-01), a quarter (2025-Q1) or a year (2025), not "${flags.period}"`,
      );
    }
    return { ...period, name: flags.period.toUpperCase() };
  }
  if (flags.from === undefined || flags.to === undefined) {
    throw new UsageError('give --period (2025-01, 2025-Q1, 2025) or --from and --to');
  }
  const { startDate, endDate } = parseDateRange(flags, today);
  return { startDate: startDate!, endDate: endDate!, name: `${startDate}_${endDate}` };
}

/** A name made safe for a file: letters (any script), digits, dots and dashes. */
const fileSafe = (name: string) =>
  name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}.]+/gu, '-')
    .replace(/^-+|-+$/g, '') || 'entity';

const SHEETS: [SummaryReport, string][] = [
  ['pl', 'Profit and Loss'],
  ['bs', 'Balance Sheet'],
  ['cf', 'Cash Flow'],
  ['tb', 'Trial Balance'],
];

/** One entity's pack: its statements fetched, its workbook written; the files' paths. */
async function writePack(
  ctx: CommandContext,
  api: BooksApi,
  entity: { id: string; name: string },
  options: Period & {
    name: string;
    basis: LedgerBasis;
    compare: Comparison | undefined;
    directory: string;
    generalLedger: boolean;
  },
): Promise<string[]> {
  const query = {
    startDate: options.startDate,
    endDate: options.endDate,
    ledgerBasis: options.basis,
    groupBy: 'total' as const,
  };
  const statements = await Promise.all(
    SHEETS.map(async ([kind, sheet]) => ({
      sheet,
      statement: (await buildStatement(api, kind, entity.id, query, options.compare)).statement,
    })),
  );
  const [pl, bs, cf] = statements.map((s) => s.statement) as [Statement, Statement, Statement];
  const heading: PackHeading = {
    entity: entity.name,
    period: `${options.startDate} to ${options.endDate}`,
    basis: options.basis,
    preparedAt: ctx.clock.now().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
  };
  const file = path.join(options.directory, `${fileSafe(entity.name)}-${options.name}.xlsx`);
  const { writePackWorkbook } = await import('../../render/workbook.js');
  // exceljs calls the deprecated Buffer(); the warning would reach the person, who can do nothing.
  process.noDeprecation = true;
  await writePackWorkbook(file, heading, {
    figures: keyFigures(pl, cf),
    comparisonLabel:
      options.compare === undefined
        ? undefined
        : options.compare === 'prior-year'
          ? 'Prior year'
          : 'Prior period',
    empty: ![pl, bs].some((s) =>
      s.rows.some((row) => row.kind === 'line' && row.values.some(Boolean)),
    ),
    statements,
    generalLedger: options.generalLedger
      ? generalLedgerRows(
          await api.reports.generalLedgerEvents(entity.id, {
            startDate: options.startDate,
            endDate: options.endDate,
            ledgerBasis: options.basis,
          }),
        )
      : undefined,
  });
  return [file];
}

/** Revenue, net income and cash at the period's end, each with its comparison. */
function keyFigures(pl: Statement, cf: Statement): KeyFigure[] {
  const figure = (
    label: string,
    statement: Statement,
    find: (row: Statement['rows'][number]) => boolean,
  ) => {
    const row = statement.rows.find(find);
    const last = statement.columns.length - 1;
    return {
      label,
      amount: row?.values[last] ?? 0,
      comparison: row?.comparisons?.[last] ?? 0,
    };
  };
  return [
    figure('Revenue', pl, (row) => row.section === 'income' && row.kind === 'total'),
    figure('Net income', pl, (row) => row.section === 'netIncome' && row.kind === 'total'),
    figure('Cash at the end of the period', cf, (row) => row.label === 'Ending Cash'),
  ];
}
