import { defineCommand, flag, negatable, repeatable, text } from '../../../command.js';
import { parseConnect, showConnection } from './shared.js';

export const command = defineCommand({
  summary: 'Connect a bank: each new financial account gets a Cash or Credit Cards chart account',
  options: {
    bank: text('--bank <name>', 'the bank', { required: true }),
    account: repeatable(
      '--account <name:kind>',
      'NAME:bank or NAME:credit_card, or a financial account id (repeatable)',
    ),
    direct: flag('--direct', 'a direct connection'),
    integration: negatable(
      '--no-integration',
      'not created by the integration (its events are not sent)',
    ),
  },
  examples: [
    'books sandbox feed connect --bank Chase --account "Chase Checking:bank" --account "Chase Sapphire:credit_card"',
  ],
  async run(ctx, flags) {
    const body = parseConnect(flags);
    const entityId = await ctx.entityId();
    const { connection } = await (await ctx.api()).sandbox.connectBankFeed(entityId, body);
    ctx.wrote(`connected ${connection.bankName}`);
    await showConnection(ctx, connection);
  },
});
