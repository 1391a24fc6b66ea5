/**
 * Errors the platform's rules raise. Each carries a kind, not a status: the HTTP layer maps
 * kinds to statuses in one place (src/platform/http/errors.ts).
 */
export type DomainErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'not_found' // 404
  | 'conflict' // 409
  | 'unprocessable'; // 422

export interface Blocker {
  code: string;
  message: string;
}

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly blockers?: Blocker[],
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const conflict = (message: string, blockers?: Blocker[]) =>
  new DomainError('conflict', message, blockers);
export const unprocessable = (message: string) => new DomainError('unprocessable', message);
