import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Engine } from '../engine/index.js';
import {
  clientErrorHandler,
  formatValidationErrors,
  frameworkErrorHandler,
  installErrorHandling,
} from './errors.js';
import { installPipeline } from './pipeline.js';
import { accountingMigrationRoutes } from './routes/accountingMigration.js';
import { chartOfAccountsRoutes } from './routes/chartOfAccounts.js';
import { classRoutes } from './routes/classes.js';
import { journalEntryRoutes } from './routes/journalEntries.js';
import { reportRoutes } from './routes/reports.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { transactionRuleRoutes } from './routes/transactionRules.js';
import { workspaceRoutes } from './routes/workspaces.js';
import { serializerCompiler, validatorCompiler } from './validation.js';

export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export interface AppOptions {
  engine: Engine;
  adminToken: string;
  /** Fastify's logger; off by default (tokens must never reach a log). */
  logger?: boolean;
  /**
   * Serve `/openapi.json` (default). The embedded CLI, which no one browses, goes without: it
   * then never loads the OpenAPI generator.
   */
  openapi?: boolean;
}

/**
 * Builds the local platform's HTTP app without listening: `books serve` listens on it, tests
 * call `inject()` or listen on a loopback port, the embedded CLI dispatches into it.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    schemaErrorFormatter: formatValidationErrors,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    routerOptions: { maxParamLength: 500 },
    ajv: { customOptions: { strict: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installPipeline(app, { engine: options.engine, adminToken: options.adminToken });

  if (options.openapi ?? true) {
    const { default: swagger } = await import('@fastify/swagger');
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Bookkeeping Platform API (books local platform)',
          version: '1',
          description:
            'The local platform of `books`: the Bookkeeping Platform API under /platform/v1 and the sandbox control plane under /sandbox/v1.',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
        },
        security: [{ bearerAuth: [] }],
      },
    });

    app.get('/openapi.json', { schema: { hide: true }, config: { auth: 'none' } }, () =>
      app.swagger(),
    );
  }

  const engine = options.engine;
  await app.register(
    async (platform) => {
      await platform.register(workspaceRoutes, { engine });
      await platform.register(classRoutes, { engine });
      await platform.register(transactionRuleRoutes, { engine });
      await platform.register(chartOfAccountsRoutes, { engine });
      await platform.register(journalEntryRoutes, { engine });
      await platform.register(reportRoutes, { engine });
      await platform.register(accountingMigrationRoutes, { engine });
    },
    { prefix: '/platform/v1' },
  );
  await app.register(sandboxRoutes, { prefix: '/sandbox/v1', engine });

  await app.ready();
  return app;
}
