import type { ValidateFunction } from 'ajv';

/**
 * The validators ajv writes at build time for every route's schema, by schema key, each loaded
 * when first asked for: this module's content in the bundle (esbuild.config.mjs writes it from
 * precompile.ts, each validator a chunk of its own). Run from source there are none, and each
 * schema is compiled on first use (validation.ts).
 */
export const PRECOMPILED_VALIDATORS:
  Readonly<Record<'body' | 'text', Record<string, () => Promise<ValidateFunction>>>> | undefined =
  undefined;
