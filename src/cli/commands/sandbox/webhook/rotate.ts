import { argument, defineCommand } from '../../../command.js';

/** `sandbox webhook rotate ID`: the new secret; the previous one signs too for 24 hours. */
export const command = defineCommand({
  summary: 'Rotate the signing secret (the previous one signs too for 24 hours)',
  arguments: { endpoint: argument('the endpoint id') },
  examples: ['books sandbox webhook rotate 0192f3c4-…'],
  async run(ctx, { endpoint: id }) {
    const rotated = await (await ctx.api()).sandbox.rotateWebhookSecret(id);
    ctx.wrote(`organization: rotated the secret of webhook endpoint ${id}`);
    ctx.output.note('books: the previous secret keeps signing too for 24 hours');
    ctx.output.record([['secret', rotated.secret]], rotated);
  },
});
