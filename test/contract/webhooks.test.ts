import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_TIMEOUT_MS } from '../../src/platform/domain/webhooks.js';
import { createEntity } from '../helpers/ledger.js';
import {
  createOrganization,
  errorOf,
  MISSING_ID,
  startServer,
  type RequestOptions,
  type TestServer,
} from '../helpers/server.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhookReceiver.js';

const EVENT = 'feed.connection.disconnected';

/**
 * Webhooks over real HTTP both ways: the platform on a loopback port delivers to a real receiver
 * on another. Each test works in its own organization, since endpoints cover a whole book of
 * business. The retry schedule is compressed to `0,0.3,0.3`: three attempts, 0.3 s apart.
 */
describe('webhooks', () => {
  let server: TestServer;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    // An endpoint's 15 seconds to answer, shortened to one: the suite waits for no real timeout.
    server = await startServer({ webhookScheduleSeconds: [0, 0.3, 0.3], webhookTimeoutMs: 1_000 });
  });
  afterAll(() => server.close());
  /** Deliveries to an endpoint still to be attempted: what a wait would have shown. */
  const pendingTo = async (endpointId: string) =>
    Number(
      (
        await server.platform.engine.store.database.sql.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND status = 'pending'",
          [endpointId],
        )
      )?.n,
    );
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };

  /** A fresh organization with an entity, and helpers that speak as it. */
  async function firm() {
    const { token } = await createOrganization(server);
    const request = (method: string, path: string, options: RequestOptions = {}) =>
      server.request(method, path, { token, ...options });
    const books = await createEntity(server, { token });
    const addEndpoint = async (url: string, eventTypes?: string[]) => {
      const response = await request('POST', '/sandbox/v1/webhook-endpoints', {
        body: { url, ...(eventTypes && { eventTypes }) },
      });
      expect(response.status, response.text).toBe(201);
      return response.body as { endpoint: { id: string }; secret: string };
    };
    const connect = async (body: Record<string, unknown> = {}) => {
      const response = await request(
        'POST',
        `/sandbox/v1/entities/${books.entityId}/bank-feed-connections`,
        {
          body: {
            bankName: 'Chase',
            accounts: [{ name: `Checking ${Math.random()}`, kind: 'bank' }],
            ...body,
          },
        },
      );
      expect(response.status, response.text).toBe(201);
      return response.body.connection as {
        id: string;
        financialAccounts: Array<{ id: string }>;
      };
    };
    const breakConnection = async (id: string, errorCode = 'disconnected') => {
      const response = await request('POST', `/sandbox/v1/bank-feed-connections/${id}/break`, {
        body: { errorCode },
      });
      expect(response.status, response.text).toBe(200);
    };
    const attempts = async (endpointId: string) =>
      (await request('GET', `/sandbox/v1/webhook-endpoints/${endpointId}/attempts`)).body.data;
    return { token, request, books, addEndpoint, connect, breakConnection, attempts };
  }

  const envelopeOf = (delivery: { body: Buffer }) => JSON.parse(delivery.body.toString('utf8'));
  /** Waits until the attempt log has `count` entries (it is written just after the answer). */
  async function attemptLog(read: () => Promise<any[]>, count: number, timeoutMs = 5_000) {
    for (let i = 0; i < timeoutMs / 50; i += 1) {
      const log = await read();
      if (log.length >= count) return log;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the attempt log never reached ${count} entries`);
  }

  describe('the portal', () => {
    it('adds an endpoint: 201 with a whsec_ secret of 24 random bytes; lists and gets it', async () => {
      const { request, addEndpoint } = await firm();
      const created = await addEndpoint('https://hooks.example.com/books', [EVENT]);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24);
      expect(created.endpoint).toEqual({
        id: expect.any(String),
        url: 'https://hooks.example.com/books',
        eventTypes: [EVENT],
        disabled: false,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const list = await request('GET', '/sandbox/v1/webhook-endpoints');
      expect(list.body).toEqual({
        data: [created.endpoint],
        pagination: { limit: 100, offset: 0, total: 1 },
      });
      const got = await request('GET', `/sandbox/v1/webhook-endpoints/${created.endpoint.id}`);
      expect(got.body).toEqual({ endpoint: created.endpoint });
      const all = await addEndpoint('http://localhost:9999/hooks');
      expect(all.endpoint).toMatchObject({ eventTypes: [], url: 'http://localhost:9999/hooks' });
      await addEndpoint('http://127.0.0.1:9999/');
      await addEndpoint('http://[::1]:9999/');
    });

    it.each([
      ['http://hooks.example.com/books', 'plain http:// only for loopback hosts'],
      ['http://10.0.0.5/hook', 'plain http:// only for loopback hosts'],
      ['ftp://hooks.example.com/', 'must be an https:// URL'],
      ['hooks.example.com/books', 'must be an absolute https:// URL'],
    ])('refuses the url %s with 400', async (url, message) => {
      const { request } = await firm();
      const response = await request('POST', '/sandbox/v1/webhook-endpoints', { body: { url } });
      expect(errorOf(response)).toMatchObject({ status: 400, traceMatches: true });
      expect(response.body.message).toContain(message);
    });

    it('refuses an event type outside the catalogue (400) and a missing url (400)', async () => {
      const { request } = await firm();
      const unknown = await request('POST', '/sandbox/v1/webhook-endpoints', {
        body: {
          url: 'https://hooks.example.com/',
          eventTypes: [EVENT, 'feed.connection.exploded'],
        },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe(
        'eventTypes[1] "feed.connection.exploded" is not an event type (known: feed.connection.disconnected)',
      );
      const missing = await request('POST', '/sandbox/v1/webhook-endpoints', { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toContain('url');
    });

    it('answers 401 without a token and 404 for an endpoint that is not there or not ours', async () => {
      const { request, addEndpoint } = await firm();
      const mine = await addEndpoint('https://hooks.example.com/');
      expect(
        (await server.request('GET', '/sandbox/v1/webhook-endpoints', { token: null })).status,
      ).toBe(401);
      const other = await firm();
      for (const [method, path, body] of [
        ['GET', ''],
        ['DELETE', ''],
        ['POST', '/rotate-secret'],
        ['GET', '/attempts'],
        ['POST', `/messages/${MISSING_ID}/retry`],
        ['POST', '/recover', { since: '2026-01-01T00:00:00.000Z' }],
      ] as const) {
        for (const id of [MISSING_ID, 'not-a-uuid', mine.endpoint.id]) {
          const as = id === mine.endpoint.id ? other.request : request;
          const response = await as(method, `/sandbox/v1/webhook-endpoints/${id}${path}`, {
            body,
          });
          expect(response.status, `${method} ${path} ${id}`).toBe(404);
        }
      }
      const retry = await request(
        'POST',
        `/sandbox/v1/webhook-endpoints/${mine.endpoint.id}/messages/${MISSING_ID}/retry`,
      );
      expect(retry.status).toBe(404);
      expect(retry.body.message).toBe('message not found');
    });

    it('deletes an endpoint (200), after which it is 404', async () => {
      const { request, addEndpoint } = await firm();
      const { endpoint } = await addEndpoint('https://hooks.example.com/');
      const path = `/sandbox/v1/webhook-endpoints/${endpoint.id}`;
      expect((await request('DELETE', path)).status).toBe(200);
      expect((await request('GET', path)).status).toBe(404);
      expect((await request('GET', '/sandbox/v1/webhook-endpoints')).body.data).toEqual([]);
    });

    it('recover takes a date-time: anything else is 400', async () => {
      const { request, addEndpoint } = await firm();
      const { endpoint } = await addEndpoint('https://hooks.example.com/');
      const path = `/sandbox/v1/webhook-endpoints/${endpoint.id}/recover`;
      expect((await request('POST', path, { body: { since: 'yesterday' } })).status).toBe(400);
      expect((await request('POST', path, { body: {} })).status).toBe(400);
      expect(
        (await request('POST', path, { body: { since: '2026-11-01T00:00:00Z' } })).status,
      ).toBe(202);
    });
  });

  describe('delivery', () => {
    it('delivers the envelope, signed: verified byte for byte with the library, under both header prefixes', async () => {
      const hooks = await receiver();
      const { books, addEndpoint, connect, breakConnection } = await firm();
      const { secret } = await addEndpoint(hooks.url);
      const connection = await connect({ bankName: 'Chase' });
      const before = Math.floor(Date.now() / 1000);
      await breakConnection(connection.id, 'mfa_required');
      const [delivery] = await hooks.waitFor(1);
      const headers = delivery!.headers as Record<string, string>;
      expect(headers['content-type']).toBe('application/json');
      for (const name of ['id', 'timestamp', 'signature']) {
        expect(headers[`hook-${name}`]).toBe(headers[`webhook-${name}`]);
      }
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      // The library checks the raw bytes: what arrived is exactly what was signed.
      const verified = new Webhook(secret).verify(delivery!.body, headers);
      expect(verified).toEqual({
        event: EVENT,
        version: 1,
        occurredAt: expect.any(Number),
        payload: {
          connectionId: connection.id,
          workspaceId: books.workspaceId,
          entityId: books.entityId,
          bankName: 'Chase',
          errorCode: 'mfa_required',
        },
      });
      const envelope = envelopeOf(delivery!);
      expect(Number.isInteger(envelope.occurredAt)).toBe(true);
      expect(envelope.occurredAt).toBeGreaterThanOrEqual(before);
      expect(Object.keys(envelope)).toEqual(['event', 'version', 'occurredAt', 'payload']);
      // One flipped byte and the same library refuses it.
      const tampered = Buffer.from(delivery!.body);
      tampered[tampered.length - 3]! ^= 1;
      expect(() => new Webhook(secret).verify(tampered, headers)).toThrow(/signature/i);
    });

    it('retries failures with the same message id until a 2xx, following the schedule', async () => {
      const hooks = await receiver();
      hooks.answers = [500, 503];
      const { addEndpoint, connect, breakConnection, attempts } = await firm();
      const { endpoint, secret } = await addEndpoint(hooks.url);
      await breakConnection((await connect()).id);
      const deliveries = await hooks.waitFor(3);
      const ids = new Set(deliveries.map((d) => d.headers['webhook-id']));
      expect(ids.size).toBe(1);
      // Each attempt is signed afresh, and each verifies.
      for (const delivery of deliveries) {
        expect(() =>
          new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>),
        ).not.toThrow();
        expect(delivery.body.equals(deliveries[0]!.body)).toBe(true);
      }
      // The schedule [0, 0.3, 0.3]: attempts 2 and 3 each come 0.3 s after the one before.
      expect(deliveries[1]!.at - deliveries[0]!.at).toBeGreaterThanOrEqual(280);
      expect(deliveries[2]!.at - deliveries[1]!.at).toBeGreaterThanOrEqual(280);
      const log = await attemptLog(() => attempts(endpoint.id), 3);
      const [messageId] = [...ids];
      expect(log.map((a: any) => [a.messageId, a.attempt, a.status, a.responseStatus])).toEqual([
        [messageId, 3, 'succeeded', 200],
        [messageId, 2, 'failed', 503],
        [messageId, 1, 'failed', 500],
      ]);
      expect(log[0]).toMatchObject({ eventType: EVENT, at: expect.any(String) });
    });

    it('marks a message failed after the last attempt; retry and recover send it again', async () => {
      const hooks = await receiver();
      hooks.fallbackStatus = 500;
      const { request, addEndpoint, connect, breakConnection, attempts } = await firm();
      const { endpoint } = await addEndpoint(hooks.url);
      await breakConnection((await connect()).id);
      await hooks.waitFor(3);
      const log = await attemptLog(() => attempts(endpoint.id), 3);
      expect(log.map((a: any) => a.status)).toEqual(['failed', 'failed', 'failed']);
      // A 3xx is a failure too: redirects are not followed.
      hooks.answers = [302];
      const messageId = log[0].messageId;
      const base = `/sandbox/v1/webhook-endpoints/${endpoint.id}`;
      const retry = await request('POST', `${base}/messages/${messageId}/retry`);
      expect(retry.status).toBe(202);
      await hooks.waitFor(4);
      expect(hooks.deliveries[3]!.headers['webhook-id']).toBe(messageId);
      const afterRetry = await attemptLog(() => attempts(endpoint.id), 4);
      expect(afterRetry[0]).toMatchObject({ attempt: 4, status: 'failed', responseStatus: 302 });
      // A manual retry is one attempt: nothing follows it (no attempt of it is pending).
      expect(await pendingTo(endpoint.id)).toBe(0);
      expect(hooks.deliveries).toHaveLength(4);

      hooks.fallbackStatus = 204;
      const recover = await request('POST', `${base}/recover`, {
        body: { since: new Date(Date.now() - 60_000).toISOString() },
      });
      expect(recover.status).toBe(202);
      await hooks.waitFor(5);
      const recovered = await attemptLog(() => attempts(endpoint.id), 5);
      expect(recovered[0]).toMatchObject({ attempt: 5, status: 'succeeded', responseStatus: 204 });
      // Delivered now: a recover finds nothing more to send.
      await request('POST', `${base}/recover`, { body: { since: '2020-01-01T00:00:00Z' } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hooks.deliveries).toHaveLength(5);
    });

    it('counts no answer in time (15 seconds; 1 here), and a refused connection, as failures without a status', async () => {
      expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
      const silent = await receiver();
      silent.answers = [0];
      const closed = await receiver();
      const closedUrl = closed.url;
      await closed.close();
      receivers.splice(receivers.indexOf(closed), 1);
      const { addEndpoint, connect, breakConnection, attempts } = await firm();
      const hanging = await addEndpoint(silent.url);
      const refused = await addEndpoint(closedUrl);
      const started = Date.now();
      await breakConnection((await connect()).id);
      const [refusedAttempt] = await attemptLog(() => attempts(refused.endpoint.id), 1);
      expect(refusedAttempt).toMatchObject({ attempt: 1, status: 'failed', responseStatus: null });
      const [timedOut] = await attemptLog(() => attempts(hanging.endpoint.id), 1);
      expect(timedOut).toMatchObject({ attempt: 1, status: 'failed', responseStatus: null });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      // The retry 0.3 s later is answered, and succeeds.
      await silent.waitFor(2);
      const [delivered] = await attemptLog(() => attempts(hanging.endpoint.id), 2);
      expect(delivered).toMatchObject({ attempt: 2, status: 'succeeded', responseStatus: 200 });
    });

    it('sends to many endpoints at once, eight in flight, and reaches every one', async () => {
      const slow = await receiver();
      slow.delayMs = 300;
      const { addEndpoint, connect, breakConnection } = await firm();
      for (let i = 0; i < 12; i += 1) await addEndpoint(`${slow.url}/${i}`);
      await breakConnection((await connect()).id);
      const deliveries = await slow.waitFor(12);
      expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
      // Eight went at once; the other four waited for answers.
      expect(deliveries[8]!.at - deliveries[0]!.at).toBeGreaterThanOrEqual(250);
    });

    it('410 Gone disables the endpoint at once: nothing more is sent to it', async () => {
      const gone = await receiver();
      gone.fallbackStatus = 410;
      const alive = await receiver();
      const { request, addEndpoint, connect, breakConnection, attempts } = await firm();
      const { endpoint } = await addEndpoint(gone.url);
      await addEndpoint(alive.url);
      await breakConnection((await connect()).id);
      await gone.waitFor(1);
      await attemptLog(() => attempts(endpoint.id), 1);
      const got = await request('GET', `/sandbox/v1/webhook-endpoints/${endpoint.id}`);
      expect(got.body.endpoint.disabled).toBe(true);
      await breakConnection((await connect()).id);
      await alive.waitFor(2);
      // Nothing is pending for the disabled endpoint: nothing more will be sent to it.
      expect(await pendingTo(endpoint.id)).toBe(0);
      expect(gone.deliveries).toHaveLength(1);
    });

    it('after a rotation, deliveries carry two signatures, each verifying with its own secret', async () => {
      const hooks = await receiver();
      const { request, addEndpoint, connect, breakConnection } = await firm();
      const { endpoint, secret: previous } = await addEndpoint(hooks.url);
      const rotated = await request(
        'POST',
        `/sandbox/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
      );
      expect(rotated.status).toBe(200);
      const current = rotated.body.secret as string;
      expect(current).toMatch(/^whsec_/);
      expect(current).not.toBe(previous);
      await breakConnection((await connect()).id);
      const [delivery] = await hooks.waitFor(1);
      const headers = delivery!.headers as Record<string, string>;
      const signatures = headers['webhook-signature']!.split(' ');
      expect(signatures).toHaveLength(2);
      const pairs: Array<[string, string]> = [
        [current, signatures[0]!],
        [previous, signatures[1]!],
      ];
      for (const [secret, signature] of pairs) {
        // Each signature alone, checked by the library with its own secret.
        const only = { ...headers, 'webhook-signature': signature };
        expect(() => new Webhook(secret).verify(delivery!.body, only)).not.toThrow();
      }
      const stranger = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
      expect(() => new Webhook(stranger).verify(delivery!.body, headers)).toThrow();
    });
  });

  describe('feed.connection.disconnected', () => {
    it('is sent once on the transition into broken, not again while broken; a new break after a reconnect is a new message', async () => {
      const hooks = await receiver();
      const { request, addEndpoint, connect, breakConnection } = await firm();
      await addEndpoint(hooks.url, [EVENT]);
      const connection = await connect();
      await breakConnection(connection.id);
      await breakConnection(connection.id, 'mfa_required');
      await request('POST', `/sandbox/v1/bank-feed-connections/${connection.id}/reconnect`);
      await breakConnection(connection.id, 'mfa_required');
      const deliveries = await hooks.waitFor(2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hooks.deliveries).toHaveLength(2);
      expect(deliveries.map((d) => envelopeOf(d).payload.errorCode)).toEqual([
        'disconnected',
        'mfa_required',
      ]);
      expect(deliveries[0]!.headers['webhook-id']).not.toBe(deliveries[1]!.headers['webhook-id']);
    });

    it('is held back while a healthy direct connection covers the account, and sent once it does not', async () => {
      const hooks = await receiver();
      const { addEndpoint, connect, breakConnection } = await firm();
      await addEndpoint(hooks.url);
      const aggregator = await connect({ bankName: 'Held Back Bank' });
      const direct = await connect({
        bankName: 'Direct Bank',
        direct: true,
        accounts: [{ financialAccountId: aggregator.financialAccounts[0]!.id }],
      });
      await breakConnection(aggregator.id);
      // The direct connection breaks next: nothing healthy covers the account any more.
      await breakConnection(direct.id);
      const [delivery] = await hooks.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hooks.deliveries).toHaveLength(1);
      expect(envelopeOf(delivery!).payload).toMatchObject({
        connectionId: direct.id,
        bankName: 'Direct Bank',
      });
    });

    it('never reaches the integration for a connection it did not create, nor another organization', async () => {
      const hooks = await receiver();
      const elsewhere = await receiver();
      const { addEndpoint, connect, breakConnection } = await firm();
      await addEndpoint(hooks.url);
      const other = await firm();
      await other.addEndpoint(elsewhere.url);
      const byTheOwner = await connect({ bankName: 'Owner Bank', createdByIntegration: false });
      await breakConnection(byTheOwner.id);
      const byUs = await connect({ bankName: 'Integration Bank' });
      await breakConnection(byUs.id);
      const [delivery] = await hooks.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(hooks.deliveries).toHaveLength(1);
      expect(envelopeOf(delivery!).payload.bankName).toBe('Integration Bank');
      expect(elsewhere.deliveries).toHaveLength(0);
    });
  });
});
