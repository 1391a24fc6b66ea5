import { flagNames, type ValueKind, type ValueSpec } from '../command.js';
import { writtenDeclarations, type LeafDeclaration } from '../declarations.js';
import { GLOBAL_OPTIONS } from '../globals.js';
import { GROUPS, LEAVES } from '../registry.js';
import type { Shell } from './scripts.js';

/**
 * Shell completion: what the words typed so far complete to, from the command registry (groups,
 * leaves, their options and arguments and the values those declare) and, for names that live on
 * the platform, from `names` (completionNames.ts). The shell scripts (completionScripts.ts) call
 * `books __complete SHELL …` and show what it prints.
 */

export interface Candidate {
  value: string;
  description?: string | undefined;
}

/** Values to offer, or "let the shell complete paths". */
export type Completion =
  { kind: 'values'; candidates: Candidate[] } | { kind: 'files' } | { kind: 'directories' };

/** Where names are looked up: the global options given on the line so far. */
export interface NameScope {
  baseUrl?: string;
  token?: string;
  profile?: string;
  workspace?: string;
  entity?: string;
}

export type NameSource = (kind: ValueKind, scope: NameScope) => Promise<Candidate[]>;

/**
 * Words as a shell would split `line` (quotes and backslashes honored), the last being the one
 * under the cursor: empty when the line ends in a space. `quote` is the quote the last word was
 * opened with, if any.
 */
export function shellWords(line: string): { words: string[]; quote: '"' | "'" | undefined } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  let opened: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      if (!inWord) opened = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      opened = undefined;
    } else {
      word += c;
      inWord = true;
    }
  }
  words.push(word);
  return { words, quote: opened };
}

/** What a value of an option or argument names, from its declaration. */
function valueOf(spec: ValueSpec, placeholder: string): ValueSpec {
  if (spec.choices || spec.names) return spec;
  const kinds: Record<string, ValueKind> = {
    account: 'account',
    source: 'account',
    target: 'account',
    group: 'group',
    class: 'class',
    workspace: 'workspace',
    entity: 'entity',
    file: 'file',
    backup: 'file',
    destination: 'file',
    directory: 'directory',
  };
  const kind = kinds[placeholder];
  return kind ? { names: kind } : {};
}

/** An option's placeholder: `--chart <file>` → `file`. */
const placeholderOf = (flags: string) => /<([^>]+)>/.exec(flags)?.[1] ?? '';

interface OptionLike extends ValueSpec {
  flags: string;
  description: string;
}

/**
 * The completion of `words` (after `books`; the last is the word being typed). Never throws for
 * what a person may type: unknown words complete to nothing.
 */
export async function complete(words: readonly string[], names: NameSource): Promise<Completion> {
  const current = words[words.length - 1] ?? '';
  const scope: NameScope = {};
  const path: string[] = [];
  let leaf: LeafDeclaration | undefined;
  let positional = 0;
  let pending: OptionLike | undefined;
  let onlyArguments = false;
  const optionsOf = (): OptionLike[] => [
    ...Object.values(leaf?.options ?? {}).map((o) => o as OptionLike),
    ...GLOBAL_OPTIONS,
  ];
  // A global option's value chooses where names are looked up (`-w Acme`).
  const remember = (option: OptionLike, value: string) => {
    if (!(GLOBAL_OPTIONS as readonly OptionLike[]).includes(option)) return;
    const key = flagNames(option.flags).at(-1)!.replace(/^--/, '');
    (scope as Record<string, string>)[key === 'base-url' ? 'baseUrl' : key] = value;
  };
  for (const word of words.slice(0, -1)) {
    if (pending) {
      remember(pending, word);
      pending = undefined;
      continue;
    }
    if (!onlyArguments && word === '--') {
      onlyArguments = true;
      continue;
    }
    if (!onlyArguments && word.startsWith('-') && word.length > 1) {
      const [flag, inline] = word.split(/=(.*)/s, 2) as [string, string | undefined];
      const option = optionsOf().find((o) => flagNames(o.flags).includes(flag));
      if (option?.flags.includes('<')) {
        if (inline === undefined) pending = option;
        else remember(option, inline);
      }
      continue;
    }
    const next = [...path, word].join(' ');
    if (!leaf && GROUPS[next] !== undefined) {
      path.push(word);
    } else if (!leaf && LEAVES[next]) {
      path.push(word);
      // The build's declaration of it when there is one: its module need not load.
      leaf = writtenDeclarations()?.[next] ?? (await LEAVES[next]()).command;
    } else {
      positional += 1;
    }
  }

  const values = async (spec: ValueSpec): Promise<Completion> => {
    if (spec.names === 'file') return { kind: 'files' };
    if (spec.names === 'directory') return { kind: 'directories' };
    const offered = spec.choices
      ? spec.choices.map((value) => ({ value }))
      : spec.names
        ? await names(spec.names, scope)
        : [];
    return { kind: 'values', candidates: startingWith(offered, current) };
  };

  if (pending) return values(valueOf(pending, placeholderOf(pending.flags)));
  if (current.startsWith('-') && !onlyArguments) {
    const flags = optionsOf().flatMap((option) =>
      flagNames(option.flags)
        .filter((flag) => flag.startsWith('--'))
        .map((flag) => ({ value: flag, description: option.description })),
    );
    return { kind: 'values', candidates: startingWith(flags, current) };
  }
  if (!leaf) {
    const prefix = path.join(' ');
    const children = [...Object.keys(LEAVES), ...Object.keys(GROUPS)]
      .filter((key) =>
        prefix === ''
          ? !key.includes(' ')
          : key.startsWith(`${prefix} `) && key.split(' ').length === path.length + 1,
      )
      .map((key) => ({
        value: key.split(' ').at(-1)!,
        description: GROUPS[key] ?? undefined,
      }));
    const unique = children.filter((c, i) => children.findIndex((d) => d.value === c.value) === i);
    return { kind: 'values', candidates: startingWith(unique, current) };
  }
  const [key, spec] = Object.entries(leaf.arguments ?? {})[positional] ?? [];
  return spec ? values(valueOf(spec, key!)) : { kind: 'values', candidates: [] };
}

/** The candidates that begin with what is typed (letter case aside), in their order. */
function startingWith(candidates: Candidate[], typed: string): Candidate[] {
  const lower = typed.toLowerCase();
  return candidates.filter((c) => c.value.toLowerCase().startsWith(lower));
}

/**
 * What `books __complete` prints for a shell: a first line `:values`, `:files` or
 * `:directories`, then a candidate a line: as bash inserts it (quoted as the word was begun, or
 * with backslashes), `value:description` for zsh's `_describe`, `value<TAB>description` for fish.
 */
export function completionLines(
  shell: Shell,
  completion: Completion,
  typed: { current: string; quote: '"' | "'" | undefined },
): string {
  if (completion.kind !== 'values') return `:${completion.kind}\n`;
  const { quote } = typed;
  const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ');
  // Bash splits the word being typed at `:` and `=` (COMP_WORDBREAKS) and replaces only what
  // follows the last of them: a name with a colon (`Demo: Books`) is offered from there on.
  const broken =
    shell === 'bash' && quote === undefined
      ? Math.max(...[':', '='].map((c) => typed.current.lastIndexOf(c))) + 1
      : 0;
  const lines = completion.candidates.map(({ value, description }) => {
    const shown = oneLine(value).slice(broken);
    const about = description ? oneLine(description) : '';
    switch (shell) {
      case 'bash':
        return quote === "'"
          ? `'${shown.replace(/'/g, `'\\''`)}'`
          : quote === '"'
            ? `"${shown.replace(/["$`\\]/g, '\\$&')}"`
            : shown.replace(/[^\w@%+=:,./-]/g, '\\$&');
      case 'zsh':
        return `${shown.replace(/\\/g, '\\\\').replace(/:/g, '\\:')}${about ? `:${about}` : ''}`;
      case 'fish':
        return `${shown}${about ? `\t${about}` : ''}`;
    }
  });
  return [':values', ...lines].join('\n') + '\n';
}
