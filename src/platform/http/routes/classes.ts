import {
  ClassResponseSchema,
  ClassSchema,
  CreateClassBodySchema,
  ListOf,
  ListQuerySchema,
  RenameClassBodySchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Classes'];
const WorkspaceParams = pathIds('workspaceId');
const ClassParams = pathIds('workspaceId', 'classId');

export function classRoutes(app: RouteTable, engine: Engine): void {
  const classes = engine.classes;
  const config = { auth: 'organization' as const };

  app.get(
    '/workspaces/:workspaceId/classes',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'List classes: every dimension, roots first within each tree',
        params: WorkspaceParams,
        querystring: ListQuerySchema,
        success: [200, ListOf(ClassSchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await classes.list(request.organizationId, request.params.workspaceId, request.query),
  );

  app.post(
    '/workspaces/:workspaceId/classes',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Create a class (a root without parentClassId)',
        params: WorkspaceParams,
        body: CreateClassBodySchema,
        success: [201, ClassResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => {
      const created = await classes.create(
        request.organizationId,
        request.params.workspaceId,
        request.body,
      );
      return { class: created };
    },
  );

  app.get(
    '/workspaces/:workspaceId/classes/:classId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Get a class',
        params: ClassParams,
        success: [200, ClassResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      class: await classes.get(
        request.organizationId,
        request.params.workspaceId,
        request.params.classId,
      ),
    }),
  );

  app.patch(
    '/workspaces/:workspaceId/classes/:classId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Rename a class',
        params: ClassParams,
        body: RenameClassBodySchema,
        success: [200, ClassResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => {
      const { workspaceId, classId } = request.params;
      return {
        class: await classes.rename(request.organizationId, workspaceId, classId, request.body),
      };
    },
  );

  app.delete(
    '/workspaces/:workspaceId/classes/:classId',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Delete a class and its whole subtree',
        params: ClassParams,
        success: [200, undefined],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      await classes.delete(
        request.organizationId,
        request.params.workspaceId,
        request.params.classId,
      );
      return undefined;
    },
  );
}
