import type { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import type { CliIo } from '../io.js';

/**
 * Node's child_process, loaded when a pager is looked for or started: every command imports
 * this module, and most print to no terminal (a few milliseconds of each start otherwise).
 */
const childProcess = () => process.getBuiltinModule('node:child_process');

/**
 * Long output at a terminal goes through a pager, as git's does: `BOOKS_PAGER`, else `books
 * config set pager`, else `PAGER`, else `less -FRX` (which shows a short output and quits, keeps
 * colors and leaves the screen as it was). Never when stdout is not a terminal, never with
 * `--no-pager`; `never`, `cat` or an empty pager mean none. The pager is started at the first
 * write to stdout, so that nothing asked before it (a prompt on stderr) shares the terminal with
 * it; quitting it early (`q`, or `head -5` reading its fill) ends the command quietly, exit 0.
 */

export const DEFAULT_PAGER = 'less -FRX';

/** The pager command for this environment and config, or undefined for none. */
export function pagerCommand(
  env: NodeJS.ProcessEnv,
  configured: string | undefined,
): string | undefined {
  const command = (env.BOOKS_PAGER ?? configured ?? env.PAGER ?? DEFAULT_PAGER).trim();
  if (command === '' || command === 'cat' || command === 'never') return undefined;
  // The default only where less is installed; a pager the user named is run as named.
  if (command === DEFAULT_PAGER && !onPath('less', env)) return undefined;
  return command;
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return (
    childProcess().spawnSync('sh', ['-c', `command -v ${program}`], { env, stdio: 'ignore' })
      .status === 0
  );
}

/** A write after the pager has quit: the command stops there, quietly (exit 0). */
export class PagerClosed extends Error {
  override name = 'PagerClosed';
  constructor() {
    super('the pager was closed');
  }
}

/**
 * Stdout through a pager: a stream that starts `command` at its first write and hands it what
 * is written, as the terminal it stands for (its width, `isTTY`). Writes after the pager quit
 * throw PagerClosed.
 */
class PagerStream extends Writable {
  readonly isTTY = true;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private pagerGone = false;

  constructor(
    private readonly command: string,
    private readonly terminal: CliIo['stdout'] & { columns?: number },
    private readonly env: NodeJS.ProcessEnv,
  ) {
    super();
  }

  get columns(): number | undefined {
    return this.terminal.columns;
  }

  private start(): ChildProcess {
    // Run through the shell as git does, so that a pager with arguments or a pipe works.
    const child = childProcess().spawn(this.command, {
      shell: true,
      stdio: ['pipe', 'inherit', 'inherit'],
      env: { LESS: 'FRX', LV: '-c', ...this.env },
    });
    child.stdin!.on('error', () => (this.pagerGone = true));
    this.exited = new Promise((resolve) => {
      child.once('error', () => resolve());
      child.once('close', () => resolve());
    });
    void this.exited.then(() => (this.pagerGone = true));
    this.child = child;
    return child;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    if (this.pagerGone) return done();
    const child = this.child ?? this.start();
    child.stdin!.write(chunk, () => done());
  }

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    if (this.pagerGone) throw new PagerClosed();
    return super.write(chunk as string, ...(rest as [BufferEncoding]));
  }

  /** Ends the pager's input and waits until the person has quit it. */
  async finish(): Promise<void> {
    if (!this.child) return;
    await new Promise<void>((resolve) => this.end(() => resolve()));
    this.child.stdin!.end();
    await this.exited;
  }
}

/** This command's io with stdout through a pager, and how to end it once the command is done. */
export function pagedIo(io: CliIo, command: string): { io: CliIo; finish: () => Promise<void> } {
  const stdout = new PagerStream(command, io.stdout, io.env);
  return { io: { ...io, stdout }, finish: () => stdout.finish() };
}
