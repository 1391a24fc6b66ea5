import { randomUUID } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import type { Fault } from '../../api/index.js';
import { HttpError } from './errors.js';
import {
  compileRoute,
  errorAnswerOf,
  faultedAnswer,
  type CompiledRoute,
  type PipelineAnswer,
  type RequestPipeline,
} from './pipeline.js';
import { BODY_LIMIT_BYTES, type RouteDefinition } from './routeTable.js';
import type { RequestPart } from './validation.js';

/** A request as the embedded CLI makes it: a path with its query string, headers, JSON text. */
export interface DispatchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type DispatchResponse = PipelineAnswer;

/** Path parameters longer than any id are not looked up (as the router of `books serve`). */
const MAX_PARAM_LENGTH = 500;

interface DispatchedRoute extends CompiledRoute {
  segments: string[];
}

/**
 * The platform's routes without an HTTP framework, for the embedded CLI: the same route table,
 * pipeline (authentication, faults, idempotency in the write's transaction), validation and
 * error answers as `books serve` on Fastify, so that a command answers the same either way
 * (test/contract/dispatcher.test.ts replays one script against both). What it leaves out is
 * what only a socket needs: content negotiation, HEAD, compression, timeouts.
 */
export class Dispatcher {
  private readonly routes: DispatchedRoute[];

  constructor(
    routes: RouteDefinition[],
    private readonly pipeline: RequestPipeline,
  ) {
    this.routes = routes.map((route) => ({
      ...compileRoute(route),
      segments: route.url.split('/'),
    }));
  }

  /** Answers one request. */
  async dispatch(request: DispatchRequest): Promise<DispatchResponse> {
    const traceId = randomUUID();
    const headers: Record<string, string> = {};
    const header = (name: string, value: string) => (headers[name.toLowerCase()] = value);
    const withHeaders = (answer: PipelineAnswer): PipelineAnswer => ({
      ...answer,
      headers: { ...headers, ...answer.headers },
    });
    const [pathname = '', search = ''] = splitOnce(request.path, '?');
    let fault: Fault | undefined;
    let answer: PipelineAnswer;
    try {
      const matched = this.match(request.method, pathname);
      if (!matched) throw new HttpError(404, `no route for ${request.method} ${pathname}`);
      const { compiled, params } = matched;
      const admitted = await this.pipeline.admit(
        compiled.route.auth,
        request.headers.authorization,
        request.method,
        request.path,
        header,
      );
      fault = admitted.faultAfterCommit;
      const rawBody = request.method === 'GET' ? undefined : this.checkBody(request);
      const parts: Record<RequestPart, unknown> = {
        params,
        body: rawBody === undefined ? undefined : this.pipeline.parseBody(rawBody),
        querystring: { ...parseQuery(search) },
      };
      answer = await this.pipeline.answer(compiled, {
        organizationId: admitted.organizationId,
        method: request.method,
        url: request.path,
        traceId,
        idempotencyKey: request.headers['idempotency-key'],
        rawBody,
        parts,
        accept: request.headers.accept ?? '',
      });
    } catch (error) {
      answer = errorAnswerOf(error, traceId);
    }
    return this.applyFault(fault, withHeaders(answer), traceId);
  }

  /** The route for a method and path, with its decoded path parameters. */
  private match(
    method: string,
    pathname: string,
  ): { compiled: DispatchedRoute; params: Record<string, string> } | undefined {
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
    return faultedAnswer(fault, response, traceId);
  }
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
