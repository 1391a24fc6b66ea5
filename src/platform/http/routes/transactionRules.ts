import {
  CreateTransactionRuleBodySchema,
  ListOf,
  ListQuerySchema,
  TransactionRuleResponseSchema,
  TransactionRuleSchema,
  UpdateTransactionRuleBodySchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Transaction rules'];
const WorkspaceParams = pathIds('workspaceId');
const RuleParams = pathIds('workspaceId', 'ruleId');

export function transactionRuleRoutes(app: RouteTable, engine: Engine): void {
  const rules = engine.transactionRules;
  const config = { auth: 'organization' as const };

  app.get(
    '/workspaces/:workspaceId/transaction-rules',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'List transaction rules in application order',
        params: WorkspaceParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(TransactionRuleSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await rules.list(request.organizationId, request.params.workspaceId, request.query),
  );

  app.post(
    '/workspaces/:workspaceId/transaction-rules',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Create a transaction rule',
        params: WorkspaceParams,
        body: CreateTransactionRuleBodySchema,
        success: [201, TransactionRuleResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      const rule = await rules.create(
        request.organizationId,
        request.params.workspaceId,
        request.body,
      );
      return { rule };
    },
  );

  app.get(
    '/workspaces/:workspaceId/transaction-rules/:ruleId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get a transaction rule',
        params: RuleParams,
        success: [200, TransactionRuleResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      rule: await rules.get(
        request.organizationId,
        request.params.workspaceId,
        request.params.ruleId,
      ),
    }),
  );

  app.patch(
    '/workspaces/:workspaceId/transaction-rules/:ruleId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Update a rule: conditions and actions replace the whole set',
        params: RuleParams,
        body: UpdateTransactionRuleBodySchema,
        success: [200, TransactionRuleResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      const { workspaceId, ruleId } = request.params;
      return {
        rule: await rules.update(request.organizationId, workspaceId, ruleId, request.body),
      };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/transaction-rules/:ruleId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Delete a transaction rule (applied values stay)',
        params: RuleParams,
        success: [200, undefined],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      await rules.delete(request.organizationId, request.params.workspaceId, request.params.ruleId);
      return undefined;
    },
  );
}
