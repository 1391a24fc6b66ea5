import { argument, defineCommand, flag } from '../../../command.js';
import { printTaxCode } from './shared.js';

/**
 * `tax code archive CODE`: no new posting may name it; postings that do keep it, and returns
 * still count them. `--restore` takes it back.
 */
export const command = defineCommand({
  summary: 'Archive a tax code (no new posting may name it), or restore it',
  arguments: { code: argument('the code') },
  options: { restore: flag('--restore', 'take an archived code back into use') },
  examples: ['books tax code archive NID', 'books tax code archive NID --restore'],
  async run(ctx, { code, restore }) {
    const entityId = await ctx.entityId();
    const { taxCode } = await (
      await ctx.api()
    ).sandbox.updateTaxCode(entityId, code, { archived: !restore });
    ctx.output.note(`books: ${restore ? 'restored' : 'archived'} tax code ${taxCode.code}`);
    await printTaxCode(ctx, taxCode);
  },
});
