import { argument, defineCommand } from '../../../command.js';

/** Creates an organization (admin token): the token is shown once, on stdout, for scripts. */
export const command = defineCommand({
  summary: 'Create an organization (a firm, which owns a workspace per client) and print its token',
  arguments: { name: argument('the organization name') },
  examples: ['books sandbox org create "Ledger & Co" --token "$ADMIN_TOKEN"'],
  async run(ctx, { name }) {
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
  },
});
