import type { ErrorObject } from 'ajv';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_STATE_HEADER, type ErrorBody } from '../../api/index.js';
import { CentsOverflow } from '../../core/money.js';
import { DomainError, type DomainErrorKind } from '../domain/errors.js';
import { DatabaseDamaged } from '../store/schema.js';
import { DISCARDED_BODY_LIMIT_BYTES } from './routeTable.js';

/**
 * The one place where errors become HTTP responses. Every error answers `{ message, traceId }`
 * with `traceId` equal to the `X-Request-Id` header; a 500 means a bug, never bad input.
 */
export const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
};

/** An error of the HTTP layer itself (rate limit, idempotency), with headers to send. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Fastify's own 4xx errors, reworded where its text would puzzle an API user. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'request body is larger than 5 MB',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request body must be application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request body length does not match Content-Length',
};

/** An error answer: its status, headers and body, less the trace id. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  message: string;
  blockers?: ErrorBody['blockers'];
}

/** Anything not ours is a bug: a 500, which a retry runs again. */
export const INTERNAL_ERROR: ErrorAnswer = { status: 500, headers: {}, message: 'internal error' };

/** The answer to an error of ours (domain or HTTP layer); undefined for any other. */
export function errorAnswer(error: unknown): ErrorAnswer | undefined {
  if (error instanceof DomainError) {
    return {
      status: STATUS_BY_KIND[error.kind],
      headers: error.kind === 'unauthenticated' ? { 'WWW-Authenticate': 'Bearer' } : {},
      message: error.message,
      ...(error.blockers && { blockers: error.blockers }),
    };
  }
  if (error instanceof HttpError) {
    return { status: error.status, headers: error.headers, message: error.message };
  }
  return storageFault(error);
}

/**
 * What the database's own faults mean to a client: a full disk is a 507 (the write was not
 * made; reads keep working; the same Idempotency-Key succeeds once space is freed), a database
 * that became read-only or stays locked by another process a 503, and so is one found damaged
 * (with no Retry-After: it does not mend itself). Anything else stays a 500.
 */
function storageFault(error: unknown): ErrorAnswer | undefined {
  const code = String((error as { code?: unknown })?.code ?? '');
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return {
      status: 507,
      headers: {},
      message:
        "the platform's disk is full: nothing was written; free space and send the request again (the same Idempotency-Key is safe)",
    };
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return {
      status: 503,
      headers: { 'Retry-After': '60' },
      message: "the platform's database is read-only now: nothing was written",
    };
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return {
      status: 503,
      headers: { 'Retry-After': '1' },
      message: "the platform's database is locked by another process: nothing was written",
    };
  }
  if (error instanceof DatabaseDamaged) {
    return { status: 503, headers: { [DATABASE_STATE_HEADER]: 'damaged' }, message: error.message };
  }
  if (code === 'BOOKS_PAST_EXACT_INTEGERS' || error instanceof CentsOverflow) {
    return {
      status: 422,
      headers: {},
      message: 'a sum in these books passes what can be counted to the cent (2^53 cents)',
    };
  }
  if (databaseAway(error, code)) {
    return {
      status: 503,
      headers: { 'Retry-After': '2' },
      message:
        "the platform's database cannot be reached now; retry later (a write with the same Idempotency-Key, which is safe)",
    };
  }
  return undefined;
}

/**
 * PostgreSQL gone away or not taking connections: refused, reset, shut down, restarting, out of
 * connections, or the pool's wait for one ended. The pool connects again by itself once it is
 * back; a write cut off at its commit is replayed or run once by its key's retry.
 */
function databaseAway(error: unknown, code: string): boolean {
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code)) {
    return true;
  }
  // Class 08 (connection exceptions), 57P01–57P03 (shut down, crash, starting), 53300 (too
  // many connections).
  if (/^08...$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
  const message = (error as Error)?.message ?? '';
  return (
    error instanceof Error &&
    code === '' &&
    /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed/i.test(
      message,
    )
  );
}

/** The error envelope: `{ message, traceId }`, and the blockers when there are some. */
export function errorBody(answer: ErrorAnswer, traceId: string): ErrorBody {
  const body: ErrorBody = { message: answer.message, traceId };
  if (answer.blockers) body.blockers = answer.blockers;
  return body;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const ours = errorAnswer(error);
    if (ours) {
      reply.headers(ours.headers);
      return reply.code(ours.status).type('application/json').send(errorBody(ours, request.id));
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      return sendError(reply, request, 400, fastifyError.message);
    }
    const status = fastifyError.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') discardTheRest(request, reply);
      const known = fastifyError.code ? FRAMEWORK_MESSAGES[fastifyError.code] : undefined;
      const message =
        known ??
        (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? `request body is not valid JSON: ${error.message}`
          : error.message);
      return sendError(reply, request, status, message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, INTERNAL_ERROR.status, INTERNAL_ERROR.message);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, request, 404, `no route for ${request.method} ${request.url.split('?')[0]}`),
  );
}

/**
 * A body over the limit is answered at once, but its connection is not closed under a client
 * still sending it: a socket closed with bytes unread is reset by the kernel, and a client busy
 * writing can meet the reset (EPIPE) before it reads its 413. So, as nginx's lingering close,
 * the rest of the body is read and dropped, and the connection then serves the next request;
 * past DISCARDED_BODY_LIMIT_BYTES more it is closed. (A client that trickles is ended by the
 * server's request timeout, as any other.)
 */
function discardTheRest(request: FastifyRequest, reply: FastifyReply): void {
  reply.removeHeader('connection');
  let discarded = 0;
  request.raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARDED_BODY_LIMIT_BYTES) request.raw.socket.destroy();
  });
}

/**
 * Errors raised before a request reaches a route, from the router: a path that is not valid
 * percent-encoding (400), or a path parameter longer than any id (read as 404, like any id
 * that is not a uuid).
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header('X-Request-Id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, request, 404, 'not found: a path id is longer than any id');
    return;
  }
  void sendError(reply, request, 400, 'the request path is not valid percent-encoding');
}

/** Malformed HTTP (a truncated body, oversized headers): answered on the raw socket. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, reason, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'the request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
        : [400, 'Bad Request', 'the request is not well-formed HTTP'];
  const traceId = randomUUID();
  const body = JSON.stringify({ message, traceId } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${traceId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  message: string,
  blockers?: ErrorBody['blockers'],
) {
  const body: ErrorBody = { message, traceId: request.id };
  if (blockers) body.blockers = blockers;
  return reply.code(status).type('application/json').send(body);
}

function describeFormat(format: string): string {
  return format === 'date' ? 'a valid date (YYYY-MM-DD)' : `a valid ${format}`;
}

const WHERE: Record<string, string> = { querystring: 'query', params: 'path', headers: 'header' };

/** Validation messages that name the field: `body.lines[0].debitAmount must be number`. */
export function formatValidationErrors(errors: ErrorObject[], dataVar: string): Error {
  // In a union (`string | null`, an enum of literals) the union's own error is the clearest,
  // unless the value had the right type and broke a bound of its branch (a too-long string).
  const bound = errors.find(
    (e) => !['type', 'const', 'anyOf', 'format', 'pattern'].includes(e.keyword),
  );
  const chosen = bound ?? errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
  const base = WHERE[dataVar] ?? dataVar;
  if (!chosen) return new Error(`${base} is invalid`);
  const path = chosen.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('');
  const at = `${base}${path}`;
  const params = chosen.params as Record<string, unknown>;
  switch (chosen.keyword) {
    case 'required':
      return new Error(`${at}.${String(params.missingProperty)} is required`);
    case 'additionalProperties':
      return new Error(`${at}.${String(params.additionalProperty)} is not an allowed property`);
    case 'anyOf': {
      const branches = (chosen.parentSchema as { anyOf?: Record<string, unknown>[] })?.anyOf ?? [];
      const consts = branches.filter((b) => 'const' in b).map((b) => String(b.const));
      if (consts.length > 0 && consts.length === branches.length) {
        return new Error(`${at} must be one of ${consts.join(', ')}`);
      }
      const kinds = branches.map((b) => {
        if (typeof b.format === 'string') return describeFormat(b.format);
        if (b.const !== undefined) return JSON.stringify(b.const);
        return typeof b.type === 'string' ? b.type : 'value';
      });
      return new Error(`${at} must be ${kinds.join(' or ')}`);
    }
    case 'format':
      return new Error(
        `${at} must be a valid ${String(params.format)}${params.format === 'date' ? ' (YYYY-MM-DD)' : ''}`,
      );
    case 'pattern':
      return new Error(`${at} is not in the expected format`);
    default:
      return new Error(`${at} ${chosen.message ?? 'is invalid'}`);
  }
}
