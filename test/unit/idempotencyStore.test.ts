import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    ({ store, organizationId } = opened);
  });
  afterEach(() => opened.close());

  /** Claims the key and records the answer, in one transaction (as a keyed write does). */
  const answered = (key: string, nowMs: number, sent = request, answer = response) =>
    store.transaction(async () => {
      expect(await store.idempotency.claim(organizationId, key, sent, nowMs)).toEqual({
        outcome: 'claimed',
      });
      await store.idempotency.record(organizationId, key, answer);
    });

  it('replays within 24 hours; after, the key is claimed again', async () => {
    const t0 = 1_000_000;
    await answered('k', t0);
    const again = (nowMs: number) =>
      store.transaction(() => store.idempotency.claim(organizationId, 'k', request, nowMs));
    expect(await again(t0 + IDEMPOTENCY_WINDOW_MS - 1)).toEqual({ outcome: 'replay', response });
    expect(await again(t0 + IDEMPOTENCY_WINDOW_MS + 1)).toEqual({ outcome: 'claimed' });
  });

  it('tells a mismatch (method, path or body) from a repeat', async () => {
    await answered('k', 0);
    for (const other of [{ bodyHash: 'h2' }, { path: '/other' }, { method: 'PATCH' }]) {
      expect(
        await store.idempotency.find(organizationId, 'k', { ...request, ...other }, 1),
      ).toEqual({ outcome: 'mismatch' });
    }
  });

  it('keeps no claim of a transaction that rolled back', async () => {
    await expect(
      store.transaction(async () => {
        await store.idempotency.claim(organizationId, 'undone', request, 0);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await answered('undone', 1);
  });

  it('keeps a long answer deflated and replays it whole', async () => {
    const long = { ...response, body: JSON.stringify({ data: 'x'.repeat(50_000) }) };
    await answered('long', 0, request, long);
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

  it('prunes expired records', async () => {
    await answered('old', 0);
    await answered('new', IDEMPOTENCY_WINDOW_MS);
    await store.idempotency.prune(IDEMPOTENCY_WINDOW_MS + 1);
    const left = await store.database.sql.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM idempotency_keys',
    );
    expect(left?.n).toBe(1);
  });
});
