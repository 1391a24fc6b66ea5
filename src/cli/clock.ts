/** The time, as commands may know it: injected, so that tests need no real waits. */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The services a command context is built with; tests replace the clock. */
export interface ContextServices {
  clock: Clock;
}
