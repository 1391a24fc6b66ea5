import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, RouteHandlerMethod, RouteOptions } from 'fastify';
import secureJson from 'secure-json-parse';
import { IDEMPOTENCY_KEY_MAX_LENGTH, type ErrorBody, type Fault } from '../../api/index.js';
import { DomainError } from '../domain/errors.js';
import { AuthFailureWindows, TokenBuckets } from '../domain/rateLimit.js';
import type { Engine } from '../engine/index.js';
import { errorAnswer, errorBody, HttpError, INTERNAL_ERROR } from './errors.js';
import type { RouteAuth } from './routeTable.js';

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
    /** Why a keyed write's answer could not be recorded (its transaction is rolled back). */
    storageFailure?: unknown;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Who calls an admin route: no organization, but keys of its own. */
const ADMIN = '(admin)';
/** Query parameters that must be written as plain integers (coercion would take `0x10`). */
const INTEGER_QUERY_PARAMETERS = ['limit', 'offset'];
/** Response headers kept with an idempotency record and replayed. */
const REPLAYED_HEADERS = ['content-type', 'x-request-id', 'location'];

/** A stored answer to send again for a repeated `Idempotency-Key`. */
export interface ReplayedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function bearerToken(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

function sameSecret(a: string, b: string): boolean {
  const hash = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(hash(a), hash(b));
}

/**
 * The steps every request goes through, whichever way it arrives (Fastify for `books serve`,
 * the dispatcher for the embedded CLI): bearer authentication, the per-organization rate limit,
 * injected faults, JSON bodies, integer query bounds and `Idempotency-Key` claims and replays.
 */
export class RequestPipeline {
  private readonly buckets: TokenBuckets | undefined;
  private readonly authFailures: AuthFailureWindows | undefined;
  private defaultOrganizationId: string | undefined;
  /** Keys whose release could not be written (`scope key`), released before their next claim. */
  private readonly unreleased = new Set<string>();

  constructor(
    private readonly engine: Engine,
    private readonly adminToken: string,
    /** The rate limit's clock. */
    private readonly now: () => number = Date.now,
  ) {
    const rate = engine.options.rateLimitPerSecond;
    this.buckets = rate > 0 ? new TokenBuckets(rate) : undefined;
    const failures = engine.options.authFailuresPerMinute;
    this.authFailures = failures > 0 ? new AuthFailureWindows(failures) : undefined;
  }

  /**
   * Who is calling: the organization ('' for admin and open routes), and an after-commit fault
   * to apply; throws 401, 429 or a rejecting injected fault. Rate-limit headers go to `header`.
   */
  admit(
    auth: RouteAuth,
    authorization: unknown,
    method: string,
    url: string,
    header: (name: string, value: string) => void,
    /** The caller's address, whose wrong tokens are counted (the embedded CLI's: `local`). */
    address = 'local',
  ): { organizationId: string; faultAfterCommit: Fault | undefined } {
    const none = { organizationId: '', faultAfterCommit: undefined };
    if (auth === 'none') return none;
    const token = bearerToken(authorization);
    if (auth === 'admin') {
      if (token === undefined || !sameSecret(token, this.adminToken)) {
        if (token !== undefined) this.failedAuthentication(address);
        throw new DomainError('unauthenticated', 'a valid admin token is required');
      }
      return { organizationId: ADMIN, faultAfterCommit: undefined };
    }
    const organizationId =
      token === undefined ? undefined : this.engine.organizations.authenticate(token);
    if (organizationId === undefined) {
      if (token !== undefined) this.failedAuthentication(address);
      throw new DomainError(
        'unauthenticated',
        token === undefined
          ? 'missing bearer token: send Authorization: Bearer <token>'
          : 'invalid access token',
      );
    }
    if (this.buckets) limitRate(this.buckets, organizationId, this.now(), header);
    const fault = this.engine.faults.take(organizationId, method, url);
    if (fault?.mode === 'reject') {
      throw new HttpError(fault.status, `injected fault: ${fault.status}`, {
        ...(fault.status === 429 && { 'Retry-After': '1' }),
      });
    }
    return { organizationId, faultAfterCommit: fault };
  }

  /**
   * Counts a wrong token from an address; past the limit it is a 429 (with Retry-After) rather
   * than a 401, until the address's minute ends: guessing tokens is throttled.
   */
  private failedAuthentication(address: string): void {
    if (this.authFailures === undefined) return;
    const now = this.now();
    const wait = this.authFailures.blockedFor(address, now);
    if (wait > 0) {
      throw new HttpError(429, `too many failed authentications from ${address}; retry later`, {
        'Retry-After': String(wait),
      });
    }
    this.authFailures.fail(address, now);
  }

  /**
   * A JSON body: an empty body is no body; prototype-poisoning keys are refused. (The raw text
   * is what an idempotent repeat is compared by.)
   */
  parseBody(text: string): unknown {
    if (text.trim() === '') return undefined;
    if (LONE_SURROGATE.test(text)) throw loneSurrogate();
    let value: unknown;
    try {
      value = secureJson.parse(text, undefined, {
        protoAction: 'error',
        constructorAction: 'error',
      });
    } catch (error) {
      throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
    }
    // An escaped surrogate (`\ud800`) decodes to a lone one unless its pair follows.
    if (SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value)) throw loneSurrogate();
    return value;
  }

  /** `limit` and `offset` as plain integers, before any coercion. */
  checkQuery(query: Record<string, unknown> | undefined): void {
    for (const name of INTEGER_QUERY_PARAMETERS) {
      const value = query?.[name];
      if (value !== undefined && (typeof value !== 'string' || !/^-?\d+$/.test(value))) {
        throw new HttpError(400, `query.${name} must be an integer`);
      }
    }
  }

  /**
   * Claims an `Idempotency-Key` for a write: the key to complete once answered, or the stored
   * answer to replay, or nothing (no key, not a write). Throws 400, 409 and 422.
   */
  claim(
    organizationId: string,
    keyHeader: unknown,
    method: string,
    url: string,
    rawBody: string | undefined,
  ): { key?: string; replay?: ReplayedAnswer } {
    if (keyHeader === undefined || !MUTATING.has(method) || !organizationId) return {};
    if (
      typeof keyHeader !== 'string' ||
      keyHeader.length === 0 ||
      keyHeader.length > IDEMPOTENCY_KEY_MAX_LENGTH
    ) {
      throw new HttpError(
        400,
        `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      );
    }
    const bodyHash = createHash('sha256')
      .update(rawBody ?? '')
      .digest('hex');
    const [scope, storedKey] = this.keyScope(organizationId, keyHeader);
    if (this.unreleased.has(`${scope} ${storedKey}`)) this.release(organizationId, keyHeader);
    const claim = this.engine.store.idempotency.claim(scope, storedKey, {
      method,
      path: url,
      bodyHash,
    });
    switch (claim.outcome) {
      case 'claimed':
        return { key: keyHeader };
      case 'mismatch':
        throw new HttpError(
          422,
          'Idempotency-Key was already used for a different request (method, path or body)',
        );
      case 'in_flight':
        throw new HttpError(409, 'a request with this Idempotency-Key is still being processed');
      case 'replay':
        return { replay: claim.response };
    }
  }

  /**
   * Records the answer to a keyed write (inside the write's transaction), or releases the key
   * when the answer is a 5xx, which a retry should run again.
   */
  complete(
    organizationId: string,
    key: string,
    status: number,
    header: (name: string) => unknown,
    body: string,
  ): void {
    const idempotency = this.engine.store.idempotency;
    if (status >= 500) {
      this.release(organizationId, key);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = header(name);
      if (value !== undefined) headers[name] = String(value);
    }
    idempotency.complete(...this.keyScope(organizationId, key), { status, headers, body });
  }

  /**
   * A request that ended without an answer must not hold its key. When even that cannot be
   * written (the disk is full), the key is remembered and released before its next claim.
   */
  release(organizationId: string, key: string): void {
    const [scope, storedKey] = this.keyScope(organizationId, key);
    try {
      this.engine.store.idempotency.release(scope, storedKey);
      this.unreleased.delete(`${scope} ${storedKey}`);
    } catch {
      this.unreleased.add(`${scope} ${storedKey}`);
    }
  }

  /**
   * Where a key is kept: its organization's keys; the admin's under the default organization,
   * apart from its own keys (`admin KEY`).
   */
  private keyScope(organizationId: string, key: string): [string, string] {
    if (organizationId !== ADMIN) return [organizationId, key];
    this.defaultOrganizationId ??= this.engine.store.organizations.findDefault()!.id;
    return [this.defaultOrganizationId, `admin ${key}`];
  }

  /** Runs a keyed write and its idempotency record in one transaction. */
  transaction<T>(run: () => T): T {
    return this.engine.store.transaction(run);
  }
}

/** The pipeline as Fastify hooks, for `books serve` and the tests that listen. */
export function installPipeline(app: FastifyInstance, pipeline: RequestPipeline): void {
  app.decorateRequest('organizationId', '');
  app.decorateRequest('rawBody', undefined);
  app.decorateRequest('idempotencyKey', undefined);
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
    const admitted = pipeline.admit(
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

  app.addHook('preValidation', async (request, reply) => {
    pipeline.checkQuery(request.query as Record<string, unknown> | undefined);
    const claim = pipeline.claim(
      request.organizationId,
      request.headers['idempotency-key'],
      request.method,
      request.url,
      request.rawBody,
    );
    request.idempotencyKey = claim.key;
    if (claim.replay) {
      const { status, headers, body } = claim.replay;
      reply.headers(headers).header('Idempotent-Replayed', 'true').code(status);
      return reply.send(body === '' ? undefined : body);
    }
  });

  app.addHook('onRoute', (route) => answerKeyedWritesInOneTransaction(route, pipeline));

  // Synchronous on purpose: for a keyed write it runs inside the write's transaction (below),
  // and lets the answer go out only after it, once the transaction has committed: no client is
  // told of a write that a crash could still undo.
  app.addHook('onSend', (request, reply, payload, hookDone) => {
    const key = request.idempotencyKey;
    const answer = (text: unknown) => {
      const fault = request.faultAfterCommit;
      if (fault === undefined) return hookDone(null, text);
      // The request ran and its response is stored; the client sees a failure instead.
      request.faultAfterCommit = undefined;
      if (fault.status === 0) {
        request.raw.socket?.destroy();
        return hookDone(null, text);
      }
      reply.code(fault.status).type('application/json; charset=utf-8');
      if (fault.status === 429) reply.header('Retry-After', '1');
      hookDone(null, JSON.stringify(faultBody(fault, request.id)));
    };
    if (key === undefined) return answer(payload);
    request.idempotencyKey = undefined;
    try {
      pipeline.complete(
        request.organizationId,
        key,
        reply.statusCode,
        (name) => reply.getHeader(name),
        payloadText(payload),
      );
    } catch (error) {
      request.storageFailure = error;
    }
    // After the transaction: if the record or the commit failed (a full disk), the write was
    // rolled back; the client is told why instead, and the key is released for its retry.
    queueMicrotask(() => {
      if (request.storageFailure === undefined) return answer(payload);
      pipeline.release(request.organizationId, key);
      const failure = errorAnswer(request.storageFailure) ?? INTERNAL_ERROR;
      reply.code(failure.status).headers(failure.headers).type('application/json; charset=utf-8');
      hookDone(null, JSON.stringify(errorBody(failure, request.id)));
    });
  });

  // A request that ends without a response (client gone, socket error) must not hold its key.
  app.addHook('onResponse', async (request) => {
    if (request.idempotencyKey !== undefined) {
      pipeline.release(request.organizationId, request.idempotencyKey);
    }
  });
}

/** What the client sees of a request whose after-commit fault fires. */
export function faultBody(fault: Fault, traceId: string): ErrorBody {
  return { message: `injected fault: ${fault.status}`, traceId };
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
function answerKeyedWritesInOneTransaction(route: RouteOptions, pipeline: RequestPipeline): void {
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
    if (request.idempotencyKey === undefined) {
      respond();
      return;
    }
    let answered = false;
    try {
      pipeline.transaction(() => {
        respond();
        answered = true;
        // The answer's record failed: undo the write with it (the answer says so).
        if (request.storageFailure !== undefined) throw request.storageFailure;
      });
    } catch (error) {
      // Before an answer, the error handler answers; after one (its record or the commit
      // failed), the answer waiting in onSend is replaced by the failure.
      if (!answered) throw error;
      request.storageFailure ??= error;
    }
  } as RouteHandlerMethod;
}

function payloadText(payload: unknown): string {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return String(payload);
}

function limitRate(
  buckets: TokenBuckets,
  organizationId: string,
  nowMs: number,
  header: (name: string, value: string) => void,
): void {
  const decision = buckets.take(organizationId, nowMs);
  const policy = `"organization";q=${buckets.capacity};w=${Math.max(1, Math.round(buckets.capacity / buckets.ratePerSecond))}`;
  header('RateLimit-Policy', policy);
  header('RateLimit', `"organization";r=${decision.remaining};t=${decision.retryAfterSeconds}`);
  if (!decision.allowed) {
    throw new HttpError(429, 'too many requests: slow down and retry after the given seconds', {
      'Retry-After': String(decision.retryAfterSeconds),
    });
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
/** With the `u` flag a surrogate pair is one code point: this finds only lone surrogates. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

const loneSurrogate = () =>
  new HttpError(
    400,
    'request body holds a lone UTF-16 surrogate (\\uD800 to \\uDFFF without its pair), which is not text',
  );

/** Whether any string or key of a parsed body holds a lone surrogate. */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(
      ([key, inner]) => LONE_SURROGATE.test(key) || holdsLoneSurrogate(inner),
    );
  }
  return false;
}
