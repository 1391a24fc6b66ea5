import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BankTransaction } from '../../api/index.js';
import type { Named } from '../../client/references.js';
import { addDays } from '../../core/calendar.js';
import {
  absCents,
  answeredAmountToCents,
  asCents,
  centsToAmount,
  subtractCents,
  type Cents,
} from '../../core/money.js';
import type { BankStatement, StatementEntry } from '../../formats/statement.js';
import { confidentDecisions, sendDecisions } from '../../migrate/categorize/decisions.js';
import { categoryText } from '../../migrate/categorize/texts.js';
import { suggestionText } from '../commands/transactions/listing.js';
import { bringInStatements } from '../commands/transactions/shared.js';
import type { CommandContext } from '../context.js';
import { amountColumn } from '../terminal/output.js';

/**
 * The demo's January: the bookkeeper's day on the bakery's first month on the new books. The
 * bank's and the card issuer's January statements (camt.053) come in; the rules the migration
 * made take most; what waits is shown with books' suggestions and their reasons; the checking
 * account's payment of the card becomes one transfer, a Costco receipt is split between
 * supplies and ingredients, and `--auto` takes the confident suggestions. What is left waits for
 * `books transactions review`. Each step finds what an earlier run did: nothing twice.
 */
export async function januaryDay(ctx: CommandContext, entity: Named, directory: string) {
  const api = await ctx.api();
  const note = (text: string) => ctx.output.note(`books demo: ${text}`);
  const chart = await api.accounts.all(entity.id);
  const checking = chart.find((a) => a.name === 'Operating Checking');
  const card = chart.find((a) => a.name === 'Business Visa');
  if (!checking?.financialAccountId || !card?.financialAccountId) return;
  const { report } = await api.reports.trialBalance(entity.id, {
    startDate: '2025-12-31',
    endDate: '2025-12-31',
  });
  const owed = report.rows.find((r) => /visa/i.test(r.accountName));
  const cardPayment = owed ? answeredAmountToCents(owed.credit - owed.debit) : asCents(1_234_56);

  const statements = januaryStatements(cardPayment);
  const files: string[] = [];
  for (const [name, statement] of [
    ['checking-2026-01.xml', statements.checking],
    ['visa-2026-01.xml', statements.card],
  ] as const) {
    const { camt053 } = await import('../../formats/camt/writer.js');
    const file = path.join(directory, name);
    writeFileSync(
      file,
      camt053([statement], { messageId: `DEMO-${name}`, createdAt: '2026-02-01T06:00:00' }),
    );
    files.push(file);
  }
  let imported = 0;
  let categorized = 0;
  let skipped = 0;
  for (const [account, file] of [
    [checking, files[0]!],
    [card, files[1]!],
  ] as const) {
    const brought = await bringInStatements(
      ctx,
      { financialAccountId: account.financialAccountId! },
      [file],
      {},
    );
    imported += brought.arrived.length;
    skipped += brought.skipped;
    categorized += brought.arrived.filter((t) => t.status === 'categorized').length;
  }
  note(
    `January: the bank's and the card's statements imported (${files.join(', ')}): ${imported} new${skipped > 0 ? `, ${skipped} already there` : ''}; the rules took ${categorized}`,
  );

  let { data: queue } = await api.sandbox.forReview(entity.id, { suggest: true });
  if (queue.length === 0) return note('January: nothing waits');
  note(`January: ${queue.length} waiting, with books' suggestions:`);
  ctx.output.write('\n');
  await ctx.output.table(
    [
      { header: 'Date', value: (t) => t.date },
      { header: 'Account', value: (t) => t.bankAccount.name },
      amountColumn('Amount', (t: BankTransaction) => answeredAmountToCents(t.amount)),
      { header: 'Description', value: (t) => t.description },
      { header: 'Suggestion', value: suggestionText },
      { header: 'Why', value: (t) => t.suggestion?.reason ?? '' },
    ],
    queue,
  );

  // The receipt a person splits: supplies and ingredients bought in one trip.
  const costco = queue.find((t) => t.description.startsWith('COSTCO'));
  const supplies = chart.find((a) => a.name === 'Supplies');
  const ingredients = chart.find((a) => a.name === 'Ingredients');
  if (costco && supplies && ingredients) {
    const total = absCents(answeredAmountToCents(costco.amount));
    const flour = asCents(100_00);
    const { data } = await api.sandbox.decideMany(entity.id, {
      decisions: [
        {
          transactionId: costco.id,
          version: costco.version,
          kind: 'split',
          splits: [
            { accountId: ingredients.id, amount: centsToAmount(flour), memo: 'flour and butter' },
            {
              accountId: supplies.id,
              amount: centsToAmount(subtractCents(total, flour)),
              memo: 'boxes and napkins',
            },
          ],
        },
      ],
    });
    if (data[0]?.transaction)
      note(`January: the Costco receipt split: ${categoryText(data[0].transaction)}`);
    queue = queue.filter((t) => t.id !== costco.id);
  }

  // What books is sure of: the transfer between checking and the card, the known payees.
  const decisions = confidentDecisions(queue, 0.95);
  const outcomes = await sendDecisions(api, entity.id, decisions);
  const decided = outcomes.filter((o) => o.status === 200);
  const transfer = decided.find((o) => o.transaction?.category?.kind === 'transfer');
  note(
    `January: categorize --auto took ${decided.length} confident ${decided.length === 1 ? 'suggestion' : 'suggestions'}${transfer ? `, among them the card's payment as one transfer (${categoryText(transfer.transaction!)})` : ''}`,
  );
  const left = (await api.sandbox.forReview(entity.id)).data;
  note(
    left.length === 0
      ? 'January: nothing waits'
      : `January: ${left.length} ${left.length === 1 ? 'waits' : 'wait'} for a person (${left.map((t) => t.description).join('; ')}): books transactions review`,
  );
}

/** The bank's and the card issuer's January statements of the bakery. */
function januaryStatements(cardPayment: Cents): { checking: BankStatement; card: BankStatement } {
  let state = 2026;
  const random = () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low));
  const checking: StatementEntry[] = [];
  const card: StatementEntry[] = [];
  let number = 0;
  const entry = (
    day: string,
    cents: number,
    description: string,
    reference?: string,
  ): StatementEntry => ({
    bookingDate: day,
    valueDate: day,
    amount: cents as Cents,
    reference: reference ?? `FNB0126${String(++number).padStart(5, '0')}`,
    counterparty: null,
    description,
    status: 'booked',
    line: 0,
  });
  for (let day = '2026-01-02'; day <= '2026-01-31'; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    const dom = day.slice(8);
    if (weekday !== 0)
      checking.push(entry(day, between(80_000, 170_000), `SQ *PAYOUT ${between(1000, 9999)}`));
    if (weekday === 3)
      card.push(entry(day, -between(260_000, 360_000), `SYSCO FOODS #${between(100, 1000)}`));
    if (dom === '02') checking.push(entry(day, -650_000, 'LANDLORD PROPERTIES LLC'));
    if (dom === '05') checking.push(entry(day, -between(90_000, 140_000), 'PG&E WEB ONLINE'));
    if (dom === '15' || dom === '28')
      checking.push(entry(day, -between(900_000, 980_000), 'GUSTO PAYROLL'));
    if (dom === '20') {
      checking.push(entry(day, -cardPayment, 'VISA PAYMENT THANK YOU'));
      card.push(entry(addDays(day, 1), cardPayment, 'PAYMENT RECEIVED - THANK YOU'));
    }
    if (dom === '12') checking.push(entry(day, -31_245, 'COSTCO WHOLESALE #482'));
    if (dom === '22') checking.push(entry(day, -48_000, 'CITY OF SF BUSINESS TAX'));
    if (dom === '28') checking.push(entry(day, -1_500, 'MONTHLY SERVICE FEE'));
    if (dom === '14' || dom === '27')
      card.push(entry(day, -between(1_200, 5_700), `UBER *TRIP ${between(1000, 9999)}`));
    if (dom === '08' || dom === '19')
      card.push(entry(day, -between(450, 2_250), `SQ *BLUE BOTTLE ${between(1000, 9999)}`));
    // Payees the rules do not catch as written this month, and books knows all the same.
    if (dom === '23') card.push(entry(day, -1_840, 'BLUE BOTTLE COFFEE ROASTERS'));
    if (dom === '26') card.push(entry(day, -58_210, 'SYSCO CORPORATION #512'));
  }
  // The three card lines the feed brought on the 6th, 7th and 9th (the demo's first ones).
  card.push(
    entry('2026-01-06', -2340, 'UBER *TRIP 7QX2', 'demo-1'),
    entry('2026-01-07', -675, 'SQ *BLUE BOTTLE 0518', 'demo-2'),
    entry('2026-01-09', -8412, 'AMZN Mktp US*9KD2LQ', 'demo-3'),
  );
  const statement = (
    entries: StatementEntry[],
    account: string,
    isCard: boolean,
  ): BankStatement => {
    entries.sort((a, b) =>
      a.bookingDate < b.bookingDate ? -1 : a.bookingDate > b.bookingDate ? 1 : 0,
    );
    return {
      account,
      currency: 'USD',
      from: '2026-01-01',
      to: '2026-01-31',
      opening: null,
      closing: null,
      entries,
      card: isCard,
      line: 1,
    };
  };
  return {
    checking: statement(checking, '000123456789', false),
    card: statement(card, '4111XXXXXXXX1234', true),
  };
}
