import { ACCOUNT_TYPES, type AccountGroup, type AccountType } from '../../../api/index.js';
import { UsageError } from '../../exitCodes.js';

/** A group as `field value` lines. */
export const groupFields = (g: AccountGroup): [string, string][] => [
  ['id', g.id],
  ['name', g.name],
  ['type', g.type],
  ['parent', g.parentGroupId ?? ''],
];

export function parseType(text: string | undefined): AccountType {
  const type = ACCOUNT_TYPES.find((t) => t.toLowerCase() === text?.toLowerCase());
  if (!type) throw new UsageError(`--type must be one of ${ACCOUNT_TYPES.join(', ')}`);
  return type;
}
