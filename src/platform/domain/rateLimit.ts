/**
 * A token bucket per organization: `ratePerSecond` tokens flow in each second up to a burst of
 * twice that. Pure: the caller passes the clock.
 */
export interface RateDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until at least one token is available again (≥ 1 when refused). */
  retryAfterSeconds: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();
  readonly capacity: number;

  constructor(readonly ratePerSecond: number) {
    this.capacity = ratePerSecond * 2;
  }

  take(key: string, nowMs: number): RateDecision {
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, atMs: nowMs };
    const elapsedSeconds = Math.max(0, nowMs - bucket.atMs) / 1000;
    bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsedSeconds * this.ratePerSecond);
    bucket.atMs = nowMs;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return {
        allowed: true,
        remaining: Math.floor(bucket.tokens),
        retryAfterSeconds: bucket.tokens >= 1 ? 0 : this.secondsUntilToken(bucket.tokens),
      };
    }
    return {
      allowed: false,
      remaining: 0,
      retryAfterSeconds: this.secondsUntilToken(bucket.tokens),
    };
  }

  private secondsUntilToken(tokens: number): number {
    return Math.max(1, Math.ceil((1 - tokens) / this.ratePerSecond));
  }
}
