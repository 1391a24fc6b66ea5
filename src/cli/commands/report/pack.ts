import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileSafe, localePaper, writeWhole } from '../../close/reportFiles.js';
import { LEDGER_BASES, type LedgerBasis, type ProfitAndLoss } from '../../../api/index.js';
import { addDays } from '../../../core/calendar.js';
import type { BooksApi } from '../../../client/index.js';
import {
  addMonths,
  CALENDAR_YEAR,
  comparisonRange,
  COMPARISONS,
  fiscalYearOf,
  fiscalYearStart,
  namedPeriod,
  type Comparison,
  type Period,
} from '../../../core/periods.js';
import { defineCommand, flag, oneOf, text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { namesFiscalYear, parseDateRange } from '../../terminal/dates.js';
import { ExitCode, UsageError } from '../../exitCodes.js';
import { nestUnderGroups } from '../../render/accountGroups.js';
import { generalLedgerRows } from '../../render/generalLedger.js';
import {
  hasAmounts,
  monthlyResults,
  PAPERS,
  type KeyFigure,
  type PackHeading,
  type Paper,
} from '../../render/pack.js';
import type { Statement } from '../../render/statements.js';
import { buildStatement, parseComparison, type SummaryReport } from './shared.js';

const FORMATS = ['xlsx', 'pdf', 'both'] as const;

/**
 * `books report pack`: the month-end pack of the chosen entity (or, with `--all-entities`, of
 * every entity of the workspace) as an Excel workbook and a PDF: a summary of the key figures,
 * then the profit and loss, balance sheet, cash flow and trial balance of the period, each beside
 * its comparison with `--compare`, and with `--general-ledger` the general ledger, streamed. The
 * PDF adds a cover and a chart of the trailing twelve months. Accounts stand under their account
 * groups (the chart's), with a total per group. A file appears only once whole: each is written
 * beside its name and moved into place when done.
 */
export const command = defineCommand({
  summary: "Write the entity's month-end report pack: a workbook and a PDF of its statements",
  options: {
    period: text('--period <period>', 'a month 2025-01, a quarter 2025-Q1 or a year 2025'),
    from: text('--from <date>', 'first day (instead of --period)'),
    to: text('--to <date>', 'last day (instead of --period)'),
    basis: text('--basis <basis>', 'cash or accrual', { default: 'cash', choices: LEDGER_BASES }),
    compare: text('--compare <with>', 'prior-period or prior-year beside each statement', {
      choices: COMPARISONS,
    }),
    out: text('--out <directory>', 'where the files go (default: the working directory)'),
    format: text('--format <format>', 'xlsx (the workbook), pdf or both', {
      default: 'both',
      choices: FORMATS,
    }),
    paper: text('--paper <size>', "the PDF's paper: a4 or letter (default: by the locale)", {
      choices: PAPERS,
    }),
    generalLedger: flag('--general-ledger', 'add the general ledger (streamed; any size)'),
    review: flag(
      '--review',
      "add the month's close review (a month's pack): each check, what it found",
    ),
    statements: text(
      '--statements <dir>',
      'with --review: the bank statements its reconciliations use',
      {
        names: 'directory',
      },
    ),
    allEntities: flag('--all-entities', 'a pack for every entity of the workspace (-w)'),
  },
  examples: [
    'books report pack --period 2026-01 --compare prior-year',
    'books report pack --period 2026-Q1 --all-entities -w "Rivera Group" --out packs/',
  ],
  async run(ctx, flags) {
    // Usage errors before any request; each entity's own fiscal year then places a year.
    const range = packPeriod(flags, ctx.today());
    const basis = oneOf('--basis', flags.basis, LEDGER_BASES);
    const format = oneOf('--format', flags.format, FORMATS);
    const paper =
      flags.paper === undefined ? localePaper(ctx.io.env) : oneOf('--paper', flags.paper, PAPERS);
    const compare = parseComparison(flags.compare);
    if (flags.review && !/^\d{4}-\d{2}$/.test(flags.period ?? ''))
      throw new UsageError("--review takes a month's pack: --period YYYY-MM");
    if (flags.statements !== undefined && !flags.review)
      throw new UsageError('--statements goes with --review');
    const directory = path.resolve(flags.out ?? '.');
    mkdirSync(directory, { recursive: true });
    const api = await ctx.api();
    const options = {
      ...range,
      basis,
      compare,
      directory,
      generalLedger: Boolean(flags.generalLedger),
      review: flags.review ? { statements: flags.statements } : undefined,
      formats: format === 'both' ? (['xlsx', 'pdf'] as const) : ([format] as const),
      paper,
    };
    /** The options for one entity: its own fiscal year's period where the flags name one. */
    const optionsFor = (fiscalStart: string) =>
      fiscalPeriod(flags)
        ? { ...options, ...packPeriod(flags, ctx.today(), fiscalStart), fiscalStart }
        : { ...options, fiscalStart };
    if (!flags.allEntities) {
      const { entity } = await ctx.chosenEntity();
      const own = optionsFor(await ctx.fiscalYearStart(entity.id));
      const files = await writePack(ctx, api, entity, own);
      ctx.wrote(`wrote the ${own.name} pack: ${files.join(', ')}`);
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
        const files = await writePack(
          ctx,
          api,
          entity,
          optionsFor(entity.fiscalYearStart ?? CALENDAR_YEAR),
        );
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

/**
 * The pack's period: `--period`, else `--from` and `--to`; named for its files. A year
 * (`--period 2026`) is the entity's fiscal year ending in it (April 2025 to March 2026 for a
 * year from April), as are the year words of `--from`/`--to`: `fiscalStart`, its `MM-DD`.
 */
function packPeriod(
  flags: { period?: string | undefined; from?: string | undefined; to?: string | undefined },
  today: string,
  fiscalStart: string = CALENDAR_YEAR,
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
    if (/^\d{4}$/.test(flags.period) && fiscalStart !== CALENDAR_YEAR) {
      // The fiscal year ending in that year: it ends the day before the year's start day.
      const endDate = addDays(`${flags.period}-${fiscalStart}`, -1);
      return { ...fiscalYearOf(endDate, fiscalStart), name: `FY${flags.period}` };
    }
    return { ...period, name: flags.period.toUpperCase() };
  }
  if (flags.from === undefined || flags.to === undefined) {
    throw new UsageError('give --period (2025-01, 2025-Q1, 2025) or --from and --to');
  }
  const { startDate, endDate } = parseDateRange(flags, today, fiscalStart);
  return { startDate: startDate!, endDate: endDate!, name: `${startDate}_${endDate}` };
}

/** Whether the pack's period depends on the entity's fiscal year. */
const fiscalPeriod = (flags: {
  period?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}) => (flags.period !== undefined && /^\d{4}$/.test(flags.period)) || namesFiscalYear(flags);

const SHEETS: [SummaryReport, string][] = [
  ['pl', 'Profit and Loss'],
  ['bs', 'Balance Sheet'],
  ['cf', 'Cash Flow'],
  ['tb', 'Trial Balance'],
];

/** The period as a cover names it: `January 2026`, `Q1 2026`, `Year 2026`, or its days. */
function periodTitle(name: string, range: Period): string {
  const month = /^(\d{4})-(\d{2})$/.exec(name);
  if (month) {
    const date = new Date(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1));
    return date.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  }
  const quarter = /^(\d{4})-Q([1-4])$/.exec(name);
  if (quarter) return `Q${quarter[2]} ${quarter[1]}`;
  if (/^\d{4}$/.test(name)) return `Year ${name}`;
  const fiscal = /^FY(\d{4})$/.exec(name);
  if (fiscal) return `Fiscal year ${fiscal[1]} (${range.startDate} to ${range.endDate})`;
  return `${range.startDate} to ${range.endDate}`;
}

type PackOptions = Period & {
  name: string;
  /** The entity's fiscal year start (`MM-DD`): where its year to date begins. */
  fiscalStart: string;
  basis: LedgerBasis;
  compare: Comparison | undefined;
  directory: string;
  generalLedger: boolean;
  /** The month's close review, as a page of its own (`--review`). */
  review: { statements: string | undefined } | undefined;
  formats: readonly ('xlsx' | 'pdf')[];
  paper: Paper;
};

/** One entity's pack: its statements fetched, its workbook and PDF written; the files' paths. */
async function writePack(
  ctx: CommandContext,
  api: BooksApi,
  entity: { id: string; name: string },
  options: PackOptions,
): Promise<string[]> {
  const query = {
    startDate: options.startDate,
    endDate: options.endDate,
    ledgerBasis: options.basis,
    groupBy: 'total' as const,
  };
  const trailingYear = {
    ...query,
    startDate: `${addMonths(options.endDate, -11).slice(0, 7)}-01`,
    groupBy: 'month' as const,
  };
  const yearToDate = { ...query, startDate: fiscalYearStart(options.endDate, options.fiscalStart) };
  // The comparison's own fiscal year to date: to the end of the period compared with.
  const comparedEnd = options.compare && comparisonRange(options, 'total', options.compare).endDate;
  const priorYearToDate = comparedEnd && {
    ...query,
    startDate: fiscalYearStart(comparedEnd, options.fiscalStart),
    endDate: comparedEnd,
  };
  const [fetched, accounts, groups, trailing, ytd, priorYtd] = await Promise.all([
    Promise.all(
      SHEETS.map(async ([kind, sheet]) => ({
        kind,
        sheet,
        statement: (
          await buildStatement(api, kind, entity.id, query, options.compare, { sides: true })
        ).statement,
      })),
    ),
    api.accounts.all(entity.id),
    api.accountGroups.all(entity.id),
    options.formats.includes('pdf')
      ? api.reports.profitAndLoss(entity.id, trailingYear)
      : undefined,
    api.reports.profitAndLoss(entity.id, yearToDate),
    priorYearToDate ? api.reports.profitAndLoss(entity.id, priorYearToDate) : undefined,
  ]);
  const [pl, bs, cf] = fetched.map((s) => s.statement) as [Statement, Statement, Statement];
  // Accounts under their groups where a reader expects sub-accounts: income and expenses,
  // assets, liabilities and equity. The cash flow and trial balance list accounts flat.
  const statements = fetched.map(({ kind, sheet, statement }) => ({
    sheet,
    statement:
      kind === 'pl' || kind === 'bs' ? nestUnderGroups(statement, accounts, groups) : statement,
  }));
  if (options.review)
    statements.push(await reviewPage(ctx, api, entity.id, options, options.review));
  const vat = await vatReturnPage(api, entity.id, options);
  if (vat) statements.push(vat);
  const preparedAt = ctx.clock.now();
  const heading: PackHeading = {
    entity: entity.name,
    period: `${options.startDate} to ${options.endDate}`,
    basis: options.basis,
    preparedAt: preparedAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
  };
  const content = {
    figures: [
      ...keyFigures(pl, cf),
      {
        label: `Net income, fiscal year to date (from ${yearToDate.startDate})`,
        amount: netIncomeOf(ytd.report),
        ...(priorYtd && { comparison: netIncomeOf(priorYtd.report) }),
      },
    ],
    comparisonLabel:
      options.compare === undefined
        ? undefined
        : options.compare === 'prior-year'
          ? 'Prior year'
          : 'Prior period',
    empty: !hasAmounts(pl) && !hasAmounts(bs),
    statements,
  };
  /** The general ledger, streamed afresh for each file that holds it. */
  const generalLedger = async () =>
    options.generalLedger
      ? generalLedgerRows(
          await api.reports.generalLedgerEvents(entity.id, {
            startDate: options.startDate,
            endDate: options.endDate,
            ledgerBasis: options.basis,
          }),
        )
      : undefined;
  const base = path.join(options.directory, `${fileSafe(entity.name)}-${options.name}`);
  const files: string[] = [];
  if (options.formats.includes('xlsx')) {
    const { writePackWorkbook } = await import('../../render/workbook.js');
    const file = `${base}.xlsx`;
    await writeWhole(file, async (partial) =>
      writePackWorkbook(partial, heading, { ...content, generalLedger: await generalLedger() }),
    );
    files.push(file);
  }
  if (options.formats.includes('pdf')) {
    const { writePackPdf } = await import('../../render/packPdf.js');
    const file = `${base}.pdf`;
    await writeWhole(file, async (partial) =>
      writePackPdf(partial, {
        ...content,
        heading,
        preparedAt,
        periodTitle: periodTitle(options.name, options),
        paper: options.paper,
        months: trailing ? monthlyResults(trailing.report) : [],
        generalLedger: await generalLedger(),
      }),
    );
    files.push(file);
  }
  return files;
}

/**
 * The VAT return of the pack's period, as a page of the pack, where the entity is registered
 * for VAT (on its scheme's basis, whatever the pack's); none where it is not, or the platform
 * keeps no tax codes.
 */
async function vatReturnPage(
  api: BooksApi,
  entityId: string,
  period: Period,
): Promise<{ sheet: string; statement: Statement } | undefined> {
  const { unlessNotFound } = await import('../../../client/index.js');
  const setup = await unlessNotFound(api.sandbox.taxSetting(entityId));
  if (!setup) return undefined;
  const [taxReturn, { taxReturnStatement }] = await Promise.all([
    api.sandbox.taxReturn(entityId, { startDate: period.startDate, endDate: period.endDate }),
    import('../../render/taxReturn.js'),
  ]);
  return { sheet: 'VAT Return', statement: taxReturnStatement(taxReturn) };
}

/** The month's close review of the entity, as a page of the pack. */
async function reviewPage(
  ctx: CommandContext,
  api: BooksApi,
  entityId: string,
  period: Period,
  review: { statements: string | undefined },
): Promise<{ sheet: string; statement: Statement }> {
  const [{ reviewEntities }, { reviewStatement }] = await Promise.all([
    import('../../close/closing.js'),
    import('../../render/closeReports.js'),
  ]);
  const { entity } = await api.sandbox.entity(entityId);
  const { workspace } = await api.workspaces.get(entity.workspaceId);
  const [reviewed] = await reviewEntities(
    ctx,
    { statements: review.statements, days: '3' },
    period,
    3,
    { workspace, entities: [entity] },
  );
  return { sheet: 'Close Review', statement: reviewStatement(reviewed!, period) };
}

/** A profit and loss's net income (its scalar). */
const netIncomeOf = (report: ProfitAndLoss) =>
  report.sections.find((section) => section.section === 'netIncome')?.total ?? 0;

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
