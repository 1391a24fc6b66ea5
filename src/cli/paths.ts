import envPaths from 'env-paths';
import path from 'node:path';

/**
 * Where `books` keeps its files: XDG directories on Linux (respecting XDG_DATA_HOME and HOME
 * as the process sees them), the platform's usual places elsewhere.
 */
export function booksPaths() {
  const paths = envPaths('books', { suffix: '' });
  return {
    dataDir: paths.data,
    configDir: paths.config,
    /** The embedded local platform's database, also `books serve`'s default. */
    platformDatabase: path.join(paths.data, 'platform.sqlite'),
  };
}
