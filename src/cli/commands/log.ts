import { defineCommand, text } from '../command.js';
import { UsageError } from '../exitCodes.js';

export const command = defineCommand({
  summary: 'The local audit log of requests (method, path, status, trace, idempotency key)',
  options: { limit: text('--limit <n>', 'how many, most recent last', { default: '20' }) },
  examples: ['books log', 'books log --limit 100 --json'],
  async run(ctx, flags) {
    const limit = Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError('--limit must be a whole number ≥ 1');
    const records = ctx.audit.read(limit);
    await ctx.output.table(
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
