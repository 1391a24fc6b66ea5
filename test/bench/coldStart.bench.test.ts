import { spawnSync } from 'node:child_process';
import { it } from 'vitest';
import { BOOKS_BIN, temporaryHome } from '../helpers/cli.js';

function medianMs(args: string[], env: NodeJS.ProcessEnv, runs = 20): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Cold start of the CLI against `node -e 0`, median of 20 runs each, and of a whole command on
 * the embedded platform. Prints; asserts nothing.
 */
it('cold start of books --version and books --help', () => {
  const home = temporaryHome();
  try {
    const floor = medianMs(['-e', '0'], home.env);
    const version = medianMs([BOOKS_BIN, '--version'], home.env);
    const help = medianMs([BOOKS_BIN, '--help'], home.env);
    const workspaceHelp = medianMs([BOOKS_BIN, 'report', 'pl', '--help'], home.env);
    // A whole command on the embedded platform: open SQLite, build the app, one request.
    const embedded = medianMs([BOOKS_BIN, 'workspace', 'list'], home.env, 10);
    console.log(
      [
        `node -e 0                  ${floor.toFixed(1).padStart(7)} ms (the floor)`,
        `books --version            ${version.toFixed(1).padStart(7)} ms (+${(version - floor).toFixed(1)} ms)`,
        `books --help               ${help.toFixed(1).padStart(7)} ms (+${(help - floor).toFixed(1)} ms)`,
        `books report pl --help     ${workspaceHelp.toFixed(1).padStart(7)} ms (+${(workspaceHelp - floor).toFixed(1)} ms)`,
        'target: within 40 ms of the floor',
        `books workspace list       ${embedded.toFixed(1).padStart(7)} ms (embedded platform, median of 10)`,
      ].join('\n'),
    );
  } finally {
    home.cleanup();
  }
});
