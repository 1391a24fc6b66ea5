import { TAX_KINDS, TAX_SIDES } from '../../../../api/index.js';
import { argument, defineCommand, text } from '../../../command.js';
import { taxSetupOf } from '../shared.js';
import { CODE_ACCOUNT_OPTIONS, codeAccount, printTaxCode } from './shared.js';
import { parseBoxes, parseRates } from './rates.js';

/**
 * `tax code create CODE --side S --kind K --rate R`: a code beside the country's standard ones (a
 * special rate, a flat-rate scheme's, a code a client's old books used). Its boxes, unless given,
 * are those of the country's standard code of the same side and kind.
 */
export const command = defineCommand({
  summary: 'Create a tax code: its side, kind, rates and the boxes it fills',
  arguments: { code: argument('the code, as postings will name it (no spaces)') },
  options: {
    side: text('--side <side>', 'sales or purchases', { choices: TAX_SIDES, required: true }),
    kind: text('--kind <kind>', TAX_KINDS.join(', '), { choices: TAX_KINDS, required: true }),
    rate: text('--rate <rates>', 'the percent, or its history: 19,16@2020-07-01,19@2021-01-01', {
      required: true,
    }),
    name: text('--name <name>', 'what the code is, in words'),
    netBoxes: text('--net-boxes <boxes>', 'the boxes its net fills (e.g. 6)'),
    vatDueBoxes: text('--vat-due-boxes <boxes>', 'the boxes its VAT due fills (e.g. 1)'),
    vatReclaimedBoxes: text('--vat-reclaimed-boxes <boxes>', 'the boxes its VAT reclaimed fills'),
    ...CODE_ACCOUNT_OPTIONS,
  },
  examples: [
    'books tax code create S12 --side sales --kind output --rate 12.5 --name "Hospitality 12.5 %"',
  ],
  async run(ctx, { code, ...flags }) {
    const entityId = await ctx.entityId();
    await taxSetupOf(ctx, entityId);
    const netBoxes = parseBoxes(flags.netBoxes);
    const outputVatBoxes = parseBoxes(flags.vatDueBoxes);
    const inputVatBoxes = parseBoxes(flags.vatReclaimedBoxes);
    const outputAccountId = await codeAccount(ctx, entityId, flags.outputAccount);
    const inputAccountId = await codeAccount(ctx, entityId, flags.inputAccount);
    const { taxCode } = await (
      await ctx.api()
    ).sandbox.createTaxCode(entityId, {
      code,
      side: flags.side as (typeof TAX_SIDES)[number],
      kind: flags.kind as (typeof TAX_KINDS)[number],
      rates: parseRates(flags.rate),
      ...(flags.name ? { name: flags.name } : {}),
      ...(netBoxes ? { netBoxes } : {}),
      ...(outputVatBoxes ? { outputVatBoxes } : {}),
      ...(inputVatBoxes ? { inputVatBoxes } : {}),
      ...(outputAccountId ? { outputAccountId } : {}),
      ...(inputAccountId ? { inputAccountId } : {}),
    });
    ctx.output.note(`books: created tax code ${taxCode.code} (${taxCode.name})`);
    await printTaxCode(ctx, taxCode);
  },
});
