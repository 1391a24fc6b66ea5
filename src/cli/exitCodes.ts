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
