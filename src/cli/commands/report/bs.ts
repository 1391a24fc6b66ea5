import { defineCommand } from '../../command.js';
import { runStatement, statementExamples, statementOptions } from './shared.js';

export const command = defineCommand({
  summary: 'Balance sheet',
  options: statementOptions,
  paged: true,
  examples: statementExamples('bs'),
  run: (ctx, flags) => runStatement(ctx, 'bs', flags),
});
