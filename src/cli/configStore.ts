import Conf from 'conf';
import type { BooksConfig } from './config.js';
import { booksPaths } from './paths.js';

/**
 * The config file (`books config path`) for commands that change it, written with mode 0600
 * because it holds tokens. Opened per command: the environment (HOME, XDG_CONFIG_HOME) decides
 * where it lives.
 */
export function openConfig(env: NodeJS.ProcessEnv = process.env): Conf<BooksConfig> {
  return new Conf<BooksConfig>({
    projectName: 'books',
    cwd: booksPaths(env).configDir,
    configName: 'config',
    configFileMode: 0o600,
    defaults: { profiles: {} },
  });
}
