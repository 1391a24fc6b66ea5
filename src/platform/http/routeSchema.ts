import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorBodySchema } from '../../api/index.js';

/** The OpenAPI description of every error status a route documents. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid token',
  404: 'Not found, or outside the book of business',
  409: 'Conflict',
  413: 'Body over 5 MB',
  422: 'Unprocessable',
  429: 'Too many requests',
  503: 'The database does not answer now (Retry-After)',
};

const ERROR_RESPONSES = new Map<number, TSchema>();
/**
 * An error status's response schema, made once for all the routes that document it (about 300
 * copies of the error body's schema were made at every start, each with TypeBox's symbols).
 */
function errorResponse(code: number): TSchema {
  let schema = ERROR_RESPONSES.get(code);
  if (!schema) {
    schema = { ...ErrorBodySchema, description: ERROR_DESCRIPTIONS[code] ?? 'Error' };
    ERROR_RESPONSES.set(code, schema);
  }
  return schema;
}

interface RouteSchemaInput<P, Q, B> {
  tags: string[];
  summary: string;
  params?: P;
  querystring?: Q;
  body?: B;
  /** Success status and body (undefined: an empty body). */
  success: [number, TSchema | undefined];
  errors: number[];
}

export function routeSchema<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(
  input: RouteSchemaInput<P, Q, B>,
): { params: P; querystring: Q; body: B; response: Record<string, unknown> } {
  const [status, body] = input.success;
  const response: Record<string, unknown> = {
    [status]: body ?? { description: 'Empty body', type: 'null' },
  };
  for (const code of input.errors) response[code] = errorResponse(code);
  // Parts a route does not take are left out, not set to undefined.
  return {
    tags: input.tags,
    summary: input.summary,
    ...(input.params && { params: input.params }),
    ...(input.querystring && { querystring: input.querystring }),
    ...(input.body && { body: input.body }),
    response,
  } as { params: P; querystring: Q; body: B; response: Record<string, unknown> };
}

/** Path ids are plain strings: a malformed id reads as 404, like an unknown one. */
export const pathIds = <K extends string>(...names: K[]) =>
  Type.Object(
    Object.fromEntries(names.map((n) => [n, Type.String({ description: 'uuid' })])) as Record<
      K,
      ReturnType<typeof Type.String>
    >,
  );
