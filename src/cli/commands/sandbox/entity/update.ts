import { argument, defineCommand, text } from '../../../command.js';
import { parseUpdate, updateEntity } from './shared.js';

export const command = defineCommand({
  summary: 'Rename an entity or change its dates or its fiscal year',
  arguments: {
    entity: argument('by id or name (else --entity or the profile)', { optional: true }),
  },
  options: {
    name: text('--name <name>', 'the new name'),
    startDate: text('--start-date <date>', 'bookkeeping start date, or none'),
    lockDate: text('--lock-date <date>', 'lock date, or none'),
    fiscalYearStart: text(
      '--fiscal-year-start <MM-DD>',
      'the first day of its fiscal year (01-01 a calendar year)',
    ),
  },
  examples: [
    'books sandbox entity update --name "Main St Bakery" --start-date 2026-01-01',
    'books sandbox entity update "Thames Lettings Ltd" --fiscal-year-start 04-01',
  ],
  run: (ctx, { entity, ...flags }) => updateEntity(ctx, entity, parseUpdate(flags)),
});
