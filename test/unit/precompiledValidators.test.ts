import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { platformRoutes } from '../../src/platform/http/routes/index.js';
import { precompiledValidatorSources } from '../../src/platform/http/precompile.js';
import { ajvKindOf, newAjv, schemaKey, type AjvKind } from '../../src/platform/http/validation.js';
import * as formats from '../../src/platform/http/validationFormats.js';

/**
 * The validators the build writes (ajv's standalone code, bundled so that no command compiles
 * a schema) answer as ajv compiling the same schema at run time does: valid or not, the same
 * errors (the 400's words come from them), and the same coercions and defaults written into the
 * request. Checked for every part of every route against values made from its schema.
 */
const FORMATS_MODULE = path.resolve('src/platform/http/validationFormats.ts');
const nodeRequire = createRequire(import.meta.url);

function loadSources(): Record<AjvKind, Record<string, ValidateFunction>> {
  const sources = precompiledValidatorSources(FORMATS_MODULE);
  const load = (source: string) => {
    const exports: { validate?: ValidateFunction } = {};
    const require = (id: string) => (id === FORMATS_MODULE ? formats : nodeRequire(id));
    new Function('exports', 'require', source)(exports, require);
    return exports.validate!;
  };
  const loadAll = (kind: AjvKind) =>
    Object.fromEntries(Object.entries(sources[kind]).map(([key, source]) => [key, load(source)]));
  return { body: loadAll('body'), text: loadAll('text') };
}

interface PropertySchema {
  type?: string | string[];
  properties?: Record<string, PropertySchema>;
  items?: PropertySchema;
  anyOf?: PropertySchema[];
  enum?: unknown[];
  const?: unknown;
}

const TEXTS = [
  '',
  'abc',
  '1',
  '-1',
  '1.5',
  '2026-01-31',
  '2026-02-30',
  '0000-01-01',
  'true',
  'x'.repeat(600),
];
const VALUES: unknown[] = [undefined, null, 0, -1, 2.5, 1e20, true, 'abc', '', [], {}, ['x'], [{}]];

/** Values to check a schema with: whole wrong values, then each property changed in turn. */
function probes(schema: PropertySchema, part: string): unknown[] {
  const whole: unknown[] = [undefined, null, {}, [], 'text', 1, { unknown: 1 }];
  const properties = Object.entries(schema.properties ?? {});
  const tries = part === 'body' ? VALUES : TEXTS;
  const changed = properties.flatMap(([name, property]) => [
    ...tries.map((value) => ({ [name]: value })),
    ...(property.enum ?? []).map((value) => ({ [name]: value })),
    ...(property.const === undefined ? [] : [{ [name]: property.const }]),
    ...(property.items?.properties
      ? [
          {
            [name]: [
              Object.fromEntries(Object.keys(property.items.properties).map((k) => [k, 'x'])),
            ],
          },
        ]
      : []),
  ]);
  const all = Object.fromEntries(properties.map(([name]) => [name, part === 'body' ? 'x' : '1']));
  return [...whole, ...changed, all];
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

describe('the validators written at build time', () => {
  const built = loadSources();
  const routes = platformRoutes({} as never);

  it('exist for every part of every route', () => {
    const missing = routes.flatMap((route) =>
      (['params', 'body', 'querystring'] as const)
        .filter((part) => route.schema[part] !== undefined)
        .filter((part) => !built[ajvKindOf(part)][schemaKey(route.schema[part]!)])
        .map((part) => `${route.method} ${route.url} ${part}`),
    );
    expect(missing).toEqual([]);
  });

  it('answer as ajv compiling at run time does, errors, coercions and defaults alike', () => {
    const runtime = { body: newAjv('body'), text: newAjv('text') };
    let compared = 0;
    for (const route of routes) {
      for (const part of ['params', 'body', 'querystring'] as const) {
        const schema = route.schema[part];
        if (schema === undefined) continue;
        const kind = ajvKindOf(part);
        const precompiled = built[kind][schemaKey(schema)]!;
        const compiled = runtime[kind].compile(schema);
        for (const probe of probes(schema as PropertySchema, part)) {
          const [a, b] = [structuredClone(probe), structuredClone(probe)];
          const where = `${route.method} ${route.url} ${part} ${JSON.stringify(probe)}`;
          expect(precompiled(a), where).toBe(compiled(b));
          // As JSON: a run-time error's schema is TypeBox's object, with its symbols; a written one's
          // is its JSON, all the 400's words are made from.
          expect(asJson(precompiled.errors), where).toEqual(asJson(compiled.errors));
          expect(a, where).toEqual(b);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
