import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CreateAccountBody } from '../../api/index.js';
import type { Named } from '../../client/references.js';
import { addDays, calendarDayAt } from '../../core/calendar.js';
import { asCents, formatCents, type Cents } from '../../core/money.js';
import { defineCommand } from '../command.js';
import type { Profile } from '../config/profiles.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exitCodes.js';
import { importWith } from '../ledgers/importing.js';
import { booksPaths } from '../config/paths.js';
import type { Target } from '../connection/target.js';
import type { BankStatement, StatementEntry } from '../../formats/statement.js';

const WORKSPACE = 'Demo: Main Street Bakery';
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
 * descriptions so rule generation has something to learn from. Figures a bookkeeper would
 * believe: ingredients about 30% of sales, payroll about 40%, a margin near 13%; the card is paid
 * each month for the month before (so it ends the year owing December, a credit balance), and
 * the bank never goes below the owner's opening contribution's worth of cushion.
 */
export function demoLedger(): string {
  const random = seeded(2025);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low));
  const code = () =>
    Math.floor(random() * 36 ** 4)
      .toString(36)
      .toUpperCase()
      .padStart(4, '0');
  const rows = ['entry,date,account,account_type,debit,credit,description'];
  const bank = 'Checking (old books)';
  const card = 'Visa (old books)';
  const typeOf = (name: string) =>
    name === bank
      ? 'Cash'
      : name === card
        ? 'Credit Cards'
        : (CHART.find((a) => a.name === name)?.type ?? '');
  /** What went on the card each month ("2025-03" → cents), paid on the 20th of the next. */
  const charged = new Map<string, number>();
  let entry = 0;
  const add = (date: string, debit: string, credit: string, cents: number, description: string) => {
    entry += 1;
    const amount = formatCents(asCents(cents), { thousands: false });
    rows.push(`E${entry},${date},${debit},${typeOf(debit)},${amount},,${description}`);
    rows.push(`E${entry},${date},${credit},${typeOf(credit)},,${amount},${description}`);
    if (credit === card)
      charged.set(date.slice(0, 7), (charged.get(date.slice(0, 7)) ?? 0) + cents);
  };
  add('2025-01-01', bank, "Owner's Equity", 2_500_000, 'Owner contribution');
  for (let day = '2025-01-01'; day < START; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const dayOfMonth = day.slice(8);
    if (weekday !== 0) add(day, bank, 'Sales', between(80_000, 170_000), `SQ *PAYOUT ${code()}`);
    if (weekday === 3)
      add(
        day,
        'Ingredients',
        card,
        between(260_000, 360_000),
        `SYSCO FOODS #${between(100, 1000)}`,
      );
    const orders = weekday === 0 ? 2 : between(3, 8);
    for (let order = 0; order < orders; order += 1)
      add(day, bank, 'Sales', between(2_500, 14_500), `STRIPE ORDER ${code()}${code()}`);
    if (random() < 0.05)
      add(day, bank, 'Catering', between(25_000, 175_000), `STRIPE TRANSFER ${code()}`);
    if (random() < 0.3) add(day, 'Travel', card, between(1_200, 5_700), `UBER *TRIP ${code()}`);
    if (random() < 0.4)
      add(
        day,
        'Meals',
        card,
        between(450, 2_250),
        `SQ *BLUE BOTTLE ${String(between(0, 9999)).padStart(4, '0')}`,
      );
    if (random() < 0.15)
      add(day, 'Supplies', card, between(1_500, 13_500), `AMZN Mktp US*${code()}${code()}`);
    if (dayOfMonth === '01') add(day, 'Rent', bank, 650_000, 'LANDLORD PROPERTIES LLC');
    if (dayOfMonth === '05')
      add(day, 'Utilities', bank, between(90_000, 140_000), `PG&E WEB ONLINE ${code()}`);
    if (dayOfMonth === '15' || dayOfMonth === '28')
      add(day, 'Payroll', bank, between(900_000, 980_000), `GUSTO PAYROLL ${code()}`);
    if (dayOfMonth === '20') {
      const statement = charged.get(addDays(`${day.slice(0, 7)}-01`, -1).slice(0, 7)) ?? 0;
      if (statement > 0) add(day, card, bank, statement, 'VISA PAYMENT THANK YOU');
    }
    if (dayOfMonth === '28') add(day, 'Bank Fees', bank, 1_500, 'MONTHLY SERVICE FEE');
    if (dayOfMonth === '30')
      add(day, bank, 'Interest Income', between(200, 1_000), 'INTEREST PAID');
  }
  return `${rows.join('\n')}\n`;
}

/** Says `n thing(s)`. */
const count = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;

/**
 * `books demo`: a sample client's books (a workspace) in the user's own local platform (the one every command uses when
 * no remote platform is configured), in a workspace whose name says it is the demo; then the main
 * job (a year's migration, finalized) and its P&L; January's bank lines decided (the bookkeeper's
 * day); December reconciled and reviewed. Every step first looks for what an earlier run
 * built and says what it reused, so a rerun — also after the suggested merge, which removes the
 * old books' checking account — sends nothing twice. The demo never writes to a remote platform.
 */
async function runDemo(ctx: CommandContext): Promise<number> {
  const target = await ctx.target();
  if (target.kind === 'remote') {
    throw new UsageError(
      `books demo builds its client's books on the local platform only, and this command would go to ${target.baseUrl}${target.profileName ? ` (profile "${target.profileName}")` : ''}: run it with no --base-url, BOOKS_BASE_URL or remote profile in use`,
    );
  }
  const api = await ctx.api();
  const note = (text: string) => ctx.output.note(`books demo: ${text}`);
  const reused: string[] = [];

  let workspace = (await api.workspaces.all()).find((w) => w.name === WORKSPACE);
  if (workspace) reused.push(`workspace "${WORKSPACE}"`);
  else
    workspace = (await api.workspaces.create({ name: WORKSPACE, timezone: 'America/Los_Angeles' }))
      .workspace;
  let entity = (await api.sandbox.entities(workspace.id)).find((e) => e.name === ENTITY);
  if (entity) reused.push(`entity "${ENTITY}"`);
  else
    entity = (
      await api.sandbox.createEntity(workspace.id, { name: ENTITY, bookkeepingStartDate: START })
    ).entity;
  ctx.chooseEntity(workspace, entity);
  note(
    `${reused.length > 0 ? 'found' : 'built'} workspace "${WORKSPACE}", entity "${ENTITY}" on the local platform`,
  );
  await chooseDemoIfNothingChosen(ctx, target, workspace, entity);

  const chart = await api.accounts.all(entity.id);
  const missing = CHART.filter((a) => !chart.some((c) => c.name === a.name));
  if (missing.length > 0) await api.accounts.bulkCreate(entity.id, missing);
  if (missing.length < CHART.length)
    reused.push(count(CHART.length - missing.length, 'account') + ' of its chart');
  if (chart.some((a) => a.financialAccountId !== null)) {
    reused.push('its bank feed');
  } else {
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
        { date: '2026-01-06', amount: -23.4, description: 'UBER *TRIP 7QX2', externalId: 'demo-1' },
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

  const { unlessNotFound } = await import('../../client/index.js');
  const migration = await unlessNotFound(api.accountingMigration.get(entity.id));
  if (migration?.accountingMigration.enrichmentRulesSeededAt) {
    // Migrated and finalized by an earlier run: the old books' accounts may since have been
    // merged into the bank feed's, so the file is not sent (or reconciled) again.
    reused.push(
      `its 2025 migration (finalized ${migration.accountingMigration.enrichmentRulesSeededAt})`,
    );
  } else {
    const { dataDir } = booksPaths(ctx.io.env);
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
  }
  if (reused.length > 0) note(`reused from an earlier run: ${reused.join(', ')}`);

  const { printStatement, profitAndLossStatement } = await import('../render/statements.js');
  const { report } = await api.reports.profitAndLoss(entity.id, {
    startDate: '2025-01-01',
    endDate: '2025-12-31',
    groupBy: 'quarter',
  });
  printStatement(ctx.output, profitAndLossStatement(report), { entity: ENTITY });
  const transactions = (await api.sandbox.transactions(workspace.id)).filter((t) =>
    t.reference?.startsWith('demo-'),
  );
  note(
    `the January card transactions after finalization: ${transactions.map((t) => `${t.description} → ${t.status}`).join('; ')}`,
  );
  const january = path.join(booksPaths(ctx.io.env).dataDir, 'demo', 'january');
  mkdirSync(january, { recursive: true });
  const { januaryDay } = await import('../demo/january.js');
  await januaryDay(ctx, entity, january);
  const statements = await reconcileAndReview(ctx, workspace, entity);
  const { vatQuarter } = await import('../demo/vatQuarter.js');
  await vatQuarter(ctx, path.join(booksPaths(ctx.io.env).dataDir, 'demo', 'vat'));
  ctx.chooseEntity(workspace, entity);
  const scope = `-w "${WORKSPACE}" -e "${ENTITY}"`;
  const accounts = new Set((await api.accounts.all(entity.id)).map((a) => a.name));
  const merges = [
    ['Checking (old books)', 'Operating Checking'],
    ['Visa (old books)', 'Business Visa'],
  ].filter(([source]) => accounts.has(source!));
  for (const [source, targetAccount] of merges)
    note(`next: books migrate merge ${scope} --source "${source}" --target "${targetAccount}"`);
  note(
    `see it again: books report bs ${scope} --from 2025-01-01 --to 2025-12-31; its December close: books close 2025-12 ${scope} --statements "${statements}"; books demo is safe to rerun`,
  );
  return 0;
}

/** The December the demo's bank and card statements cover: the last month of its history. */
const DECEMBER = { startDate: '2025-12-01', endDate: '2025-12-31' };
const BANK_ACCOUNT = { number: '000123456789', currency: 'USD' };
const CARD_ACCOUNT = { number: '4111XXXXXXXX1234', currency: 'USD' };

/**
 * The bank's and the card issuer's December statements, as they would send them: the month's
 * postings of the account as the bank booked them — the day's Stripe orders paid out together
 * the next day, card settlements a day later, each with the bank's reference — between the
 * month's opening and closing balances.
 */
async function decemberStatement(
  api: Awaited<ReturnType<CommandContext['api']>>,
  entityId: string,
  account: { id: string; class: string },
  bank: { number: string; currency: string },
  timezone: string,
): Promise<BankStatement> {
  const { amountToCents, addCents, subtractCents, negateCents, answeredAmountToCents, ZERO_CENTS } =
    await import('../../core/money.js');
  const sign = account.class === 'Assets' ? 1 : -1;
  const fromBalance = (amount: number) => {
    const cents = answeredAmountToCents(amount);
    return sign === 1 ? cents : negateCents(cents);
  };
  let opening = ZERO_CENTS;
  const postings: { day: string; cents: Cents; text: string }[] = [];
  for await (const event of await api.reports.generalLedgerEvents(entityId, {
    ...DECEMBER,
    accountId: account.id,
  })) {
    if (event.kind === 'account' && event.account.accountId === account.id)
      opening = fromBalance(event.account.openingBalance);
    if (event.kind !== 'entry') continue;
    const { entry } = event;
    const debit = entry.debitAmount === null ? ZERO_CENTS : amountToCents(entry.debitAmount);
    const credit = entry.creditAmount === null ? ZERO_CENTS : amountToCents(entry.creditAmount);
    postings.push({
      day: calendarDayAt(new Date(entry.date), timezone),
      cents: subtractCents(debit, credit),
      text: entry.description || entry.memo,
    });
  }
  const entries: StatementEntry[] = [];
  const payouts = new Map<string, Cents>();
  let number = 0;
  const reference = () => `FNB${bank.number.slice(-4)}1225${String(++number).padStart(5, '0')}`;
  const later = (day: string) => (addDays(day, 1) > DECEMBER.endDate ? day : addDays(day, 1));
  for (const posting of postings) {
    if (/^STRIPE ORDER/.test(posting.text)) {
      payouts.set(posting.day, addCents(payouts.get(posting.day) ?? ZERO_CENTS, posting.cents));
      continue;
    }
    const settled = /^(SQ \*|UBER|AMZN)/.test(posting.text) ? later(posting.day) : posting.day;
    entries.push({
      bookingDate: settled,
      valueDate: settled,
      amount: posting.cents,
      reference: reference(),
      counterparty: null,
      description: posting.text,
      status: 'booked',
      line: 0,
    });
  }
  for (const [day, cents] of payouts)
    entries.push({
      bookingDate: later(day),
      valueDate: later(day),
      amount: cents,
      reference: reference(),
      counterparty: 'Stripe Payments',
      description: `STRIPE PAYOUT ${day}`,
      status: 'booked',
      line: 0,
    });
  entries.sort((a, b) =>
    a.bookingDate < b.bookingDate ? -1 : a.bookingDate > b.bookingDate ? 1 : 0,
  );
  let closing = opening;
  for (const entry of entries) closing = addCents(closing, entry.amount);
  return {
    account: bank.number,
    currency: bank.currency,
    from: DECEMBER.startDate,
    to: DECEMBER.endDate,
    opening,
    closing,
    entries,
    card: sign === -1,
    line: 1,
  };
}

/**
 * The demo's close: the checking account and the card reconciled to their December statements
 * (written as camt.053 beside the ledger, and linked to their accounts as `books reconcile`
 * links them), then the close review of December with those statements.
 */
async function reconcileAndReview(
  ctx: CommandContext,
  workspace: Named,
  entity: Named,
): Promise<string> {
  const api = await ctx.api();
  const note = (text: string) => ctx.output.note(`books demo: ${text}`);
  const [
    { camt053 },
    { reconcileAccount },
    { checkStatementLink },
    { reconciliationSummary },
    closing,
  ] = await Promise.all([
    import('../../formats/camt/writer.js'),
    import('../../migrate/close/reconcile.js'),
    import('../statements/links.js'),
    import('../render/closeReports.js'),
    import('../close/closing.js'),
  ]);
  const chart = await api.accounts.all(entity.id);
  const { workspace: full } = await api.workspaces.get(workspace.id);
  // The history's accounts, or the feed's they were merged into.
  const named = (...names: string[]) =>
    names.map((n) => chart.find((a) => a.name === n)).find(Boolean);
  const directory = path.join(booksPaths(ctx.io.env).dataDir, 'demo', 'statements');
  mkdirSync(directory, { recursive: true });
  for (const [account, bank, file] of [
    [named('Checking (old books)', 'Operating Checking'), BANK_ACCOUNT, 'checking-2025-12.xml'],
    [named('Visa (old books)', 'Business Visa'), CARD_ACCOUNT, 'visa-2025-12.xml'],
  ] as const) {
    if (!account) continue;
    const statement = await decemberStatement(api, entity.id, account, bank, full.timezone);
    const written = path.join(directory, file);
    writeFileSync(
      written,
      camt053([statement], { messageId: `DEMO-${file}`, createdAt: '2026-01-02T06:00:00' }),
    );
    await checkStatementLink(ctx, entity.id, account, chart, [statement], true);
    const result = await reconcileAccount(api, entity.id, {
      account,
      statements: [statement],
      days: 3,
      basis: 'cash',
      timezone: full.timezone,
    });
    note(
      `wrote the bank's December statement of ${account.name} as camt.053 to ${written}; ${result.reconciled ? 'reconciled' : 'NOT reconciled'}: ${result.matched} statement entries matched, difference ${formatCents(result.difference)}`,
    );
    ctx.output.write('\n');
    ctx.output.record(reconciliationSummary(result), null);
  }
  const { entity: reviewedEntity } = await api.sandbox.entity(entity.id);
  const reviewed = await closing.reviewEntities(
    ctx,
    { statements: directory, days: '3' },
    DECEMBER,
    3,
    { workspace: full, entities: [reviewedEntity] },
  );
  ctx.output.write('\n');
  await ctx.output.table(
    [
      { header: 'Entity', value: (r) => r.entity.name },
      { header: 'Ready to close 2025-12', value: (r) => (r.ready ? 'yes' : 'no') },
      { header: 'Failing', value: (r) => closing.checksWith(r.checks, 'fail') },
      { header: 'Warnings', value: (r) => closing.checksWith(r.checks, 'warn') },
    ],
    reviewed,
  );
  closing.sayFailures(ctx, reviewed);
  return directory;
}

/**
 * A first look needs no `books use`: when the local profile has chosen no workspace, the demo's
 * becomes the choice (said so). A choice the user made is never changed.
 */
async function chooseDemoIfNothingChosen(
  ctx: CommandContext,
  target: Target,
  workspace: Named,
  entity: Named,
): Promise<void> {
  if (target.profile.workspace !== undefined) return;
  const store = await ctx.configStore();
  store.set(`profiles.${target.profileName}`, {
    ...(store.get(`profiles.${target.profileName}`) as Profile | undefined),
    workspace: workspace.id,
    entity: entity.id,
  });
  ctx.output.note(
    `books demo: no workspace was chosen, so commands now use the demo's (change it with books use)`,
  );
}

export const command = defineCommand({
  summary:
    "Build a sample client's books on the local platform and migrate a year of them (safe to rerun)",
  examples: ['books demo'],
  run: (ctx) => runDemo(ctx),
});
