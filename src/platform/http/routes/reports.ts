import { Type } from '@sinclair/typebox';
import {
  BalanceSheetSchema,
  CashFlowSchema,
  GeneralLedgerQuerySchema,
  GeneralLedgerSchema,
  ProfitAndLossSchema,
  ReportQuerySchema,
  TrialBalanceSchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Reports'];
const EntityParams = pathIds('entityId');
const errors = [400, 401, 404, 429];

export function reportRoutes(app: RouteTable, engine: Engine): void {
  const reports = engine.reports;
  const config = { auth: 'organization' as const };
  const base = '/entities/:entityId/reports';

  app.get(
    `${base}/profit-and-loss`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Profit and loss: income, costs and expenses per period',
        params: EntityParams,
        querystring: ReportQuerySchema,
        success: [200, Type.Object({ report: ProfitAndLossSchema })],
        errors,
      }),
    },
    (request) => ({
      report: reports.profitAndLoss(request.organizationId, request.params.entityId, request.query),
    }),
  );

  app.get(
    `${base}/balance-sheet`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Balance sheet: balances at the end of each period',
        params: EntityParams,
        querystring: ReportQuerySchema,
        success: [200, Type.Object({ report: BalanceSheetSchema })],
        errors,
      }),
    },
    (request) => ({
      report: reports.balanceSheet(request.organizationId, request.params.entityId, request.query),
    }),
  );

  app.get(
    `${base}/cash-flow`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Cash flow by the indirect method, with its summary',
        params: EntityParams,
        querystring: ReportQuerySchema,
        success: [200, Type.Object({ report: CashFlowSchema })],
        errors,
      }),
    },
    (request) => ({
      report: reports.cashFlow(request.organizationId, request.params.entityId, request.query),
    }),
  );

  app.get(
    `${base}/trial-balance`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Trial balance: every account on its debit or credit side',
        params: EntityParams,
        querystring: ReportQuerySchema,
        success: [200, Type.Object({ report: TrialBalanceSchema })],
        errors,
      }),
    },
    (request) => ({
      report: reports.trialBalance(request.organizationId, request.params.entityId, request.query),
    }),
  );

  app.get(
    `${base}/general-ledger`,
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'General ledger: every posting by account, with opening, running and closing balances',
        params: EntityParams,
        querystring: GeneralLedgerQuerySchema,
        success: [200, Type.Object({ report: GeneralLedgerSchema })],
        errors,
      }),
    },
    (request) => ({
      report: reports.generalLedger(request.organizationId, request.params.entityId, request.query),
    }),
  );
}
