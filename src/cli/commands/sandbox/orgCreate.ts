import type { CommandContext } from '../../context.js';

/** Creates an organization (admin token): the token is shown once, on stdout, for scripts. */
export async function run(ctx: CommandContext, name: string): Promise<void> {
  const result = await (await ctx.api()).sandbox.createOrganization(name);
  ctx.wrote(`created organization "${result.organization.name}" (${result.organization.id})`);
  ctx.output.record(
    [
      ['id', result.organization.id],
      ['name', result.organization.name],
      ['token', result.token],
    ],
    result,
  );
}
