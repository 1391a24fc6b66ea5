import type {
  BankFeedConnection,
  BankTransaction,
  CreateBankFeedConnectionBody,
  PushTransactionsBody,
} from '../../../api/index.js';
import { CONNECTION_ERROR_CODES, FINANCIAL_ACCOUNT_KINDS } from '../../../api/index.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, UserError, UsageError } from '../../exitCodes.js';
import { displayAmount, plainAmount } from '../../render/statements.js';
import { listLimit } from '../../output.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--account "NAME:bank|credit_card"` (repeatable) or `--account FINANCIAL_ACCOUNT_ID`. */
export function parseConnect(flags: {
  bank?: string;
  account?: string[];
  direct?: boolean;
  integration?: boolean;
}): CreateBankFeedConnectionBody {
  if (!flags.bank) throw new UsageError('--bank is required');
  if (!flags.account?.length)
    throw new UsageError(
      'at least one --account "NAME:bank" or "NAME:credit_card" (or a financial account id)',
    );
  const accounts = flags.account.map((text) => {
    if (UUID.test(text)) return { financialAccountId: text };
    const at = text.lastIndexOf(':');
    const kind = text.slice(at + 1);
    if (at <= 0 || !(FINANCIAL_ACCOUNT_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(
        `--account takes NAME:bank or NAME:credit_card, or a financial account id; got "${text}"`,
      );
    }
    return { name: text.slice(0, at), kind: kind as 'bank' | 'credit_card' };
  });
  return {
    bankName: flags.bank,
    accounts,
    direct: Boolean(flags.direct),
    createdByIntegration: flags.integration !== false,
  };
}

async function showConnection(ctx: CommandContext, connection: BankFeedConnection): Promise<void> {
  ctx.output.note(
    `books: ${connection.bankName}: ${connection.status} (connection ${connection.id})`,
  );
  await ctx.output.table(
    [
      { header: 'Financial account', value: (f) => f.id },
      { header: 'Name', value: (f) => f.name },
      { header: 'Kind', value: (f) => f.kind },
      { header: 'Chart account', value: (f) => f.chartAccountId },
    ],
    connection.financialAccounts,
    { connection },
  );
}

export async function connect(
  ctx: CommandContext,
  body: CreateBankFeedConnectionBody,
): Promise<void> {
  const entityId = await ctx.entityId();
  const { connection } = await (await ctx.api()).sandbox.connectBankFeed(entityId, body);
  ctx.wrote(`connected ${connection.bankName}`);
  await showConnection(ctx, connection);
}

export async function breakConnection(
  ctx: CommandContext,
  id: string,
  flags: { error?: string },
): Promise<void> {
  const errorCode = flags.error ?? 'disconnected';
  if (!(CONNECTION_ERROR_CODES as readonly string[]).includes(errorCode)) {
    throw new UsageError(`--error must be one of ${CONNECTION_ERROR_CODES.join(', ')}`);
  }
  const { connection } = await (
    await ctx.api()
  ).sandbox.breakConnection(id, { errorCode: errorCode as 'disconnected' });
  ctx.wrote(`connection ${id} is ${connection.status}`);
  await showConnection(ctx, connection);
}

export async function reconnect(ctx: CommandContext, id: string): Promise<void> {
  const { connection } = await (await ctx.api()).sandbox.reconnect(id);
  ctx.wrote(`connection ${id} is ${connection.status}`);
  await showConnection(ctx, connection);
}

/**
 * `feed push FINANCIAL_ACCOUNT FILE.csv`: columns date, amount (signed: negative is money out),
 * description, optional external_id. Checked whole first (exit 3), then sent 1,000 at a time.
 */
export async function push(
  ctx: CommandContext,
  financialAccountId: string,
  file: string,
): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { parse } = await import('csv-parse/sync');
  const { normalizeHeader, parseLedgerDate } = await import('../../../migrate/ledgerCsv.js');
  const { detectDelimiter } = await import('../../../migrate/csvRecords.js');
  const { parseAmountText } = await import('../../../core/money.js');
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
    let cents: number | null;
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
        amount: cents / 100,
        description: record[description]!.trim(),
        ...(external && { externalId: external }),
      });
    }
  });
  if (transactions.length === 0 && problems.length === 0) problems.push(`${file}: no transactions`);
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
  await printTransactions(ctx, arrived);
}

export async function list(
  ctx: CommandContext,
  flags: { limit?: string; all?: boolean },
): Promise<void> {
  const limit = listLimit(flags, ctx.output.isTTY);
  const transactions = await (await ctx.api()).sandbox.transactions(await ctx.workspaceId(), limit);
  await printTransactions(ctx, transactions);
}

async function printTransactions(
  ctx: CommandContext,
  transactions: BankTransaction[],
): Promise<void> {
  const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
  await ctx.output.table(
    [
      { header: 'Date', value: (t) => t.date },
      { header: 'Description', value: (t) => t.description },
      { header: 'Amount', value: (t) => amount(t.amount), align: 'right' },
      { header: 'Status', value: (t) => t.status },
      { header: 'Category', value: (t) => t.accountId ?? '' },
      { header: 'Rule', value: (t) => t.ruleId ?? '' },
      { header: 'ID', value: (t) => t.id },
    ],
    transactions,
  );
}
