import type { CommandContext } from './context.js';

/**
 * One line of progress rewritten in place on a terminal's stderr (nothing in a pipe): `show`
 * gives the line for what is done and the seconds since the start; `end` ends the line.
 */
export function terminalProgress<P>(
  ctx: CommandContext,
  line: (progress: P, seconds: number) => string,
): { show: ((progress: P) => void) | undefined; end: () => void } {
  const started = performance.now();
  let shown = false;
  return {
    show: ctx.io.stderr.isTTY
      ? (progress: P) => {
          const seconds = Math.max((performance.now() - started) / 1000, 0.001);
          ctx.io.stderr.write(`\r  ${line(progress, seconds)}   `);
          shown = true;
        }
      : undefined,
    end: () => {
      if (shown) ctx.io.stderr.write('\n');
      shown = false;
    },
  };
}
