import { Command, Help, Option } from 'commander';
import type { AnyCommand } from './command.js';
import { writtenDeclarations, type LeafDeclaration } from './declarations.js';
import type { GlobalOptions } from './context.js';
import type { CliIo } from './io.js';
import { GLOBAL_OPTIONS, VALUED_GLOBALS } from './globals.js';
import { GROUPS, LEAVES } from './registry.js';

/** Runs a leaf with its input, in a context built once for the run. */
export type Runner = (
  leaf: AnyCommand,
  input: Record<string, unknown>,
  options: GlobalOptions,
) => Promise<void>;

/** The command path the arguments name (`['coa', 'list']`), as far as the tree has it. */
function commandPath(args: readonly string[]): string[] {
  const path: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUED_GLOBALS.has(arg)) i += 1;
      continue;
    }
    const next = [...path, arg].join(' ');
    if (GROUPS[next] === undefined && LEAVES[next] === undefined) break;
    path.push(arg);
    // A leaf that is also a group (`close 2026-10`, `close review`) goes on to a child.
    if (LEAVES[next] && GROUPS[next] === undefined) break;
  }
  return path;
}

/** Whether `key` is a command of the tree (a group or a leaf). */
const names = (key: string) => GROUPS[key] !== undefined || LEAVES[key] !== undefined;

/** The leaves and groups directly under `prefix` ('' for the top). */
function childrenOf(prefix: string): string[] {
  const depth = prefix === '' ? 1 : prefix.split(' ').length + 1;
  const under = (key: string) =>
    key.split(' ').length === depth && (prefix === '' || key.startsWith(`${prefix} `));
  return [...new Set([...Object.keys(LEAVES), ...Object.keys(GROUPS)])]
    .filter(under)
    .sort((a, b) => order(a) - order(b));
}

/** Help lists commands as the registry orders them (groups by their first leaf). */
function order(key: string): number {
  return (registryPlaces ??= registryOrder()).get(key) ?? -1;
}
let registryPlaces: Map<string, number> | undefined;
/** Each leaf's and group's place: that of the first leaf it is or holds (once, not per sort). */
function registryOrder(): Map<string, number> {
  const places = new Map<string, number>();
  Object.keys(LEAVES).forEach((leaf, index) => {
    const words = leaf.split(' ');
    for (let length = 1; length <= words.length; length += 1) {
      const key = words.slice(0, length).join(' ');
      if (!places.has(key)) places.set(key, index);
    }
  });
  return places;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Each leaf's arguments as help shows them (`<id> [message]`), required ones in `<>`. */
const ARGUMENT_TERMS = new WeakMap<Command, string>();

/** A leaf in its group's help: `get [options] <id>`, as commander would with required arguments. */
function subcommandTerm(command: Command): string {
  const terms = ARGUMENT_TERMS.get(command);
  if (terms === undefined) return new Help().subcommandTerm(command);
  const options = LISTED_WITH_OPTIONS.get(command) ?? command.options.length > 0;
  const term = [command.name(), options ? '[options]' : '', terms].filter(Boolean).join(' ');
  // A long term would leave the descriptions too little room to wrap in 80 columns: its
  // `[options]` is left to its own help.
  return term.length > 36 ? [command.name(), terms].join(' ') : term;
}

/** What a group's help says of a leaf: its summary, its arguments' terms, whether it has options. */
interface LeafListing {
  summary: string;
  terms: string;
  options: boolean;
}

/** An argument as help shows it (`file...`), and its term in usage (`<file...>`, `[id]`). */
const shownArgument = (key: string, spec: { variadic?: boolean; optional?: boolean }) => {
  const shown = `${kebab(key)}${spec.variadic ? '...' : ''}`;
  return { shown, term: spec.optional ? `[${shown}]` : `<${shown}>` };
};

function listingOf(leaf: LeafDeclaration): LeafListing {
  return {
    summary: leaf.summary,
    terms: Object.entries(leaf.arguments ?? {})
      .map(([key, spec]) => shownArgument(key, spec).term)
      .join(' '),
    options: Object.keys(leaf.options ?? {}).length > 0,
  };
}

/** Whether commander will show help for these arguments (`-h`/`--help` before any `--`). */
function helpAskedIn(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * A leaf only listed (its group's help is shown, or a usage error said): from its declaration
 * as the build wrote it (declarations.ts), not loaded. `books --help` had loaded reconcile,
 * serve and import with all their work. Run from source, the leaf is loaded and declared.
 */
async function listLeaf(parent: Command, name: string, key: string, run: Runner): Promise<void> {
  const declaration = writtenDeclarations()?.[key];
  if (!declaration) {
    await declareLoaded(parent, name, key, run);
    return;
  }
  const listing = listingOf(declaration);
  const command = parent.command(name).description(listing.summary);
  ARGUMENT_TERMS.set(command, listing.terms);
  LISTED_WITH_OPTIONS.set(command, listing.options);
}
const LISTED_WITH_OPTIONS = new WeakMap<Command, boolean>();

/** A leaf's module loaded, and the leaf declared from it. */
async function declareLoaded(
  parent: Command,
  name: string,
  key: string,
  run: Runner,
): Promise<Command> {
  const leaf = (await LEAVES[key]!()).command;
  return declareLeaf(parent, name, leaf, async () => leaf, run);
}

/**
 * A leaf's definition as a commander command. Declared from `leaf` (its module, or only its
 * declaration); `load` gives the leaf to run when commander runs it.
 */
function declareLeaf(
  parent: Command,
  name: string,
  leaf: LeafDeclaration,
  load: () => Promise<AnyCommand>,
  run: Runner,
): Command {
  const command = parent.command(name).description(leaf.summary);
  const argumentNames = Object.keys(leaf.arguments ?? {});
  // Commander is told every argument and option is optional: a missing required one is asked
  // for on a terminal, or is a usage error, by main.ts (missingInput). Help still shows them.
  for (const [key, spec] of Object.entries(leaf.arguments ?? {})) {
    command.argument(`[${shownArgument(key, spec).shown}]`, spec.description);
  }
  const { terms } = listingOf(leaf);
  command.usage(['[options]', terms].filter(Boolean).join(' '));
  ARGUMENT_TERMS.set(command, terms);
  for (const [key, spec] of Object.entries(leaf.options ?? {})) {
    const option = new Option(spec.flags, spec.description);
    if (spec.type === 'list')
      option.argParser((value: string, previous: string[] = []) => [...previous, value]);
    if (spec.type === 'string') {
      if (spec.default !== undefined) option.default(spec.default);
      if (spec.conflicts) option.conflicts(spec.conflicts);
    }
    if (option.attributeName() !== key && !option.negate) {
      throw new Error(`books ${name}: option ${spec.flags} is declared as "${key}"`);
    }
    command.addOption(option);
  }
  command.addHelpText(
    'after',
    `\nExamples:\n${leaf.examples.map((example) => `  ${example}`).join('\n')}\n`,
  );
  command.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    const input: Record<string, unknown> = { ...self.opts() };
    argumentNames.forEach((key, i) => (input[key] = self.processedArgs[i]));
    for (const [key, spec] of Object.entries(leaf.options ?? {}))
      if (spec.type === 'list') input[key] ??= [];
    await run(await load(), input, self.optsWithGlobals<GlobalOptions>());
  });
  return command;
}

/** Global options, in every command's help. */
function declareGlobals(program: Command): void {
  for (const option of GLOBAL_OPTIONS) program.option(option.flags, option.description);
}

/**
 * The commander program for these arguments: every group and leaf is declared, but only the
 * leaves whose help or action can be reached (the named leaf, or the children of the named
 * group) are loaded.
 */
export async function buildProgram(
  io: CliIo,
  args: readonly string[],
  version: string,
  run: Runner,
): Promise<Command> {
  const program = new Command('books')
    .description('Keep the books of many clients from the terminal: ledgers, reports, migrations.')
    .version(version, '-V, --version')
    .exitOverride()
    .configureHelp({ showGlobalOptions: true, subcommandTerm })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // The width of the command's own terminal (80 in a pipe), not the process's.
      getOutHelpWidth: () => (io.stdout as { columns?: number }).columns ?? 80,
      getErrHelpWidth: () => (io.stderr as { columns?: number }).columns ?? 80,
      // Usage errors are printed by reportError (failures.ts), in text or JSON like any other.
      outputError: () => {},
    });
  declareGlobals(program);
  const path = commandPath(args);
  // The named leaf: only its declaration when its help is asked for (and the build wrote them).
  const declarations = helpAskedIn(args) ? writtenDeclarations() : undefined;
  const named = async (parent: Command, name: string, key: string): Promise<Command> => {
    const declaration = declarations?.[key];
    if (!declaration) return declareLoaded(parent, name, key, run);
    return declareLeaf(parent, name, declaration, async () => (await LEAVES[key]!()).command, run);
  };
  const declare = async (parent: Command, prefix: string, rest: string[]) => {
    for (const key of childrenOf(prefix)) {
      const name = key.slice(prefix === '' ? 0 : prefix.length + 1);
      if (GROUPS[key] !== undefined) {
        // A group that is a leaf too runs its own action when no child is named (then only:
        // its options would take a child's).
        const child = rest.length > 1 && names(`${key} ${rest[1]}`);
        const group =
          LEAVES[key] !== undefined && rest[0] === name && !child
            ? (await named(parent, name, key)).description(GROUPS[key]!)
            : parent.command(name).description(GROUPS[key]!);
        if (rest[0] === name) await declare(group, key, rest.slice(1));
      } else if (rest[0] === name) {
        await named(parent, name, key);
      } else if (rest.length === 0) {
        await listLeaf(parent, name, key, run);
      } else {
        parent.command(name);
      }
    }
  };
  await declare(program, '', path);
  return program;
}
