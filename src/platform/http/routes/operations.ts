import { Type } from '@sinclair/typebox';
import type { Engine } from '../../engine/index.js';
import { HttpError } from '../errors.js';
import { routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Operations'];
const Status = Type.Object({ status: Type.String() });

/**
 * For a load balancer in front of several `books serve` processes: unauthenticated, cheap, and
 * outside the rate limit. `/healthz` says the process answers; `/readyz` that its database does
 * too (a 503 with Retry-After while it does not, as every request that needs it gets).
 */
export function operationsRoutes(app: RouteTable, engine: Engine): void {
  app.get(
    '/healthz',
    {
      schema: routeSchema({
        tags,
        summary: 'The process answers',
        success: [200, Status],
        errors: [],
      }),
    },
    () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: routeSchema({
        tags,
        summary: 'The process and its database answer',
        success: [200, Status],
        errors: [503],
      }),
    },
    async () => {
      try {
        await engine.store.database.ping();
      } catch (error) {
        throw new HttpError(
          503,
          "the platform's database does not answer",
          {
            'Retry-After': '1',
          },
          { cause: error },
        );
      }
      return { status: 'ready' };
    },
  );
}
