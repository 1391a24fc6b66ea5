import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RequestScheduler } from '../../src/platform/http/scheduler.js';

/** Runs until the scheduler has started all it will (a turn of the event loop each). */
async function turns(count = 10) {
  for (let i = 0; i < count; i += 1) await nextTurn();
}

describe('the order books serve starts waiting requests in', () => {
  it('reads that arrived with writes start first; each kind keeps its order', async () => {
    const scheduler = new RequestScheduler({ now: () => 0 });
    const started: string[] = [];
    const request = (name: string, write: boolean) =>
      scheduler.run(write, async () => {
        started.push(name);
        return name;
      });
    const answers = await Promise.all([
      request('bulk 1', true),
      request('bulk 2', true),
      request('P&L', false),
      request('trial balance', false),
    ]);
    expect(started).toEqual(['P&L', 'trial balance', 'bulk 1', 'bulk 2']);
    expect(answers).toEqual(['bulk 1', 'bulk 2', 'P&L', 'trial balance']);
  });

  it('a write that has waited 50 ms goes before the reads: a flood of reports never starves an import', async () => {
    let now = 0;
    const scheduler = new RequestScheduler({ now: () => now, writeAfterMs: 50 });
    const started: string[] = [];
    const request = (name: string, write: boolean) =>
      scheduler.run(write, async () => void started.push(name));
    const all = [request('bulk', true), request('report 1', false), request('report 2', false)];
    now = 50;
    await Promise.all(all);
    expect(started).toEqual(['bulk', 'report 1', 'report 2']);
  });

  it('at most `concurrency` run at once; the rest start as they finish, a failure answered as such', async () => {
    const scheduler = new RequestScheduler({ concurrency: 2, now: () => 0 });
    const finish: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const slow = () =>
      scheduler.run(false, async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => finish.push(resolve));
        running -= 1;
      });
    const all = [slow(), slow(), slow()];
    await turns();
    expect(running).toBe(2);
    expect(scheduler.waiting).toBe(1);
    finish.shift()!();
    await turns();
    expect(running).toBe(2);
    finish.splice(0).forEach((done) => done());
    await turns();
    finish.splice(0).forEach((done) => done());
    await Promise.all(all);
    expect(most).toBe(2);
    await expect(
      scheduler.run(true, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });
});
