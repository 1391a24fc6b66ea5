import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Engine } from '../engine/index.js';
import {
  clientErrorHandler,
  formatValidationErrors,
  frameworkErrorHandler,
  installErrorHandling,
} from './errors.js';
import { installPipeline, RequestPipeline } from './pipeline.js';
import { BODY_LIMIT_BYTES, StreamedJson, type RouteDefinition } from './routeTable.js';
import { platformRoutes } from './routes/index.js';
import {
  presentedSerializerCompiler,
  serializerCompiler,
  validatorCompiler,
} from './validation.js';

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
  /** The rate limit's clock (tests move it). */
  now?: () => number;
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
  installPipeline(app, new RequestPipeline(options.engine, options.adminToken, options.now));

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

  for (const route of platformRoutes(options.engine)) mount(app, route);

  await app.ready();
  return app;
}

/** A route of the table on Fastify: its schema validates, its answer is the success status. */
function mount(app: FastifyInstance, route: RouteDefinition): void {
  app.route({
    method: route.method,
    url: route.url,
    schema: route.schema,
    config: { auth: route.auth },
    ...(route.presented && { serializerCompiler: presentedSerializerCompiler }),
    // Synchronous, so that a keyed write answers inside its transaction (pipeline.ts).
    handler(request, reply) {
      const body = route.handle({
        organizationId: request.organizationId,
        params: request.params,
        query: request.query,
        body: request.body,
      } as Parameters<RouteDefinition['handle']>[0]);
      if (body instanceof StreamedJson) {
        reply
          .code(route.successStatus)
          .type('application/json; charset=utf-8')
          .send(Readable.from(body.chunks));
        return;
      }
      reply.code(route.successStatus).send(body);
    },
  });
}
