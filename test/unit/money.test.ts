import { describe, expect, it } from 'vitest';
import {
  absCents,
  addCents,
  amountToCents,
  asCents,
  centsToAmount,
  decimalToCents,
  formatCents,
  MAX_AMOUNT_CENTS,
  negateCents,
  parseAmountText,
  ratioToCents,
  signedCents,
  subtractCents,
  sumCents,
} from '../../src/core/money.js';

describe('amountToCents (JSON numbers)', () => {
  it.each([
    [0, 0],
    [-0, 0],
    [1, 100],
    [0.1, 10],
    [0.29, 29], // 0.29 * 100 is 28.999999999999996 in floats
    [4.35, 435], // 4.35 * 100 is 434.99999999999994
    [19.99, 1999],
    [1234.5, 123450],
    [123456789012.99, 12345678901299],
    [999999999999.99, MAX_AMOUNT_CENTS],
  ])('%d → %d cents', (amount, cents) => {
    expect(amountToCents(amount)).toBe(cents);
  });

  it.each([
    [1.005, 'must have at most 2 decimals'],
    [0.001, 'must have at most 2 decimals'],
    [1e-7, 'must have at most 2 decimals'],
    [0.1 + 0.2, 'must have at most 2 decimals'],
    [-1, 'must not be negative'],
    [-0.01, 'must not be negative'],
    [Number.NaN, 'must be a number'],
    [Number.POSITIVE_INFINITY, 'must be a number'],
    [1_000_000_000_000, 'must not exceed 999,999,999,999.99'],
    [1e21, 'must not exceed 999,999,999,999.99'],
    [Number.MAX_SAFE_INTEGER, 'must not exceed 999,999,999,999.99'],
  ])('refuses %d: %s', (amount, message) => {
    expect(() => amountToCents(amount)).toThrow(message);
  });

  it('agrees with reading the number as its shortest decimal text, near every boundary', () => {
    const viaText = (amount: number) => {
      try {
        return decimalToCents(String(amount));
      } catch {
        return 'refused';
      }
    };
    const viaNumber = (amount: number) => {
      try {
        return amountToCents(amount);
      } catch {
        return 'refused';
      }
    };
    const disagreements: number[] = [];
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) as number;
    for (let i = 0; i < 10_000; i += 1) {
      const magnitude = 10 ** Math.floor(random() * 13);
      const cents = Math.floor(random() * magnitude * 100);
      const amount = cents / 100;
      // The amount, its neighbouring doubles, and numbers with a third decimal.
      for (const candidate of [
        amount,
        amount + amount * Number.EPSILON,
        amount - amount * Number.EPSILON,
        amount + 0.001,
        amount + 0.005,
      ]) {
        if (viaNumber(candidate) !== viaText(candidate)) disagreements.push(candidate);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it.each([['12'], [null], [undefined], [{}]])('refuses a non-number %j', (value) => {
    expect(() => amountToCents(value)).toThrow('must be a number');
  });
});

describe('decimalToCents (text)', () => {
  it.each([
    ['0', 0],
    ['12', 1200],
    ['12.5', 1250],
    ['12.34', 1234],
    [' 7.01 ', 701],
    ['0005.10', 510],
    ['999999999999.99', MAX_AMOUNT_CENTS],
  ])('%j → %d', (text, cents) => {
    expect(decimalToCents(text)).toBe(cents);
  });

  it('takes negatives only when allowed', () => {
    expect(decimalToCents('-12.34', { allowNegative: true })).toBe(-1234);
    expect(decimalToCents('-0', { allowNegative: true })).toBe(0);
    expect(() => decimalToCents('-12.34')).toThrow('must not be negative');
  });

  it.each([
    ['12.345', 'must have at most 2 decimals'],
    ['1,000', 'must be a decimal amount'],
    ['1e3', 'must be a decimal amount'],
    ['', 'must be a decimal amount'],
    ['.5', 'must be a decimal amount'],
    ['NaN', 'must be a decimal amount'],
    ['1000000000000', 'must not exceed 999,999,999,999.99'],
    ['99999999999999999999', 'must not exceed 999,999,999,999.99'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => decimalToCents(text)).toThrow(message);
  });
});

describe('centsToAmount / formatCents / addCents', () => {
  it('turns cents back into the exact JSON number', () => {
    expect(JSON.stringify(centsToAmount(asCents(29)))).toBe('0.29');
    expect(JSON.stringify(centsToAmount(asCents(435)))).toBe('4.35');
    expect(JSON.stringify(centsToAmount(MAX_AMOUNT_CENTS))).toBe('999999999999.99');
    for (let cents = 0; cents < 100_000; cents += 7) {
      expect(amountToCents(centsToAmount(asCents(cents)))).toBe(cents);
    }
  });

  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [123456789, '1,234,567.89'],
    [-100000, '-1,000.00'],
  ])('formats %d as %s', (cents, text) => {
    expect(formatCents(asCents(cents))).toBe(text);
  });

  it('formats without separators on request', () => {
    expect(formatCents(asCents(123456789), { thousands: false })).toBe('1234567.89');
  });

  it('sums exactly and refuses to leave the safe integer range', () => {
    expect(addCents(asCents(10), asCents(20))).toBe(30);
    expect(() => addCents(asCents(Number.MAX_SAFE_INTEGER), asCents(1))).toThrow(
      'safe integer range',
    );
  });

  it('makes cents only from whole numbers, and the type keeps plain numbers out', () => {
    expect(() => asCents(12.5)).toThrow('12.5 is not a whole number of cents');
    expect(Object.is(asCents(-0), 0)).toBe(true);
    // @ts-expect-error a plain number (dollars? cents?) is not Cents
    formatCents(1234);
    expect(subtractCents(asCents(100), asCents(250))).toBe(-150);
    expect(Object.is(negateCents(asCents(0)), 0)).toBe(true);
    expect(sumCents([asCents(1), asCents(2), asCents(3)])).toBe(6);
    expect(signedCents(asCents(5), -1)).toBe(-5);
    expect(absCents(asCents(-7))).toBe(7);
  });
});

describe('parseAmountText: every amount the CLI reads (files and flags)', () => {
  it.each([
    ['0001.50', 150],
    ['-0.00', 0],
    ['1,234.56', 123456],
    ['(12.00)', -1200],
    ['$12', 1200],
    ['12.00-', -1200],
    ['(1,234.56)', -123456],
    ['$1,234.56', 123456],
    ['-1234.56', -123456],
    ['-$5', -500],
    ['$-5.10', -510],
    ['($5.00)', -500],
    ['+3', 300],
    ['  42  ', 4200],
    ['.50', 50],
    ['0.01', 1],
    ['1,000,000', 100000000],
    ['1,234', 123400],
    ['1 234.56', 123456],
    ['1\u00a0234.56', 123456],
    ["1'234.56", 123456],
    ['€5', 500],
    ['USD 1,234.56', 123456],
    ['1,234.56 EUR', 123456],
    ['-12.00 GBP', -1200],
    ['12.00 Dr', 1200],
    ['12.00 Cr', -1200],
    ['1,234.56 CR', -123456],
    ['12.00 dr.', 1200],
    ['1\u202f234.56', 123456],
    ['1\u2009234.56', 123456],
    ['1\u2019234.56', 123456],
    ['-9\u2019291.50', -929150],
    // A past re-encoding turned `’` into U+FFFD: between groups of three it was a separator.
    ['-12\ufffd391.50', -1239150],
    ['1\ufffd000\ufffd000.00', 100000000],
    ['999,999,999,999.99', MAX_AMOUNT_CENTS],
    ['000000000000001', 100],
    ['', null],
    ['   ', null],
  ])('%j → %s cents', (text, cents) => {
    expect(parseAmountText(text)).toBe(cents);
  });

  it.each([
    ['1.234,56', 123456],
    ['12,34', 1234],
    ['-12,3', -1230],
    ['1.234', 123400],
    ['1 234,56', 123456],
    ['(1.234,56)', -123456],
    ['12,34-', -1234],
    ['€1.234,56', 123456],
    ['1\u202f234,56', 123456],
    ['1\u00a0234,56', 123456],
  ])('with --decimal-comma, %j → %s cents', (text, cents) => {
    expect(parseAmountText(text, { decimalComma: true })).toBe(cents);
  });

  it.each([
    [
      '12,34',
      '"12,34" is ambiguous: "," could separate thousands or decimals (with --decimal-comma it reads 12.34)',
    ],
    ['1,2,3', '"1,2,3" is not an amount: group digits in threes'],
    ['1.234', '"1.234" has more than 2 decimals (with --decimal-comma it reads 1,234.00)'],
    ['1.005', '"1.005" has more than 2 decimals (with --decimal-comma it reads 1,005.00)'],
    ['1,234.567', '"1,234.567" has more than 2 decimals'],
    ['1.234,56', '"1.234,56" is not an amount (with --decimal-comma it reads 1,234.56)'],
    ['12,3456', '"12,3456" is not an amount: group digits in threes'],
    // U+FFFD is a separator only between groups of three: otherwise a lost character stays one.
    ['12\ufffd34.00', '"12\ufffd34.00" is not an amount: group digits in threes'],
    ['1\ufffd5', '"1\ufffd5" is not an amount: group digits in threes'],
    ['1,234 567', '"1,234 567" is not an amount'],
    ['12.', '"12." is not an amount'],
    ['--5', '"--5" has more than one minus sign'],
    ['(5)-', '"(5)-" has more than one minus sign'],
    ['abc', '"abc" is not an amount'],
    ['1e5', '"1e5" is not an amount'],
    ['$', '"$" is not an amount'],
    ['1000000000000', '"1000000000000" must not exceed 999,999,999,999.99'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseAmountText(text)).toThrow(message);
  });

  it.each([
    [
      '12.34',
      '"12.34" is ambiguous: "." could separate thousands or decimals (without --decimal-comma it reads 12.34)',
    ],
    ['1,234.56', '"1,234.56" is not an amount (without --decimal-comma it reads 1,234.56)'],
    ['1,234', '"1,234" has more than 2 decimals (without --decimal-comma it reads 1,234.00)'],
  ])('with --decimal-comma, refuses %j: %s', (text, message) => {
    expect(() => parseAmountText(text, { decimalComma: true })).toThrow(message);
  });

  // As the C library's locales write money (glibc's LC_MONETARY of each): the currency before
  // or after, with or without a space; the sign in front, behind, around the currency or in
  // brackets; every thousands separator; India's groups.
  it.each([
    ['1.000,00 €', 100000, true],
    ['-1.000,00 €', -100000, true],
    ['10,00\u00a0US$', 1000, true],
    ['€ -1.000,00', -100000, true],
    ['€ 1.000,00-', -100000, true],
    ['1.000,00- €', -100000, true],
    ['(1.000,00 €)', -100000, true],
    ['kr 1\u00a0000,00', 100000, true],
    ['-1\u202f000,00 kr', -100000, true],
    ['kr. -1.000,00', -100000, true],
    ['1 000,00 zł', 100000, true],
    ['-1 000,00 Kč', -100000, true],
    ['1.000,00 лв.', 100000, true],
    ['1\u202f000,00 грн.', 100000, true],
    ['R$ -1.000,00', -100000, true],
    ['1\u2019000.00 CHF', 100000, false],
    ['CHF-1\u2019000.00', -100000, false],
    ['-₹1,00,000.00', -10000000, false],
    ['₹ 12,34,567.89', 123456789, false],
    ['￥-1,000', -100000, false],
    ['₪ 1,000.00-', -100000, false],
    ['NT$1,000.00', 100000, false],
    ['\u22121,000.00', -100000, false],
    ['1\u066c000\u066b50', 100050, false],
  ])(
    '%j → %s cents (decimal comma: %s), and so when the amount alone tells',
    (text, cents, comma) => {
      expect(parseAmountText(text, { decimalComma: comma })).toBe(cents);
      expect(parseAmountText(text, { decimalComma: 'either' })).toBe(cents);
    },
  );

  it.each([
    ['12,34', 1234],
    ['10,00', 1000],
    ['1,234', 123400],
    ['1.234', 123400],
    ['1.234.567', 123456700],
    ['1,234,567', 123456700],
    ['1.234,5', 123450],
    ['1,234.5', 123450],
    ['12.34', 1234],
    ['-0,50 €', -50],
  ])('either mark: %j reads the only way it stands, %s cents', (text, cents) => {
    expect(parseAmountText(text, { decimalComma: 'either' })).toBe(cents);
  });

  it.each([
    ['12.00 S', '"12.00 S" is not an amount'],
    ['12.00 abc', '"12.00 abc" is not an amount'],
    ['kr', '"kr" is not an amount'],
    ['--5 €', '"--5 €" has more than one minus sign'],
    ['1,2,3', '"1,2,3" is not an amount: group digits in threes'],
  ])('either mark: refuses %j: %s', (text, message) => {
    expect(() => parseAmountText(text, { decimalComma: 'either' })).toThrow(message);
  });

  it('ratioToCents: a ratio of integers to cents, half away from zero', () => {
    expect(ratioToCents(12345n, 100n)).toBe(12345);
    expect(ratioToCents(-12345n, 100n)).toBe(-12345);
    expect(ratioToCents(1n, 3n)).toBe(33);
    expect(ratioToCents(2n, 3n)).toBe(67);
    expect(ratioToCents(-1n, 200n)).toBe(-1);
    expect(ratioToCents(1n, -200n)).toBe(-1);
    expect(ratioToCents(5n, 1000n)).toBe(1);
    expect(ratioToCents(4n, 1000n)).toBe(0);
    expect(ratioToCents(7n, 0n)).toBe(0);
  });

  it('reads a plain amount exactly as the general path does', () => {
    for (let cents = -100_000; cents <= 100_000; cents += 37) {
      const text = formatCents(asCents(cents), { thousands: false });
      expect(parseAmountText(text)).toBe(cents);
      expect(parseAmountText(` ${formatCents(asCents(cents))} `)).toBe(cents);
    }
  });
});
