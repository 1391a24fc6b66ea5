import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DISABLE_AFTER_FAILING_MS } from '../../src/platform/domain/webhooks.js';
import { WebhookService } from '../../src/platform/engine/webhooks.js';
import type { Store } from '../../src/platform/store/index.js';
import { openTestStore } from '../helpers/backend.js';

/**
 * The outbox and an endpoint's health over days, on a real database (in-memory SQLite, or PostgreSQL in that run) with
 * a clock the test moves: no one waits five days for a test.
 */
describe('WebhookService over days (a real database, a moved clock)', () => {
  let store: Store;
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let nowMs: number;
  let webhooks: WebhookService;
  let organizationId: string;
  const schedule = [0, 5, 300];

  beforeEach(async () => {
    opened = await openTestStore();
    ({ store, organizationId } = opened);
    nowMs = Date.UTC(2026, 10, 1);
    webhooks = new WebhookService(store, schedule, () => nowMs);
  });
  afterEach(() => opened.close());

  const publish = () =>
    store.transaction(() =>
      webhooks.publish(
        organizationId,
        'feed.connection.disconnected',
        { bankName: 'Chase' },
        nowMs,
      ),
    );
  const endpointOf = (id: string) => webhooks.getEndpoint(organizationId, id);
  /** What is due now, taken as the worker would (its lease ends now: still due after). */
  const due = (limit: number) => webhooks.takeDue(limit, nowMs);

  it('follows the schedule, then marks the delivery failed; nothing is due after', async () => {
    const { endpoint } = await webhooks.createEndpoint(organizationId, {
      url: 'https://hooks.example.com/',
    });
    await publish();
    const attempts: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const [next] = await due(10);
      if (!next) break;
      attempts.push(nowMs);
      await webhooks.recordAttempt(next, 500);
      nowMs = (await webhooks.nextDueAtMs()) ?? nowMs;
    }
    const start = Date.UTC(2026, 10, 1);
    expect(attempts).toEqual([start, start + 5_000, start + 305_000]);
    expect(await webhooks.nextDueAtMs()).toBeUndefined();
    const log = (await webhooks.attempts(organizationId, endpoint.id, {})).data;
    expect(log.map((a) => [a.attempt, a.status, a.responseStatus])).toEqual([
      [3, 'failed', 500],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect((await endpointOf(endpoint.id)).disabled).toBe(false);
  });

  it('disables an endpoint that has failed for five days, and fails what waited for it', async () => {
    const { endpoint } = await webhooks.createEndpoint(organizationId, {
      url: 'https://hooks.example.com/',
    });
    await publish();
    await webhooks.recordAttempt((await due(10))[0]!, null);
    nowMs += DISABLE_AFTER_FAILING_MS - 1;
    await publish();
    for (const next of await due(10)) await webhooks.recordAttempt(next, 503);
    expect((await endpointOf(endpoint.id)).disabled).toBe(false);
    nowMs += 1;
    await publish();
    await webhooks.recordAttempt((await due(10))[0]!, 503);
    expect((await endpointOf(endpoint.id)).disabled).toBe(true);
    // Nothing waits for a disabled endpoint, and new events do not go to it.
    expect(await webhooks.nextDueAtMs()).toBeUndefined();
    await publish();
    expect(await webhooks.nextDueAtMs()).toBeUndefined();
    // A recover is the operator saying the receiver is back: the endpoint is enabled again.
    await webhooks.recover(organizationId, endpoint.id, new Date(0).toISOString());
    expect((await endpointOf(endpoint.id)).disabled).toBe(false);
    expect((await due(10)).length).toBeGreaterThan(0);
  });

  it('a success in the five days starts the count again', async () => {
    const { endpoint } = await webhooks.createEndpoint(organizationId, {
      url: 'https://hooks.example.com/',
    });
    await publish();
    await webhooks.recordAttempt((await due(10))[0]!, 500);
    nowMs += DISABLE_AFTER_FAILING_MS / 2;
    await publish();
    for (const next of await due(10)) await webhooks.recordAttempt(next, 200);
    nowMs += DISABLE_AFTER_FAILING_MS / 2;
    await publish();
    await webhooks.recordAttempt((await due(10))[0]!, 500);
    expect((await endpointOf(endpoint.id)).disabled).toBe(false);
  });

  it('signs with the rotated-out secret for 24 hours only', async () => {
    const { endpoint } = await webhooks.createEndpoint(organizationId, {
      url: 'https://hooks.example.com/',
    });
    await webhooks.rotateSecret(organizationId, endpoint.id);
    await publish();
    const signatures = async () =>
      (await webhooks.signAttempt((await due(10))[0]!))['webhook-signature']!.split(' ');
    expect(await signatures()).toHaveLength(2);
    nowMs += 24 * 60 * 60 * 1000;
    expect(await signatures()).toHaveLength(1);
  });
});
