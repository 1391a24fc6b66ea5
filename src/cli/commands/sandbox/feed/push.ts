import type { BankTransaction, PushTransactionsBody } from '../../../../api/index.js';
import { centsToAmount } from '../../../../core/money.js';
import {
  readStatements,
  statementOptionsOf,
  statementReadOptions,
} from '../../../bankStatements.js';
import { argument, defineCommand } from '../../../command.js';
import { ExitCode, UserError } from '../../../exitCodes.js';
import { printTransactions } from './shared.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `feed push ACCOUNT FILE`: a bank statement in any format books reads (camt, MT940/942,
 * OFX/QFX, BAI2, QIF, or a CSV of date, amount, description[, external_id]) pushed as bank
 * transactions of the account's feed: the chart account linked to it (by name, code or id), or
 * the financial account's id. Booked entries only; each keeps the bank's reference as its
 * external id, so pushing a statement again adds nothing twice. Checked whole first (exit 3),
 * then sent 1,000 at a time.
 */
export const command = defineCommand({
  summary:
    "Push a bank statement's entries as bank transactions of a connected account; rules categorize them",
  arguments: {
    account: argument(
      'the connected account: its chart account (name, code or id), or the financial account id',
      {
        names: 'account',
      },
    ),
    file: argument('the statement: camt, MT940/942, OFX/QFX, BAI2, QIF or CSV', { names: 'file' }),
  },
  options: statementReadOptions,
  examples: [
    'books sandbox feed push "Chase Checking" october.ofx',
    'books sandbox feed push 0192f3c4-… statement.csv',
  ],
  async run(ctx, input) {
    const options = statementOptionsOf(input);
    const [read] = await readStatements(ctx, [input.file], options, true).catch(
      (error: unknown) => {
        // A statement that holds nothing to push is said as push always said it.
        if (error instanceof UserError && /holds no bank or card statement/.test(error.message))
          throw new UserError(
            `${input.file}: no transactions\nnothing was sent`,
            ExitCode.InvalidFile,
          );
        throw error;
      },
    );
    const problems = (read!.problems ?? []).map((p) => `${input.file}:${p.line}: ${p.message}`);
    const transactions: PushTransactionsBody['transactions'] = [];
    const statements = read!.statements;
    let pending = 0;
    for (const statement of statements) {
      for (const entry of statement.entries) {
        if (entry.status !== 'booked') {
          pending += 1;
          continue;
        }
        const text = [entry.counterparty, entry.description].filter((t): t is string =>
          Boolean(t?.trim()),
        );
        const description =
          text.length === 2 && text[1]!.includes(text[0]!) ? text[1]! : text.join(': ');
        if (entry.amount === 0)
          problems.push(`${input.file}:${entry.line}: the amount is empty or zero`);
        else if (description.trim() === '')
          problems.push(`${input.file}:${entry.line}: the description is empty`);
        else
          transactions.push({
            date: entry.bookingDate,
            amount: centsToAmount(entry.amount),
            description: [...description.trim()].slice(0, 1000).join(''),
            ...(entry.reference && { externalId: [...entry.reference].slice(0, 255).join('') }),
          });
      }
    }
    if (transactions.length === 0 && problems.length === 0)
      problems.push(`${input.file}: no transactions`);
    if (problems.length > 0)
      throw new UserError(`${problems.join('\n')}\nnothing was sent`, ExitCode.InvalidFile);
    if (pending > 0)
      ctx.output.note(
        `books: ${input.file}: ${pending} pending ${pending === 1 ? 'entry' : 'entries'} left out: only booked entries are pushed`,
      );
    const financialAccountId = await financialAccountOf(ctx, input.account);
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

/**
 * The financial account a name stands for: the chart account of that id, code or name, linked
 * to a feed; or, as before, a financial account's id as given.
 */
async function financialAccountOf(
  ctx: Parameters<typeof command.run>[0],
  given: string,
): Promise<string> {
  const entityId = await ctx.entityId().catch((error: unknown) => {
    if (UUID.test(given)) return undefined;
    throw error;
  });
  if (entityId === undefined) return given;
  const chart = await (await ctx.api()).accounts.all(entityId);
  const linked = chart.find((a) => a.financialAccountId === given);
  if (linked) return given;
  if (UUID.test(given) && !chart.some((a) => a.id === given)) return given;
  const account = await ctx.account(entityId, given);
  if (!account.financialAccountId)
    throw new UserError(
      `account ${account.code} "${account.name}" has no bank feed: books sandbox feed connect links one (then push to its account)`,
      ExitCode.Usage,
    );
  return account.financialAccountId;
}
