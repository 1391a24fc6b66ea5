import { argument, defineCommand, text } from '../../../command.js';
import { UsageError } from '../../../exitCodes.js';
import { printTaxCode } from './shared.js';
import { parseRates } from './rates.js';

/** `tax code update CODE [--name N] [--rate R]`: a new name, or a rate from a day on. */
export const command = defineCommand({
  summary: "Rename a tax code or change its rates (a new rate from a day keeps the old one's days)",
  arguments: { code: argument('the code') },
  options: {
    name: text('--name <name>', 'what the code is, in words'),
    rate: text('--rate <rates>', 'its whole history: 19,16@2020-07-01,19@2021-01-01'),
  },
  examples: ['books tax code update S --rate 17.5,15@2008-12-01,17.5@2010-01-01,20@2011-01-04'],
  async run(ctx, { code, ...flags }) {
    if (flags.name === undefined && flags.rate === undefined)
      throw new UsageError('give --name or --rate: what to change');
    const entityId = await ctx.entityId();
    const { taxCode } = await (
      await ctx.api()
    ).sandbox.updateTaxCode(entityId, code, {
      ...(flags.name ? { name: flags.name } : {}),
      ...(flags.rate ? { rates: parseRates(flags.rate) } : {}),
    });
    ctx.output.note(`books: updated tax code ${taxCode.code}`);
    printTaxCode(ctx, taxCode);
  },
});
