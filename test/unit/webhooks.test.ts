import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  activeSecrets,
  checkEndpointUrl,
  checkEventTypes,
  DISABLE_AFTER_FAILING_MS,
  envelopeBody,
  healthAfterAttempt,
  isDelivered,
  nextAttemptAt,
  notifiesDisconnection,
  PREVIOUS_SECRET_GRACE_MS,
  secretFrom,
  signedHeaders,
  subscribes,
} from '../../src/platform/domain/webhooks.js';

// The public Standard Webhooks test vector (the reference libraries' own tests).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signing', () => {
  it('reproduces the Standard Webhooks test vector, under both header prefixes', () => {
    const headers = signedHeaders(VECTOR.id, VECTOR.timestamp, VECTOR.body, [VECTOR.secret]);
    expect(headers).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR.signature,
      'hook-id': VECTOR.id,
      'hook-timestamp': '1614265330',
      'hook-signature': VECTOR.signature,
    });
  });

  it("signs what the library's own verify accepts, one signature per secret", () => {
    const now = Math.floor(Date.now() / 1000);
    const second = secretFrom(new Uint8Array(24).fill(9));
    const body = envelopeBody('feed.connection.disconnected', now * 1000, { bankName: 'Chase' });
    const headers = signedHeaders('0192f3c4-0000-7000-8000-000000000001', now, body, [
      VECTOR.secret,
      second,
    ]);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [VECTOR.secret, second]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual({
        event: 'feed.connection.disconnected',
        version: 1,
        occurredAt: now,
        payload: { bankName: 'Chase' },
      });
    }
    expect(() => new Webhook(secretFrom(new Uint8Array(24))).verify(body, headers)).toThrow(
      'No matching signature found',
    );
  });

  it('makes secrets as whsec_ and the base64 of the bytes given', () => {
    expect(secretFrom(new Uint8Array(24))).toBe('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  });

  it('keeps a rotated-out secret signing for 24 hours, newest first', () => {
    const rotatedAt = Date.UTC(2026, 10, 21, 12);
    const secrets = [
      { secret: 'whsec_old', expiresAtMs: rotatedAt + PREVIOUS_SECRET_GRACE_MS },
      { secret: 'whsec_new', expiresAtMs: null },
    ];
    expect(activeSecrets(secrets, rotatedAt)).toEqual(['whsec_new', 'whsec_old']);
    expect(activeSecrets(secrets, rotatedAt + PREVIOUS_SECRET_GRACE_MS - 1)).toHaveLength(2);
    expect(activeSecrets(secrets, rotatedAt + PREVIOUS_SECRET_GRACE_MS)).toEqual(['whsec_new']);
  });

  it('serializes the envelope in the documented order with occurredAt in Unix seconds', () => {
    expect(envelopeBody('feed.connection.disconnected', 1_700_000_000_999, { a: 1 })).toBe(
      '{"event":"feed.connection.disconnected","version":1,"occurredAt":1700000000,"payload":{"a":1}}',
    );
  });
});

describe('delivery rules', () => {
  it('counts only 2xx as delivered', () => {
    expect([200, 201, 204, 299].every(isDelivered)).toBe(true);
    expect([null, 100, 301, 302, 304, 400, 410, 500, 503].some(isDelivered)).toBe(false);
  });

  it('follows the schedule: n values make n attempts, each wait counted from the last attempt', () => {
    const schedule = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];
    const t = 1_000_000;
    expect(nextAttemptAt(schedule, 0, t)).toBe(t + 5_000);
    expect(nextAttemptAt(schedule, 1, t)).toBe(t + 300_000);
    expect(nextAttemptAt(schedule, 6, t)).toBe(t + 36_000_000);
    expect(nextAttemptAt(schedule, 7, t)).toBeNull();
    expect(nextAttemptAt([0], 0, t)).toBeNull();
  });

  it('disables an endpoint on 410 Gone at once, and after five days of failures', () => {
    const start = Date.UTC(2026, 10, 1);
    expect(healthAfterAttempt(null, 500, start)).toEqual({ failingSinceMs: start, disable: null });
    expect(healthAfterAttempt(null, 410, start)).toEqual({
      failingSinceMs: start,
      disable: 'gone',
    });
    expect(
      healthAfterAttempt(start, null, start + DISABLE_AFTER_FAILING_MS - 1).disable,
    ).toBeNull();
    expect(healthAfterAttempt(start, 503, start + DISABLE_AFTER_FAILING_MS)).toEqual({
      failingSinceMs: start,
      disable: 'failing_for_five_days',
    });
    // A success in between starts the count again.
    expect(healthAfterAttempt(start, 200, start + DISABLE_AFTER_FAILING_MS)).toEqual({
      failingSinceMs: null,
      disable: null,
    });
  });

  it('sends a disconnection only for integration connections with no healthy direct cover', () => {
    const cases = [
      [true, false, true],
      [true, true, false],
      [false, false, false],
      [false, true, false],
    ] as const;
    for (const [createdByIntegration, coveredByHealthyDirectConnection, sent] of cases) {
      expect(
        notifiesDisconnection({ createdByIntegration, coveredByHealthyDirectConnection }),
      ).toBe(sent);
    }
  });
});

describe('endpoint rules', () => {
  it('takes https anywhere and plain http on loopback hosts only', () => {
    expect(checkEndpointUrl('https://hooks.example.com/books')).toBe(
      'https://hooks.example.com/books',
    );
    expect(checkEndpointUrl(' http://LOCALHOST:4020 ')).toBe('http://localhost:4020/');
    expect(checkEndpointUrl('http://127.0.0.2:4020/x')).toBe('http://127.0.0.2:4020/x');
    expect(checkEndpointUrl('http://[::1]:4020/')).toBe('http://[::1]:4020/');
    expect(() => checkEndpointUrl('http://127.0.0.1.nip.io/')).toThrow('plain http://');
    expect(() => checkEndpointUrl('http://192.168.1.2/')).toThrow('plain http://');
    expect(() => checkEndpointUrl('ws://localhost/')).toThrow('must be an https:// URL');
    expect(() => checkEndpointUrl('/relative')).toThrow('absolute');
  });

  it('knows the catalogue: unknown types are refused, repeats dropped, empty means all', () => {
    expect(checkEventTypes()).toEqual([]);
    expect(
      checkEventTypes(['feed.connection.disconnected', 'feed.connection.disconnected']),
    ).toEqual(['feed.connection.disconnected']);
    expect(() => checkEventTypes(['Feed.Connection.Disconnected'])).toThrow(
      'eventTypes[0] "Feed.Connection.Disconnected" is not an event type',
    );
    expect(subscribes([], 'feed.connection.disconnected')).toBe(true);
    expect(subscribes(['feed.connection.disconnected'], 'feed.connection.disconnected')).toBe(true);
    expect(subscribes(['other.event'], 'feed.connection.disconnected')).toBe(false);
  });
});
