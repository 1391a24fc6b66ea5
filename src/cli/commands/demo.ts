import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CreateAccountBody } from '../../api/index.js';
import { addDays } from '../../core/calendar.js';
import { asCents, formatCents } from '../../core/money.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../context.js';
import { importWith } from '../importing.js';
import { booksPaths } from '../paths.js';

const WORKSPACE = 'Demo: Blue Bottle Books';
const ENTITY = 'Main Street Bakery';
const START = '2026-01-01';

/** The demo's chart: today's accounts, and the two the old system's history posts to. */
const CHART: CreateAccountBody[] = [
  { name: 'Sales', type: 'Income' },
  { name: 'Catering', type: 'Income' },
  { name: 'Interest Income', type: 'Other Income' },
  { name: 'Ingredients', type: 'COGS' },
  { name: 'Rent', type: 'Operating Expenses' },
  { name: 'Payroll', type: 'Operating Expenses' },
  { name: 'Utilities', type: 'Operating Expenses' },
  { name: 'Travel', type: 'Operating Expenses' },
  { name: 'Meals', type: 'Operating Expenses' },
  { name: 'Supplies', type: 'Operating Expenses' },
  { name: 'Bank Fees', type: 'Other Expenses' },
  { name: "Owner's Equity", type: 'Equity' },
];

/** A seeded generator: the same ledger every time, so a rerun finds its checkpoint. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

/**
 * A year of a bakery's books as the old system exports them: deposits, suppliers on the card,
 * rent, payroll, utilities, rides, coffee, supplies, fees, card payments. Bank-style
 * descriptions so rule generation has something to learn from.
 */
export function demoLedger(): string {
  const random = seeded(2025);
  const code = () =>
    Math.floor(random() * 36 ** 4)
      .toString(36)
      .toUpperCase()
      .padStart(4, '0');
  const rows = ['entry,date,account,account_type,debit,credit,description'];
  let entry = 0;
  const add = (date: string, debit: string, credit: string, cents: number, description: string) => {
    entry += 1;
    const amount = formatCents(asCents(cents), { thousands: false });
    const type = (name: string) =>
      name.includes('Checking')
        ? 'Cash'
        : name.includes('Visa')
          ? 'Credit Cards'
          : (CHART.find((a) => a.name === name)?.type ?? '');
    rows.push(`E${entry},${date},${debit},${type(debit)},${amount},,${description}`);
    rows.push(`E${entry},${date},${credit},${type(credit)},,${amount},${description}`);
  };
  const bank = 'Checking (old books)';
  const card = 'Visa (old books)';
  add('2025-01-01', bank, "Owner's Equity", 2_500_000, 'Owner contribution');
  for (let day = '2025-01-01'; day < START; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0)
      add(day, bank, 'Sales', 80_000 + Math.floor(random() * 90_000), `SQ *PAYOUT ${code()}`);
    if (weekday === 3)
      add(
        day,
        'Ingredients',
        card,
        40_000 + Math.floor(random() * 60_000),
        `SYSCO FOODS #${100 + Math.floor(random() * 900)}`,
      );
    const orders = weekday === 0 ? 2 : 3 + Math.floor(random() * 5);
    for (let order = 0; order < orders; order += 1) {
      add(
        day,
        bank,
        'Sales',
        2_500 + Math.floor(random() * 12_000),
        `STRIPE ORDER ${code()}${code()}`,
      );
    }
    if (random() < 0.05)
      add(
        day,
        bank,
        'Catering',
        25_000 + Math.floor(random() * 150_000),
        `STRIPE TRANSFER ${code()}`,
      );
    if (random() < 0.3)
      add(day, 'Travel', card, 1_200 + Math.floor(random() * 4_500), `UBER *TRIP ${code()}`);
    if (random() < 0.4)
      add(
        day,
        'Meals',
        card,
        450 + Math.floor(random() * 1_800),
        `SQ *BLUE BOTTLE ${String(Math.floor(random() * 9999)).padStart(4, '0')}`,
      );
    if (random() < 0.15)
      add(
        day,
        'Supplies',
        card,
        1_500 + Math.floor(random() * 12_000),
        `AMZN Mktp US*${code()}${code()}`,
      );
    if (day.endsWith('-01')) add(day, 'Rent', bank, 650_000, 'LANDLORD PROPERTIES LLC');
    if (day.endsWith('-05'))
      add(
        day,
        'Utilities',
        bank,
        38_000 + Math.floor(random() * 20_000),
        `PG&E WEB ONLINE ${code()}`,
      );
    if (day.endsWith('-15') || day.endsWith('-28'))
      add(
        day,
        'Payroll',
        bank,
        1_150_000 + Math.floor(random() * 100_000),
        `GUSTO PAYROLL ${code()}`,
      );
    if (day.endsWith('-20')) add(day, card, bank, 900_000, 'VISA PAYMENT THANK YOU');
    if (day.endsWith('-28')) add(day, 'Bank Fees', bank, 1_500, 'MONTHLY SERVICE FEE');
    if (day.endsWith('-30'))
      add(day, bank, 'Interest Income', 200 + Math.floor(random() * 800), 'INTEREST PAID');
  }
  return `${rows.join('\n')}\n`;
}

/** `books demo`: a sample firm on the embedded platform (its own data file), the main job, reports. */
async function runDemo(commandContext: CommandContext): Promise<number> {
  const { dataDir } = booksPaths(commandContext.io.env);
  const database = path.join(dataDir, 'demo.sqlite');
  const ctx = commandContext.onEmbeddedDatabase(database);
  try {
    const api = await ctx.api();
    const note = (text: string) => ctx.output.note(`books demo: ${text}`);
    note(`building a sample firm in ${database}`);
    const workspace =
      (await api.workspaces.all()).find((w) => w.name === WORKSPACE) ??
      (await api.workspaces.create({ name: WORKSPACE, timezone: 'America/Los_Angeles' })).workspace;
    const entity =
      (await api.sandbox.entities(workspace.id)).find((e) => e.name === ENTITY) ??
      (await api.sandbox.createEntity(workspace.id, { name: ENTITY, bookkeepingStartDate: START }))
        .entity;
    ctx.chooseEntity(workspace, entity);
    const chart = await api.accounts.all(entity.id);
    const missing = CHART.filter((a) => !chart.some((c) => c.name === a.name));
    if (missing.length > 0) await api.accounts.bulkCreate(entity.id, missing);
    if (!chart.some((a) => a.financialAccountId !== null)) {
      const { connection } = await api.sandbox.connectBankFeed(entity.id, {
        bankName: 'First National Bank',
        accounts: [
          { name: 'Operating Checking', kind: 'bank' },
          { name: 'Business Visa', kind: 'credit_card' },
        ],
      });
      // Bank transactions of the new year arrive before the history is in: they wait.
      await api.sandbox.pushTransactions(connection.financialAccounts[1]!.id, {
        transactions: [
          {
            date: '2026-01-06',
            amount: -23.4,
            description: 'UBER *TRIP 7QX2',
            externalId: 'demo-1',
          },
          {
            date: '2026-01-07',
            amount: -6.75,
            description: 'SQ *BLUE BOTTLE 0518',
            externalId: 'demo-2',
          },
          {
            date: '2026-01-09',
            amount: -84.12,
            description: 'AMZN Mktp US*9KD2LQ',
            externalId: 'demo-3',
          },
        ],
      });
      note(
        'connected First National Bank; three January card transactions are waiting, uncategorized',
      );
    }

    const file = path.join(dataDir, 'demo', 'general-ledger-2025.csv');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, demoLedger());
    note(`wrote the 2025 general ledger of "${ENTITY}" to ${file}; migrating it`);

    const { parseImport } = await import('./je/import.js');
    await importWith(
      ctx,
      {
        ...parseImport(file, { createMissingAccounts: true }),
        migration: { finalize: true, wait: true },
      },
      { workspace, entity },
    );

    const { printStatement, profitAndLossStatement } = await import('../render/statements.js');
    const { report } = await api.reports.profitAndLoss(entity.id, {
      startDate: '2025-01-01',
      endDate: '2025-12-31',
      groupBy: 'quarter',
    });
    await printStatement(ctx.output, {
      ...profitAndLossStatement(report),
      title: `${ENTITY}: profit and loss, 2025`,
    });
    const transactions = await api.sandbox.transactions(workspace.id);
    note(
      `the January card transactions after finalization: ${transactions.map((t) => `${t.description} → ${t.status}`).join('; ')}`,
    );
    note(
      `next: books migrate merge --source "Checking (old books)" --target "Operating Checking" (and the Visa)`,
    );
    note(
      `the demo data lives in ${database}; run books demo again any time: nothing is sent twice`,
    );
    return 0;
  } finally {
    await ctx.close();
  }
}

export const command = defineCommand({
  summary:
    'Build a sample firm on the local platform and migrate a year of its books (safe to rerun)',
  examples: ['books demo'],
  run: (ctx) => runDemo(ctx),
});
