import { expect } from 'vitest';
import type { TestServer } from './server.js';

export interface TestEntity {
  workspaceId: string;
  entityId: string;
  /** `/platform/v1/entities/{entityId}` */
  base: string;
  /** Creates an account and answers it. */
  account(name: string, type: string, extra?: Record<string, unknown>): Promise<any>;
  /** Posts an entry; answers the raw response. */
  post(body: Record<string, unknown>): Promise<any>;
  /** A balanced two-line entry of `amount` from `debit` to `credit`. */
  entry(
    date: string,
    debitAccountId: string,
    creditAccountId: string,
    amount: number,
    extra?: Record<string, unknown>,
  ): Record<string, unknown>;
}

export async function createEntity(
  server: TestServer,
  options: { timezone?: string; token?: string; name?: string } = {},
): Promise<TestEntity> {
  const token = options.token;
  const workspace = await server.request('POST', '/platform/v1/workspaces', {
    body: {
      name: options.name ?? 'Ledger Books',
      ...(options.timezone && { timezone: options.timezone }),
    },
    ...(token && { token }),
  });
  const workspaceId = workspace.body.workspace.id;
  const entity = await server.request('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
    body: { name: 'Main Street Bakery' },
    ...(token && { token }),
  });
  const entityId = entity.body.entity.id;
  const base = `/platform/v1/entities/${entityId}`;
  return {
    workspaceId,
    entityId,
    base,
    async account(name, type, extra = {}) {
      const response = await server.request('POST', `${base}/chart-of-accounts`, {
        body: { name, type, ...extra },
        ...(token && { token }),
      });
      expect(response.status, response.text).toBe(201);
      return response.body.account;
    },
    post: (body) =>
      server.request('POST', `${base}/journal-entries`, { body, ...(token && { token }) }),
    entry: (date, debitAccountId, creditAccountId, amount, extra = {}) => ({
      date,
      lines: [
        { accountId: debitAccountId, debitAmount: amount },
        { accountId: creditAccountId, creditAmount: amount },
      ],
      ...extra,
    }),
  };
}
