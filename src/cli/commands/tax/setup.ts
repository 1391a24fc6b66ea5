import { TAX_COUNTRIES, TAX_PERIODS, TAX_SCHEMES } from '../../../api/index.js';
import type { AccountType, TaxSetup } from '../../../api/index.js';
import { defineCommand, text } from '../../command.js';
import type { CommandContext } from '../../context.js';

/** The VAT accounts a country's books usually name, made when the chart has none of the name. */
export const VAT_ACCOUNTS: Record<
  (typeof TAX_COUNTRIES)[number],
  { output: string; input: string }
> = {
  GB: { output: 'VAT on Sales', input: 'VAT on Purchases' },
  DE: { output: 'Umsatzsteuer', input: 'Vorsteuer' },
  NL: { output: 'Te betalen btw', input: 'Te vorderen btw' },
};

/**
 * `tax setup`: registers the entity for VAT in a country — the scheme, how often it files, its
 * VAT number, the VAT accounts (the chart's accounts named, or the country's usual names, made
 * where missing) — and creates the country's standard tax codes. Run again, it changes the
 * scheme, period, number or accounts and adds any standard code missing; a code kept is kept.
 */
export const command = defineCommand({
  summary: "Register the entity for VAT: the country's tax codes and the VAT accounts",
  options: {
    country: text('--country <country>', 'GB, DE or NL', {
      choices: TAX_COUNTRIES,
      required: true,
    }),
    scheme: text('--scheme <scheme>', 'standard (VAT as invoiced) or cash (as money moves)', {
      choices: TAX_SCHEMES,
    }),
    period: text('--period <period>', 'how often the entity files: monthly or quarterly', {
      choices: TAX_PERIODS,
    }),
    vatNumber: text('--vat-number <number>', 'the VAT registration number'),
    outputAccount: text(
      '--output-account <account>',
      'the account of VAT due (by name, code or id)',
      {
        names: 'account',
      },
    ),
    inputAccount: text(
      '--input-account <account>',
      'the account of VAT reclaimable (by name, code or id)',
      { names: 'account' },
    ),
  },
  examples: [
    'books tax setup --country GB --vat-number GB123456789',
    'books tax setup --country DE --scheme cash --period monthly --output-account 1776 --input-account 1576',
  ],
  async run(ctx, flags) {
    const country = flags.country as (typeof TAX_COUNTRIES)[number];
    const entityId = await ctx.entityId();
    const api = await ctx.api();
    const usual = VAT_ACCOUNTS[country];
    const outputAccountId = await vatAccount(
      ctx,
      entityId,
      flags.outputAccount,
      usual.output,
      'Other Current Liabilities',
    );
    const inputAccountId = await vatAccount(
      ctx,
      entityId,
      flags.inputAccount,
      usual.input,
      'Other Current Assets',
    );
    const setup: TaxSetup = await api.sandbox.setUpTax(entityId, {
      country,
      ...(flags.scheme ? { scheme: flags.scheme as (typeof TAX_SCHEMES)[number] } : {}),
      ...(flags.period ? { period: flags.period as (typeof TAX_PERIODS)[number] } : {}),
      ...(flags.vatNumber ? { vatNumber: flags.vatNumber } : {}),
      outputAccountId,
      inputAccountId,
    });
    const { taxSetting, taxCodes } = setup;
    const accounts = await api.accounts.all(entityId);
    const named = (id: string) => {
      const account = accounts.find((a) => a.id === id);
      return account ? `${account.code} ${account.name}` : id;
    };
    ctx.output.record(
      [
        ['Country', taxSetting.country],
        ['Scheme', taxSetting.scheme],
        ['Period', taxSetting.period],
        ['VAT number', taxSetting.vatNumber ?? ''],
        ['VAT due', named(taxSetting.outputAccountId)],
        ['VAT reclaimable', named(taxSetting.inputAccountId)],
        ['Tax codes', String(taxCodes.filter((c) => !c.archived).length)],
      ],
      setup,
    );
  },
});

/** The account given, else the chart's account of the usual name, else a new one of that name. */
export async function vatAccount(
  ctx: CommandContext,
  entityId: string,
  given: string | undefined,
  usualName: string,
  type: AccountType,
): Promise<string> {
  if (given !== undefined) return ctx.accountId(entityId, given);
  const api = await ctx.api();
  const existing = (await api.accounts.all(entityId)).find(
    (account) => account.name.toLowerCase() === usualName.toLowerCase(),
  );
  if (existing) return existing.id;
  const { account } = await api.accounts.create(entityId, { name: usualName, type });
  ctx.output.note(`books: created account ${account.code} ${account.name} (${type}) for the VAT`);
  return account.id;
}
