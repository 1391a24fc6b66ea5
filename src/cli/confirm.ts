import { ExitCode, UserError } from './exitCodes.js';
import type { CommandContext } from './context.js';

/** Asks before a destructive act: on a terminal a prompt, elsewhere `--yes` is required. */
export async function confirmDestructive(ctx: CommandContext, question: string): Promise<void> {
  if (ctx.options.yes) return;
  if (!ctx.io.stdin.isTTY || !ctx.io.stdout.isTTY) {
    throw new UserError(`${question} Not on a terminal: pass --yes to confirm.`, ExitCode.Usage);
  }
  const { confirm } = await import('@inquirer/prompts');
  const answer = await confirm(
    { message: question, default: false },
    { input: ctx.io.stdin, output: ctx.io.stderr },
  );
  if (!answer) throw new UserError('nothing was changed', ExitCode.Interrupted);
}
