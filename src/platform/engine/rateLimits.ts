import {
  AuthFailureLimit,
  TokenBucket,
  type Bucket,
  type FailureWindow,
  type RateDecision,
} from '../domain/rateLimit.js';
import type { Store } from '../store/index.js';

/** How long a process keeps tokens it took and has not spent. */
const LEASE_MS = 1_000;

/** A process's share of an organization's bucket. */
interface Lease {
  tokens: number;
  /** What the shared bucket held after the lease was taken. */
  sharedTokens: number;
  expiresAtMs: number;
}

/**
 * The rate limit and the auth-failure limit for the whole deployment: their state is in the
 * database, so that every process serving it counts against one limit. An organization's
 * requests take tokens a few at a time (TokenBucket.leaseSize) from its shared bucket, so that
 * most requests need no round trip for their token; a lease a process does not spend in a
 * second is let go. Wrong tokens are rare: each one is counted in the database as it comes.
 *
 * A database found damaged takes no more writes: the process then counts both limits in its
 * own memory, so that the reads that still work go on under a limit.
 */
export class RateLimits {
  private readonly bucket: TokenBucket | undefined;
  private readonly failures: AuthFailureLimit | undefined;
  private readonly leases = new Map<string, Lease>();
  /** The limits counted here alone, once the database is damaged. */
  private readonly ownBuckets = new Map<string, Bucket>();
  private readonly ownFailures = new Map<string, FailureWindow>();

  constructor(
    private readonly store: Store,
    ratePerSecond: number,
    failuresPerMinute: number,
  ) {
    this.bucket = ratePerSecond > 0 ? new TokenBucket(ratePerSecond) : undefined;
    this.failures = failuresPerMinute > 0 ? new AuthFailureLimit(failuresPerMinute) : undefined;
  }

  /** The bucket's burst and refill, for the RateLimit-Policy header; undefined when unlimited. */
  get policy(): { capacity: number; ratePerSecond: number } | undefined {
    return (
      this.bucket && { capacity: this.bucket.capacity, ratePerSecond: this.bucket.ratePerSecond }
    );
  }

  /** Takes a token for one of the organization's requests (always allowed when unlimited). */
  async take(organizationId: string, nowMs: number): Promise<RateDecision> {
    const bucket = this.bucket;
    if (bucket === undefined) return { allowed: true, remaining: 0, retryAfterSeconds: 0 };
    if (this.store.database.damage) return this.takeHere(bucket, organizationId, nowMs);
    const held = this.held(organizationId, nowMs);
    if (held && held.tokens >= 1) {
      held.tokens -= 1;
      return bucket.decision(true, held.tokens + held.sharedTokens);
    }
    const left = await this.store.transaction(async () => {
      await this.store.lock(`rate ${organizationId}`, 'exclusive');
      const shared = bucket.refill(await this.store.rateLimits.bucket(organizationId), nowMs);
      const granted = Math.min(bucket.leaseSize, Math.floor(shared.tokens));
      const after = { tokens: shared.tokens - granted, atMs: shared.atMs };
      await this.store.rateLimits.saveBucket(organizationId, after);
      return { granted, sharedTokens: after.tokens };
    });
    if (left.granted === 0) return bucket.decision(false, left.sharedTokens);
    // Another request of this process may have taken a lease meanwhile: both are kept.
    const lease: Lease = {
      tokens: (this.held(organizationId, nowMs)?.tokens ?? 0) + left.granted - 1,
      sharedTokens: left.sharedTokens,
      expiresAtMs: nowMs + LEASE_MS,
    };
    this.leases.set(organizationId, lease);
    return bucket.decision(true, lease.tokens + lease.sharedTokens);
  }

  private takeHere(bucket: TokenBucket, organizationId: string, nowMs: number): RateDecision {
    const now = bucket.refill(this.ownBuckets.get(organizationId), nowMs);
    const allowed = now.tokens >= 1;
    const after = { tokens: allowed ? now.tokens - 1 : now.tokens, atMs: now.atMs };
    this.ownBuckets.set(organizationId, after);
    return bucket.decision(allowed, after.tokens);
  }

  /** Seconds until the address may fail to authenticate again; 0 while under the limit. */
  async blockedFor(address: string, nowMs: number): Promise<number> {
    if (this.failures === undefined) return 0;
    if (this.store.database.damage) {
      return this.failures.blockedFor(this.ownFailures.get(address), nowMs);
    }
    return this.failures.blockedFor(await this.store.rateLimits.failures(address), nowMs);
  }

  /** Counts a wrong token from the address. */
  async fail(address: string, nowMs: number): Promise<void> {
    const limit = this.failures;
    if (limit === undefined) return;
    if (this.store.database.damage) {
      this.ownFailures.set(address, limit.afterFailure(this.ownFailures.get(address), nowMs));
      return;
    }
    await this.store.transaction(async () => {
      await this.store.lock(`auth failures ${address}`, 'exclusive');
      const window = limit.afterFailure(await this.store.rateLimits.failures(address), nowMs);
      await this.store.rateLimits.saveFailures(address, window);
      if (window.failures === 1) await this.store.rateLimits.forgetFailuresBefore(nowMs - 60_000);
    });
  }

  private held(organizationId: string, nowMs: number): Lease | undefined {
    const lease = this.leases.get(organizationId);
    if (lease === undefined) return undefined;
    if (lease.expiresAtMs > nowMs) return lease;
    this.leases.delete(organizationId);
    return undefined;
  }
}
