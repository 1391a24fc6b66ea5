import type { Class } from '../../../api/index.js';

/** A class as `field value` lines. */
export const classFields = (c: Class): [string, string][] => [
  ['id', c.id],
  ['label', c.label],
  ['parent', c.parentClassId ?? ''],
  ['root', c.rootClassId],
];
