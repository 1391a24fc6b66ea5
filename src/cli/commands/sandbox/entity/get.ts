import { argument, defineCommand } from '../../../command.js';
import { entityFields } from './shared.js';

export const command = defineCommand({
  summary: 'Show an entity',
  arguments: {
    entity: argument('by id or name (else --entity or the profile)', { optional: true }),
  },
  examples: ['books sandbox entity get "Main Street Bakery"'],
  async run(ctx, { entity }) {
    const result = await (await ctx.api()).sandbox.entity(await ctx.entityId(entity));
    ctx.output.record(entityFields(result.entity), result);
  },
});
