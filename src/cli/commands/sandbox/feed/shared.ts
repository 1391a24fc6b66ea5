import type { BankFeedConnection, CreateBankFeedConnectionBody } from '../../../../api/index.js';
import { FINANCIAL_ACCOUNT_KINDS } from '../../../../api/index.js';
import type { CommandContext } from '../../../context.js';
import { UsageError } from '../../../exitCodes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--account "NAME:bank|credit_card"` (repeatable) or `--account FINANCIAL_ACCOUNT_ID`. */
export function parseConnect(flags: {
  bank?: string | undefined;
  account?: string[] | undefined;
  direct?: boolean | undefined;
  integration?: boolean | undefined;
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

/** A connection's financial accounts, its status on stderr. */
export async function showConnection(
  ctx: CommandContext,
  connection: BankFeedConnection,
): Promise<void> {
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
