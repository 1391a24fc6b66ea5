import { bankAccountOption, linkAccountOption } from '../../../statements/links.js';
import { statementOptionsOf, statementReadOptions } from '../../../statements/reading.js';
import { argument, defineCommand } from '../../../command.js';
import { printTransactions } from '../../transactions/listing.js';
import { bringInStatements, financialAccountOf, sayHeld } from '../../transactions/shared.js';

/**
 * `feed push ACCOUNT FILE`: a bank statement in any format books reads (camt, MT940/942,
 * OFX/QFX, BAI2, QIF, CODA, Norma 43, CFONB 120, or a CSV of date, amount, description[, external_id]) pushed as bank
 * transactions of the account's feed: the chart account linked to it (by name, code or id), or
 * the financial account's id. The sandbox's own door to what `books transactions import` does.
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
    file: argument(
      'the statement: camt, MT940/942, OFX/QFX, BAI2, QIF, CODA, Norma 43, CFONB 120 or CSV',
      { names: 'file' },
    ),
  },
  options: { ...statementReadOptions, ...bankAccountOption, ...linkAccountOption },
  examples: [
    'books sandbox feed push "Chase Checking" october.ofx',
    'books sandbox feed push 0192f3c4-… statement.csv',
  ],
  async run(ctx, input) {
    const options = statementOptionsOf(input);
    const into = await financialAccountOf(ctx, input.account);
    const { financialAccountId } = into;
    const { arrived, skipped, pending } = await bringInStatements(
      ctx,
      into,
      [input.file],
      options,
      input.bankAccount,
      Boolean(input.linkAccount),
    );
    if (pending > 0)
      ctx.output.note(
        `books: ${input.file}: ${pending} pending ${pending === 1 ? 'entry' : 'entries'} left out: only booked entries are pushed`,
      );
    const categorized = arrived.filter((t) => t.status === 'categorized').length;
    const held = arrived.filter((t) => t.status === 'possible-duplicate').length;
    ctx.wrote(
      `financial account ${financialAccountId}: ${arrived.length - held} new transactions (${categorized} categorized, ${arrived.length - held - categorized} uncategorized; ${skipped} already there${held > 0 ? `; ${held} held as ${held === 1 ? 'a possible duplicate' : 'possible duplicates'}` : ''})`,
    );
    sayHeld(ctx, arrived);
    await printTransactions(ctx, { items: arrived, total: arrived.length });
  },
});
