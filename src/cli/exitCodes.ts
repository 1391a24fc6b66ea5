/** The exit codes of `books` (cli.md, "Global behaviour"). */
export const ExitCode = {
  Success: 0,
  /** The API or the network refused. */
  Refused: 1,
  Usage: 2,
  /** An input file is invalid; nothing was sent. */
  InvalidFile: 3,
  NotAuthenticated: 4,
  NotFound: 5,
  RateLimited: 7,
  /** Interrupted part-way; running the same command again finishes the job. */
  Resumable: 9,
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure that is the user's to fix: printed as a clean message, never a stack. */
export class UserError extends Error {
  override name = 'UserError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.Refused,
  ) {
    super(message);
  }
}

export class UsageError extends UserError {
  override name = 'UsageError';
  constructor(message: string) {
    super(message, ExitCode.Usage);
  }
}

/** A command line missing a required argument or option: said as commander says its own. */
export class ArgumentError extends UsageError {
  override name = 'ArgumentError';
}

/**
 * An input file that cannot be opened (not there, not allowed, a directory): exit 3, as every
 * input file that cannot be used (cli.md), said the same way by every command.
 */
export function unreadableFile(file: string, error: unknown): UserError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory'
          : (code ?? (error as Error)?.message ?? String(error));
  return new UserError(`cannot read ${file}: ${why}`, ExitCode.InvalidFile);
}
