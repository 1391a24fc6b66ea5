import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/engine/ids.js';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/platform/store/idempotency.js';
import type { Store } from '../../src/platform/store/index.js';
import { openTestStore } from '../helpers/backend.js';

describe('IdempotencyStore (a real database: in-memory SQLite, or PostgreSQL in that run)', () => {
  let store: Store;
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let organizationId: string;
  const request = { method: 'POST', path: '/platform/v1/workspaces', bodyHash: 'h1' };
  const response = {
    status: 201,
    headers: { 'content-type': 'application/json' },
    body: '{"ok":true}',
  };

  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
    organizationId = (
      await store.organizations.insert({
        id: newId(),
        name: 'Firm',
        createdAt: new Date().toISOString(),
      })
    ).id;
  });
  afterEach(() => opened.close());

  it('replays within 24 hours and forgets after', async () => {
    const t0 = 1_000_000;
    expect(await store.idempotency.find(organizationId, 'k', request, t0)).toBeUndefined();
    await store.idempotency.record(organizationId, 'k', request, response, t0);
    expect(
      await store.idempotency.find(organizationId, 'k', request, t0 + IDEMPOTENCY_WINDOW_MS - 1),
    ).toEqual({ outcome: 'replay', response });
    expect(
      await store.idempotency.find(organizationId, 'k', request, t0 + IDEMPOTENCY_WINDOW_MS + 1),
    ).toBeUndefined();
  });

  it('tells a mismatch (method, path or body) from a repeat', async () => {
    await store.idempotency.record(organizationId, 'k', request, response, 0);
    for (const other of [{ bodyHash: 'h2' }, { path: '/other' }, { method: 'PATCH' }]) {
      expect(
        await store.idempotency.find(organizationId, 'k', { ...request, ...other }, 1),
      ).toEqual({ outcome: 'mismatch' });
    }
  });

  it('keeps a long answer deflated and replays it whole', async () => {
    const long = { ...response, body: JSON.stringify({ data: 'x'.repeat(50_000) }) };
    await store.idempotency.record(organizationId, 'long', request, long, 0);
    expect(await store.idempotency.find(organizationId, 'long', request, 1)).toEqual({
      outcome: 'replay',
      response: long,
    });
  });

  it('holds a key once per process, until released', () => {
    const release = store.idempotency.hold(organizationId, 'k');
    expect(release).toBeTypeOf('function');
    expect(store.idempotency.hold(organizationId, 'k')).toBeUndefined();
    release!();
    expect(store.idempotency.hold(organizationId, 'k')).toBeTypeOf('function');
  });

  it('replaces an expired record, and prunes expired ones', async () => {
    await store.idempotency.record(organizationId, 'k', request, response, 0);
    await store.idempotency.record(
      organizationId,
      'k',
      { ...request, bodyHash: 'h2' },
      response,
      IDEMPOTENCY_WINDOW_MS + 1,
    );
    expect(
      await store.idempotency.find(
        organizationId,
        'k',
        { ...request, bodyHash: 'h2' },
        IDEMPOTENCY_WINDOW_MS + 2,
      ),
    ).toEqual({ outcome: 'replay', response });
    await store.idempotency.record(organizationId, 'old', request, response, 0);
    await store.idempotency.prune(IDEMPOTENCY_WINDOW_MS + 1);
    const left = await store.database.sql.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM idempotency_keys',
    );
    expect(left?.n).toBe(1);
  });
});
