import type { CommandContext } from '../../context.js';
import { accountFields } from './shared.js';

/** Merges SOURCE into TARGET; a blocked merge prints each blocker (the error handler does). */
export async function mergeAccounts(
  ctx: CommandContext,
  source: string,
  target: string,
): Promise<void> {
  const entityId = await ctx.entityId();
  const sourceAccountId = await ctx.accountId(entityId, source);
  const targetAccountId = await ctx.accountId(entityId, target);
  await ctx.prompts.confirmDestructive(
    `Merge ${source} into ${target}? ${source} is deleted afterwards.`,
  );
  const { account } = await (
    await ctx.api()
  ).accounts.merge(entityId, { sourceAccountId, targetAccountId });
  ctx.wrote(`merged ${source} into ${account.code} ${account.name}`);
  ctx.output.record(accountFields(account), { account });
}
