import { Type } from '@sinclair/typebox';
import {
  NDJSON_TYPE,
  BalanceSheetSchema,
  CashFlowSchema,
  GeneralLedgerQuerySchema,
  GeneralLedgerSchema,
  ProfitAndLossSchema,
  ReportQuerySchema,
  TrialBalanceSchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import type { GeneralLedgerPart, GeneralLedgerSpec } from '../../engine/reports.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import { StreamedJson, type RouteTable } from '../routeTable.js';

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
    async (request) => ({
      report: await reports.profitAndLoss(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
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
    async (request) => ({
      report: await reports.balanceSheet(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
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
    async (request) => ({
      report: await reports.cashFlow(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
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
    async (request) => ({
      report: await reports.trialBalance(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
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
    async (request) => {
      const { spec, parts } = await reports.generalLedgerStream(
        request.organizationId,
        request.params.entityId,
        request.query,
      );
      // Lines when asked for them (books' own CLI reads the ledger so), else the document.
      return request.accept.includes(NDJSON_TYPE)
        ? StreamedJson.lines(generalLedgerLines(spec, parts))
        : new StreamedJson(generalLedgerJson(spec, parts));
    },
  );
}

/**
 * The general ledger as lines (`NDJSON_TYPE`, an addition of books' platform): `{ report }`
 * with the report's fields but not its accounts, then per account `{"account":head}`, each of
 * its entries `{"entry":…}` and `{"closingBalance":…}`, in the document's order.
 */
export async function* generalLedgerLines(
  spec: GeneralLedgerSpec,
  parts: AsyncIterable<GeneralLedgerPart>,
): AsyncGenerator<string> {
  yield `${JSON.stringify({ report: spec })}\n`;
  for await (const part of parts) {
    if (part.kind === 'account') yield `{"account":${JSON.stringify(part.head)}}\n`;
    else if (part.kind === 'entries') {
      let text = '';
      for (const entry of part.entries) text += `{"entry":${JSON.stringify(entry)}}\n`;
      yield text;
    } else yield `{"closingBalance":${JSON.stringify(part.closingBalance)}}\n`;
  }
}

/**
 * The general ledger's answer, `{ report }`, as JSON text written part by part: a chunk of
 * entries at a time, the report never whole in memory.
 */
export async function* generalLedgerJson(
  spec: GeneralLedgerSpec,
  parts: AsyncIterable<GeneralLedgerPart>,
): AsyncGenerator<string> {
  const head = JSON.stringify({ report: spec });
  yield `${head.slice(0, -2)},"accounts":[`;
  let accounts = 0;
  let entries = 0;
  for await (const part of parts) {
    if (part.kind === 'account') {
      const account = JSON.stringify(part.head);
      yield `${accounts++ > 0 ? ',' : ''}${account.slice(0, -1)},"entries":[`;
      entries = 0;
    } else if (part.kind === 'entries') {
      const text = part.entries.map((entry) => JSON.stringify(entry)).join(',');
      yield `${entries > 0 ? ',' : ''}${text}`;
      entries += part.entries.length;
    } else {
      yield `],"closingBalance":${JSON.stringify(part.closingBalance)}}`;
    }
  }
  yield ']}}';
}
