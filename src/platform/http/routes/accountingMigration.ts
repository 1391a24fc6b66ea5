import { AccountingMigrationResponseSchema } from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Accounting migration'];
const EntityParams = pathIds('entityId');

export function accountingMigrationRoutes(app: RouteTable, engine: Engine): void {
  const migrations = engine.accountingMigrations;
  const config = { auth: 'organization' as const };
  const base = '/entities/:entityId/accounting-migration';

  app.post(
    base,
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Create the accounting migration (needs a bookkeepingStartDate, no opening balances)',
        params: EntityParams,
        success: [201, AccountingMigrationResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      accountingMigration: await migrations.create(request.organizationId, request.params.entityId),
    }),
  );

  app.get(
    base,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get the accounting migration (poll enrichmentRulesSeededAt)',
        params: EntityParams,
        success: [200, AccountingMigrationResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) => ({
      accountingMigration: await migrations.get(request.organizationId, request.params.entityId),
    }),
  );

  app.post(
    `${base}/generate-transaction-rules`,
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Finalize: generate transaction rules from the migrated history, in the background',
        params: EntityParams,
        success: [202, AccountingMigrationResponseSchema],
        errors: [401, 404, 409, 422, 429],
      }),
    },
    async (request) => ({
      accountingMigration: await migrations.generate(
        request.organizationId,
        request.params.entityId,
      ),
    }),
  );
}
