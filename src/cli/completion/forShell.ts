import { complete, completionLines, shellWords } from './words.js';
import { SHELLS, type Shell } from './scripts.js';
import type { CliIo } from '../io.js';

/**
 * `books __complete SHELL --line TEXT` (the line up to the cursor) or `books __complete SHELL --
 * WORD…` (the words typed, the last the one being completed): what the completion scripts print.
 * Any failure completes nothing, so that no error reaches the person's shell.
 */
export async function completeForShell(args: readonly string[], io: CliIo): Promise<string> {
  const [shell, how, ...rest] = args;
  if (!(SHELLS as readonly string[]).includes(shell ?? '')) return '';
  try {
    // A line begins with the command's own name; words come without it.
    const typed = how === '--line' ? shellWords(rest[0] ?? '') : undefined;
    const words = typed
      ? typed.words.slice(1)
      : rest.map((word) => shellWords(word).words.join(' '));
    const quote = (typed ?? shellWords(rest.at(-1) ?? '')).quote;
    // Names from the platform (loaded only when a value needs them: a command's name does not).
    const completion = await complete(words, (kind, scope) =>
      import('./names.js')
        .then(({ platformNames }) => platformNames(kind, scope, io))
        .catch(() => []),
    );
    return completionLines(shell as Shell, completion, { current: words.at(-1) ?? '', quote });
  } catch {
    return '';
  }
}
