import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBooks, spawnBooks, temporaryHome, SERVE_TOKEN } from '../helpers/cli.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

/**
 * The local platform's database holds webhook secrets and token hashes; its data directory the
 * token. Made by the built binary in a temporary HOME, each is its owner's alone: the directory
 * 0700, the database (and SQLite's -wal and -shm beside it) 0600, the config 0600.
 */
describe('secrets at rest', () => {
  const homes: ReturnType<typeof temporaryHome>[] = [];
  const home = () => {
    const made = temporaryHome();
    homes.push(made);
    return made;
  };
  afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));

  it('the embedded platform makes its directory 0700 and its database 0600', async () => {
    const { env, home: dir } = home();
    const created = await runBooks(['workspace', 'create', 'Private Books'], env);
    expect(created.code, created.stderr).toBe(0);
    const config = await runBooks(['config', 'set', 'output', 'json'], env);
    expect(config.code, config.stderr).toBe(0);
    const data = path.join(dir, '.local/share/books');
    expect(modeOf(data)).toBe(0o700);
    for (const file of ['platform.sqlite', 'platform.sqlite-wal', 'platform.sqlite-shm']) {
      if (existsSync(path.join(data, file))) expect(modeOf(path.join(data, file))).toBe(0o600);
    }
    expect(modeOf(path.join(data, 'platform.sqlite'))).toBe(0o600);
    expect(modeOf(path.join(data, 'local-token'))).toBe(0o600);
    expect(modeOf(path.join(dir, '.config/books/config.json'))).toBe(0o600);
  });

  it('serve creates its database 0600, and narrows an older one readable by others', async () => {
    const { env, home: dir } = home();
    for (const [file, existing] of [
      [path.join(dir, 'new.sqlite'), false],
      [path.join(dir, 'old.sqlite'), true],
    ] as const) {
      if (existing) {
        writeFileSync(file, '');
        chmodSync(file, 0o644);
      }
      const server = spawnBooks(
        ['serve', '--db', file, '--port', '0', '--org-token', SERVE_TOKEN],
        env,
      );
      await server.waitForStderr('organization token');
      server.child.kill('SIGTERM');
      await server.result;
      expect(modeOf(file), file).toBe(0o600);
    }
  });
});
