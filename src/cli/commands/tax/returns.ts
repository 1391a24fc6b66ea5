import type { FiledTaxReturn } from '../../../api/index.js';
import { defineCommand } from '../../command.js';
import { displayAmount, plainAmount } from '../../render/statements.js';
import { taxSetupOf } from './shared.js';

/**
 * `tax returns`: the returns marked filed, earliest first, each with whether the postings behind
 * it are still those it was filed on (a posting changed underneath a filing shows here).
 */
export const command = defineCommand({
  summary: 'The VAT returns marked filed, and whether the books behind each are unchanged',
  examples: ['books tax returns', 'books tax returns --json'],
  async run(ctx) {
    const entityId = await ctx.entityId();
    await taxSetupOf(ctx, entityId);
    const { data } = await (await ctx.api()).sandbox.filedTaxReturns(entityId);
    const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
    await ctx.output.table(
      [
        { header: 'From', value: (r: FiledTaxReturn) => r.startDate },
        { header: 'To', value: (r) => r.endDate },
        { header: 'Country', value: (r) => r.country },
        { header: 'Basis', value: (r) => r.basis },
        { header: 'Net', value: (r) => amount(r.net), align: 'right' },
        { header: 'Filed', value: (r) => r.filedAt.slice(0, 10) },
        { header: 'Unchanged', value: (r) => (r.intact ? 'yes' : 'NO') },
        { header: 'ID', value: (r) => r.id },
      ],
      data,
    );
  },
});
