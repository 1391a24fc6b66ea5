import type { BankTransaction, PushTransactionsBody } from '../../../../api/index.js';
import type { Cents } from '../../../../core/money.js';
import { argument, defineCommand } from '../../../command.js';
import { ExitCode, UserError } from '../../../exitCodes.js';
import { printTransactions } from './shared.js';

/**
 * `feed push FINANCIAL_ACCOUNT FILE.csv`: columns date, amount (signed: negative is money out),
 * description, optional external_id. Checked whole first (exit 3), then sent 1,000 at a time.
 */
export const command = defineCommand({
  summary:
    'Push bank transactions from a CSV (date, amount, description[, external_id]); rules categorize them',
  arguments: {
    financialAccount: argument('the financial account id'),
    file: argument('the transactions, as CSV'),
  },
  examples: ['books sandbox feed push 0192f3c4-… statement.csv'],
  async run(ctx, { financialAccount: financialAccountId, file }) {
    const { readFileSync } = await import('node:fs');
    const { parse } = await import('csv-parse/sync');
    const { normalizeHeader, parseLedgerDate } = await import('../../../../formats/ledgerCsv.js');
    const { detectDelimiter } = await import('../../../../formats/common/csvRecords.js');
    const { centsToAmount, parseAmountText } = await import('../../../../core/money.js');
    let text: string;
    try {
      text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    } catch (error) {
      throw new UserError(
        `cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`,
        ExitCode.InvalidFile,
      );
    }
    const records: string[][] = parse(text, {
      delimiter: detectDelimiter(text.split(/\r?\n/)[0] ?? ''),
      skip_empty_lines: true,
      relax_column_count: true,
    });
    const header = (records[0] ?? []).map(normalizeHeader);
    const column = (name: string) => header.indexOf(name);
    const [date, amount, description, externalId] = [
      'date',
      'amount',
      'description',
      'externalid',
    ].map(column) as [number, number, number, number];
    const problems: string[] = [];
    if (date < 0 || amount < 0 || description < 0)
      problems.push(`${file}:1: the header needs date, amount and description`);
    const transactions: PushTransactionsBody['transactions'] = [];
    records.slice(1).forEach((record, index) => {
      if (problems.length > 0 && date < 0) return;
      const line = index + 2;
      const day = parseLedgerDate(record[date]);
      let cents: Cents | null;
      try {
        cents = parseAmountText(record[amount] ?? '');
      } catch (error) {
        problems.push(`${file}:${line}: the amount ${(error as Error).message}`);
        return;
      }
      if (!day)
        problems.push(`${file}:${line}: date "${record[date] ?? ''}" is not a date (YYYY-MM-DD)`);
      else if (!cents) problems.push(`${file}:${line}: the amount is empty or zero`);
      else if (!(record[description] ?? '').trim())
        problems.push(`${file}:${line}: the description is empty`);
      else {
        const external = externalId >= 0 ? (record[externalId] ?? '').trim() : '';
        transactions.push({
          date: day,
          amount: centsToAmount(cents),
          description: record[description]!.trim(),
          ...(external && { externalId: external }),
        });
      }
    });
    if (transactions.length === 0 && problems.length === 0)
      problems.push(`${file}: no transactions`);
    if (problems.length > 0)
      throw new UserError(`${problems.join('\n')}\nnothing was sent`, ExitCode.InvalidFile);
    const api = await ctx.api();
    const arrived: BankTransaction[] = [];
    for (let start = 0; start < transactions.length; start += 1000) {
      arrived.push(
        ...(
          await api.sandbox.pushTransactions(financialAccountId, {
            transactions: transactions.slice(start, start + 1000),
          })
        ).data,
      );
    }
    const categorized = arrived.filter((t) => t.status === 'categorized').length;
    ctx.wrote(
      `financial account ${financialAccountId}: ${arrived.length} new transactions (${categorized} categorized, ${arrived.length - categorized} uncategorized; ${transactions.length - arrived.length} already there)`,
    );
    await printTransactions(ctx, { items: arrived, total: arrived.length });
  },
});
