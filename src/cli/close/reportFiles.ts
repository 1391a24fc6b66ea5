import { renameSync, rmSync } from 'node:fs';
import type { Paper } from '../render/pack.js';

/*
 * How the files a firm keeps (report packs, reconciliation reports, close reviews) are named
 * and written: names safe for any file system, the paper of the locale, and a file moved into
 * place only when whole.
 */

/** A name made safe for a file: letters (any script), digits, dots and dashes. */
export const fileSafe = (name: string) =>
  name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}.]+/gu, '-')
    .replace(/^-+|-+$/g, '') || 'entity';

/** The paper of the locale: letter in the Americas that use it, else A4. */
export function localePaper(env: NodeJS.ProcessEnv): Paper {
  const locale = env.LC_ALL || env.LC_PAPER || env.LANG || '';
  return /_(US|CA|MX|PH|CL|CO|VE)\b/.test(locale) ? 'letter' : 'a4';
}

/** Writes `file` through `write`, beside it first: a failed write leaves no half a file. */
export async function writeWhole(
  file: string,
  write: (partial: string) => Promise<void>,
): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await write(partial);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}
