import type { CommandContext } from './context.js';
import { UsageError } from './exitCodes.js';

/**
 * How a leaf command is declared: `src/cli/commands/<group>/<leaf>.ts` exports `command`, a
 * definition made with `defineCommand`. The registry (registry.ts) says where each leaf sits in
 * the tree; program.ts turns a definition into commander's, so no command file imports
 * commander and none is loaded unless its command runs (or its group's help is shown).
 */

/**
 * What a value names, for completion (completion.ts): names that live on the platform (the chosen
 * workspace's entities, the chosen entity's accounts), local profiles, or paths.
 */
export type ValueKind =
  | 'workspace'
  | 'entity'
  | 'account'
  | 'class'
  | 'rule'
  | 'group'
  | 'profile'
  | 'file'
  | 'directory';

/** What a value may be, for completion: one of `choices`, or a name of a kind. */
export interface ValueSpec {
  readonly choices?: readonly string[];
  readonly names?: ValueKind;
}

/** A positional argument. `ask`: on a terminal, a missing value is asked for with this prompt. */
export interface ArgumentSpec extends ValueSpec {
  readonly description: string;
  readonly optional?: boolean;
  readonly ask?: string;
  /** The last argument may take several values (`FILE...`): its value is every one of them. */
  readonly variadic?: boolean;
}

/** An option. Its key in `options` is the name commander gives it (`--dry-run` → `dryRun`). */
export type OptionSpec =
  | { readonly type: 'boolean'; readonly flags: string; readonly description: string }
  /** `--no-finalize`: true unless given. */
  | { readonly type: 'negatable'; readonly flags: string; readonly description: string }
  | ({
      readonly type: 'string';
      readonly flags: string;
      readonly description: string;
      readonly default?: string;
      readonly required?: boolean;
      readonly conflicts?: string;
    } & ValueSpec)
  /** Repeatable: every value, in order. */
  | ({ readonly type: 'list'; readonly flags: string; readonly description: string } & ValueSpec);

type OptionValue<S> = S extends { type: 'boolean' }
  ? boolean | undefined
  : S extends { type: 'negatable' }
    ? boolean
    : S extends { type: 'list' }
      ? string[]
      : S extends { default: string }
        ? string
        : S extends { required: true }
          ? string
          : string | undefined;

type ArgumentValue<S> = S extends { variadic: true }
  ? string[]
  : S extends { optional: true }
    ? string | undefined
    : string;

export type ArgumentSpecs = Readonly<Record<string, ArgumentSpec>>;
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** What `run` receives: each argument and option by its name, typed by its declaration. */
export type CommandInput<A extends ArgumentSpecs, O extends OptionSpecs> = {
  -readonly [K in keyof A]: ArgumentValue<A[K]>;
} & { -readonly [K in keyof O]: OptionValue<O[K]> };

export interface CommandDefinition<
  A extends ArgumentSpecs = ArgumentSpecs,
  O extends OptionSpecs = OptionSpecs,
> {
  readonly summary: string;
  readonly arguments?: A;
  readonly options?: O;
  /** Shown by `--help` and `books help <command>`: whole command lines. */
  readonly examples: readonly string[];
  /** Its output may be long (a list, a report): at a terminal it goes through the pager. */
  readonly paged?: boolean;
  /** Resolves with the exit code when it is not 0. */
  run(ctx: CommandContext, input: CommandInput<A, O>): Promise<void | number>;
}

/** A leaf as the program builder sees it, whatever its arguments and options. */
export interface AnyCommand {
  readonly summary: string;
  readonly arguments?: ArgumentSpecs;
  readonly options?: OptionSpecs;
  readonly examples: readonly string[];
  readonly paged?: boolean;
  run(ctx: CommandContext, input: Record<string, unknown>): Promise<void | number>;
}

export function defineCommand<
  const A extends ArgumentSpecs = Record<never, never>,
  const O extends OptionSpecs = Record<never, never>,
>(definition: CommandDefinition<A, O>): AnyCommand {
  return definition as unknown as AnyCommand;
}

// Builders that keep an option's literal type (and so its value's type in `run`).

export const flag = (flags: string, description: string) =>
  ({ type: 'boolean', flags, description }) as const;

export const negatable = (flags: string, description: string) =>
  ({ type: 'negatable', flags, description }) as const;

export const repeatable = (flags: string, description: string, values?: ValueSpec) =>
  ({ type: 'list', flags, description, ...values }) as const;

export function text<
  const E extends {
    default?: string;
    required?: boolean;
    conflicts?: string;
    choices?: readonly string[];
    names?: ValueKind;
  },
>(
  flags: string,
  description: string,
  extra?: E,
): { readonly type: 'string'; readonly flags: string; readonly description: string } & E {
  return { type: 'string', flags, description, ...(extra as E) };
}

/** `--limit N` and `--all`, as every list command takes them. */
export const listOptions = (all: string) =>
  ({
    limit: text('--limit <n>', 'how many (default 30 on a terminal, all in a pipe)'),
    all: flag('--all', all),
  }) as const;

export const argument = <
  const E extends { optional?: boolean; ask?: string; variadic?: boolean } & ValueSpec,
>(
  description: string,
  extra?: E,
): { readonly description: string } & E => ({ description, ...(extra as E) });

/**
 * A value that must be one of `choices`, or a usage error that lists them: `--layout must be
 * wide or long, not "tall"`.
 */
export function oneOf<const T extends string>(
  what: string,
  given: string,
  choices: readonly T[],
): T {
  if ((choices as readonly string[]).includes(given)) return given as T;
  const listed =
    choices.length === 1 ? choices[0] : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  throw new UsageError(`${what} must be ${listed}, not "${given}"`);
}

/** A whole-number option's value, from `min` to `max`, or a usage error that says so. */
export function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** The flags an option's declaration names: `-w, --workspace <workspace>` → `-w`, `--workspace`. */
export const flagNames = (flags: string): string[] =>
  flags.match(/(?<![\w<])--?[a-zA-Z][\w-]*/g) ?? [];
