import type { TaxCode } from '../../../../api/index.js';
import type { CommandContext } from '../../../context.js';

/** A code as `field: value` lines (or JSON): its rates with their days, its boxes. */
export function printTaxCode(ctx: CommandContext, taxCode: TaxCode): void {
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
      ['Archived', taxCode.archived ? 'yes' : 'no'],
    ],
    { taxCode },
  );
}
