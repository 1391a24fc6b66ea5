/**
 * Money is an integer count of cents. Amounts cross the wire as JSON numbers with at most two
 * decimals; they are converted to cents through their shortest decimal text (what `String(n)`
 * prints, which is exactly what the sender wrote for any amount with ≤ 2 decimals), never
 * through float arithmetic.
 */
export type Cents = number;

/** 999,999,999,999.99 — the largest amount the platform accepts. */
export const MAX_AMOUNT_CENTS: Cents = 99_999_999_999_999;

export class InvalidAmountError extends Error {
  override name = 'InvalidAmountError';
}

const PLAIN_DECIMAL = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

function decimalTextToCents(text: string, allowNegative: boolean): Cents {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) {
    if (/^-?\d+\.\d{3,}$/.test(text)) throw new InvalidAmountError('must have at most 2 decimals');
    throw new InvalidAmountError('must be a decimal amount');
  }
  const [, minus, whole = '0', fraction = ''] = match;
  if (minus && !allowNegative) throw new InvalidAmountError('must not be negative');
  if (whole.length > 12) throw new InvalidAmountError('must not exceed 999,999,999,999.99');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (cents > MAX_AMOUNT_CENTS) throw new InvalidAmountError('must not exceed 999,999,999,999.99');
  return minus && cents !== 0 ? -cents : cents;
}

/** A non-negative JSON amount (a number) to cents; throws InvalidAmountError. */
export function amountToCents(amount: unknown): Cents {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw new InvalidAmountError('must be a number');
  }
  if (amount < 0) throw new InvalidAmountError('must not be negative');
  // The common case without making text: when cents/100 is the very number sent, the decimal
  // with ≤ 2 places that the sender wrote is cents/100 (two such decimals would be 0.01 apart,
  // far more than doubles are apart below the maximum). `+ 0` turns −0 into 0.
  const cents = Math.round(amount * 100) + 0;
  if (cents <= MAX_AMOUNT_CENTS && cents / 100 === amount) return cents;
  // String() gives the shortest text that round-trips; exponent forms (1e-7, 1e+21) are
  // rejected by the decimal pattern as too precise or too large.
  const text = String(amount);
  if (/e/i.test(text)) {
    throw new InvalidAmountError(
      amount < 1 ? 'must have at most 2 decimals' : 'must not exceed 999,999,999,999.99',
    );
  }
  return decimalTextToCents(text, false);
}

/** A decimal string such as `1234.5` or `-12.34` to cents; throws InvalidAmountError. */
export function decimalToCents(text: string, options: { allowNegative?: boolean } = {}): Cents {
  return decimalTextToCents(text.trim(), options.allowNegative ?? false);
}

/** Cents to the JSON number the API answers with (exact: n/100 prints as the decimal). */
export function centsToAmount(cents: Cents): number {
  return cents / 100;
}

/** Adds cents, refusing to leave the range where integers are exact. */
export function addCents(a: Cents, b: Cents): Cents {
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) throw new RangeError('money sum exceeds the safe integer range');
  return sum;
}

/** `1234567` → `12,345.67`; `-5` → `-0.05`. */
export function formatCents(cents: Cents, options: { thousands?: boolean } = {}): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  let whole = String(Math.trunc(abs / 100));
  if (options.thousands ?? true) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
