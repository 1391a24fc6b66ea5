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
import { installPipeline } from './fastifyHooks.js';
import { compileRoute, faultedAnswer, RequestPipeline } from './pipeline.js';
import { BODY_LIMIT_BYTES, type RouteDefinition } from './routeTable.js';
import { platformRoutes } from './routes/index.js';
import { RequestScheduler } from './scheduler.js';
import { serializerCompiler, validatorCompiler } from './validation.js';

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
  const pipeline = new RequestPipeline(options.engine, options.adminToken, options.now);
  installPipeline(app, pipeline);

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

  const scheduler = new RequestScheduler();
  for (const route of platformRoutes(options.engine)) mount(app, route, pipeline, scheduler);

  await app.ready();
  return app;
}

/**
 * A route of the table on Fastify. Its schema is there for the OpenAPI document; the pipeline
 * validates (inside a keyed write's transaction, as the embedded dispatcher does) and answers,
 * in the turn the scheduler gives it (reads before writes).
 */
function mount(
  app: FastifyInstance,
  route: RouteDefinition,
  pipeline: RequestPipeline,
  scheduler: RequestScheduler,
): void {
  const compiled = compileRoute(route);
  app.route({
    method: route.method,
    url: route.url,
    schema: route.schema,
    config: { auth: route.auth },
    validatorCompiler: () => () => true,
    async handler(request, reply) {
      const answer = await scheduler.run(route.method !== 'GET', () =>
        pipeline.answer(compiled, {
          organizationId: request.organizationId,
          method: request.method,
          url: request.url,
          traceId: request.id,
          idempotencyKey: request.headers['idempotency-key'],
          rawBody: request.rawBody,
          parts: { params: request.params, body: request.body, querystring: request.query },
          accept: request.headers.accept ?? '',
        }),
      );
      const fault = request.faultAfterCommit;
      request.faultAfterCommit = undefined;
      if (fault?.status === 0) {
        // The request ran and its answer is stored; the connection drops before it is sent.
        request.raw.socket?.destroy();
        return reply.hijack();
      }
      const sent = fault === undefined ? answer : faultedAnswer(fault, answer, request.id);
      reply.code(sent.status).headers(sent.headers);
      if (sent.stream !== undefined) return reply.send(Readable.from(sent.stream));
      return reply.send(sent.body === '' ? undefined : sent.body);
    },
  });
}
