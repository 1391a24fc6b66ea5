import type { CommandContext } from './context.js';
import { UsageError } from './exitCodes.js';

/** A required argument: given, or asked for on a terminal; without one, a usage error at once. */
export async function ask(
  ctx: CommandContext,
  value: string | undefined,
  message: string,
): Promise<string> {
  if (value !== undefined && value !== '') return value;
  if (!ctx.io.stdin.isTTY || !ctx.io.stderr.isTTY) {
    throw new UsageError(
      `${message.toLowerCase()} is required (not on a terminal, so books cannot ask)`,
    );
  }
  const { input } = await import('@inquirer/prompts');
  return input({ message, required: true }, { input: ctx.io.stdin, output: ctx.io.stderr });
}
