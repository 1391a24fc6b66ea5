import { describe, expect, it } from 'vitest';
import { RequestPacer } from '../../src/client/pacer.js';

/** The pacer on a clock of its own: requests held to the rate after the burst, in order. */
describe('RequestPacer', () => {
  it('lets a burst go at once, then one request each 1/rate of a second, in the order asked', async () => {
    let now = 0;
    const waits: number[] = [];
    const pacer = new RequestPacer(
      100,
      3,
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    const went: number[] = [];
    await Promise.all(Array.from({ length: 6 }, (_, i) => pacer.take().then(() => went.push(i))));
    expect(went).toEqual([0, 1, 2, 3, 4, 5]);
    expect(waits).toEqual([10, 10, 10]);
    expect(now).toBe(30);
  });

  it('fills again while nothing is asked, never past the burst', async () => {
    let now = 0;
    const waits: number[] = [];
    const pacer = new RequestPacer(
      10,
      2,
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    await pacer.take();
    await pacer.take();
    now += 10_000;
    await pacer.take();
    await pacer.take();
    expect(waits).toEqual([]);
    await pacer.take();
    expect(waits).toEqual([100]);
  });
});
