import { defineCommand, text } from '../../command.js';
import { ExitCode, UsageError, UserError } from '../../exitCodes.js';
import { isPostgresUrl } from '../../config/paths.js';

export const command = defineCommand({
  summary:
    "Copy a firm's books from a SQLite file into an empty PostgreSQL database, then check them",
  options: {
    from: text(
      '--from <file>',
      'the SQLite file (`books serve --db FILE`, or the local platform)',
      {
        required: true,
      },
    ),
    to: text('--to <url>', 'postgres://USER:PASSWORD@HOST:PORT/DATABASE, empty', {
      required: true,
    }),
  },
  examples: [
    'books db copy --from ~/.local/share/books/platform.sqlite --to postgres://books:secret@db.internal/books',
  ],
  async run(ctx, { from, to }) {
    if (!isPostgresUrl(to)) {
      throw new UsageError(
        '--to must be a PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE)',
      );
    }
    const { copyBooks, CopyDisagrees, TargetNotEmpty } =
      await import('../../../platform/databases.js');
    const started = ctx.clock.now().getTime();
    let report;
    try {
      report = await copyBooks(from, to, ({ table, rows }) =>
        ctx.output.note(`books: copied ${table}: ${rows.toLocaleString('en-US')} rows`),
      );
    } catch (error) {
      if (error instanceof TargetNotEmpty || error instanceof CopyDisagrees) {
        throw new UserError(error.message, ExitCode.Refused);
      }
      throw error;
    }
    const entities = new Set(report.trialBalances.map((t) => t.entityId)).size;
    ctx.output.note(
      `books: checked every table's row count, and the trial balances of ${report.trialBalances.length} ledgers of ${entities} entities: the same on both sides (${((ctx.clock.now().getTime() - started) / 1000).toFixed(1)} s)`,
    );
    ctx.output.record(
      [
        ['Copied into', report.target],
        ['Tables', String(report.tables.length)],
        ['Rows', report.tables.reduce((n, t) => n + t.rows, 0).toLocaleString('en-US')],
        ['Trial balances checked', String(report.trialBalances.length)],
      ],
      report,
    );
  },
});
