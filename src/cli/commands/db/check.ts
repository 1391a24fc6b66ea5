import { defineCommand, text } from '../../command.js';
import { ExitCode } from '../../exitCodes.js';
import { chosenDatabase, isPostgresUrl } from '../../config/paths.js';
import { progressMode, progressOptions } from '../../terminal/progress.js';
import { checkProgress } from './shared.js';

/**
 * `books db check`: the database's own integrity check and the ledger's invariants, on the local
 * platform's file, a `books serve` file, or a PostgreSQL database. Problems are listed with the
 * ids that find them; exit 1 when there are any.
 */
export const command = defineCommand({
  summary:
    "Check a database's integrity and the ledger's invariants (entries balance, daily sums, accounts, idempotency records)",
  options: {
    db: text(
      '--db <file|url>',
      'a SQLite file or postgres://… (default: BOOKS_DATABASE_URL, else the local platform)',
    ),
    ...progressOptions,
  },
  examples: [
    'books db check',
    'books db check --db /srv/books/books.sqlite',
    'books db check --db postgres://books:secret@db.internal/books',
  ],
  async run(ctx, { db, ...modes }) {
    const location = chosenDatabase(ctx.io.env, db);
    const { checkBooks } = await import('../../../platform/databases.js');
    const started = ctx.clock.now().getTime();
    const named = isPostgresUrl(location)
      ? (await import('../../../platform/store/postgres/backend.js')).describePostgresUrl(location)
      : location;
    const progress = checkProgress(ctx, progressMode(modes), named);
    let report;
    try {
      report = await checkBooks(location, progress.checking);
    } finally {
      progress.end();
    }
    const seconds = ((ctx.clock.now().getTime() - started) / 1000).toFixed(1);
    const counted = report.checked
      ? `${report.checked.postings.toLocaleString('en-US')} postings of ${report.checked.journalEntries.toLocaleString('en-US')} journal entries and the rest, ${report.checked.dailySums.toLocaleString('en-US')} daily sums, ${plural(report.checked.idempotencyRecords, 'idempotency record')}`
      : 'what could be read';
    ctx.output.note(
      `books: checked ${report.database} (${report.integrityCheck}; ${counted}) in ${seconds} s`,
    );
    const found = report.problems.length + report.unlisted;
    if (ctx.output.json) {
      ctx.output.printJson(report);
    } else if (found > 0) {
      await ctx.output.table(
        [
          { header: 'Problem', value: (p) => p.kind },
          { header: 'ID', value: (p) => p.id },
          { header: 'What', value: (p) => p.message },
        ],
        report.problems,
      );
    }
    if (found === 0) {
      ctx.output.note('books: no problems found');
      return ExitCode.Success;
    }
    ctx.output.note(
      `books: ${found} problem${found === 1 ? '' : 's'} found${report.unlisted > 0 ? ` (${report.unlisted} not listed)` : ''}: restore a backup taken before them (books db restore), or ask for help with the ids above`,
    );
    return ExitCode.Refused;
  },
});

const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
