import { defineCommand, flag } from '../../command.js';

/**
 * `rule apply`: the workspace's rules run on the bank transactions that wait (the spec's rules
 * touch only transactions that arrive after them; this is the bookkeeper's "run the rules
 * again"), saying what each rule took. `--dry-run` says it and decides nothing.
 */
export const command = defineCommand({
  summary: "Run the workspace's rules on the bank transactions that wait; say what each rule took",
  options: {
    dryRun: flag('--dry-run', 'say what each rule would take, decide nothing'),
  },
  examples: ['books rule apply --dry-run', 'books rule apply --json'],
  async run(ctx, flags) {
    const workspaceId = await ctx.workspaceId();
    const api = await ctx.api();
    const rules = new Map((await api.transactionRules.all(workspaceId)).map((r) => [r.id, r]));
    const applied = await api.sandbox.applyRules(workspaceId, { dryRun: Boolean(flags.dryRun) });
    const said = `${applied.dryRun ? 'would take' : 'took'} ${applied.categorized} of the ${applied.waiting} waiting ${applied.waiting === 1 ? 'transaction' : 'transactions'}`;
    if (applied.dryRun) ctx.output.note(`books: the rules ${said} (dry run: nothing is decided)`);
    else ctx.wrote(`the rules ${said}`);
    await ctx.output.table(
      [
        { header: 'Rule', value: (r) => r.ruleId },
        {
          header: 'When',
          value: (r) =>
            rules
              .get(r.ruleId)
              ?.conditions.map((c) => `${c.conditionType} ${c.value.join(' | ')}`)
              .join(' and ') ?? '(made by the accounting migration)',
        },
        {
          header: applied.dryRun ? 'Would take' : 'Took',
          value: (r) => String(r.categorized),
          align: 'right',
        },
      ],
      applied.rules,
      applied,
    );
  },
});
