import { describe, expect, it } from 'vitest';
import { asCents, changeInPercent } from '../../src/core/money.js';
import { addMonths, comparisonRange, precedingRange } from '../../src/core/periods.js';
import { shellWords } from '../../src/cli/completion/words.js';

describe('comparison periods', () => {
  it('moves days by whole months, keeping a month end a month end', () => {
    expect(addMonths('2026-03-15', -1)).toBe('2026-02-15');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2024-02-29', -12)).toBe('2023-02-28');
    expect(addMonths('2023-02-28', 12)).toBe('2024-02-29');
    expect(addMonths('2026-01-30', -1)).toBe('2025-12-30');
    expect(addMonths('2026-01-31', -13)).toBe('2024-12-31');
  });

  it('takes the range before: as many whole months, else as many days', () => {
    expect(precedingRange({ startDate: '2026-01-01', endDate: '2026-03-31' })).toEqual({
      startDate: '2025-10-01',
      endDate: '2025-12-31',
    });
    expect(precedingRange({ startDate: '2026-03-01', endDate: '2026-03-31' })).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    });
    expect(precedingRange({ startDate: '2026-03-10', endDate: '2026-03-19' })).toEqual({
      startDate: '2026-02-28',
      endDate: '2026-03-09',
    });
  });

  it.each([
    ['month', 'prior-period', '2026-01-15', '2026-03-31', '2025-12-15', '2026-02-28'],
    ['month', 'prior-year', '2024-01-01', '2024-02-29', '2023-01-01', '2023-02-28'],
    ['quarter', 'prior-period', '2026-01-01', '2026-06-30', '2025-10-01', '2026-03-31'],
    ['year', 'prior-period', '2025-01-01', '2025-12-31', '2024-01-01', '2024-12-31'],
    ['week', 'prior-period', '2026-01-05', '2026-02-01', '2025-12-29', '2026-01-25'],
    // 52 weeks back: weeks stay Monday to Sunday.
    ['week', 'prior-year', '2026-01-05', '2026-02-01', '2025-01-06', '2025-02-02'],
    ['total', 'prior-period', '2026-01-01', '2026-03-31', '2025-10-01', '2025-12-31'],
    ['total', 'prior-year', '2026-01-01', '2026-03-31', '2025-01-01', '2025-03-31'],
  ] as const)('%s against the %s of %s..%s is %s..%s', (groupBy, compare, start, end, from, to) => {
    expect(comparisonRange({ startDate: start, endDate: end }, groupBy, compare)).toEqual({
      startDate: from,
      endDate: to,
    });
  });

  it('gives the change in percent of the base, to a tenth, and none on a zero base', () => {
    expect(changeInPercent(asCents(11250), asCents(10000))).toBe(12.5);
    expect(changeInPercent(asCents(5000), asCents(10000))).toBe(-50);
    // A loss halved is an increase: the base's size, not its sign.
    expect(changeInPercent(asCents(-5000), asCents(-10000))).toBe(50);
    expect(changeInPercent(asCents(100), asCents(0))).toBeNull();
    expect(changeInPercent(asCents(0), asCents(0))).toBeNull();
    expect(changeInPercent(asCents(10000), asCents(10000))).toBe(0);
    expect(Object.is(changeInPercent(asCents(10000), asCents(10001)), -0)).toBe(false);
    expect(changeInPercent(asCents(2), asCents(3))).toBe(-33.3);
  });
});

describe('completion words', () => {
  it('splits a line as a shell does, the last word the one being typed', () => {
    expect(shellWords('books coa get ')).toEqual({
      words: ['books', 'coa', 'get', ''],
      quote: undefined,
    });
    expect(shellWords('books -w "Acme: B')).toEqual({
      words: ['books', '-w', 'Acme: B'],
      quote: '"',
    });
    expect(shellWords('books coa get Petty\\ C')).toEqual({
      words: ['books', 'coa', 'get', 'Petty C'],
      quote: undefined,
    });
    expect(shellWords("books -e 'Bob''s")).toEqual({ words: ['books', '-e', 'Bobs'], quote: "'" });
  });
});
