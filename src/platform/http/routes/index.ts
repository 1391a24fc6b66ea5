import type { Engine } from '../../engine/index.js';
import { RouteTable, type RouteDefinition } from '../routeTable.js';
import { accountingMigrationRoutes } from './accountingMigration.js';
import { chartOfAccountsRoutes } from './chartOfAccounts.js';
import { classRoutes } from './classes.js';
import { journalEntryRoutes } from './journalEntries.js';
import { operationsRoutes } from './operations.js';
import { reportRoutes } from './reports.js';
import { sandboxRoutes } from './sandbox.js';
import { taxRoutes } from './tax.js';
import { transactionRuleRoutes } from './transactionRules.js';
import { workspaceRoutes } from './workspaces.js';

/** Every route of the local platform: the Bookkeeping Platform API and the sandbox. */
export function platformRoutes(engine: Engine): RouteDefinition[] {
  const table = new RouteTable();
  const platform = table.under('/platform/v1');
  workspaceRoutes(platform, engine);
  classRoutes(platform, engine);
  transactionRuleRoutes(platform, engine);
  chartOfAccountsRoutes(platform, engine);
  journalEntryRoutes(platform, engine);
  reportRoutes(platform, engine);
  accountingMigrationRoutes(platform, engine);
  sandboxRoutes(table.under('/sandbox/v1'), engine);
  taxRoutes(table.under('/sandbox/v1'), engine);
  operationsRoutes(table, engine);
  return table.routes;
}
