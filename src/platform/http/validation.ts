import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { PRECOMPILED_VALIDATORS } from './precompiledValidators.js';
import { VALIDATION_FORMATS } from './validationFormats.js';

/*
 * `validateSchema: false`: our schemas are TypeBox's, checked by the contract tests; validating
 * each against the JSON Schema meta-schema first compiled the meta-schema in every `books`
 * command, about a tenth of its start.
 */
const common: Options = {
  allErrors: false,
  verbose: true,
  strict: false,
  useDefaults: true,
  validateSchema: false,
};

/**
 * Bodies are validated as sent: no type coercion (a string where a number belongs is a 400) and
 * no silent removal of properties (unknown ones are ignored unless the schema forbids them).
 * Query strings and path parameters arrive as text, so they are coerced to their types.
 */
export const AJV_OPTIONS = {
  body: { ...common, coerceTypes: false, removeAdditional: false },
  text: { ...common, coerceTypes: true, removeAdditional: false },
} as const satisfies Record<string, Options>;

/** Which of the two ajv configurations checks a part of a request. */
export type AjvKind = keyof typeof AJV_OPTIONS;
export const ajvKindOf = (part: RequestPart | undefined): AjvKind =>
  part === 'body' ? 'body' : 'text';

/** A schema's name among the validators written at build time: its JSON's digest. */
export const schemaKey = (schema: object): string =>
  createHash('sha256').update(JSON.stringify(schema)).digest('base64url');

/*
 * The bundle carries every route's validators as ajv wrote them at build time (standalone code:
 * precompiledValidators.ts, precompile.ts), each in a chunk of its own: a command then makes no
 * ajv instance, compiles nothing (both were about 10 ms of each embedded command's start) and
 * loads the validators of the routes it calls only (all of them were 560 KB of code to read).
 * Run from source, or for a schema the build did not see, ajv compiles it on first use, with the
 * same options and formats.
 */

/**
 * A new ajv instance of a kind with the platform's formats (ajv loaded then: the bundle needs it
 * only for a schema it was built without).
 */
export function newAjv(kind: AjvKind, extra: Options = {}): Ajv {
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof AjvModule;
  const ajv = new AjvClass({ ...AJV_OPTIONS[kind], ...extra });
  for (const [name, format] of Object.entries(VALIDATION_FORMATS)) ajv.addFormat(name, format);
  return ajv;
}
const ajvs: Partial<Record<AjvKind, Ajv>> = {};
const ajvOf = (kind: AjvKind): Ajv => (ajvs[kind] ??= newAjv(kind));

/*
 * Schemas are compiled on a route's first request, not when the app is built: the embedded
 * platform is built for every `books` command, which then calls one or two routes of about
 * eighty, and compiling them all took half a second of each command.
 */

/** The part of a request a schema checks: bodies as sent, text parts coerced. */
export type RequestPart = 'body' | 'querystring' | 'params';

/** A request part's validator: its errors are on `.errors` after a failure. */
export interface RequestValidator {
  (data: unknown): boolean;
  errors: ValidateFunction['errors'];
  /**
   * Loads the validator the build wrote for the schema, when there is one: awaited before the
   * first call (once loaded, at once). Without it, the schema is compiled on the first call.
   */
  load(): Promise<void>;
}

/** A validator loaded (or compiled) on first use. */
export function compileValidator(schema: object, part: RequestPart | undefined): RequestValidator {
  const kind = ajvKindOf(part);
  let compiled: ValidateFunction | undefined;
  let loading: Promise<void> | undefined;
  const validate = Object.assign(
    (data: unknown) => {
      compiled ??= ajvOf(kind).compile(schema);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    },
    {
      errors: null as ValidateFunction['errors'],
      load: () =>
        (loading ??= (async () => {
          const written = PRECOMPILED_VALIDATORS?.[kind][schemaKey(schema)];
          if (written) compiled ??= await written();
        })()),
    },
  );
  return validate;
}

/**
 * An answer's serializer, from its schema: keeps only what the schema lists, in its order, and
 * writes it with JSON.stringify. (It replaced fast-json-stringify, whose compile for a report's
 * schema — an ajv instance for its nullable fields — took 55 ms of an embedded `report tb`, and
 * whose per-value union checks were slower than V8's writer.)
 */
export function compileSerializer(schema: object): (data: unknown) => string {
  let project: Projection | undefined;
  return (data) => JSON.stringify((project ??= projection(schema as ResponseSchema))(data));
}

interface ResponseSchema {
  type?: string;
  properties?: Record<string, ResponseSchema>;
  items?: ResponseSchema;
  anyOf?: ResponseSchema[];
  const?: unknown;
}

type Projection = (value: unknown) => unknown;
const asIs: Projection = (value) => value;

/** What of a value a schema keeps: the listed properties of objects, at any depth. */
function projection(schema: ResponseSchema): Projection {
  if (schema.properties) {
    const fields = Object.entries(schema.properties).map(
      ([name, property]) => [name, projection(property)] as const,
    );
    return (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const kept: Record<string, unknown> = {};
      for (const [name, project] of fields) {
        const field = (value as Record<string, unknown>)[name];
        if (field !== undefined) kept[name] = project(field);
      }
      return kept;
    };
  }
  if (schema.items) {
    const item = projection(schema.items);
    return item === asIs ? asIs : (value) => (Array.isArray(value) ? value.map(item) : value);
  }
  if (schema.anyOf) {
    // Our unions are of scalars and null, of one shape and null, or of shapes told apart by a
    // literal property (`kind`).
    const branches = schema.anyOf
      .map((branch) => ({ branch, project: projection(branch) }))
      .filter(({ project }) => project !== asIs);
    if (branches.length <= 1) return branches[0]?.project ?? asIs;
    const told = branches.map(({ branch, project }) => {
      const literals = Object.entries(branch.properties ?? {}).filter(([, p]) => 'const' in p);
      if (literals.length === 0)
        throw new Error('a response union of shapes no literal tells apart');
      return { literals: literals.map(([name, p]) => [name, p.const] as const), project };
    });
    return (value) => {
      if (value === null || typeof value !== 'object') return value;
      const chosen = told.find(({ literals }) =>
        literals.every(([name, literal]) => (value as Record<string, unknown>)[name] === literal),
      );
      return chosen ? chosen.project(value) : value;
    };
  }
  return asIs;
}

// Fastify reads a failed validation's errors from the function it was given.
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  compileValidator(schema, httpPart as RequestPart | undefined);

export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) =>
  compileSerializer(schema);
