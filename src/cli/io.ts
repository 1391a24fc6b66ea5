/** What a command may touch of the outside world; injected so that tests can run in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The arguments the command was run with (without node and the script). */
  argv: string[];
  /** Resolves when the user or the system asks the process to stop (SIGINT/SIGTERM). */
  stopSignal: Promise<NodeJS.Signals>;
  /** Stdout is this process's own (a pager may take it over when it is a terminal). */
  processStdout?: true;
}

/**
 * A write to stdout after its reader has gone (`books je list --all | head -1`): the command
 * stops there, quietly, as git does — no further pages fetched, exit 0, nothing on stderr.
 */
export class OutputClosed extends Error {
  override name = 'OutputClosed';
  constructor() {
    super('standard output was closed by its reader');
  }
}

/**
 * Process stdout, guarded: Node reports a reader that closed the pipe (EPIPE) as an 'error'
 * event after the write, which unheard would end the process with a stack trace; heard, the
 * next write throws OutputClosed instead. Any other error of stdout (a full disk under a
 * redirection) is thrown at the next write, to be reported.
 */
function guardedStdout(stdout: NodeJS.WriteStream): CliIo['stdout'] {
  let failure: Error | undefined;
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    failure ??= error.code === 'EPIPE' ? new OutputClosed() : error;
  });
  const write = stdout.write.bind(stdout);
  return Object.assign(stdout, {
    write: ((...args: Parameters<typeof stdout.write>) => {
      if (failure) throw failure;
      return write(...args);
    }) as typeof stdout.write,
  });
}

export function processIo(): CliIo {
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  return {
    stdout: guardedStdout(process.stdout),
    processStdout: true,
    stderr: process.stderr,
    // Made when first read: Node builds stdin's stream (a socket for a pipe) on first use, and
    // only a few commands read it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    argv: process.argv.slice(2),
    stopSignal,
  };
}
