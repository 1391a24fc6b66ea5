import { argument, defineCommand, text } from '../../../command.js';
import { UsageError } from '../../../exitCodes.js';
import { CODE_ACCOUNT_OPTIONS, codeAccount, printTaxCode } from './shared.js';
import { parseRates } from './rates.js';

/**
 * `tax code update CODE [--name N] [--rate R] [--output-account A] [--input-account A]`: a new
 * name, a rate from a day on, or the accounts the code keeps its VAT on (Germany's charts keep
 * each rate's apart: SKR03 1771 Umsatzsteuer 7 %, 1776 19 %; `none` goes back to the entity's).
 */
export const command = defineCommand({
  summary:
    "Rename a tax code, change its rates (a new rate from a day keeps the old one's days) or the accounts of its VAT",
  arguments: { code: argument('the code') },
  options: {
    name: text('--name <name>', 'what the code is, in words'),
    rate: text('--rate <rates>', 'its whole history: 19,16@2020-07-01,19@2021-01-01'),
    ...CODE_ACCOUNT_OPTIONS,
  },
  examples: [
    'books tax code update S --rate 17.5,15@2008-12-01,17.5@2010-01-01,20@2011-01-04',
    'books tax code update USt7 --output-account 1771',
  ],
  async run(ctx, { code, ...flags }) {
    if (
      flags.name === undefined &&
      flags.rate === undefined &&
      flags.outputAccount === undefined &&
      flags.inputAccount === undefined
    )
      throw new UsageError(
        'give --name, --rate, --output-account or --input-account: what to change',
      );
    const entityId = await ctx.entityId();
    const outputAccountId = await codeAccount(ctx, entityId, flags.outputAccount);
    const inputAccountId = await codeAccount(ctx, entityId, flags.inputAccount);
    const { taxCode } = await (
      await ctx.api()
    ).sandbox.updateTaxCode(entityId, code, {
      ...(flags.name ? { name: flags.name } : {}),
      ...(flags.rate ? { rates: parseRates(flags.rate) } : {}),
      ...(outputAccountId !== undefined && { outputAccountId }),
      ...(inputAccountId !== undefined && { inputAccountId }),
    });
    ctx.output.note(`books: updated tax code ${taxCode.code}`);
    await printTaxCode(ctx, taxCode);
  },
});
