import { Type } from '@sinclair/typebox';
import {
  AccountGroupResponseSchema,
  AccountGroupSchema,
  AccountResponseSchema,
  AccountSchema,
  BulkCreateAccountsBodySchema,
  CreateAccountBodySchema,
  CreateAccountGroupBodySchema,
  ListOf,
  ListQuerySchema,
  MergeAccountsBodySchema,
  UpdateAccountBodySchema,
  UpdateAccountGroupBodySchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const EntityParams = pathIds('entityId');
const AccountParams = pathIds('entityId', 'accountId');
const GroupParams = pathIds('entityId', 'groupId');

export function chartOfAccountsRoutes(app: RouteTable, engine: Engine): void {
  const accounts = engine.accounts;
  const groups = engine.accountGroups;
  const config = { auth: 'organization' as const };
  const tags = ['Chart of accounts'];
  const base = '/entities/:entityId/chart-of-accounts';

  app.get(
    base,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'List accounts, archived included, in chart order',
        params: EntityParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(AccountSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await accounts.list(request.organizationId, request.params.entityId, request.query),
  );

  app.post(
    base,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Create an account (its class follows from its type)',
        params: EntityParams,
        body: CreateAccountBodySchema,
        success: [201, AccountResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      account: await accounts.create(request.organizationId, request.params.entityId, request.body),
    }),
  );

  app.post(
    `${base}/bulk`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Create up to 100 accounts, all or none',
        params: EntityParams,
        body: BulkCreateAccountsBodySchema,
        success: [201, Type.Object({ data: Type.Array(AccountSchema) })],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      data: await accounts.bulkCreate(
        request.organizationId,
        request.params.entityId,
        request.body.accounts,
      ),
    }),
  );

  app.post(
    `${base}/merge`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Merge the source account into the target and delete the source',
        params: EntityParams,
        body: MergeAccountsBodySchema,
        success: [200, AccountResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      account: await accounts.merge(request.organizationId, request.params.entityId, request.body),
    }),
  );

  app.get(
    `${base}/:accountId`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get an account',
        params: AccountParams,
        success: [200, AccountResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      account: await accounts.get(
        request.organizationId,
        request.params.entityId,
        request.params.accountId,
      ),
    }),
  );

  app.patch(
    `${base}/:accountId`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Rename or regroup an account (type, class and code are fixed)',
        params: AccountParams,
        body: UpdateAccountBodySchema,
        success: [200, AccountResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      const { entityId, accountId } = request.params;
      return {
        account: await accounts.update(request.organizationId, entityId, accountId, request.body),
      };
    },
  );

  for (const [action, isDisabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `${base}/:accountId/${action}`,
      {
        config,
        schema: routeSchema({
          tags,
          summary: isDisabled ? 'Archive an account' : 'Restore an archived account',
          params: AccountParams,
          success: [200, AccountResponseSchema],
          errors: [400, 401, 404, 429],
        }),
      },
      async (request) => {
        const { entityId, accountId } = request.params;
        return {
          account: await accounts.setDisabled(
            request.organizationId,
            entityId,
            accountId,
            isDisabled,
          ),
        };
      },
    );
  }

  app.delete(
    `${base}/:accountId`,
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Delete an account nothing has posted to',
        params: AccountParams,
        success: [200, undefined],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => {
      await accounts.delete(
        request.organizationId,
        request.params.entityId,
        request.params.accountId,
      );
      return undefined;
    },
  );

  const groupTags = ['Account groups'];
  const groupBase = '/entities/:entityId/account-groups';

  app.get(
    groupBase,
    {
      config,
      schema: routeSchema({
        tags: groupTags,
        summary: 'List account groups in chart display order, parents before children',
        params: EntityParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(AccountGroupSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await groups.list(request.organizationId, request.params.entityId, request.query),
  );

  app.post(
    groupBase,
    {
      config,
      schema: routeSchema({
        tags: groupTags,
        summary: 'Create an account group',
        params: EntityParams,
        body: CreateAccountGroupBodySchema,
        success: [201, AccountGroupResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      group: await groups.create(request.organizationId, request.params.entityId, request.body),
    }),
  );

  app.get(
    `${groupBase}/:groupId`,
    {
      config,
      schema: routeSchema({
        tags: groupTags,
        summary: 'Get an account group',
        params: GroupParams,
        success: [200, AccountGroupResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      group: await groups.get(
        request.organizationId,
        request.params.entityId,
        request.params.groupId,
      ),
    }),
  );

  app.patch(
    `${groupBase}/:groupId`,
    {
      config,
      schema: routeSchema({
        tags: groupTags,
        summary: 'Rename or move an account group',
        params: GroupParams,
        body: UpdateAccountGroupBodySchema,
        success: [200, AccountGroupResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      const { entityId, groupId } = request.params;
      return {
        group: await groups.update(request.organizationId, entityId, groupId, request.body),
      };
    },
  );

  app.delete(
    `${groupBase}/:groupId`,
    {
      config,
      schema: routeSchema({
        tags: groupTags,
        summary: 'Delete a group; its children and members move up to its parent',
        params: GroupParams,
        success: [200, undefined],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      await groups.delete(request.organizationId, request.params.entityId, request.params.groupId);
      return undefined;
    },
  );
}
