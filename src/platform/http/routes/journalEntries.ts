import { Type } from '@sinclair/typebox';
import {
  BulkCreateJournalEntriesBodySchema,
  CreateJournalEntryBodySchema,
  JournalEntryResponseSchema,
  JournalEntrySchema,
  LedgerBasisQuerySchema,
  ListJournalEntriesQuerySchema,
  ListOf,
  UpdateJournalEntryBodySchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { pathIds, routeSchema } from '../routeSchema.js';
import type { RouteTable } from '../routeTable.js';

const tags = ['Journal entries'];
const EntityParams = pathIds('entityId');
const EntryParams = pathIds('entityId', 'journalEntryId');

export function journalEntryRoutes(app: RouteTable, engine: Engine): void {
  const entries = engine.journalEntries;
  const config = { auth: 'organization' as const };
  const base = '/entities/:entityId/journal-entries';

  app.get(
    base,
    {
      config,
      // Every answer here is made by JournalEntryService.present.
      presented: true,
      schema: routeSchema({
        tags,
        summary: 'List journal entries, most recent first (startDate/endDate inclusive)',
        params: EntityParams,
        querystring: ListJournalEntriesQuerySchema,
        success: [200, ListOf(JournalEntrySchema)],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) =>
      await entries.list(request.organizationId, request.params.entityId, request.query),
  );

  app.post(
    base,
    {
      config,
      // Every answer here is made by JournalEntryService.present.
      presented: true,
      schema: routeSchema({
        tags,
        summary: 'Create a balanced journal entry',
        params: EntityParams,
        body: CreateJournalEntryBodySchema,
        success: [201, JournalEntryResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      journalEntry: await entries.create(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
    }),
  );

  app.post(
    `${base}/bulk`,
    {
      config,
      // Every answer here is made by JournalEntryService.present.
      presented: true,
      schema: routeSchema({
        tags,
        summary: 'Create up to 100 journal entries, all or none, answered in request order',
        params: EntityParams,
        body: BulkCreateJournalEntriesBodySchema,
        success: [201, Type.Object({ data: Type.Array(JournalEntrySchema) })],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      data: await entries.bulkCreate(
        request.organizationId,
        request.params.entityId,
        request.body.journalEntries,
      ),
    }),
  );

  app.get(
    `${base}/:journalEntryId`,
    {
      config,
      // Every answer here is made by JournalEntryService.present.
      presented: true,
      schema: routeSchema({
        tags,
        summary: 'Get a journal entry (on another ledger basis it reads as 404)',
        params: EntryParams,
        querystring: LedgerBasisQuerySchema,
        success: [200, JournalEntryResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      const { entityId, journalEntryId } = request.params;
      return {
        journalEntry: await entries.get(
          request.organizationId,
          entityId,
          journalEntryId,
          request.query.ledgerBasis,
        ),
      };
    },
  );

  app.patch(
    `${base}/:journalEntryId`,
    {
      config,
      // Every answer here is made by JournalEntryService.present.
      presented: true,
      schema: routeSchema({
        tags,
        summary: 'Update a journal entry: only the fields sent; lines replace the whole set',
        params: EntryParams,
        querystring: LedgerBasisQuerySchema,
        body: UpdateJournalEntryBodySchema,
        success: [200, JournalEntryResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => {
      const { entityId, journalEntryId } = request.params;
      return {
        journalEntry: await entries.update(
          request.organizationId,
          entityId,
          journalEntryId,
          request.query.ledgerBasis,
          request.body,
        ),
      };
    },
  );

  app.delete(
    `${base}/:journalEntryId`,
    {
      config,
      // Every answer here is made by JournalEntryService.present.
      presented: true,
      schema: routeSchema({
        tags,
        summary: 'Delete a journal entry and its postings',
        params: EntryParams,
        querystring: LedgerBasisQuerySchema,
        success: [200, undefined],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => {
      const { entityId, journalEntryId } = request.params;
      await entries.delete(
        request.organizationId,
        entityId,
        journalEntryId,
        request.query.ledgerBasis,
      );
      return undefined;
    },
  );
}
