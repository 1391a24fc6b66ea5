import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks, serveBooks, SERVE_TOKEN, temporaryHome } from '../helpers/cli.js';

/**
 * `books config get|set|list|path` against a profile saved by `books login` and `books use`
 * (the built binary, a real server on a loopback port): every setting with its value and where
 * it came from, and the token never printed.
 */
describe('books config', () => {
  const home = temporaryHome();
  let server: Awaited<ReturnType<typeof serveBooks>>;
  const books = (args: string[], env: NodeJS.ProcessEnv = home.env) => runBooks(args, env);
  const settings = async (args: string[] = [], env?: NodeJS.ProcessEnv) => {
    const result = await books(['config', 'list', '--json', ...args], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(SERVE_TOKEN);
    return Object.fromEntries(
      (JSON.parse(result.stdout) as { key: string; value: string | null; source: string }[]).map(
        (s) => [s.key, [s.value, s.source]],
      ),
    );
  };

  beforeAll(async () => {
    server = await serveBooks(home);
    const login = await runBooks(
      ['login', '--base-url', server.baseUrl, '--token-stdin', '--profile', 'office'],
      home.env,
      `${SERVE_TOKEN}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    for (const args of [
      ['workspace', 'create', 'Acme'],
      ['sandbox', 'entity', 'create', 'North', '-w', 'Acme'],
      ['use', '-w', 'Acme', '-e', 'North'],
    ]) {
      const result = await books(args);
      expect(result.code, result.stderr).toBe(0);
    }
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  it('list: every setting, its value and its source; the token only as set', async () => {
    const workspace = JSON.parse((await books(['workspace', 'get', 'Acme', '--json'])).stdout)
      .workspace.id;
    expect(await settings()).toEqual({
      profile: ['office', 'config file'],
      'base-url': [server.baseUrl, 'profile "office"'],
      token: ['(set; never shown)', 'profile "office"'],
      workspace: [workspace, 'profile "office"'],
      entity: [expect.stringMatching(/^[0-9a-f-]{36}$/), 'profile "office"'],
      // (Asked with --json, in a temporary HOME with NO_COLOR set.)
      output: ['json', 'flag --json'],
      color: ['never', 'environment NO_COLOR'],
      pager: ['less -FRX', 'default'],
      // The order of a/b/year days, where a file does not tell it: not set.
      'date-format': [null, null],
      // The close review's settings.
      'suspense-accounts': [null, null],
      'flux-percent': ['50', 'default'],
      'flux-amount': ['1000.00', 'default'],
    });
    // Flags over the environment over the profile.
    const overridden = await settings(['-w', 'Other', '--no-color'], {
      ...home.env,
      BOOKS_BASE_URL: 'http://127.0.0.1:9',
      BOOKS_TOKEN: SERVE_TOKEN,
    });
    expect(overridden['base-url']).toEqual(['http://127.0.0.1:9', 'environment BOOKS_BASE_URL']);
    expect(overridden.token).toEqual(['(set; never shown)', 'environment BOOKS_TOKEN']);
    expect(overridden.workspace).toEqual(['Other', 'flag --workspace']);
    expect(overridden.color).toEqual(['never', 'flag --no-color']);
    const paged = await settings([], { ...home.env, PAGER: 'more', BOOKS_PAGER: 'less -S' });
    expect(paged.pager).toEqual(['less -S', 'environment BOOKS_PAGER']);
    expect((await settings(['--no-pager'], { ...home.env, PAGER: 'more' })).pager).toEqual([
      'never',
      'flag --no-pager',
    ]);
    const table = await books(['config', 'list']);
    expect(table.stdout.split('\n')[0]).toBe('Setting\tValue\tSource');
  });

  it('get: one value; an unset one says so (exit 1); a token never (exit 2)', async () => {
    const profile = await books(['config', 'get', 'profile']);
    expect([profile.code, profile.stdout]).toEqual([0, 'office\n']);
    const url = await books(['config', 'get', 'base_url']);
    expect([url.code, url.stdout]).toEqual([0, `${server.baseUrl}\n`]);
    const token = await books(['config', 'get', 'token']);
    expect(token.code).toBe(2);
    expect(token.stdout + token.stderr).not.toContain(SERVE_TOKEN);
    expect(token.stderr).toContain('books never prints a token');
    const local = { ...home.env, XDG_CONFIG_HOME: `${home.home}/elsewhere` };
    const unset = await books(['config', 'get', 'workspace'], local);
    expect([unset.code, unset.stderr]).toEqual([1, 'books: workspace is not set\n']);
    const embedded = await books(['config', 'get', 'base-url'], local);
    expect(embedded.code).toBe(1);
    expect(embedded.stderr).toBe('books: base-url is not set: commands use the local platform\n');
    const unknown = await books(['config', 'get', 'editor']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no setting "editor": the settings are profile, base-url');
  });

  it('set: checks keys and values, and every command then follows it', async () => {
    const bad = await books(['config', 'set', 'output', 'xml']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'books: output must be one of table, json, csv, tsv, not "xml"\n',
    ]);
    const workspace = await books(['config', 'set', 'workspace', 'Acme']);
    expect(workspace.code).toBe(2);
    expect(workspace.stderr).toContain('workspace is chosen with books use');
    const profile = await books(['config', 'set', 'profile', 'nowhere']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('no profile named "nowhere" (the profiles: office)');

    const set = await books(['config', 'set', 'output', 'csv']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain('books: output = csv (saved in ');
    expect((await settings()).output).toEqual(['json', 'flag --json']);
    const csv = await books(['workspace', 'list']);
    expect(csv.stdout.split('\n')[0]).toBe('ID,Name,Timezone,Created');
    const flag = await books(['workspace', 'list', '--output', 'tsv']);
    expect(flag.stdout.split('\n')[0]).toBe('ID\tName\tTimezone\tCreated');
    expect(await books(['config', 'get', 'output'])).toMatchObject({ stdout: 'csv\n' });
  });
});
