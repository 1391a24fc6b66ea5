import { describe, expect, it } from 'vitest';
import {
  alikeTexts,
  lineText,
  sortArrivals,
  type ArrivingLine,
  type KnownLine,
} from '../../src/core/duplicates.js';

/*
 * Whether a bank line arriving is one the books hold (core/duplicates.ts): already there, held
 * as a possible duplicate, or new — whatever layout or format the file has.
 */

const known = (
  id: string,
  date: string,
  cents: number,
  description: string,
  extra: Partial<KnownLine> = {},
): KnownLine => ({
  id,
  date,
  amountCents: cents,
  description,
  reference: null,
  arrivedFrom: '2026-11-01',
  arrivedTo: '2026-11-30',
  ...extra,
});
const line = (
  date: string,
  cents: number,
  description: string,
  reference: string | null = null,
): ArrivingLine => ({ date, amountCents: cents, description, reference });
const november = { from: '2026-11-01', to: '2026-11-30' };

describe('a line the books hold already', () => {
  const books = [
    known('rent', '2026-11-03', -1200_00, 'RENT HARBOUR PROPERTIES'),
    known('sales', '2026-11-10', 845_20, 'CARD SALES SUMUP'),
    known('gas', '2026-11-17', -96_40, 'British Gas'),
  ];

  it('is its day, amount and text: another layout of the same month brings nothing', () => {
    const again = [
      line('2026-11-03', -1200_00, 'Rent  Harbour Properties'),
      line('2026-11-10', 845_20, 'card sales sumup'),
      line('2026-11-17', -96_40, 'BRITISH GAS'),
    ];
    expect(sortArrivals(again, books, november)).toEqual([
      { kind: 'already', of: 'rent', by: 'content' },
      { kind: 'already', of: 'sales', by: 'content' },
      { kind: 'already', of: 'gas', by: 'content' },
    ]);
  });

  it('is the bank’s reference where both carry one; another reference is not the same line', () => {
    const referenced = [
      known('a', '2026-11-05', -10_00, 'COFFEE', { reference: 'R1' }),
      known('b', '2026-11-05', -10_00, 'COFFEE', { reference: 'R2' }),
    ];
    expect(
      sortArrivals(
        [line('2026-11-05', -10_00, 'COFFEE', 'R1'), line('2026-11-05', -10_00, 'COFFEE', 'R3')],
        referenced,
        november,
      ),
    ).toEqual([
      { kind: 'already', of: 'a', by: 'reference' },
      // Same day, amount and text but a reference of its own: another line (the bank says so).
      { kind: 'new' },
    ]);
  });

  it('a line with a reference is the books’ line without one of its day, amount and text (an OFX after the CSV)', () => {
    expect(
      sortArrivals([line('2026-11-17', -96_40, 'BRITISH GAS', 'FITID-9')], books, november),
    ).toEqual([{ kind: 'already', of: 'gas', by: 'content' }]);
  });

  it('two alike lines of a file are two lines: only those beyond what the books hold come in', () => {
    const coffees = [known('c1', '2026-11-20', -3_50, 'STARBUCKS')];
    expect(
      sortArrivals(
        [line('2026-11-20', -3_50, 'STARBUCKS'), line('2026-11-20', -3_50, 'STARBUCKS')],
        coffees,
        november,
      ),
    ).toEqual([{ kind: 'already', of: 'c1', by: 'content' }, { kind: 'new' }]);
  });

  it('a reference the arriving lines state twice is one line (overlapping statements)', () => {
    expect(
      sortArrivals(
        [line('2026-11-05', -10_00, 'A', 'R1'), line('2026-11-05', -10_00, 'A', 'R1')],
        [],
        november,
      ),
    ).toEqual([{ kind: 'new' }, { kind: 'already', of: null, by: 'reference' }]);
  });
});

describe('a possible duplicate', () => {
  const books = [
    known('rent', '2026-11-03', -1200_00, 'RENT HARBOUR PROPERTIES'),
    known('gas', '2026-11-17', -96_40, 'BRITISH GAS'),
  ];

  it('is the same amount a day or two apart with a word in common, or the same day whatever the text', () => {
    expect(
      sortArrivals(
        [
          line('2026-11-04', -1200_00, 'Harbour Properties Ltd'),
          line('2026-11-17', -96_40, 'DD 0042871'),
          line('2026-11-20', -96_40, 'BRITISH GAS'),
        ],
        books,
        november,
      ),
    ).toEqual([{ kind: 'possible', of: 'rent' }, { kind: 'possible', of: 'gas' }, { kind: 'new' }]);
  });

  it('is never a line of a file that does not overlap: a coffee on the 30th and one on the 1st are two', () => {
    const lastMonth = [known('c', '2026-11-30', -3_50, 'STARBUCKS')];
    expect(
      sortArrivals([line('2026-12-01', -3_50, 'STARBUCKS')], lastMonth, {
        from: '2026-12-01',
        to: '2026-12-31',
      }),
    ).toEqual([{ kind: 'new' }]);
    // The same line a day later in a file of the same days (a value date for a booking date) is held.
    expect(
      sortArrivals([line('2026-12-01', -3_50, 'STARBUCKS')], lastMonth, {
        from: '2026-11-15',
        to: '2026-12-15',
      }),
    ).toEqual([{ kind: 'possible', of: 'c' }]);
  });

  it('takes a line of the books once: what a certain twin took is not held against another', () => {
    const weekly = [
      known('t1', '2026-11-29', -2_80, 'TFL TRAVEL', {
        arrivedFrom: '2026-11-24',
        arrivedTo: '2026-11-30',
      }),
    ];
    expect(
      sortArrivals(
        [line('2026-11-29', -2_80, 'TFL TRAVEL'), line('2026-11-30', -2_80, 'TFL TRAVEL')],
        weekly,
        { from: '2026-11-28', to: '2026-12-04' },
      ),
    ).toEqual([{ kind: 'already', of: 't1', by: 'content' }, { kind: 'new' }]);
  });

  it('is not an amount of the other direction', () => {
    expect(
      sortArrivals([line('2026-11-03', 1200_00, 'RENT HARBOUR PROPERTIES')], books, november),
    ).toEqual([{ kind: 'new' }]);
  });
});

describe('texts', () => {
  it('are words: case, accents, punctuation and spaces aside', () => {
    expect(lineText('  Café  Crème, S.A. ')).toBe('cafe creme s a');
  });

  it('are alike with a word of substance in common, not with noise words or numbers alone', () => {
    expect(alikeTexts('SUMUP *HARBOUR CAFE', 'Card sales SumUp')).toBe(true);
    expect(alikeTexts('CARD PAYMENT 1234', 'CARD PAYMENT 5678')).toBe(false);
    expect(alikeTexts('1234', '1234')).toBe(true);
  });
});
