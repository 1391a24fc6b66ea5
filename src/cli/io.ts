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
}

export function processIo(): CliIo {
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    argv: process.argv.slice(2),
    stopSignal,
  };
}
