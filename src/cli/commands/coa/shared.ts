import {
  ACCOUNT_TYPES,
  type Account,
  type AccountType,
  type CreateAccountBody,
} from '../../../api/index.js';
import { UsageError } from '../../exitCodes.js';

/** An account as `field value` lines. */
export const accountFields = (account: Account): [string, string][] => [
  ['id', account.id],
  ['code', account.code],
  ['name', account.name],
  ['type', account.type],
  ['class', account.class],
  ['group', account.groupId ?? ''],
  ['archived', account.isDisabled ? 'yes' : 'no'],
];

/** An account to create, from flags (`coa create`) or a row of a chart file (`coa import`). */
export function parseCreate(flags: {
  name?: string | undefined;
  type?: string | undefined;
  code?: string | undefined;
  group?: string | undefined;
}): CreateAccountBody {
  if (!flags.name) throw new UsageError('--name is required');
  const type = ACCOUNT_TYPES.find((t) => t.toLowerCase() === flags.type?.toLowerCase());
  if (!type) throw new UsageError(`--type must be one of ${ACCOUNT_TYPES.join(', ')}`);
  return {
    name: flags.name,
    type: type as AccountType,
    ...(flags.code && { code: flags.code }),
    ...(flags.group && { groupId: flags.group }),
  };
}
