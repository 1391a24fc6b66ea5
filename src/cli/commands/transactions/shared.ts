import { randomUUID } from 'node:crypto';
import type { Account, BankTransaction, DecisionOutcome } from '../../../api/index.js';
import { unlessNotFound } from '../../../client/errors.js';
import {
  readStatements,
  statementTransactions,
  type StatementRequest,
} from '../../statements/reading.js';
import { categoryText } from '../../../migrate/categorize/texts.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, UserError } from '../../exitCodes.js';
import {
  checkStatementLink,
  statementLinksOf,
  statementsOfOneAccount,
} from '../../statements/links.js';
import { sameAccount } from '../../../formats/statement.js';
import { printTransactions, referenceText } from './listing.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A transaction an argument names: its id, or the bank's reference (among the workspace's
 * transactions, the entity's when one is chosen); else a unique start of either, four
 * characters or more, as git takes a commit's. Several are ambiguous: listed.
 */
export async function transactionNamed(
  ctx: CommandContext,
  workspaceId: string,
  entityId: string | undefined,
  given: string,
): Promise<BankTransaction> {
  const api = await ctx.api();
  if (UUID.test(given)) {
    const found = await unlessNotFound(api.sandbox.transaction(given));
    if (found && (entityId === undefined || found.transaction.entityId === entityId))
      return found.transaction;
  }
  const scope = { ...(entityId && { entityId }) };
  let found = (await api.sandbox.transactionsUpTo(workspaceId, 10, { reference: given, ...scope }))
    .items;
  if (found.length === 0 && given.trim().length >= 4)
    found = (
      await api.sandbox.transactionsUpTo(workspaceId, 10, { prefix: given.trim(), ...scope })
    ).items;
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    throw new UserError(
      `"${given}" names ${found.length === 10 ? '10 or more' : found.length} transactions: ${found
        .map(
          (t) =>
            `${t.id} (${t.date} ${t.amount.toFixed(2)} ${t.description} on ${t.bankAccount.name}${referenceText(t) ? `, ref ${referenceText(t)}` : ''})`,
        )
        .join('; ')}; give more of the id`,
      ExitCode.Usage,
    );
  throw new UserError(
    `no bank transaction "${given}" (by id, the bank's reference, or the start of either)`,
    ExitCode.NotFound,
  );
}

/**
 * Says what each decision did (on stderr), prints the decided transactions (stdout: `--json`
 * their list), and answers the exit code: 0 when all were decided, 1 when some were refused.
 */
export async function reportOutcomes(
  ctx: CommandContext,
  outcomes: readonly DecisionOutcome[],
  what: (outcome: DecisionOutcome) => string,
): Promise<number> {
  const decided: BankTransaction[] = [];
  const refused = outcomes.filter((o) => o.status !== 200);
  for (const outcome of outcomes) {
    if (outcome.status === 200) {
      decided.push(outcome.transaction!);
      ctx.wrote(what(outcome));
    } else
      ctx.output.note(
        `books: transaction ${outcome.transactionId}: refused (${outcome.status}): ${outcome.message}`,
      );
  }
  await printTransactions(ctx, { items: decided, total: decided.length });
  if (refused.length > 0) {
    ctx.output.note(
      `books: ${decided.length} decided, ${refused.length} refused (each named above)`,
    );
    return ExitCode.Refused;
  }
  return ExitCode.Success;
}

/** The connected account statements go into: its financial account, and its chart account where the entity is known. */
export interface ConnectedAccount {
  financialAccountId: string;
  /** The chart account the feed posts to, with the entity's chart (unknown: a bare id given without an entity). */
  chartAccount?: { entityId: string; account: Account; chart: Account[] };
}

/**
 * The financial account a name stands for: the chart account of that id, code or name, linked
 * to a feed; or a financial account's id as given.
 */
export async function financialAccountOf(
  ctx: CommandContext,
  given: string,
): Promise<ConnectedAccount> {
  const entityId = await ctx.entityId().catch((error: unknown) => {
    if (UUID.test(given)) return undefined;
    throw error;
  });
  if (entityId === undefined) return { financialAccountId: given };
  const chart = await (await ctx.api()).accounts.all(entityId);
  const linked = chart.find((a) => a.financialAccountId === given);
  if (linked)
    return { financialAccountId: given, chartAccount: { entityId, account: linked, chart } };
  if (UUID.test(given) && !chart.some((a) => a.id === given)) return { financialAccountId: given };
  const account = await ctx.account(entityId, given);
  if (!account.financialAccountId)
    throw new UserError(
      `account ${account.code} "${account.name}" has no bank feed: books sandbox feed connect --bank BANK --account "${account.name}:${account.type === 'Credit Cards' ? 'credit_card' : 'bank'}" links one to it`,
      ExitCode.Usage,
    );
  return {
    financialAccountId: account.financialAccountId,
    chartAccount: { entityId, account, chart },
  };
}

/**
 * Says which lines came in held as possible duplicates (each with the line it may repeat), and
 * how to decide them.
 */
export function sayHeld(ctx: CommandContext, arrived: readonly BankTransaction[]): void {
  const held = arrived.filter((t) => t.status === 'possible-duplicate');
  if (held.length === 0) return;
  for (const t of held.slice(0, 10))
    ctx.output.note(
      `books: held: ${t.date} ${t.amount.toFixed(2)} ${t.description} (${t.id}): ${categoryText(t)}`,
    );
  if (held.length > 10) ctx.output.note(`books: and ${held.length - 10} more held`);
  ctx.output.note(
    `books: a held line is posted only when you say so: books transactions categorize ID --not-duplicate (it is a line of its own) or --exclude (it is the same line); books transactions list --status possible-duplicate lists them`,
  );
}

/** What statement files brought in: the new transactions and how many were there already. */
export interface BroughtIn {
  arrived: BankTransaction[];
  /** Entries of the files (booked) that were there already, or repeated in the files. */
  skipped: number;
  /** Pending entries and entries for information, left out. */
  pending: number;
  /** Booked entries of 0.00, left out. */
  zero: number;
}

/**
 * Reads statement files and brings their booked entries in as bank transactions of one
 * connected account, checked whole first (exit 3, nothing sent): of the bank account the
 * chart account's statements carried before (remembered the first time, as `reconcile` does;
 * `link` links them anew), then sent a thousand at a time; the rules run on each as it arrives.
 */
export async function bringInStatements(
  ctx: CommandContext,
  into: ConnectedAccount,
  files: readonly string[],
  options: StatementRequest,
  /** `--bank-account`: the account to take from files that hold several. */
  bankAccount?: string,
  /** `--link-account`: the statements' bank account is this account's from now on. */
  link = false,
  /** Hears how many of the statements' transactions are sent, after each request. */
  progress?: (sent: number, total: number) => void,
): Promise<BroughtIn> {
  const all = await readStatements(ctx, files, options, true).catch((error: unknown) => {
    // A statement that holds nothing to bring in is said as such.
    if (error instanceof UserError && /holds no bank or card statement/.test(error.message))
      throw new UserError(
        `${error.message.split(':')[0]}: no transactions\nnothing was sent`,
        ExitCode.InvalidFile,
      );
    throw error;
  });
  const { chartAccount } = into;
  const links = chartAccount
    ? (await statementLinksOf(ctx, chartAccount.entityId)).links
    : undefined;
  const read = statementsOfOneAccount(ctx, all, bankAccount, (number) =>
    Object.entries(links ?? {}).some(
      ([id, l]) => sameAccount(id, number) && l.accountId === chartAccount?.account.id,
    ),
  );
  if (chartAccount)
    await checkStatementLink(
      ctx,
      chartAccount.entityId,
      chartAccount.account,
      chartAccount.chart,
      read.flatMap((f) => f.statements),
      link,
    );
  const { batches, problems, pending, zero } = statementTransactions(read);
  if (zero > 0)
    ctx.output.note(
      `books: ${zero} ${zero === 1 ? 'entry' : 'entries'} of 0.00 left out: a bank transaction moves money`,
    );
  if (batches.length === 0 && problems.length === 0)
    problems.push(`${files.join(', ')}: no transactions`);
  if (problems.length > 0)
    throw new UserError(`${problems.join('\n')}\nnothing was sent`, ExitCode.InvalidFile);
  const api = await ctx.api();
  const arrived: BankTransaction[] = [];
  let sent = 0;
  const total = batches.reduce((sum, batch) => sum + batch.transactions.length, 0);
  for (const { period, transactions } of batches) {
    // One file's requests share an import: its alike lines are never each other's duplicates.
    const importId = randomUUID();
    for (let start = 0; start < transactions.length; start += 1000) {
      // Each request under a key of its own (a retry of it replays); what was there already
      // the platform tells by the bank's reference or by day, amount and text, so running the
      // command again, or on another layout of the file, brings in nothing twice.
      const chunk = transactions.slice(start, start + 1000);
      sent += chunk.length;
      arrived.push(
        ...(
          await api.sandbox.pushTransactions(into.financialAccountId, {
            transactions: chunk,
            period,
            importId,
          })
        ).data,
      );
      progress?.(sent, total);
    }
  }
  return { arrived, skipped: sent - arrived.length, pending, zero };
}
