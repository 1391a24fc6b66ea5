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

/**
 * Failed authentications per address, counted in windows of a minute: once an address has
 * sent `perMinute` wrong tokens in its window, its further wrong tokens are refused (429) until
 * the window ends. Right tokens are never refused here (a shared address keeps working for
 * whoever holds one), and requests with no token do not count. Pure: the caller passes the clock.
 */
export class AuthFailureWindows {
  private readonly windows = new Map<string, { startMs: number; failures: number }>();

  constructor(readonly perMinute: number) {}

  /** Seconds until `address` may fail again; 0 while it is under the limit. */
  blockedFor(address: string, nowMs: number): number {
    const window = this.windows.get(address);
    if (window === undefined || nowMs - window.startMs >= 60_000) return 0;
    if (window.failures < this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.startMs + 60_000 - nowMs) / 1000));
  }

  /** Counts a wrong token from `address`. */
  fail(address: string, nowMs: number): void {
    let window = this.windows.get(address);
    if (window === undefined || nowMs - window.startMs >= 60_000) {
      if (this.windows.size >= 10_000) this.forgetEnded(nowMs);
      window = { startMs: nowMs, failures: 0 };
      this.windows.set(address, window);
    }
    window.failures += 1;
  }

  private forgetEnded(nowMs: number): void {
    for (const [address, window] of this.windows) {
      if (nowMs - window.startMs >= 60_000) this.windows.delete(address);
    }
  }
}
