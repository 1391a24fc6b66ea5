import type { Problem } from '../../formats/ledgerCsv.js';

/**
 * How an import ends when it does not succeed, for the caller to turn into its own terms (the
 * CLI's exit codes):
 * - `invalid-file`: the file (or what it asks of the chart) cannot be imported; nothing was sent;
 * - `usage`: the request itself is wrong (an encoding that does not exist, no entity);
 * - `part-way`: some batches are in, the rest not; running the same import again finishes it;
 * - `interrupted`: stopped by the user; running it again finishes it;
 * - `refused`: the platform refused, or the books do not reconcile.
 */
export type ImportFailure = 'invalid-file' | 'usage' | 'part-way' | 'interrupted' | 'refused';

export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    readonly failure: ImportFailure,
    message: string,
  ) {
    super(message);
  }
}

const SHOWN_PROBLEMS = 200;

/** Every problem of a file by its line (the first 200), and that nothing was sent. */
export function invalidFile(file: string, problems: readonly Problem[], count = problems.length) {
  const sorted = [...problems].sort((a, b) => a.fileLine - b.fileLine);
  const lines = sorted.slice(0, SHOWN_PROBLEMS).map((p) => `${file}:${p.fileLine}: ${p.message}`);
  if (count > SHOWN_PROBLEMS) lines.push(`... and ${count - SHOWN_PROBLEMS} more problems`);
  lines.push(`${count} problem${count === 1 ? '' : 's'} in ${file}; nothing was sent`);
  return new ImportError('invalid-file', lines.join('\n'));
}
