import {
  CreateWorkspaceBodySchema,
  ListOf,
  ListQuerySchema,
  WorkspaceResponseSchema,
  WorkspaceSchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { publicWorkspace } from '../../engine/workspaces.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Workspaces'];
const WorkspaceParams = pathIds('workspaceId');

export function workspaceRoutes(app: RouteTable, engine: Engine): void {
  const workspaces = engine.workspaces;
  const config = { auth: 'organization' as const };

  app.get(
    '/workspaces',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'List workspaces',
        querystring: ListQuerySchema,
        success: [200, ListOf(WorkspaceSchema)],
        errors: [400, 401, 429],
      }),
    },
    async (request) => await workspaces.list(request.organizationId, request.query),
  );

  app.post(
    '/workspaces',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Create a workspace',
        body: CreateWorkspaceBodySchema,
        success: [201, WorkspaceResponseSchema],
        errors: [400, 401, 429],
      }),
    },
    async (request) => {
      const workspace = await workspaces.create(request.organizationId, request.body);
      return { workspace };
    },
  );

  app.get(
    '/workspaces/:workspaceId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get a workspace',
        params: WorkspaceParams,
        success: [200, WorkspaceResponseSchema],
        errors: [401, 404, 429],
      }),
    },
    async (request) => ({
      workspace: publicWorkspace(
        await workspaces.get(request.organizationId, request.params.workspaceId),
      ),
    }),
  );

  app.delete(
    '/workspaces/:workspaceId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Delete a workspace and everything in it',
        params: WorkspaceParams,
        success: [200, undefined],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      await workspaces.delete(request.organizationId, request.params.workspaceId);
      return undefined;
    },
  );
}
