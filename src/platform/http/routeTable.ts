import type { Static, TSchema } from '@sinclair/typebox';
import { NDJSON_TYPE } from '../../api/index.js';

/** The largest request body taken (the spec's 5 MB); a larger one is a 413. */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** How much more of a body over the limit is read and dropped before its connection is closed. */
export const DISCARDED_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A success answered as JSON text written piece by piece (the general ledger of any size), not
 * built whole: the route's schema documents its shape but does not project it.
 */
export class StreamedJson {
  constructor(
    readonly chunks: AsyncIterable<string>,
    /** Its media type, when not the JSON document (NDJSON's lines). */
    readonly contentType?: string,
  ) {}

  /** An answer written as NDJSON lines (asked for by `Accept`: see `NDJSON_TYPE`). */
  static lines(chunks: AsyncIterable<string>): StreamedJson {
    return new StreamedJson(chunks, `${NDJSON_TYPE}; charset=utf-8`);
  }
}

/** Who may call a route: an organization token, the admin token, or anyone. */
export type RouteAuth = 'organization' | 'admin' | 'none';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route's schema as `routeSchema` builds it (OpenAPI's words; Fastify's keys). */
export interface RouteSchema {
  tags?: string[];
  summary?: string;
  hide?: boolean;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response: Record<string, unknown>;
}

type StaticOf<T> = T extends TSchema ? Static<T> : undefined;

/** What a handler sees of a request: validated (and, for text parts, coerced) parts. */
export interface RouteRequest<S extends RouteSchema> {
  organizationId: string;
  params: StaticOf<S['params']>;
  query: StaticOf<S['querystring']>;
  body: StaticOf<S['body']>;
  /** The Accept header ('' without one), for a route that answers in another form when asked. */
  accept: string;
}

export interface RouteOptions<S extends RouteSchema> {
  config?: { auth?: RouteAuth };
  schema: S;
  /**
   * The answer is written as it is, without the schema's projection (which drops what the schema
   * does not list): for routes whose answers a presenter builds field by field, so that nothing
   * outside the schema is in them, and which answer in bulk (100 entries, about 110 kB).
   */
  presented?: boolean;
}

/**
 * A handler answers with the body of its success status (the schema's one 2xx; `undefined` for
 * an empty body) or throws. A keyed write's handler runs inside the transaction that records its
 * answer (pipeline.ts): it must write through the store, which joins that transaction.
 */
export type RouteHandler<S extends RouteSchema> = (request: RouteRequest<S>) => unknown;

export interface RouteDefinition {
  method: HttpMethod;
  /** The full path pattern, `:name` for a path parameter. */
  url: string;
  auth: RouteAuth;
  schema: RouteSchema;
  /** The status of a success: the schema's one 2xx. */
  successStatus: number;
  presented: boolean;
  handle: (request: RouteRequest<RouteSchema>) => unknown;
}

/**
 * The platform's routes, independent of any HTTP framework: `books serve` mounts them on
 * Fastify (app.ts), the embedded CLI dispatches to them directly (dispatcher.ts). Route modules
 * add to a table with the verbs they would use on Fastify.
 */
export class RouteTable {
  constructor(
    private readonly prefix = '',
    readonly routes: RouteDefinition[] = [],
  ) {}

  /** A table whose routes' paths start with `prefix`; its routes land in this one. */
  under(prefix: string): RouteTable {
    return new RouteTable(this.prefix + prefix, this.routes);
  }

  get<S extends RouteSchema>(url: string, options: RouteOptions<S>, handle: RouteHandler<S>) {
    this.add('GET', url, options, handle);
  }
  post<S extends RouteSchema>(url: string, options: RouteOptions<S>, handle: RouteHandler<S>) {
    this.add('POST', url, options, handle);
  }
  put<S extends RouteSchema>(url: string, options: RouteOptions<S>, handle: RouteHandler<S>) {
    this.add('PUT', url, options, handle);
  }
  patch<S extends RouteSchema>(url: string, options: RouteOptions<S>, handle: RouteHandler<S>) {
    this.add('PATCH', url, options, handle);
  }
  delete<S extends RouteSchema>(url: string, options: RouteOptions<S>, handle: RouteHandler<S>) {
    this.add('DELETE', url, options, handle);
  }

  private add<S extends RouteSchema>(
    method: HttpMethod,
    url: string,
    options: RouteOptions<S>,
    handle: RouteHandler<S>,
  ): void {
    const successes = Object.keys(options.schema.response).filter((code) => /^2\d\d$/.test(code));
    if (successes.length !== 1) {
      throw new Error(`${method} ${url}: a route documents exactly one success status`);
    }
    this.routes.push({
      method,
      url: this.prefix + url,
      auth: options.config?.auth ?? 'none',
      schema: options.schema,
      successStatus: Number(successes[0]),
      presented: options.presented ?? false,
      handle: handle as RouteDefinition['handle'],
    });
  }
}
