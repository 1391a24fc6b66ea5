import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { ValueKind } from '../command.js';
import type { Candidate, NameScope } from './words.js';
import { readConfig } from '../config/profiles.js';
import type { CliIo } from '../io.js';
import { booksPaths } from '../config/paths.js';
import { resolveTarget } from '../connection/target.js';

/**
 * Names that live on the platform, for completion: workspaces, the chosen workspace's entities,
 * classes and rules, the chosen entity's accounts (code and name) and groups; and the saved
 * profiles. Platform names are kept a minute in a cache file (a completion is asked at every
 * Tab), fetched with a time limit, and any failure (no platform, no workspace chosen, a timeout)
 * completes nothing: nothing is ever printed into the person's shell.
 */

/** How long fetched names are offered without asking the platform again. */
export const NAMES_CACHE_MS = 60_000;
/** How long a completion waits for the platform (BOOKS_COMPLETION_TIMEOUT_MS to change it). */
export const NAMES_TIMEOUT_MS = 2_000;

interface CacheFile {
  [key: string]: { at: number; candidates: Candidate[] };
}

const cacheFile = (env: NodeJS.ProcessEnv) =>
  path.join(booksPaths(env).cacheDir, 'completion-names.json');

function readCache(env: NodeJS.ProcessEnv): CacheFile {
  try {
    return JSON.parse(readFileSync(cacheFile(env), 'utf8')) as CacheFile;
  } catch {
    return {};
  }
}

function writeCache(env: NodeJS.ProcessEnv, cache: CacheFile, now: number): void {
  const file = cacheFile(env);
  const fresh = Object.fromEntries(
    Object.entries(cache).filter(([, entry]) => now - entry.at < NAMES_CACHE_MS),
  );
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(fresh), { mode: 0o600 });
  renameSync(partial, file);
}

/** The names of `kind` in `scope`, from the cache when fresh, else from the platform. */
export async function platformNames(
  kind: ValueKind,
  scope: NameScope,
  io: CliIo,
  now: () => number = Date.now,
): Promise<Candidate[]> {
  const config = readConfig(io.env);
  if (kind === 'profile') {
    return Object.entries(config.profiles).map(([name, profile]) => ({
      value: name,
      description: profile.baseUrl ?? 'the local platform',
    }));
  }
  const target = resolveTarget(scope, io.env, config);
  const key = JSON.stringify([
    kind,
    target.kind === 'remote' ? target.baseUrl : `local ${booksPaths(io.env).platformDatabase}`,
    target.profileName ?? '',
    scope.workspace ?? target.profile.workspace ?? '',
    scope.entity ?? target.profile.entity ?? '',
  ]);
  const cache = readCache(io.env);
  const cached = cache[key];
  if (cached && now() - cached.at < NAMES_CACHE_MS) return cached.candidates;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const limit = Number(io.env.BOOKS_COMPLETION_TIMEOUT_MS) || NAMES_TIMEOUT_MS;
    timer = setTimeout(() => reject(new Error('timed out')), limit);
    timer.unref();
  });
  try {
    const candidates = await Promise.race([fetchNames(kind, scope, io), timeout]);
    writeCache(io.env, { ...cache, [key]: { at: now(), candidates } }, now());
    return candidates;
  } finally {
    clearTimeout(timer);
  }
}

/** The names, asked of the platform through a context with no terminal and silent streams. */
async function fetchNames(kind: ValueKind, scope: NameScope, io: CliIo): Promise<Candidate[]> {
  const { CommandContext } = await import('../context.js');
  const silent: CliIo = {
    ...io,
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
  };
  const ctx = new CommandContext(silent, { ...scope });
  try {
    const api = await ctx.api();
    switch (kind) {
      case 'workspace':
        return (await api.workspaces.all()).map((w) => ({ value: w.name, description: w.id }));
      case 'entity': {
        const entities = await api.sandbox.entities(await ctx.workspaceId());
        return entities.map((e) => ({ value: e.name, description: e.id }));
      }
      case 'account': {
        const accounts = await api.accounts.all(await ctx.entityId());
        return accounts.flatMap((a) => [
          { value: a.name, description: `${a.code} ${a.type}` },
          { value: String(a.code), description: a.name },
        ]);
      }
      case 'group': {
        const groups = await api.accountGroups.all(await ctx.entityId());
        return groups.map((g) => ({ value: g.name, description: g.type }));
      }
      case 'class': {
        const classes = await api.classes.all(await ctx.workspaceId());
        return classes.map((c) => ({ value: c.label, description: c.id }));
      }
      case 'rule': {
        const [rules, { ruleFields }] = await Promise.all([
          api.transactionRules.all(await ctx.workspaceId()),
          import('../commands/rule/shared.js'),
        ]);
        return rules.map((rule) => {
          const [, [, when], [, then]] = ruleFields(rule) as [
            unknown,
            [string, string],
            [string, string],
          ];
          return { value: rule.id, description: `${when} → ${then}` };
        });
      }
      default:
        return [];
    }
  } finally {
    await ctx.close();
  }
}
