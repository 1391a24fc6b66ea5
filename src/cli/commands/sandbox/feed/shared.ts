import type {
  Account,
  BankFeedConnection,
  CreateBankFeedConnectionBody,
  FinancialAccountKind,
} from '../../../../api/index.js';
import { FINANCIAL_ACCOUNT_KINDS } from '../../../../api/index.js';
import { resolveReference } from '../../../../client/references.js';
import type { CommandContext } from '../../../context.js';
import { ExitCode, UsageError, UserError } from '../../../exitCodes.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What `--account` asks for: a financial account by id, or an account by name (its kind, where said). */
export type RequestedAccount =
  { financialAccountId: string } | { name: string; kind: FinancialAccountKind | undefined };

/**
 * `--account "NAME:bank|credit_card"` (repeatable), `--account NAME` (an account of the chart),
 * or `--account FINANCIAL_ACCOUNT_ID`.
 */
export function parseConnect(flags: {
  bank?: string | undefined;
  account?: string[] | undefined;
  direct?: boolean | undefined;
  integration?: boolean | undefined;
}): {
  bankName: string;
  accounts: RequestedAccount[];
  direct: boolean;
  createdByIntegration: boolean;
} {
  if (!flags.bank) throw new UsageError('--bank is required');
  if (!flags.account?.length)
    throw new UsageError(
      'at least one --account "NAME:bank" or "NAME:credit_card" (or a financial account id)',
    );
  const accounts = flags.account.map((text): RequestedAccount => {
    if (UUID.test(text)) return { financialAccountId: text };
    const at = text.lastIndexOf(':');
    const kind = at > 0 ? text.slice(at + 1) : undefined;
    if (kind !== undefined && (FINANCIAL_ACCOUNT_KINDS as readonly string[]).includes(kind))
      return { name: text.slice(0, at), kind: kind as FinancialAccountKind };
    if (text.trim() === '' || (kind !== undefined && /^[a-z_]+$/.test(kind)))
      throw new UsageError(
        `--account takes NAME:bank or NAME:credit_card, an account of the chart, or a financial account id; got "${text}"`,
      );
    return { name: text, kind: undefined };
  });
  return {
    bankName: flags.bank,
    accounts,
    direct: Boolean(flags.direct),
    createdByIntegration: flags.integration !== false,
  };
}

const KIND_OF_TYPE: Partial<Record<Account['type'], FinancialAccountKind>> = {
  Cash: 'bank',
  'Credit Cards': 'credit_card',
};

/**
 * The connection's accounts as the platform takes them: an account of the chart of that name
 * or code (a migrated bank account keeps its code and balance) is linked, said; a new one is
 * made only where the chart has none. A chart account of another type, or of the other kind, is
 * refused rather than given a twin.
 */
export function accountsToConnect(
  ctx: CommandContext,
  requested: readonly RequestedAccount[],
  chart: readonly Account[],
): CreateBankFeedConnectionBody['accounts'] {
  return requested.map((account) => {
    if ('financialAccountId' in account) return account;
    const found = resolveReference(chart, account.name, (a) => ({
      id: a.id,
      code: a.code,
      name: a.name,
    }));
    if (found.ambiguous)
      throw new UsageError(
        `"${account.name}" names ${found.ambiguous.length} accounts (${found.ambiguous.map((a) => `${a.code} "${a.name}"`).join(', ')}): use the code`,
      );
    const existing = found.found;
    if (!existing) {
      if (account.kind === undefined)
        throw new UserError(
          `no account "${account.name}" in the chart to link the feed to: name one, or say the kind of a new one (--account "${account.name}:bank" or "${account.name}:credit_card")`,
          ExitCode.NotFound,
        );
      return { name: account.name, kind: account.kind };
    }
    const kind = KIND_OF_TYPE[existing.type];
    if (kind === undefined)
      throw new UsageError(
        `account ${existing.code} "${existing.name}" is ${existing.type}: a bank feed posts to a Cash (bank) or Credit Cards (card) account`,
      );
    if (account.kind !== undefined && account.kind !== kind)
      throw new UsageError(
        `account ${existing.code} "${existing.name}" is ${existing.type}, not a ${account.kind === 'bank' ? 'bank' : 'card'} account: name it ${existing.name}:${kind}, or another account`,
      );
    ctx.output.note(
      `books: the feed is linked to the chart's ${existing.code} "${existing.name}"${existing.financialAccountId ? ' (already fed: this connection covers it too)' : ': its history and balance stay where they are'}`,
    );
    return { chartAccountId: existing.id };
  });
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
