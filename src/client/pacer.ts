/**
 * Milliseconds on a monotonic clock. The global `performance` loads node:perf_hooks on first
 * touch, a few milliseconds of every command's start; the process's own clock costs nothing.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * Requests held to a rate, as a platform's rate limit counts them: a bucket of `burst` tokens
 * filled at `perSecond`; each request takes one, waiting for it when the bucket is empty. Work
 * that fetches pages concurrently stays within the limit instead of meeting 429s.
 */
export class RequestPacer {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = monotonicMs,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Resolves when this request may go. Requests go in the order they asked. */
  take(): Promise<void> {
    const turn = this.queue.then(async () => {
      const now = this.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.perSecond) / 1000);
      this.last = now;
      if (this.tokens < 1) {
        const wait = ((1 - this.tokens) * 1000) / this.perSecond;
        await this.sleep(wait);
        this.tokens = 1;
        this.last = this.now();
      }
      this.tokens -= 1;
    });
    this.queue = turn;
    return turn;
  }
}
