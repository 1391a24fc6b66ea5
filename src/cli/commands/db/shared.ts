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

/** `backing up 45% (1,234 of 2,740 pages)` on one line of a terminal's stderr; lines in a log. */
export function pageProgress(ctx: CommandContext, mode: ProgressMode, doing: string) {
  const progress = workProgress<{ copied: number; total: number }>(ctx, mode, {
    doing,
    measure: ({ copied, total }) => ({ done: copied, total, unit: 'pages' }),
    bar: ({ copied, total }) =>
      `${doing} ${(copied / Math.max(total, 1)).toLocaleString('en-US', { style: 'percent' })} (${copied.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} pages)`,
  });
  return {
    show: (copied: number, total: number) => progress.show?.({ copied, total }),
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
