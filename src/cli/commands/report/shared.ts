import type { LedgerBasis, ReportQuery } from '../../../api/index.js';
import { text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { parseDateRange } from '../../dates.js';
import { UsageError } from '../../exitCodes.js';
import {
  balanceSheetStatement,
  cashFlowStatement,
  printStatement,
  profitAndLossStatement,
  trialBalanceStatement,
  type RecordLayout,
} from '../../render/statements.js';

export type SummaryReport = 'pl' | 'bs' | 'cf' | 'tb';

export interface ReportFlags {
  from?: string | undefined;
  to?: string | undefined;
  basis?: string | undefined;
  by?: string | undefined;
}

const GROUP_BY = ['week', 'month', 'quarter', 'year', 'total'];

/** The period and basis every report takes. */
export const reportOptions = {
  from: text(
    '--from <date>',
    'first day: YYYY-MM-DD or this-month, last-month, this-quarter, last-quarter, this-year, last-year, ytd',
  ),
  to: text('--to <date>', 'last day, same forms'),
  basis: text('--basis <basis>', 'cash or accrual', { default: 'cash' }),
} as const;

/** The four statements' options: the period, the basis and the columns. */
export const statementOptions = {
  ...reportOptions,
  by: text('--by <period>', 'week, month, quarter, year or total', { default: 'total' }),
  layout: text(
    '--layout <layout>',
    'as CSV or TSV: wide (a column per period) or long (a row per cell, for pivot tables)',
    { default: 'wide' },
  ),
} as const;

/** `--layout`, checked before any request. */
export function parseLayout(text: string | undefined): RecordLayout {
  if (text === undefined || text === 'wide' || text === 'long') return text ?? 'wide';
  throw new UsageError(`--layout must be wide or long, not "${text}"`);
}

/** The examples of a statement. */
export const statementExamples = (name: SummaryReport) => [
  `books report ${name} --from 2026-01-01 --to 2026-03-31 --by month`,
  `books report ${name} --from last-quarter --to last-quarter --output csv > ${name}.csv`,
  `books report ${name} --from ytd --to ytd --by month --output csv --layout long > ${name}-long.csv`,
];

/** Flags to the report query; relative words resolve against today. */
export function parseReportQuery(
  flags: ReportFlags,
  asOf: string,
): ReportQuery & { ledgerBasis: LedgerBasis } {
  if (flags.from === undefined || flags.to === undefined) {
    throw new UsageError(
      '--from and --to are required (a date YYYY-MM-DD or a word such as last-month)',
    );
  }
  if (flags.basis !== undefined && flags.basis !== 'cash' && flags.basis !== 'accrual') {
    throw new UsageError(`--basis must be cash or accrual, not "${flags.basis}"`);
  }
  if (flags.by !== undefined && !GROUP_BY.includes(flags.by)) {
    throw new UsageError(`--by must be one of ${GROUP_BY.join(', ')}, not "${flags.by}"`);
  }
  const { startDate, endDate } = parseDateRange(flags, asOf);
  return {
    startDate: startDate!,
    endDate: endDate!,
    ledgerBasis: (flags.basis ?? 'cash') as LedgerBasis,
    groupBy: (flags.by ?? 'total') as ReportQuery['groupBy'],
  };
}

/** Prints one of the four statements for the flags given. */
export async function runStatement(
  ctx: CommandContext,
  kind: SummaryReport,
  flags: ReportFlags & { layout?: string | undefined },
): Promise<void> {
  const query = parseReportQuery(flags, ctx.today());
  const layout = parseLayout(flags.layout);
  const api = await ctx.api();
  const { entity } = await ctx.chosenEntity();
  const entityId = entity.id;
  const { report } =
    kind === 'pl'
      ? await api.reports.profitAndLoss(entityId, query)
      : kind === 'bs'
        ? await api.reports.balanceSheet(entityId, query)
        : kind === 'cf'
          ? await api.reports.cashFlow(entityId, query)
          : await api.reports.trialBalance(entityId, query);
  if (ctx.output.json) return ctx.output.printJson({ report });
  const statement =
    kind === 'pl'
      ? profitAndLossStatement(report as never)
      : kind === 'bs'
        ? balanceSheetStatement(report as never)
        : kind === 'cf'
          ? cashFlowStatement(report as never)
          : trialBalanceStatement(report as never);
  printStatement(ctx.output, statement, { layout, entity: entity.name });
}
