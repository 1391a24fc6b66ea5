import { progressMode, progressOptions, workProgress } from '../../terminal/progress.js';
import { bankAccountOption, linkAccountOption } from '../../statements/links.js';
import { statementOptionsOf, statementReadOptions } from '../../statements/reading.js';
import { argument, defineCommand } from '../../command.js';
import { printTransactions } from './listing.js';
import { bringInStatements, financialAccountOf, sayHeld } from './shared.js';

/**
 * `transactions import ACCOUNT FILE...`: the bank's statement files — every format `statement
 * show` reads — brought in as bank transactions of the connected account, booked entries only,
 * each keyed by the bank's reference (or, where it gave none, by its day, amount and text), so
 * nothing comes in twice; the rules run on each. Says how many came in, were there already,
 * were categorized and wait.
 */
export const command = defineCommand({
  summary:
    "Bring a bank's statements in as bank transactions of a connected account; the rules categorize what they can",
  arguments: {
    account: argument(
      'the connected account: its chart account (name, code or id), or the financial account id',
      { names: 'account' },
    ),
    files: argument(
      'statement files: camt, MT940/942, OFX/QFX, BAI2, QIF, CODA, Norma 43, CFONB 120 or a CSV',
      {
        names: 'file',
        variadic: true,
      },
    ),
  },
  options: {
    ...statementReadOptions,
    ...bankAccountOption,
    ...linkAccountOption,
    ...progressOptions,
  },
  examples: [
    'books transactions import "Chase Checking" january.ofx',
    'books transactions import 1010 statements/*.xml --json',
    'books transactions import Checking export.csv --map date=Booked,amount=Sum,description=Text --decimal-comma',
  ],
  async run(ctx, input) {
    const options = statementOptionsOf(input);
    const mode = progressMode(input);
    const into = await financialAccountOf(ctx, input.account);
    const progress = workProgress<{ sent: number; total: number }>(ctx, mode, {
      doing: 'importing',
      measure: ({ sent, total }) => ({ done: sent, total, unit: 'transactions' }),
      bar: ({ sent, total }, seconds) =>
        `${sent}/${total} transactions  ${Math.round(sent / seconds)} transactions/s`,
    });
    const { show } = progress;
    let brought;
    try {
      brought = await bringInStatements(
        ctx,
        into,
        input.files,
        options,
        input.bankAccount,
        Boolean(input.linkAccount),
        show && ((sent, total) => show({ sent, total })),
      );
    } finally {
      progress.end();
    }
    const { arrived, skipped, pending } = brought;
    const categorized = arrived.filter((t) => t.status === 'categorized').length;
    const held = arrived.filter((t) => t.status === 'possible-duplicate').length;
    const counts = {
      imported: arrived.length - held,
      skipped,
      possibleDuplicates: held,
      categorized,
      uncategorized: arrived.length - held - categorized,
    };
    if (pending > 0)
      ctx.output.note(
        `books: ${pending} pending ${pending === 1 ? 'entry' : 'entries'} left out: only booked entries come in`,
      );
    const account = into.chartAccount?.account ?? arrived[0]?.bankAccount;
    ctx.wrote(
      `${account ? `${account.code} ${account.name}` : `financial account ${into.financialAccountId}`}: ${counts.imported} imported, ${counts.skipped} already there${held > 0 ? `, ${held} held as ${held === 1 ? 'a possible duplicate' : 'possible duplicates'}` : ''}; ${counts.categorized} categorized by the rules, ${counts.uncategorized} waiting${counts.uncategorized > 0 ? ' (books transactions review, or categorize --auto)' : ''}`,
    );
    sayHeld(ctx, arrived);
    if (ctx.output.json) return ctx.output.printJson(counts);
    await printTransactions(ctx, { items: arrived, total: arrived.length });
  },
});
