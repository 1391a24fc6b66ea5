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
