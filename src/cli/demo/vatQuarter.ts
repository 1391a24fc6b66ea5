import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { addDays } from '../../core/calendar.js';
import {
  answeredAmountToCents,
  asCents,
  formatCents,
  subtractCents,
  taxIncluded,
  type Cents,
} from '../../core/money.js';
import type { CommandContext } from '../context.js';

const WORKSPACE = 'Demo: Harbour Café';
const ENTITY = 'Harbour Café Ltd';
export const VAT_QUARTER = { startDate: '2025-10-01', endDate: '2025-12-31', key: '25A4' };

/** The café's chart beside the VAT accounts `tax setup` names: `account_type` of each. */
const TYPES: Record<string, string> = {
  Bank: 'Cash',
  'Eat-in Sales': 'Income',
  'Takeaway Sales': 'Income',
  'Food and Drink': 'COGS',
  Rent: 'Operating Expenses',
  Utilities: 'Operating Expenses',
  Wages: 'Operating Expenses',
  'Card Fees': 'Operating Expenses',
  Repairs: 'Operating Expenses',
  'VAT on Sales': 'Other Current Liabilities',
  'VAT on Purchases': 'Other Current Assets',
};

/**
 * A quarter of a UK café's books, every posting coded as its bookkeeper would: eat-in sales at
 * the standard 20 % (S), cold takeaway zero-rated (Z), food bought zero-rated (ZP), the rent
 * exempt (EP), energy and equipment at 20 % (SP), wages and card fees outside the scope or
 * exempt (OP, EP), and a builder's refurbishment under the domestic reverse charge (RC: the
 * café accounts for the builder's VAT both ways). Seeded, so a rerun is the same file.
 */
export function vatQuarterLedger(): string {
  let state = 2025;
  const random = () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low));
  const rows = ['entry,date,account,account_type,debit,credit,description,tax_code'];
  let entry = 0;
  const amount = (cents: number) => formatCents(asCents(cents), { thousands: false });
  const post = (date: string, description: string, lines: [string, number, string][]) => {
    entry += 1;
    for (const [account, cents, code] of lines)
      rows.push(
        `Q${entry},${date},${account},${TYPES[account]},${cents > 0 ? amount(cents) : ''},${cents < 0 ? amount(-cents) : ''},${description},${code}`,
      );
  };
  /** A VAT-inclusive amount at 20 %: its net and its VAT, as the till or the invoice splits it. */
  const split = (gross: number): [Cents, Cents] => {
    const vat = taxIncluded(asCents(gross), 20);
    return [subtractCents(asCents(gross), vat), vat];
  };
  for (let day = VAT_QUARTER.startDate; day <= VAT_QUARTER.endDate; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const date = day.slice(8);
    if (weekday !== 0) {
      const eatIn = between(38_000, 92_000);
      const [net, vat] = split(eatIn);
      post(day, 'Till takings (eat-in)', [
        ['Bank', eatIn, ''],
        ['Eat-in Sales', -net, 'S'],
        ['VAT on Sales', -vat, 'S'],
      ]);
      const takeaway = between(6_000, 21_000);
      post(day, 'Till takings (cold takeaway)', [
        ['Bank', takeaway, ''],
        ['Takeaway Sales', -takeaway, 'Z'],
      ]);
    }
    if (weekday === 2) {
      const food = between(90_000, 160_000);
      post(day, 'BRAKES FOODSERVICE', [
        ['Food and Drink', food, 'ZP'],
        ['Bank', -food, ''],
      ]);
    }
    if (date === '01')
      post(day, 'HARBOUR ESTATES RENT', [
        ['Rent', 250_000, 'EP'],
        ['Bank', -250_000, ''],
      ]);
    if (date === '08') {
      const energy = between(42_000, 61_000);
      const [net, vat] = split(energy);
      post(day, 'OCTOPUS ENERGY', [
        ['Utilities', net, 'SP'],
        ['VAT on Purchases', vat, 'SP'],
        ['Bank', -energy, ''],
      ]);
    }
    if (date === '25')
      post(day, 'PAYROLL', [
        ['Wages', 640_000, 'OP'],
        ['Bank', -640_000, ''],
      ]);
    if (date === '28') {
      const fees = between(4_000, 9_000);
      post(day, 'WORLDPAY CARD FEES', [
        ['Card Fees', fees, 'EP'],
        ['Bank', -fees, ''],
      ]);
    }
    if (day === '2025-11-14')
      post(day, 'HARBOURSIDE BUILDERS (reverse charge)', [
        ['Repairs', 480_000, 'RC'],
        ['VAT on Sales', -96_000, 'RC'],
        ['VAT on Purchases', 96_000, 'RC'],
        ['Bank', -480_000, ''],
      ]);
  }
  return `${rows.join('\n')}\n`;
}

/**
 * The demo's second client, in a workspace of its own (UTC: the platform's zones are the US's
 * and UTC, and a day is a day in London as in UTC but for an hour of summer time): a UK café registered for VAT (`tax
 * setup --country GB`), a quarter of coded postings brought in by `je import`, and its return:
 * the nine boxes, tied to the VAT accounts, and the body of HMRC's Making Tax Digital request
 * written beside the demo's files. A rerun finds the client and its quarter and sends nothing.
 */
export async function vatQuarter(ctx: CommandContext, directory: string): Promise<void> {
  const api = await ctx.api();
  const note = (text: string) => ctx.output.note(`books demo: ${text}`);
  const [{ importWith }, { parseImport }, { VAT_ACCOUNTS, vatAccount }, { mtdBody }] =
    await Promise.all([
      import('../ledgers/importing.js'),
      import('../commands/je/import.js'),
      import('../commands/tax/setup.js'),
      import('../commands/tax/return.js'),
    ]);
  const { unlessNotFound } = await import('../../client/index.js');
  let workspace = (await api.workspaces.all()).find((w) => w.name === WORKSPACE);
  workspace ??= (await api.workspaces.create({ name: WORKSPACE, timezone: 'UTC' })).workspace;
  let entity = (await api.sandbox.entities(workspace.id)).find((e) => e.name === ENTITY);
  entity ??= (
    await api.sandbox.createEntity(workspace.id, {
      name: ENTITY,
      bookkeepingStartDate: VAT_QUARTER.startDate,
    })
  ).entity;
  if (!(await unlessNotFound(api.sandbox.taxSetting(entity.id)))) {
    const account = (name: string, type: 'Other Current Liabilities' | 'Other Current Assets') =>
      vatAccount(ctx, entity.id, undefined, name, type);
    await api.sandbox.setUpTax(entity.id, {
      country: 'GB',
      scheme: 'standard',
      period: 'quarterly',
      vatNumber: 'GB123456789',
      outputAccountId: await account(VAT_ACCOUNTS.GB.output, 'Other Current Liabilities'),
      inputAccountId: await account(VAT_ACCOUNTS.GB.input, 'Other Current Assets'),
    });
    note(`registered "${ENTITY}" for VAT in the UK (books tax setup --country GB)`);
  }
  const { data: entries } = await api.journalEntries.list(entity.id, {
    limit: 1,
    offset: 0,
    ...VAT_QUARTER,
  });
  mkdirSync(directory, { recursive: true });
  if (entries.length === 0) {
    const file = path.join(directory, 'harbour-cafe-2025-Q4.csv');
    writeFileSync(file, vatQuarterLedger());
    note(`wrote a quarter of "${ENTITY}"'s coded postings to ${file}; importing it`);
    await importWith(ctx, parseImport(file, { createMissingAccounts: true }), {
      workspace,
      entity,
    });
  }
  const taxReturn = await api.sandbox.taxReturn(entity.id, VAT_QUARTER);
  ctx.output.write('\n');
  await ctx.output.table(
    [
      { header: 'Box', value: (b: (typeof taxReturn.boxes)[number]) => b.box },
      { header: `${ENTITY}: VAT return 2025-Q4`, value: (b) => b.label },
      { header: 'Amount', value: (b) => b.formAmount.toFixed(2), align: 'right' },
    ],
    taxReturn.boxes,
  );
  const body = path.join(directory, `harbour-cafe-${VAT_QUARTER.key}-mtd.json`);
  writeFileSync(body, `${JSON.stringify(mtdBody(taxReturn, VAT_QUARTER.key), null, 2)}\n`);
  note(
    `${ENTITY}'s VAT return of 2025-Q4: ${formatCents(answeredAmountToCents(Math.abs(taxReturn.net)))} ${taxReturn.net >= 0 ? 'to pay' : 'to reclaim'}; ${taxReturn.ties ? `ties to the VAT accounts (they moved ${formatCents(answeredAmountToCents(taxReturn.vatAccountsMovement))})` : 'does NOT tie to the VAT accounts'}; the Making Tax Digital body written to ${body}`,
  );
}
