import { argument, defineCommand } from '../../command.js';
import { updateRule } from './shared.js';

export const command = defineCommand({
  summary: 'Disable a rule (it is kept)',
  arguments: { id: argument('the rule id', { names: 'rule' }) },
  examples: ['books rule disable 0192f3c4-…'],
  run: (ctx, { id }) => updateRule(ctx, id, {}, true),
});
