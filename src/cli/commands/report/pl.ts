import { defineCommand } from '../../command.js';
import { runStatement, statementExamples, statementOptions } from './shared.js';

export const command = defineCommand({
  summary: 'Profit and loss',
  options: statementOptions,
  paged: true,
  examples: statementExamples('pl'),
  run: (ctx, flags) => runStatement(ctx, 'pl', flags),
});
