import type { ErrorBody } from '../api/index.js';

/** The platform answered with an error status. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly traceId: string | null,
    readonly blockers: ErrorBody['blockers'] = undefined,
  ) {
    super(message);
  }
}

/** The platform could not be reached, or the connection broke, after every retry. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
