import { argument, defineCommand, flag } from '../../command.js';
import { ruleOptions, updateRule } from './shared.js';

export const command = defineCommand({
  summary: 'Change a rule (conditions and actions replace the whole set)',
  arguments: { id: argument('the rule id', { names: 'rule' }) },
  options: { ...ruleOptions, clearNote: flag('--clear-note', 'remove the note') },
  examples: ['books rule update 0192f3c4-… --when amount_greater_than=100 --clear-note'],
  run: (ctx, { id, ...flags }) => updateRule(ctx, id, flags),
});
