import { defineCommand, flag, negatable, repeatable, text } from '../../../command.js';
import { accountsToConnect, parseConnect, showConnection } from './shared.js';

/**
 * `feed connect --bank B --account A...`: each account named is linked to the chart's bank or
 * card account of that name or code where there is one (a migrated account keeps its code and
 * balance: no twin to merge), else made (`NAME:bank`, `NAME:credit_card`).
 */
export const command = defineCommand({
  summary:
    "Connect a bank: each account is linked to the chart's bank or card account of its name or code, or made",
  options: {
    bank: text('--bank <name>', 'the bank', { required: true }),
    account: repeatable(
      '--account <name:kind>',
      "the chart's bank or card account (name or code), NAME:bank or NAME:credit_card (made where the chart has none), or a financial account id (repeatable)",
    ),
    direct: flag('--direct', 'a direct connection'),
    integration: negatable(
      '--no-integration',
      'not created by the integration (its events are not sent)',
    ),
  },
  examples: [
    'books sandbox feed connect --bank Chase --account "Chase Checking:bank" --account "Chase Sapphire:credit_card"',
    'books sandbox feed connect --bank Barclays --account 1000',
  ],
  async run(ctx, flags) {
    const { accounts, ...request } = parseConnect(flags);
    const entityId = await ctx.entityId();
    const api = await ctx.api();
    const chart = await api.accounts.all(entityId);
    const { connection } = await api.sandbox.connectBankFeed(entityId, {
      ...request,
      accounts: accountsToConnect(ctx, accounts, chart),
    });
    ctx.wrote(`connected ${connection.bankName}`);
    await showConnection(ctx, connection);
  },
});
