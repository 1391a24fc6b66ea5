import { createHash, timingSafeEqual } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import secureJson from 'secure-json-parse';
import { IDEMPOTENCY_KEY_MAX_LENGTH, type Fault } from '../../api/index.js';
import { DomainError } from '../domain/errors.js';
import { TokenBuckets } from '../domain/rateLimit.js';
import type { Engine } from '../engine/index.js';
import { HttpError } from './errors.js';

/** Who may call a route: an organization token, the admin token, or anyone. */
export type RouteAuth = 'organization' | 'admin' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    organizationId: string;
    rawBody: string | undefined;
    idempotencyKey: string | undefined;
    /** An after_commit fault to apply once the request has run. */
    faultAfterCommit: Fault | undefined;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Query parameters that must be written as plain integers (coercion would take `0x10`). */
const INTEGER_QUERY_PARAMETERS = ['limit', 'offset'];
/** Response headers kept with an idempotency record and replayed. */
const REPLAYED_HEADERS = ['content-type', 'x-request-id', 'location'];

export interface PipelineOptions {
  engine: Engine;
  adminToken: string;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

function sameSecret(a: string, b: string): boolean {
  const hash = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(hash(a), hash(b));
}

/**
 * The request pipeline every route shares: request ids, JSON bodies kept raw for idempotency,
 * bearer authentication, the per-organization rate limit, and `Idempotency-Key` replay.
 */
export function installPipeline(app: FastifyInstance, options: PipelineOptions): void {
  const { engine, adminToken } = options;
  const rate = engine.options.rateLimitPerSecond;
  const buckets = rate > 0 ? new TokenBuckets(rate) : undefined;
  const idempotency = engine.store.idempotency;

  app.decorateRequest('organizationId', '');
  app.decorateRequest('rawBody', undefined);
  app.decorateRequest('idempotencyKey', undefined);
  app.decorateRequest('faultAfterCommit', undefined);

  // JSON bodies: an empty body is no body; the raw text is kept to compare idempotent repeats;
  // prototype-poisoning keys are refused.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    request.rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(
        null,
        secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }),
      );
    } catch (error) {
      const failure = new HttpError(
        400,
        `request body is not valid JSON: ${(error as Error).message}`,
      );
      done(failure, undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    const auth = request.routeOptions.config.auth ?? 'none';
    if (auth === 'none') return;
    const token = bearerToken(request);
    if (auth === 'admin') {
      if (token === undefined || !sameSecret(token, adminToken)) {
        throw new DomainError('unauthenticated', 'a valid admin token is required');
      }
      return;
    }
    const organizationId =
      token === undefined ? undefined : engine.organizations.authenticate(token);
    if (organizationId === undefined) {
      throw new DomainError(
        'unauthenticated',
        token === undefined
          ? 'missing bearer token: send Authorization: Bearer <token>'
          : 'invalid access token',
      );
    }
    request.organizationId = organizationId;
    if (buckets) limitRate(buckets, organizationId, reply);
    const fault = engine.faults.take(organizationId, request.method, request.url);
    if (fault?.mode === 'reject') {
      throw new HttpError(fault.status, `injected fault: ${fault.status}`, {
        ...(fault.status === 429 && { 'Retry-After': '1' }),
      });
    }
    request.faultAfterCommit = fault;
  });

  app.addHook('preValidation', async (request, reply) => {
    const query = request.query as Record<string, unknown> | undefined;
    for (const name of INTEGER_QUERY_PARAMETERS) {
      const value = query?.[name];
      if (value !== undefined && (typeof value !== 'string' || !/^-?\d+$/.test(value))) {
        throw new HttpError(400, `query.${name} must be an integer`);
      }
    }
    const key = request.headers['idempotency-key'];
    if (key === undefined || !MUTATING.has(request.method) || !request.organizationId) return;
    if (typeof key !== 'string' || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw new HttpError(
        400,
        `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      );
    }
    const bodyHash = createHash('sha256')
      .update(request.rawBody ?? '')
      .digest('hex');
    const claim = idempotency.claim(request.organizationId, key, {
      method: request.method,
      path: request.url,
      bodyHash,
    });
    switch (claim.outcome) {
      case 'claimed':
        request.idempotencyKey = key;
        return;
      case 'mismatch':
        throw new HttpError(
          422,
          'Idempotency-Key was already used for a different request (method, path or body)',
        );
      case 'in_flight':
        throw new HttpError(409, 'a request with this Idempotency-Key is still being processed');
      case 'replay': {
        const { status, headers, body } = claim.response;
        reply.headers(headers).header('Idempotent-Replayed', 'true').code(status);
        return reply.send(body === '' ? undefined : body);
      }
    }
  });

  app.addHook('onRoute', (route) => answerKeyedWritesInOneTransaction(route, engine));

  // Synchronous on purpose: for a keyed write it runs inside the write's transaction (below),
  // and lets the answer go out only after it, once the transaction has committed: no client is
  // told of a write that a crash could still undo.
  app.addHook('onSend', (request, reply, payload, hookDone) => {
    const key = request.idempotencyKey;
    const done = (error: null, answer: unknown) =>
      key === undefined ? hookDone(error, answer) : queueMicrotask(() => hookDone(error, answer));
    if (key !== undefined) {
      request.idempotencyKey = undefined;
      if (reply.statusCode >= 500) {
        idempotency.release(request.organizationId, key);
      } else {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        idempotency.complete(request.organizationId, key, {
          status: reply.statusCode,
          headers,
          body: payloadText(payload),
        });
      }
    }
    const fault = request.faultAfterCommit;
    if (fault === undefined) return done(null, payload);
    // The request ran and its response is stored; the client sees a failure instead.
    request.faultAfterCommit = undefined;
    if (fault.status === 0) {
      request.raw.socket?.destroy();
      return done(null, payload);
    }
    reply.code(fault.status).type('application/json');
    if (fault.status === 429) reply.header('Retry-After', '1');
    done(null, JSON.stringify({ message: `injected fault: ${fault.status}`, traceId: request.id }));
  });

  // A request that ends without a response (client gone, socket error) must not hold its key.
  app.addHook('onResponse', async (request) => {
    if (request.idempotencyKey !== undefined) {
      idempotency.release(request.organizationId, request.idempotencyKey);
    }
  });
}

/**
 * A keyed write and its idempotency record commit together, so that a process killed at any
 * moment leaves either both or neither: a retry with the key then replays the answer, or runs
 * the request once. The handler writes and answers inside one transaction: `reply.send`
 * serializes the answer and runs the onSend hook above, which completes the record, before the
 * transaction commits. That needs handlers that answer synchronously (the engine is synchronous:
 * no handler of ours awaits anything); a mutating route with an async handler is refused when
 * it is registered.
 */
function answerKeyedWritesInOneTransaction(route: RouteOptions, engine: Engine): void {
  const methods = [route.method].flat();
  const handler = route.handler;
  if (
    methods.some((method) => MUTATING.has(method)) &&
    handler.constructor.name === 'AsyncFunction'
  ) {
    throw new Error(
      `${methods.join(',')} ${route.url}: a mutating route must answer synchronously, so that its write and idempotency record commit together`,
    );
  }
  route.handler = function answerSynchronously(this: FastifyInstance, request, reply) {
    const respond = () => {
      const result: unknown = handler.call(this, request, reply);
      if (result === undefined || result === reply) return;
      if (result !== null && typeof (result as { then?: unknown }).then === 'function') {
        throw new Error(`${request.method} ${request.url}: the handler answered asynchronously`);
      }
      reply.send(result);
    };
    if (request.idempotencyKey === undefined) respond();
    else engine.store.transaction(respond);
  } as RouteHandlerMethod;
}

function payloadText(payload: unknown): string {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return String(payload);
}

function limitRate(buckets: TokenBuckets, organizationId: string, reply: FastifyReply): void {
  const decision = buckets.take(organizationId, Date.now());
  const policy = `"organization";q=${buckets.capacity};w=${Math.max(1, Math.round(buckets.capacity / buckets.ratePerSecond))}`;
  reply.header('RateLimit-Policy', policy);
  reply.header(
    'RateLimit',
    `"organization";r=${decision.remaining};t=${decision.retryAfterSeconds}`,
  );
  if (!decision.allowed) {
    throw new HttpError(429, 'too many requests: slow down and retry after the given seconds', {
      'Retry-After': String(decision.retryAfterSeconds),
    });
  }
}
