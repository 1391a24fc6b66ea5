import { flagNames, type ValueSpec } from './command.js';
import { OUTPUT_FORMATS } from './terminal/output.js';

/** An option every command takes (before or after the command's name). */
export interface GlobalOption extends ValueSpec {
  readonly flags: string;
  readonly description: string;
}

/** The global options, in the order help lists them (program.ts declares them, completion offers them). */
export const GLOBAL_OPTIONS: readonly GlobalOption[] = [
  {
    flags: '--base-url <url>',
    description: 'platform to talk to (else BOOKS_BASE_URL, the profile, or the local platform)',
  },
  { flags: '--token <token>', description: 'access token (else BOOKS_TOKEN or the profile)' },
  {
    flags: '--profile <name>',
    description: 'saved profile to use (else BOOKS_PROFILE or the current one)',
    names: 'profile',
  },
  {
    flags: '-w, --workspace <workspace>',
    description: 'workspace, by id or name (else the profile)',
    names: 'workspace',
  },
  {
    flags: '-e, --entity <entity>',
    description: 'entity, by id or name (else the profile)',
    names: 'entity',
  },
  { flags: '--json', description: 'print JSON (errors too, on stderr)' },
  {
    flags: '-o, --output <format>',
    description: 'table, json, csv or tsv (errors in JSON with json)',
    choices: OUTPUT_FORMATS,
  },
  { flags: '--no-color', description: 'no colors' },
  {
    flags: '--no-pager',
    description: 'never page long output at a terminal (else BOOKS_PAGER, PAGER or less)',
  },
  { flags: '-y, --yes', description: 'skip confirmations' },
  { flags: '--verbose', description: 'say more on stderr (which platform is used)' },
];

/** The flags of the global options that take a value (`-w`, `--workspace`, …). */
export const VALUED_GLOBALS: ReadonlySet<string> = new Set(
  GLOBAL_OPTIONS.filter((option) => option.flags.includes('<')).flatMap((option) =>
    flagNames(option.flags),
  ),
);
