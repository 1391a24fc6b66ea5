import standaloneModule from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv';
import type { Engine } from '../engine/index.js';
import { platformRoutes } from './routes/index.js';
import { AJV_OPTIONS, ajvKindOf, newAjv, schemaKey, type AjvKind } from './validation.js';

// ajv's standalone module is CommonJS with a default export; under NodeNext it arrives wrapped.
const standaloneCode = standaloneModule as unknown as typeof standaloneModule.default;

/** The route table is read for its schemas only: no handler runs, and none needs an engine. */
const noEngine = {} as Engine;

/**
 * Every route's validators as ajv's standalone code, by configuration and schema key
 * (`schemaKey`): a CommonJS module for each schema, exporting it as `validate`. The build bundles
 * each as a chunk of its own, loaded on its route's first request, so that a command compiles no
 * schema and loads only the validators it uses (validation.ts). `formatsModule` is the path the
 * code requires the platform's formats from (validationFormats.ts).
 */
export function precompiledValidatorSources(
  formatsModule: string,
): Record<AjvKind, Record<string, string>> {
  const ajvs = Object.fromEntries(
    (Object.keys(AJV_OPTIONS) as AjvKind[]).map((kind) => [
      kind,
      newAjv(kind, {
        code: {
          source: true,
          formats: _`require(${formatsModule}).VALIDATION_FORMATS`,
        },
      }),
    ]),
  ) as Record<AjvKind, ReturnType<typeof newAjv>>;
  const keys: Record<AjvKind, Set<string>> = { body: new Set(), text: new Set() };
  for (const route of platformRoutes(noEngine)) {
    for (const part of ['params', 'body', 'querystring'] as const) {
      const schema = route.schema[part];
      if (schema === undefined) continue;
      const kind = ajvKindOf(part);
      const key = schemaKey(schema);
      if (keys[kind].has(key)) continue;
      keys[kind].add(key);
      ajvs[kind].addSchema(schema, key);
    }
  }
  return Object.fromEntries(
    (Object.keys(keys) as AjvKind[]).map((kind) => [
      kind,
      Object.fromEntries(
        [...keys[kind]].map((key) => [key, standaloneCode(ajvs[kind], { validate: key })]),
      ),
    ]),
  ) as Record<AjvKind, Record<string, string>>;
}
