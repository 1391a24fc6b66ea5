import { randomUUID } from 'node:crypto';
import type { Fault } from '../../api/index.js';
import { parse as parseQuery } from 'node:querystring';
import {
  errorAnswer,
  errorBody,
  formatValidationErrors,
  HttpError,
  INTERNAL_ERROR,
} from './errors.js';
import { faultBody, type RequestPipeline } from './pipeline.js';
import { BODY_LIMIT_BYTES, StreamedJson, type RouteDefinition } from './routeTable.js';
import { compileSerializer, compileValidator, type RequestPart } from './validation.js';

/** A request as the embedded CLI makes it: a path with its query string, headers, JSON text. */
export interface DispatchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface DispatchResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A success written piece by piece (then `body` is empty): the general ledger. */
  stream?: AsyncIterable<string>;
}

/** Path parameters longer than any id are not looked up (as the router of `books serve`). */
const MAX_PARAM_LENGTH = 500;
const JSON_TYPE = 'application/json; charset=utf-8';

interface CompiledRoute {
  route: RouteDefinition;
  segments: string[];
  validators: [RequestPart, ReturnType<typeof compileValidator>][];
  serialize: (data: unknown) => string;
}

/**
 * The platform's routes without an HTTP framework, for the embedded CLI: the same route table,
 * pipeline (authentication, faults, idempotency in the write's transaction), validation and
 * error answers as `books serve` on Fastify, so that a command answers the same either way
 * (test/contract/dispatcher.test.ts replays one script against both). What it leaves out is
 * what only a socket needs: content negotiation, HEAD, compression, timeouts.
 */
export class Dispatcher {
  private readonly routes: CompiledRoute[];

  constructor(
    routes: RouteDefinition[],
    private readonly pipeline: RequestPipeline,
  ) {
    this.routes = routes.map((route) => ({
      route,
      segments: route.url.split('/'),
      // Fastify's order: path, body, query.
      validators: (['params', 'body', 'querystring'] as const)
        .filter((part) => route.schema[part] !== undefined)
        .map((part) => [part, compileValidator(route.schema[part]!, part)]),
      serialize: route.presented
        ? (data) => JSON.stringify(data)
        : compileSerializer(route.schema.response[route.successStatus] as object),
    }));
  }

  /** Answers one request; synchronous, like the engine under it. */
  dispatch(request: DispatchRequest): DispatchResponse {
    const traceId = randomUUID();
    const headers: Record<string, string> = { 'x-request-id': traceId };
    const header = (name: string, value: string) => (headers[name.toLowerCase()] = value);
    const answerError = (error: unknown): DispatchResponse => {
      // Anything else is a bug: a 500, as `books serve` answers it, which a retry runs again.
      const answer = errorAnswer(error) ?? INTERNAL_ERROR;
      for (const [name, value] of Object.entries(answer.headers)) header(name, value);
      headers['content-type'] = JSON_TYPE;
      return {
        status: answer.status,
        headers,
        body: JSON.stringify(errorBody(answer, traceId)),
      };
    };

    const [pathname = '', search = ''] = splitOnce(request.path, '?');
    let matched: { compiled: CompiledRoute; params: Record<string, string> } | undefined;
    try {
      matched = this.match(request.method, pathname);
    } catch (error) {
      return answerError(error);
    }
    if (!matched) {
      return answerError(new HttpError(404, `no route for ${request.method} ${pathname}`));
    }
    const { compiled, params } = matched;
    const { route } = compiled;
    let organizationId = '';
    let key: string | undefined;
    let fault: Fault | undefined;
    let response: DispatchResponse;
    /** A keyed write's answer, kept for its repeats (a 5xx releases the key instead). */
    const record = (answer: DispatchResponse) => {
      if (key === undefined) return;
      this.pipeline.complete(organizationId, key, answer.status, (n) => headers[n], answer.body);
    };
    try {
      const admitted = this.pipeline.admit(
        route.auth,
        request.headers.authorization,
        request.method,
        request.path,
        header,
      );
      organizationId = admitted.organizationId;
      fault = admitted.faultAfterCommit;
      const rawBody = request.method === 'GET' ? undefined : this.checkBody(request);
      const parts: Record<RequestPart, unknown> = {
        params,
        body: rawBody === undefined ? undefined : this.pipeline.parseBody(rawBody),
        querystring: { ...parseQuery(search) },
      };
      this.pipeline.checkQuery(parts.querystring as Record<string, unknown>);
      const claim = this.pipeline.claim(
        organizationId,
        request.headers['idempotency-key'],
        request.method,
        request.path,
        rawBody,
      );
      key = claim.key;
      const answer = (): DispatchResponse => {
        for (const [part, validate] of compiled.validators) {
          if (!validate(parts[part])) {
            throw new HttpError(400, formatValidationErrors(validate.errors ?? [], part).message);
          }
        }
        const result = route.handle({
          organizationId,
          params: parts.params as never,
          query: parts.querystring as never,
          body: parts.body as never,
        });
        if (result instanceof StreamedJson) {
          headers['content-type'] = JSON_TYPE;
          return { status: route.successStatus, headers, body: '', stream: result.chunks };
        }
        const response: DispatchResponse = {
          status: route.successStatus,
          headers,
          body: result === undefined ? '' : compiled.serialize(result),
        };
        if (result !== undefined) headers['content-type'] = JSON_TYPE;
        record(response);
        return response;
      };
      if (claim.replay) {
        const { status, headers: stored, body } = claim.replay;
        response = {
          status,
          headers: { ...headers, ...stored, 'idempotent-replayed': 'true' },
          body,
        };
      } else {
        response = key === undefined ? answer() : this.pipeline.transaction(answer);
      }
    } catch (error) {
      response = answerError(error);
      record(response);
    }
    return this.applyFault(fault, response, traceId);
  }

  /** The route for a method and path, with its decoded path parameters. */
  private match(
    method: string,
    pathname: string,
  ): { compiled: CompiledRoute; params: Record<string, string> } | undefined {
    const segments = pathname.split('/');
    for (const compiled of this.routes) {
      if (compiled.route.method !== method || compiled.segments.length !== segments.length) {
        continue;
      }
      const params: Record<string, string> = {};
      const fits = compiled.segments.every((pattern, index) => {
        const segment = segments[index]!;
        // An empty segment is an empty id, not found by the route (as on Fastify's router).
        if (!pattern.startsWith(':')) return pattern === segment;
        params[pattern.slice(1)] = segment;
        return true;
      });
      if (!fits) continue;
      for (const [name, value] of Object.entries(params)) {
        if (value.length > MAX_PARAM_LENGTH) {
          throw new HttpError(404, 'not found: a path id is longer than any id');
        }
        try {
          params[name] = decodeURIComponent(value);
        } catch {
          throw new HttpError(400, 'the request path is not valid percent-encoding');
        }
      }
      return { compiled, params };
    }
    return undefined;
  }

  /** The body's text, when it is JSON within the size limit. */
  private checkBody(request: DispatchRequest): string | undefined {
    if (request.body === undefined) return undefined;
    if (Buffer.byteLength(request.body) > BODY_LIMIT_BYTES) {
      throw new HttpError(413, 'request body is larger than 5 MB');
    }
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new HttpError(415, 'request body must be application/json');
    }
    return request.body;
  }

  /** An after-commit fault: the write is in and its answer stored; the client sees a failure. */
  private applyFault(
    fault: Fault | undefined,
    response: DispatchResponse,
    traceId: string,
  ): DispatchResponse {
    if (fault === undefined) return response;
    if (fault.status === 0) {
      throw Object.assign(new Error('the platform closed the connection (injected fault)'), {
        code: 'ECONNRESET',
      });
    }
    return {
      status: fault.status,
      headers: {
        ...response.headers,
        'content-type': JSON_TYPE,
        ...(fault.status === 429 && { 'retry-after': '1' }),
      },
      body: JSON.stringify(faultBody(fault, traceId)),
    };
  }
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
