import type {
  BalanceSheet,
  CashFlow,
  LedgerBasis,
  ProfitAndLoss,
  ReportQuery,
  TrialBalance,
} from '../../../api/index.js';
import { LEDGER_BASES } from '../../../api/index.js';
import type { BooksApi } from '../../../client/index.js';
import {
  COMPARISONS,
  DATE_WORDS,
  GROUP_BY,
  comparisonRange,
  precedingRange,
  type Comparison,
} from '../../../core/periods.js';
import { oneOf, text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { namesFiscalYear, parseDateRange } from '../../terminal/dates.js';
import { UsageError } from '../../exitCodes.js';
import {
  balanceSheetStatement,
  cashFlowStatement,
  printStatement,
  profitAndLossStatement,
  trialBalanceBalances,
  trialBalanceStatement,
  type RecordLayout,
  type Statement,
} from '../../render/statements.js';
import { compareStatements } from '../../render/comparatives.js';
import { comparedCell } from '../../render/comparedCells.js';

export type SummaryReport = 'pl' | 'bs' | 'cf' | 'tb';

export interface ReportFlags {
  from?: string | undefined;
  to?: string | undefined;
  basis?: string | undefined;
  by?: string | undefined;
}

/** The period and basis every report takes. */
export const reportOptions = {
  from: text(
    '--from <date>',
    "first day: YYYY-MM-DD or this-month, last-month, this-quarter, last-quarter, this-year, last-year, ytd (the years are the entity's fiscal years)",
    { choices: DATE_WORDS },
  ),
  to: text('--to <date>', 'last day, same forms', { choices: DATE_WORDS }),
  basis: text('--basis <basis>', 'cash or accrual', { default: 'cash', choices: LEDGER_BASES }),
} as const;

/** The four statements' options: the period, the basis and the columns. */
export const statementOptions = {
  ...reportOptions,
  by: text('--by <period>', 'week, month, quarter, year or total', {
    default: 'total',
    choices: GROUP_BY,
  }),
  layout: text(
    '--layout <layout>',
    'as CSV or TSV: wide (a column per period) or long (a row per cell, for pivot tables)',
    { default: 'wide', choices: ['wide', 'long'] },
  ),
  compare: text(
    '--compare <with>',
    'prior-period or prior-year: beside each period, its comparison, the change and the change in %',
    { choices: COMPARISONS },
  ),
} as const;

/** `--compare`, checked before any request. */
export const parseComparison = (text: string | undefined): Comparison | undefined =>
  text === undefined ? undefined : oneOf('--compare', text, COMPARISONS);

/** `--layout`, checked before any request. */
export const parseLayout = (text: string | undefined): RecordLayout =>
  text === undefined ? 'wide' : oneOf('--layout', text, ['wide', 'long']);

/** The examples of a statement. */
export const statementExamples = (name: SummaryReport) => [
  `books report ${name} --from 2026-01-01 --to 2026-03-31 --by month`,
  `books report ${name} --from last-quarter --to last-quarter --output csv > ${name}.csv`,
  `books report ${name} --from ytd --to ytd --by month --output csv --layout long > ${name}-long.csv`,
  `books report ${name} --from last-month --to last-month --compare prior-year`,
];

/** Flags to the report query; relative words resolve against today. */
export function parseReportQuery(
  flags: ReportFlags,
  asOf: string,
  fiscalStart?: string,
): ReportQuery & { ledgerBasis: LedgerBasis } {
  if (flags.from === undefined || flags.to === undefined) {
    throw new UsageError(
      '--from and --to are required (a date YYYY-MM-DD or a word such as last-month)',
    );
  }
  if (flags.basis !== undefined) oneOf('--basis', flags.basis, LEDGER_BASES);
  if (flags.by !== undefined && !(GROUP_BY as readonly string[]).includes(flags.by)) {
    throw new UsageError(`--by must be one of ${GROUP_BY.join(', ')}, not "${flags.by}"`);
  }
  const { startDate, endDate } = parseDateRange(flags, asOf, fiscalStart);
  return {
    startDate: startDate!,
    endDate: endDate!,
    ledgerBasis: (flags.basis ?? 'cash') as LedgerBasis,
    groupBy: (flags.by ?? 'total') as ReportQuery['groupBy'],
  };
}

type StatementReport = ProfitAndLoss | BalanceSheet | CashFlow | TrialBalance;

/** One of the four reports, as the platform answers it. */
async function fetchReport(
  api: BooksApi,
  kind: SummaryReport,
  entityId: string,
  query: ReportQuery,
): Promise<StatementReport> {
  const { report } =
    kind === 'pl'
      ? await api.reports.profitAndLoss(entityId, query)
      : kind === 'bs'
        ? await api.reports.balanceSheet(entityId, query)
        : kind === 'cf'
          ? await api.reports.cashFlow(entityId, query)
          : await api.reports.trialBalance(entityId, query);
  return report;
}

/**
 * A report as its statement (a comparative trial balance compares balances, unless `compared`
 * is `sides`: the pack's sheet, which keeps its Debit and Credit columns and their totals).
 */
function statementOf(
  kind: SummaryReport,
  report: StatementReport,
  compared: boolean | 'sides',
): Statement {
  return kind === 'pl'
    ? profitAndLossStatement(report as ProfitAndLoss)
    : kind === 'bs'
      ? balanceSheetStatement(report as BalanceSheet)
      : kind === 'cf'
        ? cashFlowStatement(report as CashFlow)
        : compared === true
          ? trialBalanceBalances(report as TrialBalance)
          : trialBalanceStatement(report as TrialBalance);
}

/** Prints one of the four statements for the flags given. */
export async function runStatement(
  ctx: CommandContext,
  kind: SummaryReport,
  flags: ReportFlags & { layout?: string | undefined; compare?: string | undefined },
): Promise<void> {
  // Usage errors before any request; the year words then in the entity's fiscal years.
  let query = parseReportQuery(flags, ctx.today());
  const layout = parseLayout(flags.layout);
  const compare = parseComparison(flags.compare);
  const api = await ctx.api();
  const { entity } = await ctx.chosenEntity();
  if (namesFiscalYear(flags))
    query = parseReportQuery(flags, ctx.today(), await ctx.fiscalYearStart(entity.id));
  const built = await buildStatement(api, kind, entity.id, query, compare);
  if (ctx.output.json) return ctx.output.printJson(built.json);
  printStatement(ctx.output, built.statement, { layout, entity: entity.name });
}

/**
 * One of the four statements of an entity, as the platform answers it, with its comparison when
 * asked: the statement to print, and the JSON `--json` prints (the API's report, and with a
 * comparison the comparison's report and rows).
 */
export async function buildStatement(
  api: BooksApi,
  kind: SummaryReport,
  entityId: string,
  query: ReportQuery & { ledgerBasis: LedgerBasis },
  compare: Comparison | undefined,
  /** `sides`: a compared trial balance keeps its Debit and Credit columns (the pack's sheet). */
  options: { sides?: boolean } = {},
): Promise<{ statement: Statement; json: unknown }> {
  const fetch = (range: ReportQuery) => fetchReport(api, kind, entityId, range);
  if (compare === undefined) {
    const report = await fetch(query);
    return { statement: statementOf(kind, report, false), json: { report } };
  }
  const { statement, ...reports } = await comparativeStatement(
    kind,
    query,
    compare,
    fetch,
    options.sides ? 'sides' : true,
  );
  return {
    statement,
    json: {
      ...reports,
      comparison: { compare, ...reports.comparison, rows: comparedRecords(statement) },
    },
  };
}

/**
 * A statement beside its comparison, from the platform's reports: the one asked for, the same
 * over the comparison range (each period's comparison in the same place), and for the prior
 * period of a multi-period P&L or cash flow, the range before the whole one (its Total column's
 * comparison).
 */
async function comparativeStatement(
  kind: SummaryReport,
  query: ReportQuery & { ledgerBasis: LedgerBasis },
  compare: Comparison,
  fetch: (query: ReportQuery) => Promise<StatementReport>,
  compared: true | 'sides' = true,
) {
  const groupBy = query.groupBy ?? 'total';
  const range = comparisonRange(query, groupBy, compare);
  const [report, comparisonReport] = await Promise.all([
    fetch(query),
    fetch({ ...query, ...range }),
  ]);
  const hasTotalColumn = (kind === 'pl' || kind === 'cf') && report.periods.length > 1;
  const totalReport =
    hasTotalColumn && compare === 'prior-period'
      ? await fetch({ ...query, ...precedingRange(query), groupBy: 'total' })
      : undefined;
  const statement = statementOf(kind, report, compared);
  const comparison = statementOf(kind, comparisonReport, compared);
  const totalLabel = compare === 'prior-year' ? 'Prior year' : 'Prior period';
  const sides = kind === 'tb' && compared === 'sides';
  const labels = comparison.columns.map((label, i) =>
    sides
      ? `${totalLabel} ${label.toLowerCase()}`
      : hasTotalColumn && i === comparison.columns.length - 1
        ? totalLabel
        : label,
  );
  return {
    report,
    comparison: { report: comparisonReport, ...(totalReport && { totalReport }) },
    statement: compareStatements(statement, comparison, {
      compare,
      labels,
      total: totalReport && statementOf(kind, totalReport, compared),
      ...(sides && { changes: false }),
    }),
  };
}

/** A comparative statement's rows for JSON: each period's amount, comparison and change. */
function comparedRecords(statement: Statement) {
  const { periods, rows } = statement.tidy;
  const compared = statement.comparison!;
  return rows.map((row) => ({
    section: row.section,
    accountCode: row.code,
    accountName: row.name,
    periods: periods.map((period, i) => ({
      startDate: period.startDate,
      endDate: period.endDate,
      comparisonStartDate: compared.periods[i]!.startDate,
      comparisonEndDate: compared.periods[i]!.endDate,
      ...comparedCell(row.values[i] ?? null, row.comparisons?.[i] ?? null),
    })),
  }));
}
