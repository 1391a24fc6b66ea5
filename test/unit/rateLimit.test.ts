import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/platform/domain/rateLimit.js';

describe('TokenBuckets', () => {
  it('allows a burst of twice the rate, then refuses with the wait', () => {
    const buckets = new TokenBuckets(5);
    const decisions = Array.from({ length: 11 }, () => buckets.take('org', 1_000));
    expect(decisions.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(decisions[0]).toEqual({ allowed: true, remaining: 9, retryAfterSeconds: 0 });
    expect(decisions[9]).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 1 });
    expect(decisions[10]).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
  });

  it('refills at the rate, never beyond the burst', () => {
    const buckets = new TokenBuckets(2);
    for (let i = 0; i < 4; i += 1) buckets.take('org', 0);
    expect(buckets.take('org', 0).allowed).toBe(false);
    expect(buckets.take('org', 500).allowed).toBe(true); // one token after half a second
    expect(buckets.take('org', 500).allowed).toBe(false);
    expect(buckets.take('org', 60_000)).toEqual({
      allowed: true,
      remaining: 3,
      retryAfterSeconds: 0,
    });
  });

  it('keeps one bucket per key and rounds slow rates up to whole seconds', () => {
    const buckets = new TokenBuckets(0.25);
    expect(buckets.capacity).toBe(0.5);
    expect(buckets.take('a', 0)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 2 });
    const fast = new TokenBuckets(1);
    fast.take('a', 0);
    fast.take('a', 0);
    expect(fast.take('a', 0).allowed).toBe(false);
    expect(fast.take('b', 0).allowed).toBe(true);
  });
});
