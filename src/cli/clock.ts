/** The time, as commands may know it: injected, so that tests need no real waits. */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The questions asked at a terminal: `@inquirer/prompts`, unless a test answers them. */
export interface Questions {
  input(message: string): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string): Promise<boolean>;
}

/** The services a command context is built with; tests replace the clock and the answers. */
export interface ContextServices {
  clock: Clock;
  questions?: Questions;
}
