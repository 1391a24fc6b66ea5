import type { TaxCode } from '../../../api/index.js';
import { defineCommand, flag } from '../../command.js';
import { taxSetupOf } from './shared.js';

/** The rate a code takes today, and since when. */
function currentRate(code: TaxCode, today: string): string {
  const held = [...code.rates].reverse().find((rate) => rate.from === null || rate.from <= today);
  return held ? `${held.percent} %` : '';
}

/** `tax codes`: the entity's tax codes, what each is and the boxes it fills. */
export const command = defineCommand({
  summary: "The entity's tax codes: side, kind, today's rate, the return's boxes",
  options: { archived: flag('--archived', 'archived codes too') },
  examples: ['books tax codes', 'books tax codes --json'],
  async run(ctx, flags) {
    const entityId = await ctx.entityId();
    const { taxCodes } = await taxSetupOf(ctx, entityId);
    const today = ctx.today();
    const shown = taxCodes.filter((code) => flags.archived || !code.archived);
    const boxes = (list: readonly string[]) => list.join(', ');
    await ctx.output.table(
      [
        { header: 'Code', value: (c: TaxCode) => c.code },
        { header: 'Name', value: (c) => c.name },
        { header: 'Side', value: (c) => c.side },
        { header: 'Kind', value: (c) => c.kind },
        { header: 'Rate', value: (c) => currentRate(c, today), align: 'right' },
        { header: 'Net in', value: (c) => boxes(c.netBoxes) },
        { header: 'VAT due in', value: (c) => boxes(c.outputVatBoxes) },
        { header: 'VAT reclaimed in', value: (c) => boxes(c.inputVatBoxes) },
        ...(flags.archived
          ? [{ header: 'Archived', value: (c: TaxCode) => (c.archived ? 'yes' : '') }]
          : []),
      ],
      shown,
    );
  },
});
