import envPaths from 'env-paths';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError, UserError } from '../exitCodes.js';

/**
 * Where `books` keeps its files, from the given environment: XDG directories on Linux
 * (XDG_DATA_HOME, XDG_CONFIG_HOME, else under HOME), the platform's usual places elsewhere.
 */
export function booksPaths(env: NodeJS.ProcessEnv = process.env) {
  let dataDir: string;
  let configDir: string;
  let cacheDir: string;
  if (process.platform === 'linux' || env.XDG_DATA_HOME || env.XDG_CONFIG_HOME) {
    const home = env.HOME || os.homedir();
    dataDir = path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'books');
    configDir = path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'books');
    cacheDir = path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'books');
  } else {
    const paths = envPaths('books', { suffix: '' });
    dataDir = paths.data;
    configDir = paths.config;
    cacheDir = paths.cache;
  }
  return {
    dataDir,
    configDir,
    /** What can be made again: an import's copy of its file's entries while it runs. */
    cacheDir,
    /** The embedded local platform's database, also `books serve`'s default. */
    platformDatabase: path.join(dataDir, 'platform.sqlite'),
  };
}

/** Whether a database location is a PostgreSQL URL (else a SQLite file, or `:memory:`). */
export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/**
 * The database a `books db` command works on: the one given, else BOOKS_DATABASE_URL (a shared
 * server's), else the local platform's file.
 */
export function chosenDatabase(env: NodeJS.ProcessEnv, given: string | undefined): string {
  return given ?? (env.BOOKS_DATABASE_URL || booksPaths(env).platformDatabase);
}

/**
 * A directory to write into, made with its missing parents, one level at a time (Node's
 * recursive mkdir never returns under /proc); the absolute path. A path that is a file, or a
 * directory that cannot be made, is the user's error, said plainly.
 */
export function directoryToWrite(given: string): string {
  const directory = path.resolve(given);
  const missing: string[] = [];
  let at = directory;
  while (!existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  if (existsSync(at) && !statSync(at).isDirectory())
    throw new UsageError(`${at === directory ? given : at} is a file, not a directory`);
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason =
        code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EROFS'
            ? 'the file system is read-only'
            : code === 'ENOSPC'
              ? 'the disk is full'
              : `the file system refused it (${code ?? 'no reason given'})`;
      throw new UserError(`cannot make the directory ${level}: ${reason}`);
    }
  }
  return directory;
}
