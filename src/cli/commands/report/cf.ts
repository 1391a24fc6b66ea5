import { defineCommand } from '../../command.js';
import { runStatement, statementExamples, statementOptions } from './shared.js';

export const command = defineCommand({
  summary: 'Cash flow (indirect method)',
  options: statementOptions,
  paged: true,
  examples: statementExamples('cf'),
  run: (ctx, flags) => runStatement(ctx, 'cf', flags),
});
