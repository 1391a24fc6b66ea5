import { createHash, timingSafeEqual } from 'node:crypto';
import secureJson from 'secure-json-parse';
import { IDEMPOTENCY_KEY_MAX_LENGTH, type ErrorBody, type Fault } from '../../api/index.js';
import { DomainError } from '../domain/errors.js';
import type { Engine } from '../engine/index.js';
import type { IdempotencyLookup, KeyedRequest, StoredResponse } from '../store/idempotency.js';
import {
  errorAnswer,
  errorBody,
  formatValidationErrors,
  HttpError,
  INTERNAL_ERROR,
} from './errors.js';
import { StreamedJson, type RouteAuth, type RouteDefinition } from './routeTable.js';
import { compileSerializer, compileValidator, type RequestPart } from './validation.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Who calls an admin route: no organization, but keys of its own. */
const ADMIN = '(admin)';
/** Query parameters that must be written as plain integers (coercion would take `0x10`). */
const INTEGER_QUERY_PARAMETERS = ['limit', 'offset'];
export const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer to a request, as the HTTP layer writes it (header names in lower case). */
export interface PipelineAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A success written piece by piece (then `body` is empty): the general ledger. */
  stream?: AsyncIterable<string>;
}

/** A route with its validators and serializer, compiled on first use. */
export interface CompiledRoute {
  route: RouteDefinition;
  validators: [RequestPart, ReturnType<typeof compileValidator>][];
  serialize: (data: unknown) => string;
}

export function compileRoute(route: RouteDefinition): CompiledRoute {
  return {
    route,
    // Fastify's order: path, body, query.
    validators: (['params', 'body', 'querystring'] as const)
      .filter((part) => route.schema[part] !== undefined)
      .map((part) => [part, compileValidator(route.schema[part]!, part)]),
    serialize: route.presented
      ? (data) => JSON.stringify(data)
      : compileSerializer(route.schema.response[route.successStatus] as object),
  };
}

/** A request, admitted and parsed, as the pipeline answers it. */
export interface AdmittedRequest {
  organizationId: string;
  method: string;
  /** The path with its query string, as the client sent it. */
  url: string;
  traceId: string;
  idempotencyKey: unknown;
  /** The body's text, as sent (what a repeat is compared by); undefined without a body. */
  rawBody: string | undefined;
  parts: Record<RequestPart, unknown>;
  /** The Accept header ('' without one): a few routes answer in another form when asked. */
  accept: string;
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

/** Failures of the key itself (in flight, reused): answered, never recorded for the key. */
class KeyRefused extends HttpError {}

/**
 * The steps every request goes through, whichever way it arrives (Fastify for `books serve`,
 * the dispatcher for the embedded CLI): bearer authentication, the per-organization rate limit,
 * injected faults, JSON bodies, integer query bounds, and — in `answer` — `Idempotency-Key`
 * claims and replays, validation, the handler and its answer.
 *
 * A keyed write runs in one database transaction with its idempotency record, so that a process
 * killed at any moment leaves both or neither: a retry with the key then replays the answer, or
 * runs the request once. The answer leaves only after the commit: no client is told of a write
 * that a crash could still undo.
 */
export class RequestPipeline {
  private defaultOrganizationId: string | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly adminToken: string,
    /** The rate limit's clock. */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Who is calling: the organization ('' for admin and open routes), and an after-commit fault
   * to apply; throws 401, 429 or a rejecting injected fault. Rate-limit headers go to `header`.
   */
  async admit(
    auth: RouteAuth,
    authorization: unknown,
    method: string,
    url: string,
    header: (name: string, value: string) => void,
    /** The caller's address, whose wrong tokens are counted (the embedded CLI's: `local`). */
    address = 'local',
  ): Promise<{ organizationId: string; faultAfterCommit: Fault | undefined }> {
    const none = { organizationId: '', faultAfterCommit: undefined };
    if (auth === 'none') return none;
    const token = bearerToken(authorization);
    if (auth === 'admin') {
      if (token === undefined || !sameSecret(token, this.adminToken)) {
        if (token !== undefined) await this.failedAuthentication(address);
        throw new DomainError('unauthenticated', 'a valid admin token is required');
      }
      return { organizationId: ADMIN, faultAfterCommit: undefined };
    }
    const organizationId =
      token === undefined ? undefined : await this.engine.organizations.authenticate(token);
    if (organizationId === undefined) {
      if (token !== undefined) await this.failedAuthentication(address);
      throw new DomainError(
        'unauthenticated',
        token === undefined
          ? 'missing bearer token: send Authorization: Bearer <token>'
          : 'invalid access token',
      );
    }
    await this.limitRate(organizationId, header);
    const fault = this.engine.faults.take(organizationId, method, url);
    if (fault?.mode === 'reject') {
      throw new HttpError(fault.status, `injected fault: ${fault.status}`, {
        ...(fault.status === 429 && { 'Retry-After': String(fault.retryAfter) }),
      });
    }
    return { organizationId, faultAfterCommit: fault };
  }

  /**
   * Counts a wrong token from an address; past the limit it is a 429 (with Retry-After) rather
   * than a 401, until the address's minute ends: guessing tokens is throttled.
   */
  private async failedAuthentication(address: string): Promise<void> {
    const limits = this.engine.rateLimits;
    const now = this.now();
    const wait = await limits.blockedFor(address, now);
    if (wait > 0) {
      throw new HttpError(429, `too many failed authentications from ${address}; retry later`, {
        'Retry-After': String(wait),
      });
    }
    await limits.fail(address, now);
  }

  /** Takes the request's token from its organization's bucket (429 when there is none). */
  private async limitRate(
    organizationId: string,
    header: (name: string, value: string) => void,
  ): Promise<void> {
    const limits = this.engine.rateLimits;
    const policy = limits.policy;
    if (policy === undefined) return;
    const decision = await limits.take(organizationId, this.now());
    const window = Math.max(1, Math.round(policy.capacity / policy.ratePerSecond));
    header('RateLimit-Policy', `"organization";q=${policy.capacity};w=${window}`);
    header('RateLimit', `"organization";r=${decision.remaining};t=${decision.retryAfterSeconds}`);
    if (!decision.allowed) {
      throw new HttpError(429, 'too many requests: slow down and retry after the given seconds', {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
  }

  /**
   * A JSON body: an empty body is no body; prototype-poisoning keys are refused, and so is text
   * that no database column can hold (a NUL character). (The raw text is what an idempotent
   * repeat is compared by.)
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
    if (text.includes('\\u0000') && holdsNul(value)) throw nulCharacter('request body');
    return value;
  }

  /** `limit` and `offset` as plain integers, before any coercion; no NUL in any parameter. */
  checkQuery(query: Record<string, unknown> | undefined): void {
    for (const name of INTEGER_QUERY_PARAMETERS) {
      const value = query?.[name];
      if (value !== undefined && (typeof value !== 'string' || !/^-?\d+$/.test(value))) {
        throw new HttpError(400, `query.${name} must be an integer`);
      }
    }
    if (query !== undefined && holdsNul(query)) throw nulCharacter('query string');
  }

  /**
   * Answers an admitted request: checks the query, claims its `Idempotency-Key` (or replays
   * the key's answer), validates the request, runs the handler and serializes its answer. Never
   * throws: errors are answered.
   */
  async answer(compiled: CompiledRoute, request: AdmittedRequest): Promise<PipelineAnswer> {
    try {
      this.checkQuery(request.parts.querystring as Record<string, unknown> | undefined);
      const key = this.keyOf(request);
      if (key === undefined) return await this.respond(compiled, request);
      return await this.answerKeyed(compiled, request, key);
    } catch (error) {
      return errorAnswerOf(error, request.traceId);
    }
  }

  /** The request's key, when it is a write that brings one; throws 400 for a malformed key. */
  private keyOf(request: AdmittedRequest): string | undefined {
    const keyHeader = request.idempotencyKey;
    if (keyHeader === undefined || !MUTATING.has(request.method) || !request.organizationId) {
      return undefined;
    }
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
    return keyHeader;
  }

  /**
   * A keyed write: replayed when its key has an answer; else run with the key claimed, its
   * answer recorded in its transaction. A second request with the key meanwhile is a 409 in
   * this process; in another, it waits for the first's transaction and replays its answer. A
   * 4xx the handler throws is recorded too (in a transaction of its own, the write's being
   * rolled back); a 5xx is not, so that a retry runs the request again.
   */
  private async answerKeyed(
    compiled: CompiledRoute,
    request: AdmittedRequest,
    key: string,
  ): Promise<PipelineAnswer> {
    const idempotency = this.engine.store.idempotency;
    const [scope, storedKey] = await this.keyScope(request.organizationId, key);
    const keyed: KeyedRequest = {
      method: request.method,
      path: request.url,
      bodyHash: createHash('sha256')
        .update(request.rawBody ?? '')
        .digest('hex'),
    };
    const release = idempotency.hold(scope, storedKey);
    if (!release) throw keyInFlight();
    try {
      try {
        return await this.engine.store.transaction(async () => {
          // A record found is replayed (one another process wrote meanwhile, too: its claim
          // is waited for).
          const claim = await idempotency.claim(scope, storedKey, keyed);
          if (claim.outcome === 'in_flight') throw keyInFlight();
          if (claim.outcome !== 'claimed') return replayOf(claim);
          const answer = await this.respond(compiled, request);
          // Written with the COMMIT (one round trip on PostgreSQL), or not at all.
          this.engine.store.database.defer(idempotency.record(scope, storedKey, recordOf(answer)));
          return answer;
        });
      } catch (error) {
        if (error instanceof KeyRefused) throw error;
        const answer = errorAnswerOf(error, request.traceId);
        if (answer.status < 500) {
          await this.engine.store.transaction(async () => {
            const claim = await idempotency.claim(scope, storedKey, keyed);
            if (claim.outcome === 'claimed') {
              await idempotency.record(scope, storedKey, recordOf(answer));
            }
          });
        }
        return answer;
      }
    } finally {
      release();
    }
  }

  /** Validates the request, runs its handler and serializes the success. */
  private async respond(
    compiled: CompiledRoute,
    request: AdmittedRequest,
  ): Promise<PipelineAnswer> {
    const { route } = compiled;
    for (const [part, validate] of compiled.validators) {
      await validate.load();
      if (!validate(request.parts[part])) {
        throw new HttpError(400, formatValidationErrors(validate.errors ?? [], part).message);
      }
    }
    const result = await route.handle({
      organizationId: request.organizationId,
      params: request.parts.params as never,
      query: request.parts.querystring as never,
      body: request.parts.body as never,
      accept: request.accept,
    });
    const headers: Record<string, string> = { 'x-request-id': request.traceId };
    if (result instanceof StreamedJson) {
      headers['content-type'] = result.contentType ?? JSON_TYPE;
      return { status: route.successStatus, headers, body: '', stream: result.chunks };
    }
    if (result !== undefined) headers['content-type'] = JSON_TYPE;
    return {
      status: route.successStatus,
      headers,
      body: result === undefined ? '' : compiled.serialize(result),
    };
  }

  /**
   * Where a key is kept: its organization's keys; the admin's under the default organization,
   * apart from its own keys (`admin KEY`).
   */
  private async keyScope(organizationId: string, key: string): Promise<[string, string]> {
    if (organizationId !== ADMIN) return [organizationId, key];
    this.defaultOrganizationId ??= (await this.engine.store.organizations.findDefault())!.id;
    return [this.defaultOrganizationId, `admin ${key}`];
  }
}

/** A stored answer sent again: its status, headers and body, marked as replayed. */
function replayOf(known: IdempotencyLookup): PipelineAnswer {
  if (known.outcome === 'mismatch') {
    throw new KeyRefused(
      422,
      'Idempotency-Key was already used for a different request (method, path or body)',
    );
  }
  const { status, headers, body } = known.response;
  return { status, headers: { ...headers, 'idempotent-replayed': 'true' }, body };
}

const keyInFlight = () =>
  new KeyRefused(409, 'a request with this Idempotency-Key is still being processed');

/** What of an answer is kept for its repeats. */
function recordOf(answer: PipelineAnswer): StoredResponse {
  return { status: answer.status, headers: answer.headers, body: answer.body };
}

/** An error as the answer to a request: `{ message, traceId }`, a 500 for anything not ours. */
export function errorAnswerOf(error: unknown, traceId: string): PipelineAnswer {
  const answer = errorAnswer(error) ?? INTERNAL_ERROR;
  const headers: Record<string, string> = { 'x-request-id': traceId, 'content-type': JSON_TYPE };
  for (const [name, value] of Object.entries(answer.headers)) headers[name.toLowerCase()] = value;
  return { status: answer.status, headers, body: JSON.stringify(errorBody(answer, traceId)) };
}

/** What the client sees of a request whose after-commit fault fires. */
export function faultBody(fault: Fault, traceId: string): ErrorBody {
  return { message: `injected fault: ${fault.status}`, traceId };
}

/**
 * An after-commit fault over an answer: the request ran and its answer is stored; the client
 * sees a failure instead (status 0, a dropped connection, is the caller's to make).
 */
export function faultedAnswer(
  fault: Fault,
  answer: PipelineAnswer,
  traceId: string,
): PipelineAnswer {
  return {
    status: fault.status,
    headers: {
      ...answer.headers,
      'content-type': JSON_TYPE,
      ...(fault.status === 429 && { 'retry-after': String(fault.retryAfter) }),
    },
    body: JSON.stringify(faultBody(fault, traceId)),
  };
}

/** With the `u` flag a surrogate pair is one code point: this finds only lone surrogates. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

const loneSurrogate = () =>
  new HttpError(
    400,
    'request body holds a lone UTF-16 surrogate (\\uD800 to \\uDFFF without its pair), which is not text',
  );

const nulCharacter = (where: string) =>
  new HttpError(
    400,
    `${where} holds a NUL character (\\u0000), which text in the books cannot hold`,
  );

/** Whether any string or key of a value holds a test's match. */
function holds(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((inner) => holds(inner, test));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, inner]) => test(key) || holds(inner, test));
  }
  return false;
}

function holdsLoneSurrogate(value: unknown): boolean {
  return holds(value, (text) => LONE_SURROGATE.test(text));
}

function holdsNul(value: unknown): boolean {
  return holds(value, (text) => text.includes('\u0000'));
}
