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

/** An answer, or undefined where the platform says 404 (not there, or no such route). */
export function unlessNotFound<T>(answer: Promise<T>): Promise<T | undefined> {
  return answer.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  });
}
