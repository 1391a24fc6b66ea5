import { argument, defineCommand, text } from '../../command.js';
import { ExitCode, UsageError } from '../../exitCodes.js';
import { chosenDatabase, isPostgresUrl } from '../../config/paths.js';
import { progressMode, progressOptions } from '../../terminal/progress.js';
import { backupFile, copiedBooksFailure, copyProgress, sizeOf } from './shared.js';

/**
 * `books db backup DEST`: SQLite's online backup of the local platform's file or a `books serve`
 * file, consistent while another process goes on writing: the books as they were when the backup
 * began, checked (the database's own check and the ledger's invariants) before it is called done.
 * A PostgreSQL database is backed up with pg_dump (README).
 */
export const command = defineCommand({
  summary: 'Back up a live SQLite database of books to a file, checked before it is kept',
  arguments: { destination: argument('a new file, or a directory to put a dated file in') },
  options: {
    db: text(
      '--db <file>',
      'the SQLite file (default: BOOKS_DATABASE_URL, else the local platform)',
    ),
    ...progressOptions,
  },
  examples: [
    'books db backup ~/backups/',
    'books db backup /srv/backups/books-2026-11-25.sqlite --db /srv/books/books.sqlite',
  ],
  async run(ctx, { destination, db, ...modes }) {
    const source = chosenDatabase(ctx.io.env, db);
    if (isPostgresUrl(source)) {
      throw new UsageError(
        'a PostgreSQL database is backed up with pg_dump --format=custom, and restored with pg_restore (the README says how); books db backup copies a SQLite file',
      );
    }
    const file = backupFile(destination, ctx.clock.now());
    const { backupBooks } = await import('../../../platform/databases.js');
    const started = ctx.clock.now().getTime();
    const progress = copyProgress(ctx, progressMode(modes), 'backing up');
    let copied;
    try {
      copied = await backupBooks(source, file, progress.progress);
    } catch (error) {
      throw copiedBooksFailure(ctx, error);
    } finally {
      progress.end();
    }
    const counts = copied.check.checked;
    ctx.output.note(
      `books: backed up ${source} to ${file} and checked it: ${counts ? `${counts.postings.toLocaleString('en-US')} postings, ` : ''}no problems (${((ctx.clock.now().getTime() - started) / 1000).toFixed(1)} s)`,
    );
    ctx.output.record(
      [
        ['Backup', copied.file],
        ['Size', sizeOf(copied.bytes)],
        ['Postings', counts ? counts.postings.toLocaleString('en-US') : ''],
        ['Journal entries', counts ? counts.journalEntries.toLocaleString('en-US') : ''],
      ],
      { backup: copied.file, bytes: copied.bytes, checked: counts },
    );
    return ExitCode.Success;
  },
});
