import { existsSync } from 'node:fs';
import type { AnyCommand } from './command.js';
import type { ContextServices } from './clock.js';
import type { GlobalOptions } from './context.js';
import { processIo, type CliIo } from './io.js';
import { booksVersion } from './version.js';

/** `books help coa list` is `books coa list --help`. */
function helpAsFlag(args: string[]): string[] {
  return args[0] === 'help' ? [...args.slice(1), '--help'] : args;
}

/**
 * Runs `books` with the given argv (without node and script) and resolves with the exit code.
 * The tree comes from the registry (registry.ts); each leaf's module is loaded only when it
 * runs or its group's help is shown.
 */
export async function main(
  given: string[],
  io: CliIo,
  services?: ContextServices,
): Promise<number> {
  // Nothing else is loaded for the version: scripts ask for it, and should not wait.
  if (given[0] === '--version' || given[0] === '-V') {
    io.stdout.write(`${booksVersion()}\n`);
    return 0;
  }
  // Asked by the shell at every Tab: nothing else is loaded, and nothing fails out loud.
  if (given[0] === '__complete') {
    const { completeForShell } = await import('./completion/forShell.js');
    io.stdout.write(await completeForShell(given.slice(1), io));
    return 0;
  }
  const args = helpAsFlag(given);
  const [{ requestedFormat }, { buildProgram }, { ExitCode }] = await Promise.all([
    import('./terminal/output.js'),
    import('./program.js'),
    import('./exitCodes.js'),
  ]);
  const json = requestedFormat(args) === 'json';
  let exitCode: number = ExitCode.Success;
  const run = async (leaf: AnyCommand, input: Record<string, unknown>, options: GlobalOptions) => {
    const { CommandContext } = await import('./context.js');
    const pager = leaf.paged ? await pagerFor(io, options) : undefined;
    const ctx = new CommandContext(pager?.io ?? io, options, services);
    try {
      shiftFileGivenFirst(leaf, input);
      for (const missing of missingInput(leaf, input)) {
        const answer = await ctx.prompts.input(missing.question, missing.usage);
        input[missing.key] = leaf.arguments?.[missing.key]?.variadic ? [answer] : answer;
      }
      const code = await leaf.run(ctx, input);
      if (typeof code === 'number') exitCode = code;
    } finally {
      await ctx.close();
      await pager?.finish();
    }
  };
  try {
    const program = await buildProgram(io, args, booksVersion(), run);
    if (args.length === 0) {
      program.outputHelp();
      return ExitCode.Usage;
    }
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    // The person quit the pager, or the reader of a pipe stopped reading (`| head -1`), before
    // the output ended: what they wanted, not a failure.
    const name = (error as Error)?.name;
    if (name === 'PagerClosed' || name === 'OutputClosed') return exitCode;
    const { reportError } = await import('./failures.js');
    return reportError(error, io, json);
  }
}

/**
 * `transactions import november.csv`: the one argument given is a file, where the command
 * takes something else first (the account) and files after: it is taken as the file, so that
 * what is missing is what was left out (asked for on a terminal; else said by its name).
 */
function shiftFileGivenFirst(leaf: AnyCommand, input: Record<string, unknown>): void {
  const specs = Object.entries(leaf.arguments ?? {});
  const last = specs.at(-1);
  if (!last || specs.length < 2 || last[1].names !== 'file' || !last[1].variadic) return;
  const files = input[last[0]];
  if (Array.isArray(files) && files.length > 0) return;
  const given = specs
    .slice(0, -1)
    .map(([key]) => key)
    .filter((key) => typeof input[key] === 'string');
  if (given.length !== 1 || specs.length !== 2) return;
  const value = input[given[0]!] as string;
  if (specs[0]![1].names === 'file' || !existsSync(value)) return;
  input[last[0]] = [value];
  input[given[0]!] = undefined;
}

/** Whether the command line gave the files a command takes (its last, variadic argument). */
const filesGiven = (leaf: AnyCommand, input: Record<string, unknown>) =>
  Object.entries(leaf.arguments ?? {}).some(
    ([key, spec]) =>
      spec.names === 'file' && Array.isArray(input[key]) && (input[key] as unknown[]).length > 0,
  );

/**
 * The required arguments and options a command line left out, in order, each with the question
 * asked for it on a terminal and the usage error without one (commander's own words).
 */
function missingInput(
  leaf: AnyCommand,
  input: Record<string, unknown>,
): { key: string; question: string; usage: string }[] {
  const absent = (key: string) =>
    input[key] === undefined ||
    input[key] === '' ||
    (Array.isArray(input[key]) && (input[key] as unknown[]).length === 0);
  const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return [
    ...Object.entries(leaf.arguments ?? {})
      .filter(([key, spec]) => !spec.optional && absent(key))
      .map(([key, spec]) => ({
        key,
        // "the journal entry id" reads as a question; "by id or name" needs its name first.
        question:
          spec.ask ??
          (spec.description.startsWith('the ')
            ? sentence(spec.description)
            : `${sentence(kebab(key).replace(/-/g, ' '))} (${spec.description})`),
        usage: filesGiven(leaf, input)
          ? `missing the ${kebab(key).replace(/-/g, ' ')} (${spec.description}): it comes before the files`
          : `missing required argument '${kebab(key)}'`,
      })),
    ...Object.entries(leaf.options ?? {})
      .filter(([key, spec]) => spec.type === 'string' && spec.required && absent(key))
      .map(([key, spec]) => ({
        key,
        question: `${sentence(spec.description)} (${spec.flags.split(' ')[0]})`,
        usage: `required option '${spec.flags}' not specified`,
      })),
  ];
}

/**
 * Stdout through the pager, when it is this process's terminal (the pager writes to it
 * directly) and a pager is wanted (pager.ts).
 */
async function pagerFor(io: CliIo, options: GlobalOptions) {
  if (options.pager === false || !io.processStdout || !io.stdout.isTTY) return undefined;
  const [{ pagerCommand, pagedIo }, { savedOutputSettings }] = await Promise.all([
    import('./terminal/pager.js'),
    import('./config/profiles.js'),
  ]);
  const command = pagerCommand(io.env, savedOutputSettings(io.env).pager);
  return command === undefined ? undefined : pagedIo(io, command);
}

/** The entry point of bin/books.cjs: the only place that ends the process. */
export async function run(): Promise<void> {
  const code = await main(process.argv.slice(2), processIo());
  // A pipe's writes may still be queued: exiting now would cut a script's data short. (A pipe
  // whose reader has gone answers at once.)
  const drained = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || !stream.writable) return resolve();
      try {
        stream.write('', () => resolve());
      } catch {
        resolve();
      }
    });
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
