import type { FastifyInstance } from 'fastify';
import { buildApp } from './http/app.js';
import { openPlatform, type OpenedPlatform, type PlatformOptions } from './open.js';

export { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from './engine/index.js';
export type { PlatformOptions } from './open.js';

export interface Platform extends OpenedPlatform {
  app: FastifyInstance;
}

/** Opens the platform and builds its (not listening) Fastify app, for `books serve` and tests. */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const opened = await openPlatform(options);
  let app: FastifyInstance;
  try {
    app = await buildApp({
      engine: opened.engine,
      adminToken: opened.adminToken,
      logger: options.logger ?? false,
      openapi: options.openapi ?? true,
      ...(options.now && { now: options.now }),
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  return {
    ...opened,
    app,
    async close() {
      // Requests in flight finish before the engine stops under them.
      await opened.engine.accountingMigrations.stop();
      await app.close();
      await opened.close();
    },
  };
}
