import { argument, defineCommand } from '../../../command.js';
import { entityFields } from './shared.js';

export const command = defineCommand({
  summary: 'Open the accrual ledger',
  arguments: {
    entity: argument('by id or name (else --entity or the profile)', { optional: true }),
  },
  examples: ['books sandbox entity open-accrual'],
  async run(ctx, { entity }) {
    const id = await ctx.entityId(entity);
    const result = await (await ctx.api()).sandbox.openAccrualLedger(id);
    ctx.wrote('opened the accrual ledger');
    ctx.output.record(entityFields(result.entity), result);
  },
});
