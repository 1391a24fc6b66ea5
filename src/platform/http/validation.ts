import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { isCalendarDay } from '../../core/calendar.js';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const common: Options = { allErrors: false, verbose: true, strict: false, useDefaults: true };

/**
 * Bodies are validated as sent: no type coercion (a string where a number belongs is a 400) and
 * no silent removal of properties (unknown ones are ignored unless the schema forbids them).
 * Query strings and path parameters arrive as text, so they are coerced to their types.
 */
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false, removeAdditional: false }), [
  'date',
  'date-time',
  'uuid',
]);
const textAjv = addFormats(new Ajv({ ...common, coerceTypes: true, removeAdditional: false }), [
  'date',
  'date-time',
  'uuid',
]);

// One definition of a calendar day for the whole platform (ajv's own accepts year 0000).
for (const ajv of [bodyAjv, textAjv]) ajv.addFormat('date', (text: string) => isCalendarDay(text));

/*
 * Schemas are compiled on a route's first request, not when the app is built: the embedded
 * platform is built for every `books` command, which then calls one or two routes of about
 * eighty, and compiling them all took half a second of each command.
 */

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  let compiled: ValidateFunction | undefined;
  // Fastify reads a failed validation's errors from the function it was given.
  const validate = Object.assign(
    (data: unknown) => {
      compiled ??= ajv.compile(schema);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    },
    { errors: null as ValidateFunction['errors'] },
  );
  return validate;
};

export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) => {
  let stringify: ((data: unknown) => string) | undefined;
  return (data) => (stringify ??= fastJsonStringify(schema))(data);
};

/**
 * For routes whose answers a presenter builds field by field, so that nothing outside the
 * schema can be in them: V8's JSON.stringify writes a 100-entry bulk answer (about 110 kB) as
 * one flat string, about a third faster than fast-json-stringify's concatenation, and the
 * socket needs no flattening before it writes. Measured on bulk creates against `books serve`:
 * about 8% less server CPU per entry. Other routes keep the schema's serializer, which drops
 * any property the schema does not list.
 */
export const presentedSerializerCompiler: FastifySerializerCompiler<object> = () => (data) =>
  JSON.stringify(data);
