import { expect } from 'vitest';
import type { StatementFile } from '../../src/formats/statement.js';
import { closingOf, type ModelStatement } from './statementFiles.js';

/*
 * The model statements the format tests write their files from, and the check of a statement as
 * read against its model.
 */

export const october: ModelStatement = {
  account: 'NL91ABNA0417164300',
  currency: 'EUR',
  from: '2026-10-01',
  to: '2026-10-31',
  opening: 1_234_56,
  entries: [
    {
      booked: '2026-10-02',
      value: '2026-10-03',
      cents: 250_00,
      reference: 'REF0001',
      party: 'ACME Trading BV',
      text: 'Invoice 2026-117',
    },
    {
      booked: '2026-10-05',
      cents: -400_00,
      reference: 'REF0002',
      party: 'Landlord Holdings',
      text: 'Rent October',
    },
    { booked: '2026-10-15', cents: -12_34, reference: 'REF0003', text: 'Account fee' },
    {
      booked: '2026-10-20',
      cents: 45_67,
      reference: 'REF0004',
      party: 'Card Acquirer',
      text: 'Refund of a card payment',
      reversal: true,
    },
    {
      booked: '2026-10-30',
      cents: -1_000_000_00,
      reference: 'REF0005',
      party: 'Tax Office',
      text: 'Corporate tax 2025 final assessment',
    },
  ],
};
/** The opening balance is a debit (an overdraft) in this one. */
export const november: ModelStatement = {
  account: 'NL91ABNA0417164300',
  currency: 'EUR',
  from: '2026-11-01',
  to: '2026-11-30',
  opening: closingOf(october),
  entries: [
    {
      booked: '2026-11-03',
      cents: 999_000_00,
      reference: 'REF0006',
      party: 'Shareholder',
      text: 'Capital injection',
    },
    { booked: '2026-11-28', cents: -7_50, reference: 'REF0007', text: 'Card fee' },
  ],
};

/** The statement as read against the model it was written from. */
export function expectModel(
  read: StatementFile['statements'][number],
  model: ModelStatement,
  options: {
    balances?: 'both' | 'closing' | 'none';
    reference?: boolean;
    party?: boolean;
    valueDates?: boolean;
    period?: boolean;
    /** The file names no currency (QIF, a CSV without the column). */
    currency?: null;
  } = {},
) {
  const balances = options.balances ?? 'both';
  if (options.period !== false) {
    expect(read.from).toBe(model.from);
    expect(read.to).toBe(model.to);
  }
  expect(read.currency).toBe(options.currency === null ? null : model.currency);
  expect(read.opening).toBe(balances === 'both' ? model.opening : null);
  expect(read.closing).toBe(balances === 'none' ? null : closingOf(model));
  expect(read.entries.map((e) => [e.bookingDate, e.amount, e.status])).toEqual(
    model.entries.map((e) => [e.booked, e.cents, e.status ?? 'booked']),
  );
  if (options.reference !== false)
    expect(read.entries.map((e) => e.reference)).toEqual(
      model.entries.map((e) => e.reference ?? null),
    );
  if (options.party !== false)
    expect(read.entries.map((e) => e.counterparty)).toEqual(
      model.entries.map((e) => e.party ?? null),
    );
  for (const [i, entry] of read.entries.entries())
    expect(entry.description.replace(/\s+/g, '')).toContain(
      model.entries[i]!.text.replace(/\s+/g, '').slice(0, 20),
    );
  if (options.valueDates) expect(read.entries[0]!.valueDate).toBe(model.entries[0]!.value);
}
