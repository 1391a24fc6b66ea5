import { serveFlagsFor } from './backend.js';
import { spawnBooks, type RunningCli } from './cli.js';

/**
 * One round of a crash sweep: `concurrency` workers send the items `next` gives (until it gives
 * `undefined`) and count the answers `send` accepts; after `killAfter` of them the server is
 * killed (`kill`). A send that fails otherwise than by an assertion means the server is gone,
 * and ends the round. Resolves with whether the round ended by the kill or a failed send.
 */
export async function sendUntilKilled<T>(options: {
  concurrency: number;
  killAfter: number;
  next: () => T | undefined;
  send: (item: T) => Promise<void>;
  kill: () => void;
}): Promise<boolean> {
  let answers = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped) {
      const item = options.next();
      if (item === undefined) return;
      try {
        await options.send(item);
        answers += 1;
        if (answers === options.killAfter) {
          stopped = true;
          options.kill();
        }
      } catch (error) {
        if ((error as Error).name === 'AssertionError') throw error;
        stopped = true; // the server is gone
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return stopped;
}

/**
 * `books serve` (the built binary) on a database file (in a PostgreSQL run, the database that
 * stands for it), to be killed and started again on the same one: `call` talks to whichever run is up, with the given token and an optional
 * `Idempotency-Key`; `kill` sends a signal and `stopped` waits for the run to end.
 */
export function killableServer(env: NodeJS.ProcessEnv, database: string, token: string) {
  let server: RunningCli | undefined;
  let baseUrl = '';
  return {
    async start(): Promise<void> {
      server = spawnBooks(
        [
          'serve',
          ...(await serveFlagsFor(['--db', database])),
          '--port',
          '0',
          '--org-token',
          token,
          '--rate-limit',
          '0',
        ],
        env,
      );
      baseUrl = /listening on (http:\/\/\S+)/.exec(
        await server.waitForStderr('organization token'),
      )![1]!;
    },
    async call(method: string, url: string, body?: string, key?: string) {
      const response = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(key !== undefined && { 'idempotency-key': key }),
        },
        body,
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any };
    },
    kill(signal: NodeJS.Signals = 'SIGKILL'): void {
      server?.child.kill(signal);
    },
    async stopped(): Promise<void> {
      await server?.result;
    },
  };
}
