import { oneOf, text } from '../command.js';
import type { CommandContext } from '../context.js';

export const PROGRESS_MODES = ['auto', 'plain', 'none'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

/** Seconds between two plain lines (a CI log): often enough that no job is killed as silent. */
export const PLAIN_LINE_SECONDS = 10;

/** `--progress`, as every long command takes it (as `docker build --progress` does). */
export const progressOption = text(
  '--progress <mode>',
  `auto (a bar on a terminal, else a line every ${PLAIN_LINE_SECONDS} s), plain (lines) or none`,
  { default: 'auto', choices: PROGRESS_MODES },
);

/** The `--progress` given, or a usage error naming the modes. */
export const progressMode = (given: string): ProgressMode =>
  oneOf('--progress', given, PROGRESS_MODES);

/** How far work has come: `done` of `total` units, `moved` of them by this run (for the rate). */
export interface Measure {
  done: number;
  total: number;
  unit: string;
  /** What this run did itself (an import skips what an earlier run sent); default `done`. */
  moved?: number;
}

export interface Progress<P> {
  show: ((progress: P) => void) | undefined;
  end: () => void;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** `2 min 5 s`, `40 s`. */
function duration(seconds: number): string {
  const whole = Math.ceil(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes} min ${whole % 60} s` : `${whole} s`;
}

/**
 * `books: importing 4,000 of 10,000 entries (40%), 420 entries/s, about 15 s left`: a line for a
 * log, with what is done, of what, how fast and how long is left.
 */
export function plainProgressLine(doing: string, measure: Measure, seconds: number): string {
  const rate = (measure.moved ?? measure.done) / seconds;
  const share = (measure.done / Math.max(measure.total, 1)).toLocaleString('en-US', {
    style: 'percent',
  });
  const remaining = measure.total - measure.done;
  const left = rate > 0 && remaining > 0 ? `, about ${duration(remaining / rate)} left` : '';
  return `books: ${doing} ${count(measure.done)} of ${count(measure.total)} ${measure.unit} (${share}), ${count(rate)} ${measure.unit}/s${left}`;
}

/**
 * Long work's progress on stderr, as `--progress` asks: `auto` rewrites one line in place on a
 * terminal (`bar`) and, when stderr is not a terminal (a CI log), writes a plain line every
 * ten seconds of the context's clock, so that a log never goes quiet; `plain` writes those lines
 * on a terminal too; `none` writes nothing. `show` is undefined when nothing is to be shown.
 */
export function workProgress<P>(
  ctx: CommandContext,
  mode: ProgressMode,
  what: {
    doing: string;
    measure: (progress: P) => Measure;
    /** The terminal's line for what is done and the seconds since the start. */
    bar: (progress: P, seconds: number) => string;
  },
): Progress<P> {
  const now = () => ctx.clock.now().getTime();
  const started = now();
  const secondsAt = (at: number) => Math.max((at - started) / 1000, 0.001);
  const onTerminal = Boolean(ctx.io.stderr.isTTY);
  if (mode === 'none') return { show: undefined, end: () => {} };
  if (mode === 'auto' && onTerminal) {
    let shown = false;
    return {
      show: (progress) => {
        ctx.io.stderr.write(`\r  ${what.bar(progress, secondsAt(now()))}   `);
        shown = true;
      },
      end: () => {
        if (shown) ctx.io.stderr.write('\n');
        shown = false;
      },
    };
  }
  let lastLine = started;
  return {
    show: (progress) => {
      const at = now();
      if (at - lastLine < PLAIN_LINE_SECONDS * 1000) return;
      lastLine = at;
      const line = plainProgressLine(what.doing, what.measure(progress), secondsAt(at));
      ctx.io.stderr.write(`${line}\n`);
    },
    end: () => {},
  };
}
