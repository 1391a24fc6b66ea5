import { argument, defineCommand } from '../../../command.js';
import { showConnection } from './shared.js';

export const command = defineCommand({
  summary: 'Reconnect a broken connection',
  arguments: { connection: argument('the connection id') },
  examples: ['books sandbox feed reconnect 0192f3c4-…'],
  async run(ctx, { connection: id }) {
    const { connection } = await (await ctx.api()).sandbox.reconnect(id);
    ctx.wrote(`connection ${id} is ${connection.status}`);
    await showConnection(ctx, connection);
  },
});
