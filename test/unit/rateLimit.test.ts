import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimits } from '../../src/platform/engine/rateLimits.js';
import type { Store } from '../../src/platform/store/index.js';
import { openTestStore } from '../helpers/backend.js';

/**
 * The rate limits on a real database (in-memory SQLite, or PostgreSQL in that run), with a clock
 * the test moves. Two RateLimits over one store stand for two processes of one deployment.
 */
describe('rate limits, counted in the database for every process', () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  let organizationId: string;
  beforeEach(async () => {
    opened = await openTestStore();
    ({ store, organizationId } = opened);
  });
  afterEach(() => opened.close());

  const takeMany = async (limits: RateLimits, count: number, nowMs: number) => {
    const decisions = [];
    for (let i = 0; i < count; i += 1) decisions.push(await limits.take(organizationId, nowMs));
    return decisions;
  };

  it('allows a burst of twice the rate, then refuses with the wait', async () => {
    const limits = new RateLimits(store, 5, 0);
    const decisions = await takeMany(limits, 11, 1_000);
    expect(decisions.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(decisions[0]).toEqual({ allowed: true, remaining: 9, retryAfterSeconds: 0 });
    expect(decisions[9]).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 1 });
    expect(decisions[10]).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
  });

  it('refills at the rate, never beyond the burst', async () => {
    const limits = new RateLimits(store, 2, 0);
    await takeMany(limits, 4, 0);
    expect((await limits.take(organizationId, 0)).allowed).toBe(false);
    expect((await limits.take(organizationId, 500)).allowed).toBe(true); // a token in half a second
    expect((await limits.take(organizationId, 500)).allowed).toBe(false);
    expect(await limits.take(organizationId, 60_000)).toEqual({
      allowed: true,
      remaining: 3,
      retryAfterSeconds: 0,
    });
  });

  it('rounds slow rates up to whole seconds', async () => {
    const limits = new RateLimits(store, 0.25, 0);
    expect(await limits.take(organizationId, 0)).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 2,
    });
  });

  it('holds one limit for two processes: together they get the burst, not twice it', async () => {
    const first = new RateLimits(store, 50, 0);
    const second = new RateLimits(store, 50, 0);
    let allowed = 0;
    for (let i = 0; i < 150; i += 1) {
      if ((await (i % 2 === 0 ? first : second).take(organizationId, 0)).allowed) allowed += 1;
    }
    expect(allowed).toBe(100);
  });

  it('counts wrong tokens from an address across processes, per minute', async () => {
    const first = new RateLimits(store, 0, 3);
    const second = new RateLimits(store, 0, 3);
    await first.fail('10.0.0.1', 0);
    await second.fail('10.0.0.1', 1_000);
    expect(await first.blockedFor('10.0.0.1', 2_000)).toBe(0);
    await first.fail('10.0.0.1', 2_000);
    expect(await second.blockedFor('10.0.0.1', 2_000)).toBe(58);
    expect(await second.blockedFor('10.0.0.2', 2_000)).toBe(0);
    expect(await first.blockedFor('10.0.0.1', 60_000)).toBe(0);
  });
});
