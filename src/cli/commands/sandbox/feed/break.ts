import { CONNECTION_ERROR_CODES } from '../../../../api/index.js';
import { argument, defineCommand, text } from '../../../command.js';
import { UsageError } from '../../../exitCodes.js';
import { showConnection } from './shared.js';

export const command = defineCommand({
  summary: 'Break a syncing connection (feed.connection.disconnected is recorded once)',
  arguments: { connection: argument('the connection id') },
  options: {
    error: text('--error <code>', 'disconnected or mfa_required', {
      default: 'disconnected',
      choices: ['disconnected', 'mfa_required'],
    }),
  },
  examples: ['books sandbox feed break 0192f3c4-… --error mfa_required'],
  async run(ctx, { connection: id, error }) {
    if (!(CONNECTION_ERROR_CODES as readonly string[]).includes(error)) {
      throw new UsageError(`--error must be one of ${CONNECTION_ERROR_CODES.join(', ')}`);
    }
    const { connection } = await (
      await ctx.api()
    ).sandbox.breakConnection(id, { errorCode: error as 'disconnected' });
    ctx.wrote(`connection ${id} is ${connection.status}`);
    await showConnection(ctx, connection);
  },
});
