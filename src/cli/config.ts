import Conf from 'conf';
import { booksPaths } from './paths.js';

/** A saved connection: where to talk, with what token, and the chosen workspace and entity. */
export interface Profile {
  baseUrl?: string;
  token?: string;
  workspace?: string;
  entity?: string;
}

export interface BooksConfig {
  currentProfile?: string;
  profiles: Record<string, Profile>;
  [key: string]: unknown;
}

/** The profile that stands for the embedded local platform. */
export const LOCAL_PROFILE = 'local';

/**
 * The config file (`books config path`), written with mode 0600 because it holds tokens. Opened
 * per command: the environment (HOME, XDG_CONFIG_HOME) decides where it lives.
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
