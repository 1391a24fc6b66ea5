import type { FastifyInstance } from 'fastify';
import type { Fault } from '../../api/index.js';
import { HttpError } from './errors.js';
import { faultedAnswer, type RequestPipeline } from './pipeline.js';
import type { RouteAuth } from './routeTable.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    organizationId: string;
    rawBody: string | undefined;
    /** An after_commit fault to apply once the request has run. */
    faultAfterCommit: Fault | undefined;
  }
}

/**
 * The pipeline's steps that come before a route's handler, as Fastify hooks (for `books serve`
 * and the tests that listen): the request id, admission (authentication, rate limit, faults)
 * and JSON bodies. The handler (app.ts) does the rest through the pipeline.
 */
export function installPipeline(app: FastifyInstance, pipeline: RequestPipeline): void {
  app.decorateRequest('organizationId', '');
  app.decorateRequest('rawBody', undefined);
  app.decorateRequest('faultAfterCommit', undefined);

  // JSON only: Fastify's own text/plain parser would hand a route a string where it expects an
  // object; any other type is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      // Bytes that are not UTF-8 would be stored as U+FFFD, altered: refused instead.
      text = UTF8.decode(body as Buffer); // parseAs: 'buffer'
    } catch {
      done(new HttpError(400, 'request body is not valid UTF-8'), undefined);
      return;
    }
    request.rawBody = text;
    try {
      done(null, pipeline.parseBody(text));
    } catch (error) {
      done(error as HttpError, undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    const admitted = await pipeline.admit(
      request.routeOptions.config.auth ?? 'none',
      request.headers.authorization,
      request.method,
      request.url,
      (name, value) => reply.header(name, value),
      request.ip,
    );
    request.organizationId = admitted.organizationId;
    request.faultAfterCommit = admitted.faultAfterCommit;
  });

  // A request refused before its handler (a body that is not JSON, say) still meets its
  // after-commit fault, as the client would see it from the hosted platform.
  app.addHook('onSend', async (request, reply, payload) => {
    const fault = request.faultAfterCommit;
    if (fault === undefined) return payload;
    request.faultAfterCommit = undefined;
    if (fault.status === 0) {
      request.raw.socket?.destroy();
      return payload;
    }
    const answer = faultedAnswer(
      fault,
      { status: reply.statusCode, headers: {}, body: '' },
      request.id,
    );
    reply.code(answer.status).headers(answer.headers);
    return answer.body;
  });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
