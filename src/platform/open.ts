import { randomBytes } from 'node:crypto';
import { DEFAULT_ENGINE_OPTIONS, Engine, type EngineOptions } from './engine/index.js';
import { WebhookWorker } from './engine/webhookWorker.js';
import { Store, type StoreOptions } from './store/index.js';

export interface PlatformOptions extends Partial<EngineOptions> {
  /** A SQLite file, `:memory:`, or a `postgres://` URL. */
  database: string;
  /** The control plane's admin token; a random one when not given. */
  adminToken?: string;
  /** A token for the default organization; a fresh one is minted when not given. */
  orgToken?: string;
  logger?: boolean;
  /**
   * Database settings: SQLite's memory (the embedded CLI keeps it small: its RSS is the
   * user's), PostgreSQL's pool size.
   */
  tuning?: StoreOptions;
  /**
   * On close, finish the webhook attempts in flight and make those due now (the embedded CLI,
   * whose process is short-lived); otherwise they are abandoned and made after the next start.
   */
  drainWebhooksOnClose?: boolean;
  /** Serve `/openapi.json` (default true; the embedded CLI goes without). */
  openapi?: boolean;
  /** How long a webhook endpoint has to answer (default 15 s; tests shorten it). */
  webhookTimeoutMs?: number;
  /** The rate limit's clock, in milliseconds (tests move it instead of waiting). */
  now?: () => number;
}

/** The platform behind its HTTP layer: the engine on its database, with its background work. */
export interface OpenedPlatform {
  engine: Engine;
  adminToken: string;
  defaultOrganizationId: string;
  /** A token of the default organization, valid for as long as the database lives. */
  orgToken: string;
  /** Stops background work (migration rule generation, webhooks) and closes the database. */
  close(): Promise<void>;
}

/**
 * Opens the database, clears what a crash left in flight, readies the default organization and
 * starts the background work: what `books serve` (Fastify) and the embedded CLI (the
 * dispatcher) share.
 */
export async function openPlatform(options: PlatformOptions): Promise<OpenedPlatform> {
  if (options.webhookScheduleSeconds?.length === 0) {
    throw new Error('webhookScheduleSeconds needs at least one value');
  }
  const store = await Store.open(options.database, options.tuning);
  try {
    await store.idempotency.prune();
    const engine = new Engine(store, {
      ruleGenerationDelayMs:
        options.ruleGenerationDelayMs ?? DEFAULT_ENGINE_OPTIONS.ruleGenerationDelayMs,
      webhookScheduleSeconds:
        options.webhookScheduleSeconds ?? DEFAULT_ENGINE_OPTIONS.webhookScheduleSeconds,
      rateLimitPerSecond: options.rateLimitPerSecond ?? DEFAULT_ENGINE_OPTIONS.rateLimitPerSecond,
      authFailuresPerMinute:
        options.authFailuresPerMinute ?? DEFAULT_ENGINE_OPTIONS.authFailuresPerMinute,
      allowPrivateWebhooks:
        options.allowPrivateWebhooks ?? DEFAULT_ENGINE_OPTIONS.allowPrivateWebhooks,
    });
    const adminToken = options.adminToken ?? `books_admin_${randomBytes(24).toString('base64url')}`;
    const { organizationId, token } = await engine.organizations.ensureDefault(options.orgToken);
    await engine.accountingMigrations.resume();
    const webhookWorker = new WebhookWorker(engine.webhooks, options.webhookTimeoutMs);
    webhookWorker.start();
    let closed = false;
    return {
      engine,
      adminToken,
      defaultOrganizationId: organizationId,
      orgToken: token,
      async close() {
        if (closed) return;
        closed = true;
        await engine.accountingMigrations.stop();
        await webhookWorker.stop({ drain: options.drainWebhooksOnClose ?? false });
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    // The first writes (pruning old records, the default organization) fail on a database
    // that can be read but not written: said as such.
    throw store.unavailable(error) ?? error;
  }
}
