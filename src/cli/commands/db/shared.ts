import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CommandContext } from '../../context.js';
import { ExitCode, UserError } from '../../exitCodes.js';
import { workProgress, type ProgressMode } from '../../terminal/progress.js';

/** A time as `YYYYMMDD-HHMMSS` (UTC), for a file's name. */
export const fileStamp = (now: Date) =>
  now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

/** A backup's file: the one given, or a dated file in the directory given. */
export function backupFile(destination: string, now: Date): string {
  return existsSync(destination) && statSync(destination).isDirectory()
    ? path.join(destination, `books-${fileStamp(now)}.sqlite`)
    : destination;
}

/** A size in bytes as a person reads it. */
export function sizeOf(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let unit = 0;
  let size = bytes;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${size.toFixed(1)} ${units[unit]}`;
}

/**
 * A backup's or restore's progress: `backing up 45% (1,234 of 2,740 pages)` while pages are
 * copied, then `checking the copy (step 2 of 6: …)` while the copy is checked, on one line of a
 * terminal's stderr each; lines in a log.
 */
export function copyProgress(ctx: CommandContext, mode: ProgressMode, doing: string) {
  type Copying =
    | { phase: 'copying'; copied: number; total: number }
    | { phase: 'checking'; step: number; steps: number; what: string };
  const checking = (p: { step: number; steps: number; what: string }) =>
    checkingStep('the copy', p);
  const progress = workProgress<Copying>(ctx, mode, {
    phase: (p) => p.phase,
    doing: (p) => (p.phase === 'copying' ? doing : checking(p)),
    measure: (p) =>
      p.phase === 'copying' ? { done: p.copied, total: p.total, unit: 'pages' } : undefined,
    bar: (p) =>
      p.phase === 'copying'
        ? `${doing} ${(p.copied / Math.max(p.total, 1)).toLocaleString('en-US', { style: 'percent' })} (${p.copied.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} pages)`
        : checking(p),
  });
  const show = progress.show;
  return {
    progress: {
      copied:
        show && ((copied: number, total: number) => show({ phase: 'copying', copied, total })),
      checking:
        show &&
        ((step: number, steps: number, what: string) =>
          show({ phase: 'checking', step, steps, what })),
    },
    end: progress.end,
  };
}

/** A step of a database's check as a progress line says it. */
const checkingStep = (database: string, p: { step: number; steps: number; what: string }) =>
  `checking ${database} (step ${p.step} of ${p.steps}: ${p.what})`;

/**
 * `books db check`'s progress: `checking books.sqlite (step 2 of 6: …)`, each step as it begins,
 * on one line of a terminal's stderr; lines in a log. The steps have no measure of their own
 * (the database's integrity check is one call), so a line says how long the step has taken.
 */
export function checkProgress(ctx: CommandContext, mode: ProgressMode, database: string) {
  type Checking = { step: number; steps: number; what: string };
  const progress = workProgress<Checking>(ctx, mode, {
    phase: (p) => `step ${p.step}`,
    doing: (p) => checkingStep(database, p),
    measure: () => undefined,
    bar: (p) => checkingStep(database, p),
  });
  const show = progress.show;
  return {
    checking: show && ((step: number, steps: number, what: string) => show({ step, steps, what })),
    end: progress.end,
  };
}

/**
 * A backup or restore refused by its copy's check (its problems listed on stderr) or by a target
 * in use, as the user's to fix (exit 1); anything else as it came.
 */
export function copiedBooksFailure(ctx: CommandContext, error: unknown): unknown {
  const name = (error as Error)?.name;
  if (name === 'CopyRefused') {
    const { check } = error as {
      check: { problems: { kind: string; id: string; message: string }[]; unlisted: number };
    };
    for (const problem of check.problems.slice(0, 20)) {
      ctx.output.note(`  ${problem.kind} ${problem.id}: ${problem.message}`);
    }
    const more = check.problems.length - 20 + check.unlisted;
    if (more > 0) ctx.output.note(`  … and ${more} more`);
  }
  if (name === 'CopyRefused' || name === 'DatabaseInUse') {
    return new UserError((error as Error).message, ExitCode.Refused);
  }
  return error;
}
