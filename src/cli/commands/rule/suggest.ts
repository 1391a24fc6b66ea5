import { createHash } from 'node:crypto';
import { defineCommand, flag, text } from '../../command.js';
import { DATE_WORDS } from '../../../core/periods.js';
import { namesFiscalYear, parseDateRange } from '../../terminal/dates.js';
import { UsageError } from '../../exitCodes.js';

/** Account types on the money side of an entry: what a rule categorizes *from*, not *to*. */
const MONEY_TYPES = new Set(['Cash', 'Credit Cards']);

/** The held-out precision as a person reads it: `90.0% of 40`, or why there is none. */
const precisionText = (s: { precision: number | null; heldOut: number }) =>
  s.precision === null
    ? 'n/a (none held out)'
    : `${s.precision.toLocaleString('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })} of ${s.heldOut}`;

export const command = defineCommand({
  summary:
    "Propose rules from the entity's categorized history, each with its support, precision on held-out lines and examples",
  options: {
    from: text('--from <date>', 'first day of the history to learn from (default: all of it)', {
      choices: DATE_WORDS,
    }),
    to: text('--to <date>', 'last day, same forms', { choices: DATE_WORDS }),
    minSupport: text('--min-support <n>', 'propose only rules learned from at least N lines', {
      default: '3',
    }),
    apply: flag(
      '--apply',
      'create the proposed rules (keyed: running it again creates none twice)',
    ),
  },
  examples: [
    'books rule suggest',
    'books rule suggest --from last-year --to last-year --min-support 5 --json',
    'books rule suggest --apply',
  ],
  async run(ctx, flags) {
    const minSupport = Number(flags.minSupport);
    if (!Number.isInteger(minSupport) || minSupport < 2)
      throw new UsageError(`--min-support must be a whole number ≥ 2, not "${flags.minSupport}"`);
    let range = parseDateRange(flags, ctx.today());
    const [{ suggestRules }, { workspace, entity }] = await Promise.all([
      import('../../../core/ruleLearning.js'),
      ctx.chosenEntity(),
    ]);
    const api = await ctx.api();
    if (namesFiscalYear(flags))
      range = parseDateRange(flags, ctx.today(), await ctx.fiscalYearStart(entity.id));
    const [accounts, entries, existing] = await Promise.all([
      api.accounts.all(entity.id),
      api.journalEntries.all(entity.id, range),
      api.transactionRules.all(workspace.id),
    ]);
    const byId = new Map(accounts.map((a) => [a.id, a]));
    // What each categorized line says: its description (or its entry's memo) and its account,
    // on the other side of the money (bank and card accounts are what rules categorize from).
    const lines = entries.flatMap((entry) =>
      entry.lines.flatMap((line) => {
        const account = byId.get(line.accountId);
        const description = line.description?.trim() || entry.memo?.trim() || '';
        if (!account || description === '') return [];
        if (MONEY_TYPES.has(account.type) || account.financialAccountId !== null) return [];
        return [{ date: entry.dateOnly, description, accountId: line.accountId }];
      }),
    );
    const isRule = (contains: string, accountId: string) =>
      existing.some(
        (rule) =>
          rule.actions.some((a) => a.actionType === 'account_id' && a.value === accountId) &&
          rule.conditions.some(
            (c) =>
              c.conditionType === 'description_contains' &&
              c.value.some((v) => v.toLowerCase() === contains.toLowerCase()),
          ),
      );
    const suggestions = suggestRules(lines, { minSupport })
      .filter((s) => !isRule(s.contains, s.accountId))
      .map((s) => ({ ...s, account: byId.get(s.accountId)! }));
    ctx.output.note(
      `books: learned from ${lines.length} categorized line${lines.length === 1 ? '' : 's'}${range.startDate || range.endDate ? ` (${range.startDate ?? '…'} to ${range.endDate ?? '…'})` : ''}; precision measured on the latest 20% by date`,
    );

    const created: string[] = [];
    if (flags.apply) {
      for (const s of suggestions) {
        const key = `books-rule-suggest-${createHash('sha256')
          .update([workspace.id, entity.id, s.contains.toLowerCase(), s.accountId].join('\u0000'))
          .digest('hex')
          .slice(0, 40)}`;
        const { rule } = await api.transactionRules.create(
          workspace.id,
          {
            conditions: [{ conditionType: 'description_contains', value: [s.contains] }],
            actions: [{ actionType: 'account_id', value: s.accountId }],
            note: `suggested by books rule suggest: support ${s.support}, precision ${precisionText(s)}`,
          },
          key,
        );
        created.push(rule.id);
      }
      ctx.wrote(`created ${created.length} rule${created.length === 1 ? '' : 's'}`);
    }
    const json = suggestions.map((s, i) => ({
      contains: s.contains,
      accountId: s.accountId,
      accountCode: s.account.code,
      accountName: s.account.name,
      support: s.support,
      heldOut: s.heldOut,
      precision: s.precision,
      examples: s.examples,
      ...(flags.apply && { ruleId: created[i] }),
    }));
    await ctx.output.table(
      [
        { header: 'When description contains', value: (s) => s.contains },
        { header: 'Then account', value: (s) => `${s.accountCode} ${s.accountName}` },
        { header: 'Support', value: (s) => String(s.support), align: 'right' },
        { header: 'Precision', value: (s) => precisionText(s), align: 'right' },
        { header: 'Examples', value: (s) => s.examples.join('; ') },
        ...(flags.apply
          ? [{ header: 'Rule', value: (s: (typeof json)[number]) => s.ruleId ?? '' }]
          : []),
      ],
      json,
      { suggestions: json },
    );
  },
});
