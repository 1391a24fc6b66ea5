import { argument, defineCommand, text } from '../../../command.js';
import { parseUpdate, updateEntity } from './shared.js';

export const command = defineCommand({
  summary: 'Close the books up to and including a date',
  arguments: {
    entity: argument('by id or name (else --entity or the profile)', { optional: true }),
  },
  options: {
    date: text('--date <date>', 'the lock date (YYYY-MM-DD), or none to unlock', {
      required: true,
    }),
  },
  examples: [
    'books sandbox entity lock --date 2026-03-31',
    'books sandbox entity lock --date none',
  ],
  run: (ctx, { entity, date }) =>
    updateEntity(ctx, entity, parseUpdate({ lockDate: date }, '--date')),
});
