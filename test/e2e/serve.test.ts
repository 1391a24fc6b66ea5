import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveFlagsFor, TEST_BACKEND } from '../helpers/backend.js';
import { BOOKS_BIN, runBooks, spawnBooks, temporaryHome, SERVE_TOKEN } from '../helpers/cli.js';
const ADMIN_TOKEN = 'books_admin_test_9Vt2Lx5Qr8Kw1Zn4Hc7Jp3Mb6Gd0Sf';

describe('books serve (the built binary)', () => {
  let home: ReturnType<typeof temporaryHome>;
  beforeEach(() => {
    home = temporaryHome();
  });
  afterEach(() => home.cleanup());

  it('--exec runs the command against the server and exits with its status', async () => {
    const script = [
      `const r = await fetch(process.env.BOOKS_BASE_URL + '/platform/v1/workspaces', {`,
      `  method: 'POST', headers: { authorization: 'Bearer ' + process.env.BOOKS_TOKEN, 'content-type': 'application/json' },`,
      `  body: JSON.stringify({ name: 'From CI' }) });`,
      `console.log(r.status); process.exit(r.status === 201 ? 7 : 1);`,
    ].join(' ');
    const result = await runBooks(
      [
        'serve',
        ...(await serveFlagsFor(['--memory'])),
        '--port',
        '0',
        '--exec',
        `"${process.execPath}" --input-type=module -e "${script.replace(/"/g, '\\"')}"`,
      ],
      home.env,
    );
    expect(result.stdout.trim()).toBe('201');
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(
      /^books: local platform listening on http:\/\/127\.0\.0\.1:\d+\n/,
    );
  });

  it('--exec passes a zero status through', async () => {
    const result = await runBooks(
      [
        'serve',
        ...(await serveFlagsFor(['--memory'])),
        '--port',
        '0',
        '--exec',
        'test -n "$BOOKS_TOKEN"',
      ],
      home.env,
    );
    expect(result.code).toBe(0);
  });

  it('prints the base URL and both tokens once on stderr, serves, and stops cleanly on SIGTERM', async () => {
    const db = path.join(home.home, 'books.sqlite');
    const flags = await serveFlagsFor(['--db', db]);
    const server = spawnBooks(
      ['serve', ...flags, '--port', '0', '--admin-token', ADMIN_TOKEN, '--org-token', SERVE_TOKEN],
      home.env,
    );
    const banner = await server.waitForStderr('organization token');
    const baseUrl = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
    expect(banner).toContain(`admin token         ${ADMIN_TOKEN}`);
    expect(banner).toContain(`organization token  ${SERVE_TOKEN}`);
    if (TEST_BACKEND === 'sqlite') expect(banner).toContain(`database            ${db}`);
    else {
      // The host and the database, never the password.
      const url = new URL(flags[flags.indexOf('--db') + 1]!);
      expect(banner).toContain(
        `database            postgres://${url.username}@${url.host}${url.pathname}\n`,
      );
      expect(banner).not.toContain(`:${url.password}@`);
    }
    const response = await fetch(`${baseUrl}/platform/v1/workspaces`, {
      headers: { authorization: `Bearer ${SERVE_TOKEN}` },
    });
    expect(response.status).toBe(200);

    server.child.kill('SIGTERM');
    const result = await server.result;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.match(/listening on/g)).toHaveLength(1);
    if (TEST_BACKEND === 'sqlite') {
      // Closing the last connection checkpoints the WAL and removes it.
      expect(existsSync(db)).toBe(true);
      expect(existsSync(`${db}-wal`)).toBe(false);
    }
  });

  it('keeps data across restarts of the same --db, and the same --org-token keeps working', async () => {
    const db = path.join(home.home, 'persist.sqlite');
    const create = `fetch(process.env.BOOKS_BASE_URL + '/platform/v1/workspaces', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.BOOKS_TOKEN, 'content-type': 'application/json' }, body: '{"name":"Kept"}' }).then(r => process.exit(r.status === 201 ? 0 : 1))`;
    const count = `fetch(process.env.BOOKS_BASE_URL + '/platform/v1/workspaces', { headers: { authorization: 'Bearer ' + process.env.BOOKS_TOKEN } }).then(r => r.json()).then(b => process.exit(b.pagination.total))`;
    /** Serves `db` just long enough to run `script` under node; resolves to its exit status. */
    const serveAndRun = async (script: string, flags: string[]) =>
      (
        await runBooks(
          [
            'serve',
            ...(await serveFlagsFor(['--db', db])),
            '--port',
            '0',
            ...flags,
            '--exec',
            `"${process.execPath}" -e "${script.replace(/"/g, '\\"')}"`,
          ],
          home.env,
        )
      ).code;
    expect(await serveAndRun(create, ['--org-token', SERVE_TOKEN])).toBe(0);
    expect(await serveAndRun(count, ['--org-token', SERVE_TOKEN])).toBe(1);
    // Without --org-token a fresh token of the same default organization is minted.
    expect(await serveAndRun(count, [])).toBe(1);
  });

  it('defaults to the local platform data file in the user data directory', async () => {
    const result = await runBooks(['serve', '--port', '0', '--exec', 'true'], home.env);
    const expected = path.join(home.home, '.local/share/books/platform.sqlite');
    expect(result.stderr).toContain(`database            ${expected}`);
    expect(existsSync(expected)).toBe(true);
  });

  it.each([
    [['--port', 'abc'], 'books: --port must be a whole number from 0 to 65535, not "abc"'],
    [['--port', '70000'], 'books: --port must be a whole number from 0 to 65535, not "70000"'],
    [['--rate-limit', '-1'], 'books: --rate-limit must be a whole number'],
    [
      ['--webhook-schedule', '0,5,x'],
      'books: --webhook-schedule (each value) must be a whole number',
    ],
    [
      ['--db', 'x.sqlite', '--memory'],
      "books: option '--db <file|url>' cannot be used with option '--memory'",
    ],
    [['--pool-size', '4'], 'books: --pool-size is for a PostgreSQL database (--db postgres://…)'],
    [
      ['--workers', '2', '--memory'],
      'books: --workers needs a database the processes share (--db FILE or postgres://…), not --memory',
    ],
    [
      ['--workers', '0', '--db', 'x.sqlite'],
      'books: --workers must be a whole number from 1 to 64, not "0"',
    ],
    [
      ['--db', 'postgres://books:secret@', '--pool-size', '0'],
      'books: --db: not a PostgreSQL URL; write postgres://USER:PASSWORD@HOST:PORT/DATABASE',
    ],
    [
      ['--db', 'postgres://books:secret@localhost/books', '--pool-size', '0'],
      'books: --pool-size must be a whole number from 1 to 1000, not "0"',
    ],
  ])('exits 2 for a bad flag: %j', async (flags, message) => {
    const result = await runBooks(['serve', ...flags, '--exec', 'true'], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('exits 1 with a clear message when the port is taken', async () => {
    const first = spawnBooks(['serve', '--memory', '--port', '0'], home.env);
    const banner = await first.waitForStderr('organization token');
    const port = /:(\d+)\n/.exec(banner)?.[1];
    const second = await runBooks(['serve', '--memory', '--port', String(port)], home.env);
    first.child.kill('SIGINT');
    expect((await first.result).code).toBe(0);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `books: cannot listen on 127.0.0.1:${port}: the address is in use`,
    );
  });

  it.each([
    ['--org-token', 'org-tok', /--org-token is 7 characters; at least 32 are needed/],
    ['--org-token', 'o'.repeat(40), /--org-token repeats too much/],
    ['--admin-token', 'passwordpasswordpasswordpassword', /--admin-token repeats too much/],
  ])('refuses a weak %s with a random one to use instead (exit 2)', async (flag, token, why) => {
    const result = await runBooks(['serve', '--memory', '--port', '0', flag, token], home.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(why);
    expect(result.stderr).toContain('. A random one: ');
    const suggested = /A random one: (\S+)/.exec(result.stderr)![1]!;
    expect(suggested.length).toBeGreaterThanOrEqual(40);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const accepted = await runBooks(
      ['serve', '--memory', '--port', '0', flag, suggested, '--exec', 'true'],
      home.env,
    );
    expect(accepted.code, accepted.stderr).toBe(0);
  });
});

describe('books --version and --help', () => {
  it('prints the version and help, exiting 0', async () => {
    const home = temporaryHome();
    try {
      const version = await runBooks(['--version'], home.env);
      expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
      const help = await runBooks(['--help'], home.env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('serve [options]');
      const serveHelp = await runBooks(['serve', '--help'], home.env);
      expect(serveHelp.stdout).toContain('--rule-generation-delay <ms>');
      expect(serveHelp.stdout).toContain('Examples:');
      const unknown = await runBooks(['frobnicate'], home.env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toBe(
        "books: unknown command 'frobnicate'\n(run with --help for usage)\n",
      );
    } finally {
      home.cleanup();
    }
  });
});

describe('books output through a pipe', () => {
  it('writes every byte of a large output before exiting', async () => {
    const home = temporaryHome();
    try {
      const script = path.join(home.home, 'check.mjs');
      writeFileSync(
        script,
        `import { spawnSync } from 'node:child_process';
const headers = { authorization: 'Bearer ' + process.env.BOOKS_TOKEN, 'content-type': 'application/json' };
for (let i = 0; i < 400; i++) {
  await fetch(process.env.BOOKS_BASE_URL + '/platform/v1/workspaces', { method: 'POST', headers, body: JSON.stringify({ name: 'x'.repeat(240) + i }) });
}
const out = spawnSync(process.execPath, [${JSON.stringify(BOOKS_BIN)}, 'workspace', 'list', '--json'], { env: process.env, maxBuffer: 1 << 26 });
const parsed = JSON.parse(out.stdout.toString());
process.exit(parsed.length === 400 && out.stdout.length > 131072 ? 0 : 1);
`,
      );
      const result = await runBooks(
        [
          'serve',
          ...(await serveFlagsFor(['--memory'])),
          '--port',
          '0',
          '--rate-limit',
          '0',
          '--exec',
          `"${process.execPath}" "${script}"`,
        ],
        home.env,
      );
      expect(result.code, result.stderr).toBe(0);
    } finally {
      home.cleanup();
    }
  });
});

describe('books --help', () => {
  it('shows examples for every command', async () => {
    const home = temporaryHome();
    try {
      const commands = [
        'login',
        'logout',
        'profile list',
        'profile use',
        'use',
        'config path',
        'config list',
        'config get',
        'config set',
        'log',
        'workspace list',
        'workspace create',
        'workspace get',
        'workspace delete',
        'class list',
        'class create',
        'class get',
        'class rename',
        'class delete',
        'rule list',
        'rule create',
        'rule get',
        'rule update',
        'rule enable',
        'rule disable',
        'rule delete',
        'coa list',
        'coa create',
        'coa get',
        'coa rename',
        'coa move',
        'coa disable',
        'coa enable',
        'coa merge',
        'coa delete',
        'coa import',
        'group list',
        'group create',
        'group get',
        'group update',
        'group delete',
        'je create',
        'je import',
        'je list',
        'je get',
        'je update',
        'je delete',
        'report pl',
        'report bs',
        'report cf',
        'report tb',
        'report gl',
        'sandbox org create',
        'sandbox entity create',
        'sandbox entity list',
        'sandbox entity get',
        'sandbox entity update',
        'sandbox entity lock',
        'sandbox entity open-accrual',
        'serve',
      ];
      const results = await Promise.all(
        commands.map((c) => runBooks([...c.split(' '), '--help'], home.env)),
      );
      results.forEach((result, i) => {
        expect(result.code, commands[i]).toBe(0);
        expect(result.stdout, commands[i]).toMatch(/\nExamples:\n {2}\S/);
      });
    } finally {
      home.cleanup();
    }
  });
});

describe('books --help and --version stay light', () => {
  it('load neither the platform, SQLite, fastify nor undici', async () => {
    const home = temporaryHome();
    try {
      const log = path.join(home.home, 'resolved.log');
      const hooks = path.join(home.home, 'hooks.mjs');
      const register = path.join(home.home, 'register.mjs');
      writeFileSync(
        hooks,
        `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}
`,
      );
      writeFileSync(
        register,
        `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
      );
      for (const args of [
        ['--version'],
        ['--help'],
        ['report', '--help'],
        ['migrate', 'run', '--help'],
      ]) {
        writeFileSync(log, '');
        const { spawnSync } = await import('node:child_process');
        const result = spawnSync(process.execPath, ['--import', register, BOOKS_BIN, ...args], {
          // bin/books.cjs says which chunk of the bundle it loads (ES modules: the hook above).
          env: { ...home.env, NODE_DEBUG: 'books' },
          encoding: 'utf8',
        });
        expect(result.status, result.stderr).toBe(0);
        const { readFileSync } = await import('node:fs');
        // The bundle's metafile says which sources each loaded file holds.
        const meta = JSON.parse(
          readFileSync(path.join(path.dirname(BOOKS_BIN), '../dist/bundle/meta.json'), 'utf8'),
        ) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
        const resolved = readFileSync(log, 'utf8');
        const loaded = [...result.stderr.matchAll(/^BOOKS \d+: (\S+\.cjs) /gm)].map(
          ([, chunk]) => `dist/bundle/${chunk}`,
        );
        expect(loaded).toContain('dist/bundle/main.cjs');
        const sources = loaded.flatMap((file) => Object.keys(meta.outputs[file]?.inputs ?? {}));
        expect(sources.length).toBeGreaterThan(0);
        for (const heavy of [
          'node_modules/undici/',
          'node_modules/fastify/',
          'src/platform/',
          'src/client/',
        ]) {
          expect(
            sources.filter((source) => source.includes(heavy)),
            `${args.join(' ')} loaded ${heavy}`,
          ).toEqual([]);
        }
        expect(resolved).not.toContain('better-sqlite3');
        expect(result.stderr).not.toContain('better-sqlite3');
      }
    } finally {
      home.cleanup();
    }
  });
});
