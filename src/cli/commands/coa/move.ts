import { argument, defineCommand, text } from '../../command.js';
import { UsageError } from '../../exitCodes.js';
import { printAccount } from './shared.js';

export const command = defineCommand({
  summary: 'Put an account in a group, or take it out',
  arguments: { account: argument('by id, code or name') },
  options: {
    group: text('--group <group>', 'the group (by id or name)'),
    // `--no-group` sets `group` to false: declared with the option it negates.
    noGroup: { type: 'boolean', flags: '--no-group', description: 'out of any group' },
  },
  examples: ['books coa move 1000 --group Banks', 'books coa move 1000 --no-group'],
  async run(ctx, { account: given, group: groupFlag }) {
    const chosen = groupFlag as string | boolean | undefined;
    if (chosen === undefined) throw new UsageError('pass --group G or --no-group');
    const entityId = await ctx.entityId();
    const group = chosen === false ? null : await ctx.group(entityId, String(chosen));
    const { account } = await (
      await ctx.api()
    ).accounts.update(entityId, await ctx.accountId(entityId, given), {
      groupId: group?.id ?? null,
    });
    ctx.wrote(
      `moved account ${account.code} ${account.name} ${group ? `into group "${group.name}"` : 'out of its group'}`,
    );
    await printAccount(ctx, entityId, account, group ? { groupName: group.name } : {});
  },
});
