import { CommanderError } from 'commander';
import type { ImportFailure } from '../migrate/import/errors.js';
import { ArgumentError, ExitCode, UserError } from './exitCodes.js';
import type { CliIo } from './io.js';

/** How an import's failures (src/migrate's ImportError) end the command. */
const EXIT_OF_IMPORT_FAILURE: Record<ImportFailure, ExitCode> = {
  'invalid-file': ExitCode.InvalidFile,
  usage: ExitCode.Usage,
  'part-way': ExitCode.Resumable,
  interrupted: ExitCode.Interrupted,
  refused: ExitCode.Refused,
};

/** The one place where failures become messages and exit codes. */
export async function reportError(error: unknown, io: CliIo, json: boolean): Promise<number> {
  const fail = (
    code: number,
    status: number | null,
    message: string,
    traceId: string | null = null,
    extra = '',
  ) => {
    if (json) io.stderr.write(`${JSON.stringify({ error: { status, message, traceId } })}\n`);
    else io.stderr.write(`books: ${message}${traceId ? ` (trace ${traceId})` : ''}\n${extra}`);
    return code;
  };
  const usageHint = json ? '' : '(run with --help for usage)\n';
  if (error instanceof CommanderError) {
    if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code))
      return ExitCode.Success;
    return fail(ExitCode.Usage, null, error.message.replace(/^error: /, ''), null, usageHint);
  }
  if (error instanceof ArgumentError)
    return fail(ExitCode.Usage, null, error.message, null, usageHint);
  if (error instanceof UserError) return fail(error.exitCode, null, error.message);
  // A database that cannot be used (read-only, damaged, locked, unreadable), or that is found
  // damaged as it is read (at start, or later), for `serve` and the embedded platform alike, is
  // the user's to fix: one line saying what, where, and what to run.
  const name = (error as Error)?.name;
  if (name === 'DatabaseUnavailable' || name === 'DatabaseDamaged') {
    return fail(ExitCode.Refused, null, (error as Error).message);
  }
  const { ImportError } = await import('../migrate/import/errors.js');
  if (error instanceof ImportError)
    return fail(EXIT_OF_IMPORT_FAILURE[error.failure], null, error.message);
  const { ApiError, NetworkError } = await import('../client/index.js');
  if (error instanceof ApiError) {
    const code =
      error.status === 401
        ? ExitCode.NotAuthenticated
        : error.status === 404
          ? ExitCode.NotFound
          : error.status === 429
            ? ExitCode.RateLimited
            : ExitCode.Refused;
    const blockers = error.blockers?.map((b) => `  - ${b.code}: ${b.message}\n`).join('') ?? '';
    // A write into a closed period: said as the lock it is, and that nothing was written.
    const lock =
      error.status === 409 ? /\block date (\d{4}-\d{2}-\d{2})\b/.exec(error.message) : null;
    const locked =
      lock && !json && blockers === ''
        ? `books: the books are locked through ${lock[1]} (books close locks them; books sandbox entity lock --date none reopens them): nothing was written\n`
        : '';
    // The accrual ledger read or written before it is opened: how to open it.
    const accrual =
      !json && /accrual ledger of (this|the) entity is not open/.test(error.message)
        ? 'books: open it with books sandbox entity open-accrual (once; the cash ledger stays as it is), or use --basis cash\n'
        : '';
    return fail(code, error.status, error.message, error.traceId, blockers + locked + accrual);
  }
  if (error instanceof NetworkError) return fail(ExitCode.Refused, null, error.message);
  if ((error as { name?: string })?.name === 'ExitPromptError')
    return fail(ExitCode.Interrupted, null, 'interrupted');
  io.stderr.write(
    `books: unexpected error (a bug, please report it):\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  return ExitCode.Refused;
}
