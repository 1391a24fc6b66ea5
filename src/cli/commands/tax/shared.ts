import type { TaxSetup } from '../../../api/index.js';
import { ApiError } from '../../../client/index.js';
import type { CommandContext } from '../../context.js';
import { UserError } from '../../exitCodes.js';

/**
 * The entity's VAT registration and codes. Tax codes are an addition of books' own platform:
 * against a platform without them the answer is one sentence, as for an entity not registered.
 */
export async function taxSetupOf(ctx: CommandContext, entityId: string): Promise<TaxSetup> {
  const api = await ctx.api();
  try {
    return await api.sandbox.taxSetting(entityId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      if (/tax setting not found/.test(error.message))
        throw new UserError(
          'the entity is not registered for VAT: books tax setup --country GB, DE or NL registers it',
        );
      if (!/^entity not found/.test(error.message))
        throw new UserError(
          "this platform keeps no tax codes: they are an addition of books' own platform (books serve, or the embedded one)",
        );
    }
    throw error;
  }
}
