import { flag, oneOf, text } from '../command.js';
import { UsageError } from '../exitCodes.js';
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

/** `--progress` and `--quiet`, as every long command takes them. */
export const progressOptions = {
  progress: progressOption,
  quiet: flag('--quiet', 'show no progress (as --progress none)'),
};

/**
 * The mode `--progress` and `--quiet` ask for, or a usage error naming the modes (or saying that
 * --quiet and --progress plain ask opposite things).
 */
export function progressMode(flags: { progress: string; quiet?: boolean }): ProgressMode {
  const given = oneOf('--progress', flags.progress, PROGRESS_MODES);
  if (!flags.quiet) return given;
  if (given === 'plain')
    throw new UsageError('--quiet shows no progress and --progress plain asks for it: give one');
  return 'none';
}

/** How far work has come: `done` of `total` units, `moved` of them by this run (for the rate). */
export interface Measure {
  done: number;
  /** Undefined where the whole is not known until the end (a file being read). */
  total?: number;
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
 * log, with what is done, of what, how fast and how long is left; `books: checking f.csv 4,000
 * entries so far, 2,000 entries/s` where the whole is not known; `books: waiting for x, 20 s so
 * far` where nothing is counted.
 */
export function plainProgressLine(
  doing: string,
  measure: Measure | undefined,
  seconds: number,
): string {
  if (!measure) return `books: ${doing}, ${duration(seconds)} so far`;
  const rate = (measure.moved ?? measure.done) / seconds;
  const speed = `${count(rate)} ${measure.unit}/s`;
  if (measure.total === undefined)
    return `books: ${doing} ${count(measure.done)} ${measure.unit} so far, ${speed}`;
  const share = (measure.done / Math.max(measure.total, 1)).toLocaleString('en-US', {
    style: 'percent',
  });
  const remaining = measure.total - measure.done;
  const left = rate > 0 && remaining > 0 ? `, about ${duration(remaining / rate)} left` : '';
  return `books: ${doing} ${count(measure.done)} of ${count(measure.total)} ${measure.unit} (${share}), ${speed}${left}`;
}

/**
 * Seconds between two plain lines: BOOKS_PROGRESS_SECONDS where it is set (a CI that wants
 * more, or fewer, lines), else PLAIN_LINE_SECONDS.
 */
function lineSeconds(env: NodeJS.ProcessEnv): number {
  const given = Number(env.BOOKS_PROGRESS_SECONDS ?? '');
  return env.BOOKS_PROGRESS_SECONDS?.trim() && Number.isFinite(given) && given >= 0
    ? given
    : PLAIN_LINE_SECONDS;
}

/**
 * Long work's progress on stderr, as `--progress` asks: `auto` rewrites one line in place on a
 * terminal (`bar`) and, when stderr is not a terminal (a CI log), writes a plain line every
 * ten seconds of the context's clock, so that a log never goes quiet; `plain` writes those lines
 * on a terminal too; `none` writes nothing. `show` is undefined when nothing is to be shown.
 *
 * Work in phases (`phase`: reading, sending, reconciling, …) has its rates and times counted
 * from the start of the phase it is in, and at a terminal each phase ends its line, so that
 * what each phase came to stays on the screen.
 */
export function workProgress<P>(
  ctx: CommandContext,
  mode: ProgressMode,
  what: {
    doing: string | ((progress: P) => string);
    /** What is counted; undefined where nothing is (a wait): the line tells its time. */
    measure: (progress: P) => Measure | undefined;
    /**
     * The terminal's line for what is done and the seconds since the phase began; undefined
     * where something else shows it there (a spinner).
     */
    bar: (progress: P, seconds: number) => string | undefined;
    phase?: (progress: P) => string;
  },
): Progress<P> {
  const now = () => ctx.clock.now().getTime();
  let started = now();
  let phase: string | undefined;
  const secondsAt = (at: number) => Math.max((at - started) / 1000, 0.001);
  /** The progress's phase, the clock of its start and the terminal's line begun anew when it changes. */
  const enter = (progress: P, onChange: () => void) => {
    const next = what.phase?.(progress);
    if (next === phase) return;
    phase = next;
    started = now();
    onChange();
  };
  const onTerminal = Boolean(ctx.io.stderr.isTTY);
  if (mode === 'none') return { show: undefined, end: () => {} };
  if (mode === 'auto' && onTerminal) {
    let shown = false;
    const end = () => {
      if (shown) ctx.io.stderr.write('\n');
      shown = false;
      ctx.output.holdLine(undefined);
    };
    return {
      show: (progress) => {
        enter(progress, end);
        const bar = what.bar(progress, secondsAt(now()));
        if (bar === undefined) return;
        ctx.io.stderr.write(`\r  ${bar}   `);
        shown = true;
        // A message meanwhile (`ctx.output.note`) ends the bar's line first.
        ctx.output.holdLine(end);
      },
      end,
    };
  }
  const every = lineSeconds(ctx.io.env) * 1000;
  let lastLine = started;
  return {
    show: (progress) => {
      enter(progress, () => {});
      const at = now();
      if (at - lastLine < every) return;
      lastLine = at;
      const doing = typeof what.doing === 'string' ? what.doing : what.doing(progress);
      const line = plainProgressLine(doing, what.measure(progress), secondsAt(at));
      ctx.io.stderr.write(`${line}\n`);
    },
    end: () => {},
  };
}
