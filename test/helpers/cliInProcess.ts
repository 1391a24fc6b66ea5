import { PassThrough, Readable } from 'node:stream';
import type { ContextServices } from '../../src/cli/clock.js';
import { main } from '../../src/cli/main.js';

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `books` in this process with captured streams, as on a terminal (`tty`) or piped. */
export async function runCli(
  args: string[],
  options: {
    env: NodeJS.ProcessEnv;
    tty?: boolean;
    /** The terminal's width, when `tty`. */
    columns?: number;
    input?: string;
    services?: ContextServices;
  },
): Promise<InProcessResult> {
  const stdout = Object.assign(new PassThrough(), {
    isTTY: options.tty ?? false,
    ...(options.columns !== undefined && { columns: options.columns }),
  });
  const stderr = Object.assign(new PassThrough(), { isTTY: options.tty ?? false });
  const stdin = Object.assign(Readable.from(options.input === undefined ? [] : [options.input]), {
    isTTY: options.tty ?? false,
  });
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await main(
    args,
    {
      stdout,
      stderr,
      stdin,
      env: options.env,
      argv: args,
      stopSignal: new Promise(() => undefined),
    },
    options.services,
  );
  return { code, stdout: out, stderr: err };
}
