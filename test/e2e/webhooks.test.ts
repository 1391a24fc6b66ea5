import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  runBooks,
  spawnBooks,
  temporaryHome,
  type CliResult,
  type RunningCli,
  SERVE_TOKEN,
} from '../helpers/cli.js';
import { serveFlagsFor } from '../helpers/backend.js';
import { send } from '../helpers/server.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhookReceiver.js';

const SECRET = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(24, 2).toString('base64')}`;
const ENVELOPE = {
  event: 'feed.connection.disconnected',
  version: 1,
  occurredAt: 1_795_000_000,
  payload: {
    connectionId: '0192f3c4-0000-7000-8000-000000000001',
    workspaceId: '0192f3c4-0000-7000-8000-000000000002',
    entityId: '0192f3c4-0000-7000-8000-000000000003',
    bankName: 'Chase',
    errorCode: 'disconnected',
  },
};

/** A delivery signed as the platform signs one, with the library's own `sign`. */
function signed(
  id: string,
  options: { body?: string; secret?: string; at?: Date; prefix?: 'webhook' | 'hook' } = {},
) {
  const body = options.body ?? JSON.stringify(ENVELOPE);
  const at = options.at ?? new Date();
  const prefix = options.prefix ?? 'webhook';
  return {
    body,
    headers: {
      [`${prefix}-id`]: id,
      [`${prefix}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
      [`${prefix}-signature`]: new Webhook(options.secret ?? SECRET).sign(id, at, body),
    },
  };
}

/** A port free right now, for a receiver that must be named before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const post = (url: string, delivery: { body: string; headers: Record<string, string> }) =>
  fetch(url, {
    method: 'POST',
    headers: { ...delivery.headers, 'content-type': 'application/json' },
    body: delivery.body,
  });

describe('books webhook (the built binary)', () => {
  let home: ReturnType<typeof temporaryHome>;
  const running: RunningCli[] = [];
  const receivers: WebhookReceiver[] = [];
  beforeEach(() => {
    home = temporaryHome();
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      cli.child.kill('SIGTERM');
      await cli.result;
    }
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    home.cleanup();
  });

  async function startListener(args: string[] = []) {
    const cli = spawnBooks(
      ['webhook', 'listen', '--port', '0', '--secret', SECRET, ...args],
      home.env,
    );
    running.push(cli);
    const banner = await cli.waitForStderr('listening for webhooks');
    const url = /on (http:\/\/\S+?\/)[,\s]/.exec(banner)![1]!;
    return { cli, url };
  }

  describe('listen', () => {
    it('accepts a genuine delivery once, prints it as a JSON line, and rejects tampering, staleness and a wrong secret', async () => {
      const { cli, url } = await startListener(['--json']);
      const genuine = signed('msg_genuine');
      expect((await post(url, genuine)).status).toBe(200);
      // The same message again (a retry after a lost answer): acknowledged, not handled twice.
      expect((await post(url, genuine)).status).toBe(200);
      await cli.waitForStderr('msg_genuine was received already');

      const tampered = { ...genuine, body: genuine.body.replace('Chase', 'Chasf') };
      const stale = signed('msg_stale', { at: new Date(Date.now() - 6 * 60 * 1000) });
      const wrongSecret = signed('msg_wrong', { secret: OTHER_SECRET });
      const rejections = [
        [tampered, 'no signature matches'],
        [stale, 'more than five minutes old'],
        [wrongSecret, 'no signature matches'],
      ] as const;
      for (const [delivery, reason] of rejections) {
        const response = await post(url, delivery);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { message: string }).message).toContain(reason);
      }
      // The hook-* prefix alone is read too.
      expect((await post(url, signed('msg_hook_prefix', { prefix: 'hook' }))).status).toBe(200);
      expect((await fetch(url)).status).toBe(405);

      cli.child.kill('SIGTERM');
      const result = await cli.result;
      expect(result.code).toBe(0);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines).toEqual([
        { messageId: 'msg_genuine', timestamp: expect.any(Number), ...ENVELOPE },
        { messageId: 'msg_hook_prefix', timestamp: expect.any(Number), ...ENVELOPE },
      ]);
      expect(result.stderr.match(/rejected a delivery/g)).toHaveLength(3);
    }, 30_000);

    it('forwards a genuine delivery unchanged and answers with the forward’s status; a failed forward is not deduplicated', async () => {
      const app = await startReceiver();
      receivers.push(app);
      app.answers = [500, 202];
      const { url } = await startListener(['--forward-to', app.url]);
      const delivery = signed('msg_forwarded');
      expect((await post(url, delivery)).status).toBe(500);
      // The platform retries; this time the application takes it.
      expect((await post(url, delivery)).status).toBe(202);
      expect((await post(url, delivery)).status).toBe(200);
      expect(app.deliveries).toHaveLength(2);
      const arrived = app.deliveries[1]!;
      expect(arrived.body.toString()).toBe(delivery.body);
      expect(arrived.headers['webhook-signature']).toBe(delivery.headers['webhook-signature']);
      // What was forwarded still verifies: it is byte for byte what was signed.
      expect(() =>
        new Webhook(SECRET).verify(arrived.body, arrived.headers as Record<string, string>),
      ).not.toThrow();
    }, 30_000);

    it('prints deliveries readably on a terminal-less stdout without --json', async () => {
      const { cli, url } = await startListener();
      expect((await post(url, signed('msg_readable'))).status).toBe(200);
      cli.child.kill('SIGTERM');
      const { stdout } = await cli.result;
      expect(stdout).toBe(
        [
          'feed.connection.disconnected  2026-11-18T11:06:40Z  message msg_readable  (envelope v1)',
          '  connectionId  0192f3c4-0000-7000-8000-000000000001',
          '  workspaceId   0192f3c4-0000-7000-8000-000000000002',
          '  entityId      0192f3c4-0000-7000-8000-000000000003',
          '  bankName      Chase',
          '  errorCode     disconnected',
          '',
        ].join('\n'),
      );
    });

    it('refuses a secret that is not whsec_ base64, and a bad --forward-to, as usage errors', async () => {
      const badSecret = await runBooks(['webhook', 'listen', '--secret', 'hunter2'], home.env);
      expect(badSecret.code).toBe(2);
      expect(badSecret.stderr).toContain('--secret: a signing secret is whsec_ followed by base64');
      const badForward = await runBooks(
        ['webhook', 'listen', '--secret', SECRET, '--forward-to', 'localhost:3000'],
        home.env,
      );
      expect(badForward.code).toBe(2);
      expect(badForward.stderr).toContain('--forward-to must be an http:// or https:// URL');
    });
  });

  describe('verify', () => {
    it('exits 0 for a genuine capture (JSON or curl-style headers) and 3 when it is not', async () => {
      const delivery = signed('msg_captured');
      const file = (name: string, text: string) => {
        const at = path.join(home.home, name);
        writeFileSync(at, text);
        return at;
      };
      const body = file('body.json', delivery.body);
      const jsonHeaders = file('headers.json', JSON.stringify(delivery.headers));
      const curlHeaders = file(
        'headers.txt',
        [
          'POST /hooks HTTP/1.1',
          'Host: example.com',
          ...Object.entries(delivery.headers).map(([k, v]) => `${k}: ${v}`),
          '',
        ].join('\r\n'),
      );
      for (const headers of [jsonHeaders, curlHeaders]) {
        const ok = await runBooks(
          ['webhook', 'verify', '--secret', SECRET, '--headers', headers, '--body', body, '--json'],
          home.env,
        );
        expect(ok.code, ok.stderr).toBe(0);
        expect(JSON.parse(ok.stdout)).toMatchObject({ messageId: 'msg_captured', ...ENVELOPE });
        expect(ok.stderr).toContain('genuine: message msg_captured verifies with this secret');
      }
      const tampered = file('tampered.json', delivery.body.replace('"version":1', '"version":2'));
      const refused = await runBooks(
        ['webhook', 'verify', '--secret', SECRET, '--headers', jsonHeaders, '--body', tampered],
        home.env,
      );
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('not a genuine delivery: no signature matches');
      const missing = await runBooks(
        [
          'webhook',
          'verify',
          '--secret',
          SECRET,
          '--headers',
          file('empty.txt', ''),
          '--body',
          body,
        ],
        home.env,
      );
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain('the webhook-id (or hook-id) header is missing');
    });
  });

  describe('against books serve', () => {
    /** Serves `db`; resolves with the base URL and the org token. */
    async function serve(db: string, schedule: string) {
      const cli = spawnBooks(
        [
          'serve',
          ...(await serveFlagsFor(['--db', db])),
          '--port',
          '0',
          '--org-token',
          SERVE_TOKEN,
          '--webhook-schedule',
          schedule,
        ],
        home.env,
      );
      running.push(cli);
      const banner = await cli.waitForStderr('organization token');
      return { cli, baseUrl: /listening on (http:\/\/\S+)/.exec(banner)![1]! };
    }

    /** A workspace Acme, an entity Bakery and a bank feed; resolves with the connection id. */
    async function connectedFeed(books: (...args: string[]) => Promise<CliResult>) {
      for (const args of [
        ['workspace', 'create', 'Acme'],
        ['sandbox', 'entity', 'create', 'Bakery', '-w', 'Acme'],
      ]) {
        const result = await books(...args);
        expect(result.code, result.stderr).toBe(0);
      }
      const connected = await books(
        ...['sandbox', 'feed', 'connect', '--bank', 'Chase', '--account', 'Chase Checking:bank'],
        ...['-w', 'Acme', '-e', 'Bakery', '--json'],
      );
      expect(connected.code, connected.stderr).toBe(0);
      return JSON.parse(connected.stdout).connection.id as string;
    }

    it('delivers the messages pending at a restart of the same --db after it', async () => {
      const app = await startReceiver();
      receivers.push(app);
      app.answers = [503];
      const db = path.join(home.home, 'books.sqlite');
      const first = await serve(db, '0,3');
      const env = { ...home.env, BOOKS_BASE_URL: first.baseUrl, BOOKS_TOKEN: SERVE_TOKEN };
      const books = (...args: string[]) => runBooks(args, env);
      const added = await books('sandbox', 'webhook', 'add', app.url, '--json');
      expect(added.code, added.stderr).toBe(0);
      const { secret, endpoint } = JSON.parse(added.stdout);
      const connectionId = await connectedFeed(books);
      expect((await books('sandbox', 'feed', 'break', connectionId, '-w', 'Acme')).code).toBe(0);
      const attempts = async (baseUrl: string, count: number) => {
        const listed = async () =>
          (
            await send(
              baseUrl,
              SERVE_TOKEN,
              'GET',
              `/sandbox/v1/webhook-endpoints/${endpoint.id}/attempts`,
            )
          ).body.data;
        for (let i = 0; i < 50 && (await listed()).length < count; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return listed();
      };
      await app.waitFor(1);
      // The first attempt recorded (a stop while it is in flight abandons it, and the next
      // start makes it again as attempt 1), then stopped before the retry three seconds later.
      expect(await attempts(first.baseUrl, 1)).toHaveLength(1);
      first.cli.child.kill('SIGTERM');
      expect((await first.cli.result).code).toBe(0);

      const second = await serve(db, '0,3');
      const [failed, delivered] = await app.waitFor(2, 15_000);
      expect(delivered!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
      expect(
        new Webhook(secret).verify(delivered!.body, delivered!.headers as Record<string, string>),
      ).toMatchObject({ event: 'feed.connection.disconnected', payload: { connectionId } });
      expect(
        (await attempts(second.baseUrl, 2)).map((a: any) => [
          a.attempt,
          a.status,
          a.responseStatus,
        ]),
      ).toEqual([
        [2, 'succeeded', 200],
        [1, 'failed', 503],
      ]);
    }, 60_000);

    it('reaches books webhook listen, and the sandbox webhook commands manage the endpoint', async () => {
      const { baseUrl } = await serve(path.join(home.home, 'books.sqlite'), '0,1');
      const env = { ...home.env, BOOKS_BASE_URL: baseUrl, BOOKS_TOKEN: SERVE_TOKEN };
      const books = (...args: string[]) => runBooks(args, env);
      // The endpoint comes first (its secret is made by the platform), then the listener on its port.
      const port = await freePort();
      const listenUrl = `http://127.0.0.1:${port}/`;
      const added = await books(
        'sandbox',
        'webhook',
        'add',
        listenUrl,
        '--event',
        'feed.connection.disconnected',
      );
      expect(added.code, added.stderr).toBe(0);
      expect(added.stderr).toContain('books: organization: added webhook endpoint');
      const secret = /^secret\s+(whsec_\S+)$/m.exec(added.stdout)![1]!;
      const endpointId = /^id\s+(\S+)$/m.exec(added.stdout)![1]!;
      const cli = spawnBooks(
        ['webhook', 'listen', '--port', String(port), '--secret', secret, '--json'],
        home.env,
      );
      running.push(cli);
      await cli.waitForStderr('listening for webhooks');

      const connectionId = await connectedFeed(books);
      await books(
        'sandbox',
        'feed',
        'break',
        connectionId,
        '-w',
        'Acme',
        '--error',
        'mfa_required',
      );
      for (let i = 0; i < 100 && !(await attemptsOf()).includes('succeeded'); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      async function attemptsOf() {
        return (await books('sandbox', 'webhook', 'attempts', endpointId)).stdout;
      }
      const log = await attemptsOf();
      expect(log.split('\n')[0]).toBe('At\tMessage\tEvent\tAttempt\tStatus\tResponse');
      expect(log).toMatch(/\tfeed\.connection\.disconnected\t1\tsucceeded\t200\n$/);
      const messageId = log.split('\n')[1]!.split('\t')[1]!;

      // A manual retry sends it again; the listener acknowledges the replay and prints it once.
      const retried = await books('sandbox', 'webhook', 'retry', endpointId, messageId);
      expect(retried.code, retried.stderr).toBe(0);
      await cli.waitForStderr(`${messageId} was received already`);

      const rotated = await books('sandbox', 'webhook', 'rotate', endpointId, '--json');
      expect(JSON.parse(rotated.stdout).secret).toMatch(/^whsec_/);
      const listed = await books('sandbox', 'webhook', 'list', '--json');
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({
          id: endpointId,
          eventTypes: ['feed.connection.disconnected'],
          disabled: false,
        }),
      ]);
      const recoverUsage = await books('sandbox', 'webhook', 'retry', endpointId);
      expect(recoverUsage.code).toBe(2);
      const recovered = await books(
        'sandbox',
        'webhook',
        'retry',
        endpointId,
        '--since',
        '2026-01-01',
      );
      expect(recovered.code, recovered.stderr).toBe(0);
      const unconfirmed = await books('sandbox', 'webhook', 'remove', endpointId);
      expect(unconfirmed.code).toBe(2);
      expect((await books('sandbox', 'webhook', 'remove', endpointId, '--yes')).code).toBe(0);
      expect((await books('sandbox', 'webhook', 'attempts', endpointId)).code).toBe(5);

      cli.child.kill('SIGTERM');
      const { stdout } = await cli.result;
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        messageId,
        event: 'feed.connection.disconnected',
        payload: { connectionId, bankName: 'Chase', errorCode: 'mfa_required' },
      });
    }, 60_000);
  });
});
