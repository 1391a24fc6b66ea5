import type { TaxCode } from '../../../../api/index.js';
import { text } from '../../../command.js';
import type { CommandContext } from '../../../context.js';

/** The options naming the accounts a code keeps its VAT on (`tax code create` and `update`). */
export const CODE_ACCOUNT_OPTIONS = {
  outputAccount: text(
    '--output-account <account>',
    "the account of its VAT due, where not the entity's (by name, code or id; none: the entity's)",
    { names: 'account' },
  ),
  inputAccount: text(
    '--input-account <account>',
    "the account of its VAT reclaimed, where not the entity's (none: the entity's)",
    { names: 'account' },
  ),
};

/** The account a code keeps its VAT on, as given: none (`none`: the entity's), or its id. */
export async function codeAccount(
  ctx: CommandContext,
  entityId: string,
  given: string | undefined,
): Promise<string | null | undefined> {
  if (given === undefined) return undefined;
  if (given.toLowerCase() === 'none') return null;
  return ctx.accountId(entityId, given);
}

/** A code as `field: value` lines (or JSON): its rates with their days, its boxes, its accounts. */
export async function printTaxCode(ctx: CommandContext, taxCode: TaxCode): Promise<void> {
  const own = [taxCode.outputAccountId, taxCode.inputAccountId].some((id) => id !== null);
  const accounts = own ? await (await ctx.api()).accounts.all(await ctx.entityId()) : [];
  const named = (id: string | null) => {
    if (id === null) return "the entity's";
    const account = accounts.find((a) => a.id === id);
    return account ? `${account.code} ${account.name}` : id;
  };
  const rates = taxCode.rates
    .map((rate) =>
      rate.from === null ? `${rate.percent} %` : `${rate.percent} % from ${rate.from}`,
    )
    .join(', ');
  ctx.output.record(
    [
      ['Code', taxCode.code],
      ['Name', taxCode.name],
      ['Side', taxCode.side],
      ['Kind', taxCode.kind],
      ['Rates', rates],
      ['Net in', taxCode.netBoxes.join(', ')],
      ['VAT due in', taxCode.outputVatBoxes.join(', ')],
      ['VAT reclaimed in', taxCode.inputVatBoxes.join(', ')],
      // Only where the code keeps its VAT apart from the entity's VAT accounts.
      ...(own
        ? ([
            ['VAT due on', named(taxCode.outputAccountId)],
            ['VAT reclaimed on', named(taxCode.inputAccountId)],
          ] as [string, string][])
        : []),
      ['Archived', taxCode.archived ? 'yes' : 'no'],
    ],
    { taxCode },
  );
}
