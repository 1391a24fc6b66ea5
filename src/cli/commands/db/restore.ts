import { existsSync } from 'node:fs';
import { argument, defineCommand, text } from '../../command.js';
import { ExitCode, unreadableFile, UsageError } from '../../exitCodes.js';
import { chosenDatabase, isPostgresUrl } from '../../config/paths.js';
import { progressMode, progressOptions } from '../../terminal/progress.js';
import { copiedBooksFailure, fileStamp, copyProgress, sizeOf } from './shared.js';

/**
 * `books db restore SRC`: a backup put in place of the local platform's file or a `books serve`
 * file. The backup is checked first; the target must not be open in another process (a running
 * `books serve`); asked before anything is replaced (or `--yes`); the replaced file is kept beside
 * it as `FILE.replaced-YYYYMMDD-HHMMSS`.
 */
export const command = defineCommand({
  summary: 'Put a backup in place of a SQLite database of books, keeping the one replaced',
  arguments: { backup: argument('the backup file (books db backup)') },
  options: {
    db: text(
      '--db <file>',
      'the SQLite file replaced (default: BOOKS_DATABASE_URL, else the local platform)',
    ),
    ...progressOptions,
  },
  examples: [
    'books db restore ~/backups/books-20261125-093000.sqlite',
    'books db restore backup.sqlite --db /srv/books/books.sqlite --yes',
  ],
  async run(ctx, { backup, db, ...modes }) {
    const target = chosenDatabase(ctx.io.env, db);
    if (isPostgresUrl(target)) {
      throw new UsageError(
        'a PostgreSQL database is restored with pg_restore from pg_dump --format=custom (the README says how); books db restore replaces a SQLite file',
      );
    }
    // A backup that is not there is an input file that cannot be used (exit 3), as every command's.
    if (!existsSync(backup)) throw unreadableFile(backup, { code: 'ENOENT' });
    const { restoreBooks } = await import('../../../platform/databases.js');
    const keptAs = `${target}.replaced-${fileStamp(ctx.clock.now())}`;
    const progress = copyProgress(ctx, progressMode(modes), 'restoring');
    let restored;
    try {
      restored = await restoreBooks(
        backup,
        target,
        keptAs,
        async () => {
          progress.end();
          await ctx.prompts.confirmDestructive(
            `Replace ${target} with ${backup}? (the file replaced is kept as ${keptAs})`,
          );
        },
        progress.progress,
      );
    } catch (error) {
      throw copiedBooksFailure(ctx, error);
    } finally {
      progress.end();
    }
    const counts = restored.check.checked;
    ctx.output.note(
      `books: restored ${backup} to ${target} (checked: ${counts ? `${counts.postings.toLocaleString('en-US')} postings, ` : ''}no problems)${restored.kept ? `; the file replaced is ${restored.kept}` : ''}`,
    );
    ctx.output.record(
      [
        ['Restored', restored.file],
        ['From', backup],
        ['Size', sizeOf(restored.bytes)],
        ['Replaced file kept as', restored.kept ?? ''],
      ],
      { restored: restored.file, from: backup, bytes: restored.bytes, kept: restored.kept ?? null },
    );
    return ExitCode.Success;
  },
});
