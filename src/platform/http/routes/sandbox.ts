import { Type } from '@sinclair/typebox';
import {
  BankFeedConnectionResponseSchema,
  BankFeedConnectionSchema,
  ListTransactionsQuerySchema,
  BankTransactionSchema,
  BankTransactionResponseSchema,
  DecisionBodySchema,
  DecisionResponseSchema,
  BulkDecisionBodySchema,
  BulkDecisionResponseSchema,
  ForReviewQuerySchema,
  ForReviewResponseSchema,
  ForReviewSummaryQuerySchema,
  ForReviewSummaryResponseSchema,
  ApplyRulesBodySchema,
  ApplyRulesResponseSchema,
  TransactionRuleSchema,
  BreakConnectionBodySchema,
  PushTransactionsBodySchema,
  CreateBankFeedConnectionBodySchema,
  CreateEntityBodySchema,
  CreateFaultBodySchema,
  CreateOpeningBalanceBodySchema,
  OpeningBalanceResponseSchema,
  CreateReconciliationBodySchema,
  ListReconciliationsQuerySchema,
  ReconciliationListSchema,
  ReconciliationResponseSchema,
  FaultResponseSchema,
  CreateOrganizationBodySchema,
  CreateOrganizationResponseSchema,
  EntityResponseSchema,
  EntitySchema,
  ListOf,
  ListQuerySchema,
  SandboxWorkspaceResponseSchema,
  UpdateEntityBodySchema,
  UpdateWorkspaceFlagsBodySchema,
  CreateWebhookEndpointBodySchema,
  CreateWebhookEndpointResponseSchema,
  WebhookEndpointResponseSchema,
  WebhookEndpointSchema,
  RotateWebhookSecretResponseSchema,
  WebhookAttemptSchema,
  RecoverWebhookMessagesBodySchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Sandbox'];
const WorkspaceParams = pathIds('workspaceId');
const EntityParams = pathIds('entityId');

/** The sandbox control plane (local-platform.md §4): what the hosted web app does. */
export function sandboxRoutes(app: RouteTable, engine: Engine): void {
  const config = { auth: 'organization' as const };

  app.post(
    '/organizations',
    {
      config: { auth: 'admin' },
      schema: routeSchema({
        tags,
        summary: 'Create an organization and its first access token (admin token)',
        body: CreateOrganizationBodySchema,
        success: [201, CreateOrganizationResponseSchema],
        errors: [400, 401],
      }),
    },
    async (request) => await engine.organizations.create(request.body.name),
  );

  app.get(
    '/workspaces/:workspaceId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'A workspace with its flags (custom chart, billing owner, outside users, rules)',
        params: WorkspaceParams,
        success: [200, SandboxWorkspaceResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      workspace: await engine.workspaces.get(request.organizationId, request.params.workspaceId),
    }),
  );

  app.patch(
    '/workspaces/:workspaceId',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Set workspace flags (custom chart, billing owner, outside users, rule generation)',
        params: WorkspaceParams,
        body: UpdateWorkspaceFlagsBodySchema,
        success: [200, SandboxWorkspaceResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      workspace: await engine.workspaces.updateFlags(
        request.organizationId,
        request.params.workspaceId,
        request.body,
      ),
    }),
  );

  app.post(
    '/workspaces/:workspaceId/entities',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Create an entity',
        params: WorkspaceParams,
        body: CreateEntityBodySchema,
        success: [201, EntityResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      const entity = await engine.entities.create(
        request.organizationId,
        request.params.workspaceId,
        request.body,
      );
      return { entity };
    },
  );

  app.get(
    '/workspaces/:workspaceId/entities',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'List the entities of a workspace',
        params: WorkspaceParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(EntitySchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.entities.list(request.organizationId, request.params.workspaceId, request.query),
  );

  app.get(
    '/entities/:entityId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get an entity',
        params: EntityParams,
        success: [200, EntityResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) => ({
      entity: await engine.entities.get(request.organizationId, request.params.entityId),
    }),
  );

  app.patch(
    '/entities/:entityId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Update an entity: name, bookkeepingStartDate, lockDate (null unlocks)',
        params: EntityParams,
        body: UpdateEntityBodySchema,
        success: [200, EntityResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      entity: await engine.entities.update(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
    }),
  );

  app.post(
    '/entities/:entityId/ledgers/accrual/open',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Open the accrual ledger of an entity',
        params: EntityParams,
        success: [200, EntityResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) => ({
      entity: await engine.entities.openAccrualLedger(
        request.organizationId,
        request.params.entityId,
      ),
    }),
  );

  app.post(
    '/faults',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "Inject failures into this organization's requests (reject or after_commit)",
        body: CreateFaultBodySchema,
        success: [201, FaultResponseSchema],
        errors: [400, 401, 429],
      }),
    },
    (request) => ({ fault: engine.faults.add(request.organizationId, request.body) }),
  );

  app.delete(
    '/faults',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "Clear this organization's faults",
        success: [200, undefined],
        errors: [401, 429],
      }),
    },
    (request) => {
      engine.faults.clear(request.organizationId);
      return undefined;
    },
  );

  app.post(
    '/entities/:entityId/opening-balances',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Post opening balances (balanced) on both ledgers',
        params: EntityParams,
        body: CreateOpeningBalanceBodySchema,
        success: [201, OpeningBalanceResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      openingBalance: await engine.openingBalances.create(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
    }),
  );

  app.post(
    '/entities/:entityId/reconciliations',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Record a bank or card account reconciled to its statements: their days, the balances, the entries they cleared',
        params: EntityParams,
        body: CreateReconciliationBodySchema,
        success: [201, ReconciliationResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      reconciliation: await engine.reconciliations.create(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
    }),
  );

  app.get(
    '/entities/:entityId/reconciliations',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "An entity's reconciliations (of one account, with accountId), latest first",
        params: EntityParams,
        querystring: ListReconciliationsQuerySchema,
        success: [200, ReconciliationListSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      data: await engine.reconciliations.list(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
    }),
  );

  app.post(
    '/entities/:entityId/bank-feed-connections',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Connect a bank feed: financial accounts, each with a linked chart account',
        params: EntityParams,
        body: CreateBankFeedConnectionBodySchema,
        success: [201, BankFeedConnectionResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      connection: await engine.bankFeeds.connect(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
    }),
  );

  app.get(
    '/entities/:entityId/bank-feed-connections',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "List an entity's bank-feed connections with their status",
        params: EntityParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(BankFeedConnectionSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.bankFeeds.listConnections(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
  );

  const ConnectionParams = pathIds('connectionId');
  app.post(
    '/bank-feed-connections/:connectionId/break',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Break a connection (records feed.connection.disconnected once)',
        params: ConnectionParams,
        body: BreakConnectionBodySchema,
        success: [200, BankFeedConnectionResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      connection: await engine.bankFeeds.breakConnection(
        request.organizationId,
        request.params.connectionId,
        request.body,
      ),
    }),
  );

  app.post(
    '/bank-feed-connections/:connectionId/reconnect',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Reconnect a broken connection',
        params: ConnectionParams,
        success: [200, BankFeedConnectionResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) => ({
      connection: await engine.bankFeeds.reconnect(
        request.organizationId,
        request.params.connectionId,
      ),
    }),
  );

  app.post(
    '/financial-accounts/:financialAccountId/transactions',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Push bank transactions (≤ 1000; signed amounts; a repeated externalId is skipped)',
        params: pathIds('financialAccountId'),
        body: PushTransactionsBodySchema,
        success: [201, Type.Object({ data: Type.Array(BankTransactionSchema) })],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      data: await engine.bankTransactions.push(
        request.organizationId,
        request.params.financialAccountId,
        request.body,
      ),
    }),
  );

  app.get(
    '/workspaces/:workspaceId/transactions',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          "List a workspace's bank transactions, most recent first, with bank account, reference, status, category and who decided (narrowed by entityId, startDate, endDate, status, accountId, search, reference)",
        params: WorkspaceParams,
        querystring: ListTransactionsQuerySchema,
        success: [200, ListOf(BankTransactionSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.bankTransactions.list(
        request.organizationId,
        request.params.workspaceId,
        request.query,
      ),
  );

  const TransactionParams = pathIds('transactionId');
  app.get(
    '/transactions/:transactionId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get a bank transaction',
        params: TransactionParams,
        success: [200, BankTransactionResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) => ({
      transaction: await engine.bankTransactions.get(
        request.organizationId,
        request.params.transactionId,
      ),
    }),
  );

  app.post(
    '/transactions/:transactionId/decision',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Decide a bank transaction: an account, a split, a transfer, a match to a journal entry, exclude, or back to the queue (409 when it was decided meanwhile or is locked)',
        params: TransactionParams,
        body: DecisionBodySchema,
        success: [200, DecisionResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) =>
      await engine.bankTransactions.decide(
        request.organizationId,
        request.params.transactionId,
        request.body,
      ),
  );

  app.post(
    '/entities/:entityId/transaction-decisions',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Up to 100 decisions on bank transactions of an entity, each decided or refused on its own (its status and message)',
        params: EntityParams,
        body: BulkDecisionBodySchema,
        success: [200, BulkDecisionResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.bankTransactions.decideMany(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
  );

  app.get(
    '/entities/:entityId/for-review',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          "An entity's for-review queue: every waiting transaction, oldest first (not paged), with suggest=true each with its suggestion",
        params: EntityParams,
        querystring: ForReviewQuerySchema,
        success: [200, ForReviewResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.bankTransactions.forReview(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
  );

  app.get(
    '/workspaces/:workspaceId/for-review/summary',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Per entity of a workspace: how many transactions wait, the oldest, money in and out, how many have a confident suggestion',
        params: WorkspaceParams,
        querystring: ForReviewSummaryQuerySchema,
        success: [200, ForReviewSummaryResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      data: await engine.bankTransactions.summary(
        request.organizationId,
        request.params.workspaceId,
        request.query,
      ),
    }),
  );

  app.post(
    '/workspaces/:workspaceId/transaction-rules/apply',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          "Run the workspace's rules (or those named) on the transactions that wait; dryRun says what each would take",
        params: WorkspaceParams,
        body: ApplyRulesBodySchema,
        success: [200, ApplyRulesResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.bankTransactions.applyRules(
        request.organizationId,
        request.params.workspaceId,
        request.body,
      ),
  );

  app.get(
    '/entities/:entityId/generated-rules',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'List the transaction rules the accounting migration generated',
        params: EntityParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(TransactionRuleSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.accountingMigrations.generatedRules(
        request.organizationId,
        request.params.entityId,
        request.query,
      ),
  );

  // --- the webhook portal ----------------------------------------------------------------
  const EndpointParams = pathIds('endpointId');
  app.post(
    '/webhook-endpoints',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Add a webhook endpoint (https, or http on loopback); empty eventTypes: every event',
        body: CreateWebhookEndpointBodySchema,
        success: [201, CreateWebhookEndpointResponseSchema],
        errors: [400, 401, 429],
      }),
    },
    async (request) => await engine.webhooks.createEndpoint(request.organizationId, request.body),
  );

  app.get(
    '/webhook-endpoints',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "List the organization's webhook endpoints",
        querystring: ListQuerySchema,
        success: [200, ListOf(WebhookEndpointSchema)],
        errors: [400, 401, 429],
      }),
    },
    async (request) => await engine.webhooks.listEndpoints(request.organizationId, request.query),
  );

  app.get(
    '/webhook-endpoints/:endpointId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get a webhook endpoint',
        params: EndpointParams,
        success: [200, WebhookEndpointResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) => ({
      endpoint: await engine.webhooks.getEndpoint(
        request.organizationId,
        request.params.endpointId,
      ),
    }),
  );

  app.delete(
    '/webhook-endpoints/:endpointId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Delete a webhook endpoint, its pending deliveries and its attempt log',
        params: EndpointParams,
        success: [200, undefined],
        errors: [401, 404, 429],
      }),
    },
    async (request) => {
      await engine.webhooks.deleteEndpoint(request.organizationId, request.params.endpointId);
      return undefined;
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/rotate-secret',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Rotate the signing secret (the previous one signs too for 24 hours)',
        params: EndpointParams,
        success: [200, RotateWebhookSecretResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) =>
      await engine.webhooks.rotateSecret(request.organizationId, request.params.endpointId),
  );

  app.get(
    '/webhook-endpoints/:endpointId/attempts',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "An endpoint's delivery attempts, most recent first",
        params: EndpointParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(WebhookAttemptSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await engine.webhooks.attempts(
        request.organizationId,
        request.params.endpointId,
        request.query,
      ),
  );

  app.post(
    '/webhook-endpoints/:endpointId/messages/:messageId/retry',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Send one message to the endpoint again, now',
        params: pathIds('endpointId', 'messageId'),
        success: [202, undefined],
        errors: [401, 404, 429],
      }),
    },
    async (request) => {
      await engine.webhooks.retry(
        request.organizationId,
        request.params.endpointId,
        request.params.messageId,
      );
      return undefined;
    },
  );

  app.post(
    '/webhook-endpoints/:endpointId/recover',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Send again every message whose delivery failed since a time',
        params: EndpointParams,
        body: RecoverWebhookMessagesBodySchema,
        success: [202, undefined],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      await engine.webhooks.recover(
        request.organizationId,
        request.params.endpointId,
        request.body.since,
      );
      return undefined;
    },
  );
}
