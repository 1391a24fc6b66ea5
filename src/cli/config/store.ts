import Conf from 'conf';
import path from 'node:path';
import type { BooksConfig } from './profiles.js';
import { UsageError } from '../exitCodes.js';
import { booksPaths } from './paths.js';

/**
 * The config file (`books config path`) for commands that change it, written with mode 0600
 * because it holds tokens. Opened per command: the environment (HOME, XDG_CONFIG_HOME) decides
 * where it lives.
 */
export function openConfig(env: NodeJS.ProcessEnv = process.env): Conf<BooksConfig> {
  const { configDir } = booksPaths(env);
  try {
    return new Conf<BooksConfig>({
      projectName: 'books',
      cwd: configDir,
      configName: 'config',
      configFileMode: 0o600,
      defaults: { profiles: {} },
    });
  } catch (error) {
    // The same words as reading it (config.ts): a hand-edited file gone wrong is not a bug.
    if (error instanceof SyntaxError) {
      const file = path.join(configDir, 'config.json');
      throw new UsageError(`the config file ${file} is not valid JSON: fix it or remove it`);
    }
    throw error;
  }
}
