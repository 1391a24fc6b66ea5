import { Type } from '@sinclair/typebox';
import {
  CreateTaxCodeBodySchema,
  FiledTaxReturnListSchema,
  FiledTaxReturnResponseSchema,
  FileTaxReturnBodySchema,
  SetUpTaxBodySchema,
  TaxCodeListSchema,
  TaxCodeNameSchema,
  TaxCodeResponseSchema,
  NDJSON_TYPE,
  TaxReturnQuerySchema,
  TaxReturnSchema,
  TaxSetupResponseSchema,
  UpdateTaxCodeBodySchema,
} from '../../../api/index.js';
import type { Engine } from '../../engine/index.js';
import { postingJson } from '../../engine/tax.js';
import { StreamedJson, type RouteTable } from '../routeTable.js';
import { pathIds, routeSchema } from '../routeSchema.js';

const tags = ['Sandbox'];
const EntityParams = pathIds('entityId');
const CodeParams = Type.Composite([EntityParams, Type.Object({ code: TaxCodeNameSchema })]);

/** An entity's VAT: registration, codes, the return (sandbox control plane, an addition). */
export function taxRoutes(app: RouteTable, engine: Engine): void {
  const config = { auth: 'organization' as const };

  app.post(
    '/entities/:entityId/tax-setting',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          "Register the entity for VAT: its country, scheme, filing period and VAT accounts; the country's standard tax codes are created",
        params: EntityParams,
        body: SetUpTaxBodySchema,
        success: [200, TaxSetupResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) =>
      engine.tax.setUp(request.organizationId, request.params.entityId, request.body),
  );

  app.get(
    '/entities/:entityId/tax-setting',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "The entity's VAT registration and tax codes (404 when it has none)",
        params: EntityParams,
        success: [200, TaxSetupResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => engine.tax.get(request.organizationId, request.params.entityId),
  );

  app.get(
    '/entities/:entityId/tax-codes',
    {
      config,
      schema: routeSchema({
        tags,
        summary: "The entity's tax codes, in the order they were made",
        params: EntityParams,
        success: [200, TaxCodeListSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      data: (await engine.tax.get(request.organizationId, request.params.entityId)).taxCodes,
    }),
  );

  app.post(
    '/entities/:entityId/tax-codes',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'Create a tax code (its boxes, unless given, those of the preset of its side and kind)',
        params: EntityParams,
        body: CreateTaxCodeBodySchema,
        success: [201, TaxCodeResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      taxCode: await engine.tax.createCode(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
    }),
  );

  app.patch(
    '/entities/:entityId/tax-codes/:code',
    {
      config,
      schema: routeSchema({
        tags,
        summary: 'Rename a tax code, change its rates, archive or restore it',
        params: CodeParams,
        body: UpdateTaxCodeBodySchema,
        success: [200, TaxCodeResponseSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      taxCode: await engine.tax.updateCode(
        request.organizationId,
        request.params.entityId,
        request.params.code,
        request.body,
      ),
    }),
  );

  app.get(
    '/entities/:entityId/tax-return',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          "The VAT return of a period from the entity's coded postings: the country's boxes, whether it ties to the VAT accounts, and what keeps it from tying",
        params: EntityParams,
        querystring: TaxReturnQuerySchema,
        success: [200, TaxReturnSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => {
      if (!request.query.detail)
        return engine.tax.taxReturn(request.organizationId, request.params.entityId, request.query);
      const detail = await engine.tax.taxReturnDetail(
        request.organizationId,
        request.params.entityId,
        request.query,
      );
      return request.accept.includes(NDJSON_TYPE)
        ? StreamedJson.lines(taxReturnLines(detail))
        : new StreamedJson(taxReturnJson(detail));
    },
  );

  app.post(
    '/entities/:entityId/tax-returns',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          "Mark a period's VAT return filed: it must tie; its figures and the postings' fingerprint are kept, and coded postings of its period are locked",
        params: EntityParams,
        body: FileTaxReturnBodySchema,
        success: [201, FiledTaxReturnResponseSchema],
        errors: [400, 401, 404, 409, 429],
      }),
    },
    async (request) => ({
      taxReturn: await engine.tax.fileReturn(
        request.organizationId,
        request.params.entityId,
        request.body,
      ),
    }),
  );

  app.get(
    '/entities/:entityId/tax-returns',
    {
      config,
      schema: routeSchema({
        tags,
        summary:
          'The VAT returns filed, earliest first, each with whether its postings are unchanged',
        params: EntityParams,
        success: [200, FiledTaxReturnListSchema],
        errors: [400, 401, 404, 429],
      }),
    },
    async (request) => ({
      data: await engine.tax.filedReturns(request.organizationId, request.params.entityId),
    }),
  );
}

/**
 * A return with its postings as lines (`NDJSON_TYPE`), a thousand postings a piece: the first the
 * return with its boxes but not their postings, each after it one posting behind a box with that
 * box's `box` (boxes in the return's order).
 */
export async function* taxReturnLines({
  taxReturn,
  postings,
}: Awaited<ReturnType<Engine['tax']['taxReturnDetail']>>): AsyncGenerator<string> {
  yield `${JSON.stringify({ ...taxReturn, boxes: taxReturn.boxes.map(({ postings: _none, ...box }) => box) })}\n`;
  for (const { box } of taxReturn.boxes) {
    const opening = `{"box":${JSON.stringify(box)},`;
    for (const chunk of postings(box)) {
      let text = '';
      for (const posting of chunk) text += `${opening}${postingJson(posting).slice(1)}\n`;
      yield text;
    }
  }
}

/**
 * A return with its postings as JSON text written part by part: its figures first (the boxes
 * last), then each box with its postings a thousand at a time, the answer never whole in memory.
 * The same document as the return's schema, its keys in another order.
 */
export async function* taxReturnJson({
  taxReturn,
  postings,
}: Awaited<ReturnType<Engine['tax']['taxReturnDetail']>>): AsyncGenerator<string> {
  const { boxes, ...figures } = taxReturn;
  yield `${JSON.stringify(figures).slice(0, -1)},"boxes":[`;
  let first = true;
  for (const { postings: _none, ...box } of boxes) {
    yield `${first ? '' : ','}${JSON.stringify(box).slice(0, -1)},"postings":[`;
    first = false;
    let written = 0;
    for (const chunk of postings(box.box)) {
      if (chunk.length === 0) continue;
      yield `${written > 0 ? ',' : ''}${chunk.map(postingJson).join(',')}`;
      written += chunk.length;
    }
    yield ']}';
  }
  yield ']}';
}
