/**
 * The arithmetic of the rate limits, pure: the caller keeps the state (in the database, for the
 * whole deployment) and passes the clock.
 */
export interface RateDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until at least one token is available again (≥ 1 when refused). */
  retryAfterSeconds: number;
}

/** A token bucket's level, as of a moment. */
export interface Bucket {
  tokens: number;
  atMs: number;
}

/**
 * A token bucket per organization: `ratePerSecond` tokens flow in each second up to a burst of
 * twice that.
 */
export class TokenBucket {
  readonly capacity: number;

  constructor(readonly ratePerSecond: number) {
    this.capacity = ratePerSecond * 2;
  }

  /** The bucket at `nowMs`: refilled since it was last seen; full when never seen. */
  refill(bucket: Bucket | undefined, nowMs: number): Bucket {
    if (bucket === undefined) return { tokens: this.capacity, atMs: nowMs };
    const elapsedSeconds = Math.max(0, nowMs - bucket.atMs) / 1000;
    return {
      tokens: Math.min(this.capacity, bucket.tokens + elapsedSeconds * this.ratePerSecond),
      atMs: Math.max(nowMs, bucket.atMs),
    };
  }

  /**
   * How many tokens a process takes from the shared bucket at once: a tenth of the burst (at
   * least one). It spends them without asking again; what it has not spent within a second is
   * let go.
   */
  get leaseSize(): number {
    return Math.max(1, Math.floor(this.capacity / 10));
  }

  /** What a request learns when `tokens` are left after it (or were, when it is refused). */
  decision(allowed: boolean, tokens: number): RateDecision {
    return {
      allowed,
      remaining: allowed ? Math.floor(tokens) : 0,
      retryAfterSeconds: allowed && tokens >= 1 ? 0 : this.secondsUntilToken(tokens),
    };
  }

  private secondsUntilToken(tokens: number): number {
    return Math.max(1, Math.ceil((1 - tokens) / this.ratePerSecond));
  }
}

/** An address's failed authentications in its current minute. */
export interface FailureWindow {
  startMs: number;
  failures: number;
}

/**
 * Failed authentications per address, counted in windows of a minute: once an address has
 * sent `perMinute` wrong tokens in its window, its further wrong tokens are refused (429) until
 * the window ends. Right tokens are never refused here (a shared address keeps working for
 * whoever holds one), and requests with no token do not count.
 */
export class AuthFailureLimit {
  constructor(readonly perMinute: number) {}

  /** Seconds until the address may fail again; 0 while it is under the limit. */
  blockedFor(window: FailureWindow | undefined, nowMs: number): number {
    if (window === undefined || nowMs - window.startMs >= 60_000) return 0;
    if (window.failures < this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.startMs + 60_000 - nowMs) / 1000));
  }

  /** The window once one more wrong token has come. */
  afterFailure(window: FailureWindow | undefined, nowMs: number): FailureWindow {
    if (window === undefined || nowMs - window.startMs >= 60_000) {
      return { startMs: nowMs, failures: 1 };
    }
    return { startMs: window.startMs, failures: window.failures + 1 };
  }
}
