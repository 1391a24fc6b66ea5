import { defineCommand } from '../../command.js';
import { runStatement, statementExamples, statementOptions } from './shared.js';

export const command = defineCommand({
  summary: 'Trial balance',
  options: statementOptions,
  paged: true,
  examples: statementExamples('tb'),
  run: (ctx, flags) => runStatement(ctx, 'tb', flags),
});
