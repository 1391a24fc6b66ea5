import { createHash, randomBytes } from 'node:crypto';

/** A new organization access token: a recognizable prefix and 32 random bytes. */
export function newAccessToken(): string {
  return `books_org_${randomBytes(32).toString('base64url')}`;
}

/** Tokens are stored and looked up only by this hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
