import { defineCommand, listOptions } from '../command.js';

export const command = defineCommand({
  summary: 'The local audit log of requests (method, path, status, trace, idempotency key)',
  options: listOptions('every request (the latest come last)'),
  paged: true,
  examples: ['books log', 'books log --limit 100 --json'],
  async run(ctx, flags) {
    const records = ctx.audit.read(ctx.output.listLimit(flags));
    await ctx.output.list(
      [
        { header: 'At', value: (r) => r.at },
        { header: 'Method', value: (r) => r.method },
        { header: 'Path', value: (r) => r.path },
        { header: 'Status', value: (r) => String(r.status ?? 'network error') },
        { header: 'Trace', value: (r) => r.traceId ?? '' },
        { header: 'Idempotency key', value: (r) => r.idempotencyKey ?? '' },
      ],
      records,
    );
  },
});
