import type { GeneralLedgerQuery } from '../../../api/index.js';
import { defineCommand, text } from '../../command.js';
import { UsageError } from '../../exitCodes.js';
import { displayAmount, generalLedgerRows, plainAmount } from '../../render/statements.js';
import { parseReportQuery, reportOptions, type ReportFlags } from './shared.js';

export function parse(
  flags: ReportFlags & { account?: string | undefined },
  asOf: string,
): GeneralLedgerQuery & { account?: string } {
  if (flags.by !== undefined) throw new UsageError('the general ledger takes no --by');
  const { startDate, endDate, ledgerBasis } = parseReportQuery(flags, asOf);
  return { startDate, endDate, ledgerBasis, ...(flags.account && { account: flags.account }) };
}

export const command = defineCommand({
  summary: 'General ledger',
  options: {
    ...reportOptions,
    account: text('--account <account>', 'one account, by id, code or name'),
  },
  examples: ['books report gl --from this-month --to this-month --account 1000'],
  async run(ctx, flags) {
    const { account, ...query } = parse(flags, ctx.today());
    const api = await ctx.api();
    const entityId = await ctx.entityId();
    const accountId = account === undefined ? undefined : await ctx.accountId(entityId, account);
    const { report } = await api.reports.generalLedger(entityId, {
      ...query,
      ...(accountId && { accountId }),
    });
    if (ctx.output.asRecords) {
      // Tidy records: the account's code and name apart, plain amounts.
      ctx.output.writeRecords([
        ['account_code', 'account_name', 'date', 'description', 'debit', 'credit', 'balance'],
        ...generalLedgerRows(report).map((r) => [
          String(r.accountCode),
          r.accountName,
          r.date,
          r.description,
          plainAmount(r.debit),
          plainAmount(r.credit),
          plainAmount(r.balance),
        ]),
      ]);
      return;
    }
    const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
    await ctx.output.table(
      [
        { header: 'Account', value: (r) => r.account },
        { header: 'Date', value: (r) => r.date },
        { header: 'Description', value: (r) => r.description },
        { header: 'Debit', value: (r) => amount(r.debit), align: 'right' },
        { header: 'Credit', value: (r) => amount(r.credit), align: 'right' },
        { header: 'Balance', value: (r) => amount(r.balance), align: 'right' },
      ],
      generalLedgerRows(report),
      { report },
    );
  },
});
