import { Command, CommanderError, Option } from 'commander';
import { createRequire } from 'node:module';
import { ExitCode, UserError } from './exitCodes.js';
import { processIo, type CliIo } from './io.js';

const require = createRequire(import.meta.url);
const { version } = require('../../package.json') as { version: string };

/**
 * Declares the command tree. Each action loads its command module only when it runs, so
 * `books --help` and `books --version` never load the platform, SQLite or undici.
 */
export function buildProgram(io: CliIo, setExitCode: (code: number) => void): Command {
  const program = new Command('books')
    .description('Keep the books of many clients from the terminal: ledgers, reports, migrations.')
    .version(version, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('serve')
    .description(
      'Serve the local platform over HTTP (the Platform API and the sandbox control plane)',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '4010')
    .addOption(
      new Option(
        '--db <file>',
        'SQLite database file (default: the local platform data file)',
      ).conflicts('memory'),
    )
    .option('--memory', 'keep everything in memory')
    .option('--admin-token <token>', 'admin token of the control plane (default: random)')
    .option('--org-token <token>', 'a token for the default organization (default: a fresh one)')
    .option('--rule-generation-delay <ms>', 'delay before rule generation runs', '2000')
    .option('--webhook-schedule <s1,s2,...>', 'seconds between webhook delivery attempts')
    .option('--rate-limit <n>', 'requests per second per organization; 0 disables', '100')
    .option(
      '--exec <command>',
      'run a command with BOOKS_BASE_URL and BOOKS_TOKEN set, then stop and exit with its status',
    )
    .addHelpText(
      'after',
      `
Examples:
  books serve --port 4010 --db ./books.sqlite
  books serve --memory --port 0 --exec "npm run integration-tests"`,
    )
    .action(async (flags) => {
      const { parseServeOptions, runServe } = await import('./commands/serve.js');
      setExitCode(await runServe(parseServeOptions(flags), io));
    });

  return program;
}

/** Runs `books` with the given argv (without node and script) and resolves with the exit code. */
export async function main(args: string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.Success;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportError(error, io);
  }
}

/** The one place where failures become messages and exit codes. */
function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
      return ExitCode.Success;
    }
    if (error.code === 'commander.help') return ExitCode.Success;
    return ExitCode.Usage;
  }
  if (error instanceof UserError) {
    io.stderr.write(`books: ${error.message}\n`);
    return error.exitCode;
  }
  io.stderr.write(
    `books: unexpected error (a bug, please report it):\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  return ExitCode.Refused;
}

/** The entry point of bin/books.js: the only place that ends the process. */
export async function run(): Promise<void> {
  const code = await main(process.argv.slice(2), processIo());
  process.exit(code);
}
