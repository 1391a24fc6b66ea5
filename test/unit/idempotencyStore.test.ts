import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/platform/store/idempotency.js';
import { Store } from '../../src/platform/store/index.js';

describe('IdempotencyStore (a real in-memory SQLite database)', () => {
  let store: Store;
  let organizationId: string;
  const request = { method: 'POST', path: '/platform/v1/workspaces', bodyHash: 'h1' };
  const response = {
    status: 201,
    headers: { 'content-type': 'application/json' },
    body: '{"ok":true}',
  };

  beforeEach(() => {
    store = Store.open(':memory:');
    organizationId = store.organizations.insert({
      id: 'org-1',
      name: 'Firm',
      createdAt: new Date().toISOString(),
    }).id;
  });
  afterEach(() => store.close());

  it('replays within 24 hours and runs again after', () => {
    const t0 = 1_000_000;
    expect(store.idempotency.claim(organizationId, 'k', request, t0)).toEqual({
      outcome: 'claimed',
    });
    store.idempotency.complete(organizationId, 'k', response);
    expect(
      store.idempotency.claim(organizationId, 'k', request, t0 + IDEMPOTENCY_WINDOW_MS - 1),
    ).toEqual({
      outcome: 'replay',
      response,
    });
    expect(
      store.idempotency.claim(organizationId, 'k', request, t0 + IDEMPOTENCY_WINDOW_MS + 1),
    ).toEqual({
      outcome: 'claimed',
    });
  });

  it('tells a mismatch from a request in flight', () => {
    store.idempotency.claim(organizationId, 'k', request, 0);
    expect(store.idempotency.claim(organizationId, 'k', request, 1)).toEqual({
      outcome: 'in_flight',
    });
    expect(store.idempotency.claim(organizationId, 'k', { ...request, bodyHash: 'h2' }, 1)).toEqual(
      { outcome: 'mismatch' },
    );
    expect(store.idempotency.claim(organizationId, 'k', { ...request, path: '/other' }, 1)).toEqual(
      { outcome: 'mismatch' },
    );
  });

  it('forgets released claims, claims left in flight at start-up, and expired records', () => {
    store.idempotency.claim(organizationId, 'released', request, 0);
    store.idempotency.release(organizationId, 'released');
    expect(store.idempotency.claim(organizationId, 'released', request, 1).outcome).toBe('claimed');

    store.idempotency.claim(organizationId, 'crashed', request, 0);
    store.idempotency.clearInFlight();
    expect(store.idempotency.claim(organizationId, 'crashed', request, 1).outcome).toBe('claimed');

    store.idempotency.complete(organizationId, 'crashed', response);
    store.idempotency.prune(1 + IDEMPOTENCY_WINDOW_MS + 1);
    const left = store.db.prepare('SELECT COUNT(*) FROM idempotency_keys').pluck().get();
    expect(left).toBe(0);
  });
});
