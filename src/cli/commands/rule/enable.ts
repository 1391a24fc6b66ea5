import { argument, defineCommand } from '../../command.js';
import { updateRule } from './shared.js';

export const command = defineCommand({
  summary: 'Enable a rule',
  arguments: { id: argument('the rule id', { names: 'rule' }) },
  examples: ['books rule enable 0192f3c4-…'],
  run: (ctx, { id }) => updateRule(ctx, id, {}, false),
});
