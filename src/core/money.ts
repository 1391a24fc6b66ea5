/**
 * Money is an integer count of cents. Amounts cross the wire as JSON numbers with at most two
 * decimals; they are converted to cents through their shortest decimal text (what `String(n)`
 * prints, which is exactly what the sender wrote for any amount with ≤ 2 decimals), never
 * through float arithmetic.
 */
export type Cents = number & { readonly __unit: 'cents' };

/**
 * A count of cents from where money is already in cents (a database column, a sum of cents):
 * the type says so, and only this module makes one. Refuses what is not a safe integer.
 */
export function asCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not a whole number of cents`);
  return (value + 0) as Cents;
}

export const ZERO_CENTS = 0 as Cents;

/** 999,999,999,999.99 — the largest amount the platform accepts. */
export const MAX_AMOUNT_CENTS = 99_999_999_999_999 as Cents;

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
  return asCents(minus && cents !== 0 ? -cents : cents);
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
  if (cents <= MAX_AMOUNT_CENTS && cents / 100 === amount) return cents as Cents;
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

/**
 * An amount a platform answered (signed, e.g. a report's balance) to the nearest cent: for
 * showing and adding what was received, never for checking what a user sent.
 */
export function answeredAmountToCents(amount: number): Cents {
  return asCents(Math.round(amount * 100));
}

/** A decimal string such as `1234.5` or `-12.34` to cents; throws InvalidAmountError. */
export function decimalToCents(text: string, options: { allowNegative?: boolean } = {}): Cents {
  return decimalTextToCents(text.trim(), options.allowNegative ?? false);
}

export interface AmountTextOptions {
  /**
   * Commas mark decimals and points group thousands (`1.234,56`, `12,34`); false: the other
   * way round (the default); `either`: each amount read by the only reading that stands (a
   * file that has not said which: `12,34` and `1.234,56` have a decimal comma, `1,234` and
   * `1.234.567` group thousands), ambiguous only when both stand.
   */
  decimalComma?: boolean | 'either';
}

/** Spaces that group thousands: space, no-break space, narrow no-break space, thin space. */
const GROUP_SPACES = /[ \u00A0\u202F\u2009]/g;
/**
 * Apostrophes that group thousands (de-CH writes `1’000.00`, older software `1'000.00`), and
 * U+FFFD, which a past re-encoding left where one was: between groups of three digits it can
 * only have been a separator.
 */
const GROUP_APOSTROPHES = ["'", '\u2019', '\uFFFD'];
/**
 * A currency as amounts are written with it: a currency sign (`$`, `€`, `₹`, `￥`), with the
 * letters some put before it (`US$`, `R$`, `NT$`, `GH₵`); an ISO 4217 code (`EUR`); or one of
 * the symbols made of letters the C library's locales write (`kr`, `Kč`, `zł`, `лв.`, `грн.`:
 * glibc's `currency_symbol`s of two characters or more). Single letters (`R`, `K`) are left
 * out: they would make words amounts.
 */
const LETTER_SYMBOLS = [
  'Afl.',
  'Ar',
  'Br',
  'Bs.',
  'Bs',
  'CFA',
  'DA',
  'FC',
  'FRw',
  'Fdj',
  'Ft',
  'Gs.',
  'KM',
  'Ks',
  'Ksh',
  'Kč',
  'Lei',
  'MANAT',
  'Nfk',
  'Nu.',
  'RM',
  'Rp',
  'Rs',
  'Rub',
  'SR',
  'TSh',
  'USh',
  'VT',
  'den',
  'dh',
  'din',
  'kr.',
  'kr',
  'soʻm',
  'zł',
  'ƒ',
  'грн.',
  'грн',
  'ден',
  'дин',
  'лв.',
  'лв',
  'руб.',
  'руб',
  'сом',
  'сўм',
  'ج.م.',
  'د.إ.',
  'ر.س',
  'ریال',
  'रू',
  'රු',
];
const CURRENCY = `(?:[A-Z]{0,3}\\p{Sc}|[A-Z]{3}|${LETTER_SYMBOLS.map((s) => s.replace(/[.]/g, '\\.')).join('|')})`;
/** A currency before the number (a space, a digit, a sign or a bracket after it). */
const LEADING_CURRENCY = new RegExp(`^${CURRENCY}(?=[\\s\\d(+\\-\u2212.,]|$)`, 'u');
/** A currency after the number. */
const TRAILING_CURRENCY = new RegExp(`(?<=^|[\\s\\d).,\\-\u2212])${CURRENCY}$`, 'u');
/** A balance's side written after it: `12.00 Dr`, `12.00 CR` (a credit is negative). */
const SIDE_SUFFIX = /\s*\b(dr|cr)\.?$/i;
const PLAIN_AMOUNT = /^-?\d{1,12}(?:\.\d{1,2})?$/;
/** Minus signs: the hyphen most write, and the minus sign (U+2212) some locales do. */
const MINUS = /^[-\u2212]/;
/** The decimal separator Arabic script writes (U+066B) and its thousands separator (U+066C). */
const ARABIC_DECIMAL = '\u066B';
const ARABIC_GROUP = '\u066C';

/**
 * An amount as a person or an export writes it, to signed cents: `1,234.56`, `0001.50`,
 * `-0.00`, `(12.00)`, `$12`, `-$5`, `12.00-`, `+3`, `.50`, `USD 12.00`, `12.00 EUR`,
 * `1.000,00 €`, `10,00 US$`, `kr 1 000,00`, `€ -1.000,00`, `1.000,00- €`, `(1.000,00 €)`,
 * `−12.00` (U+2212), `12.00 Dr`, `12.00 Cr` (a credit, negative); thousands grouped by `,`,
 * spaces (also no-break ones, narrow and thin ones), `'` or `’` in groups of three (or U+FFFD
 * where a re-encoding lost the `’`), or in India's groups (`1,00,000.00`). With `decimalComma`,
 * `1.234,56` and `12,34`; with `either`, whichever reading stands. Never a guess: a separator
 * that could be read both ways, groups that are not of three, more than 2 decimals, or anything
 * else is an InvalidAmountError saying why. Empty text is null.
 */
export function parseAmountText(text: string, options: AmountTextOptions = {}): Cents | null {
  const mark = options.decimalComma ?? false;
  // Most amounts in a ledger are plain (`-1234.56`): read those without the general path.
  if (mark !== true && PLAIN_AMOUNT.test(text)) return decimalTextToCents(text, true);
  if (mark === 'either') return eitherReading(text);
  try {
    return amountTextToCents(text, mark);
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    // Read the other way it would be an amount: say which flag reads it so, never guess.
    let other: Cents | null | undefined;
    try {
      other = amountTextToCents(text, !mark);
    } catch {
      throw error;
    }
    const reading = formatCents(other ?? ZERO_CENTS);
    throw new InvalidAmountError(
      `${error.message} (${mark ? 'without' : 'with'} --decimal-comma it reads ${reading})`,
    );
  }
}

/** An amount read both ways: the reading that stands, or why none or both do. */
function eitherReading(text: string): Cents | null {
  let point: Cents | null | InvalidAmountError;
  let comma: Cents | null | InvalidAmountError;
  try {
    point = amountTextToCents(text, false);
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    point = error;
  }
  try {
    comma = amountTextToCents(text, true);
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    comma = error;
  }
  if (point instanceof InvalidAmountError) {
    if (comma instanceof InvalidAmountError) throw point;
    return comma;
  }
  if (comma instanceof InvalidAmountError || comma === point) return point;
  throw new InvalidAmountError(
    `"${text.trim()}" is ambiguous: it reads ${formatCents(point ?? ZERO_CENTS)} with a decimal point and ${formatCents(comma ?? ZERO_CENTS)} with a decimal comma`,
  );
}

/** The number of an amount's text, its currency, side and signs taken off and counted. */
function numberOf(shown: string): { number: string; negatives: number } {
  let rest = shown;
  let negatives = 0;
  const side = SIDE_SUFFIX.exec(rest);
  if (side) {
    if (side[1]!.toLowerCase() === 'cr') negatives += 1;
    rest = rest.slice(0, side.index);
  }
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.trim();
    if (rest.startsWith('(') && rest.endsWith(')')) {
      negatives += 1;
      rest = rest.slice(1, -1);
      continue;
    }
    if (MINUS.test(rest) || rest.startsWith('+')) {
      if (!rest.startsWith('+')) negatives += 1;
      rest = rest.slice(1);
      continue;
    }
    if (/[-\u2212]$/.test(rest)) {
      negatives += 1;
      rest = rest.slice(0, -1);
      continue;
    }
    rest = rest.replace(LEADING_CURRENCY, '').replace(TRAILING_CURRENCY, '');
  }
  return { number: rest, negatives };
}

function amountTextToCents(text: string, decimalComma: boolean): Cents | null {
  const shown = text.trim();
  if (shown === '') return null;
  const { number, negatives } = numberOf(shown);
  if (negatives > 1) throw new InvalidAmountError(`"${shown}" has more than one minus sign`);
  const [point, group] = decimalComma ? [',', '.'] : ['.', ','];
  const body = number.replace(GROUP_SPACES, ' ').replaceAll(ARABIC_GROUP, ' ');
  const decimal = body.includes(ARABIC_DECIMAL) ? ARABIC_DECIMAL : point;
  const at = body.lastIndexOf(decimal);
  const whole = at < 0 ? body : body.slice(0, at);
  const fraction = at < 0 ? '' : body.slice(at + 1);
  if (!/^\d*$/.test(fraction) || (at >= 0 && fraction === '') || whole.includes(decimal)) {
    throw new InvalidAmountError(`"${shown}" is not an amount`);
  }
  if (fraction.length > 2) throw new InvalidAmountError(`"${shown}" has more than 2 decimals`);
  const digits = ungrouped(whole, group, shown).replace(/^0+(?=\d)/, '');
  if (digits === '' && fraction === '') throw new InvalidAmountError(`"${shown}" is not an amount`);
  let cents: Cents;
  try {
    cents = decimalToCents(`${digits || '0'}${fraction ? `.${fraction}` : ''}`);
  } catch (error) {
    throw new InvalidAmountError(`"${shown}" ${(error as Error).message}`);
  }
  return negatives === 1 ? negateCents(cents) : cents;
}

/** The digits of an amount's whole part, its groups of three checked and joined. */
function ungrouped(whole: string, group: string, shown: string): string {
  if (/^\d*$/.test(whole)) return whole;
  const separators = new Set(whole.replace(/\d/g, ''));
  const [separator] = separators;
  if (separators.size !== 1 || ![group, ' ', ...GROUP_APOSTROPHES].includes(separator!)) {
    throw new InvalidAmountError(`"${shown}" is not an amount`);
  }
  const groups = whole.split(separator!);
  if (groups.every((g, i) => (i === 0 ? /^\d{1,3}$/.test(g) : /^\d{3}$/.test(g)))) {
    return groups.join('');
  }
  // India's grouping: the last three digits, then groups of two (`1,00,00,000`).
  if (
    groups.length > 2 &&
    groups.every((g, i) =>
      i === 0
        ? /^\d{1,2}$/.test(g)
        : i === groups.length - 1
          ? /^\d{3}$/.test(g)
          : /^\d{2}$/.test(g),
    )
  ) {
    return groups.join('');
  }
  // `12,34`: one or two digits after the only separator are decimals in other locales.
  if (separator === group && groups.length === 2 && /^\d{1,2}$/.test(groups[1]!)) {
    throw new InvalidAmountError(
      `"${shown}" is ambiguous: "${group}" could separate thousands or decimals`,
    );
  }
  throw new InvalidAmountError(`"${shown}" is not an amount: group digits in threes`);
}

/**
 * A ratio of integers to cents, rounded half away from zero: GnuCash keeps amounts so
 * (`12345/100` is 123.45; `1/3` of a share's value is what it is).
 */
export function ratioToCents(numerator: bigint, denominator: bigint): Cents {
  if (denominator === 0n) return ZERO_CENTS;
  const negative = numerator < 0n !== denominator < 0n && numerator !== 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const scaled = n * 100n;
  const rounded = scaled / d + ((scaled % d) * 2n >= d ? 1n : 0n);
  return asCents(Number(negative ? -rounded : rounded));
}

/** Cents to the JSON number the API answers with (exact: n/100 prints as the decimal). */
export function centsToAmount(cents: Cents): number {
  return cents / 100;
}

/** Adds cents, refusing to leave the range where integers are exact. */
export function addCents(a: Cents, b: Cents): Cents {
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) throw new CentsOverflow();
  return sum as Cents;
}

/** A sum of cents past 2^53 (some 90 trillion), which no number holds exactly: refused. */
export class CentsOverflow extends RangeError {
  override name = 'CentsOverflow';
  constructor() {
    super('money sum exceeds the safe integer range');
  }
}

/** `a − b`, in the same range. */
export function subtractCents(a: Cents, b: Cents): Cents {
  return addCents(a, negateCents(b));
}

/** `−a` (never −0). */
export function negateCents(a: Cents): Cents {
  return (0 - a) as Cents;
}

/** An amount with the sign an account's class shows it in (`sign` is 1 or −1). */
export function signedCents(a: Cents, sign: 1 | -1): Cents {
  return sign === 1 ? a : negateCents(a);
}

/** Debits less credits on the side where they fall: `{ debit, credit }`, one of them zero. */
export function sidesOf(net: Cents): { debit: Cents; credit: Cents } {
  return net >= 0
    ? { debit: net, credit: ZERO_CENTS }
    : { debit: ZERO_CENTS, credit: negateCents(net) };
}

/** `|a|`. */
export function absCents(a: Cents): Cents {
  return (a < 0 ? 0 - a : a) as Cents;
}

/** The sum of any number of amounts. */
export function sumCents(amounts: Iterable<Cents>): Cents {
  let total = ZERO_CENTS;
  for (const amount of amounts) total = addCents(total, amount);
  return total;
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

/**
 * The change from `base` to `current` in percent of the base's size, to a tenth (12.5 for
 * 12.5 %): an increase is positive whatever the base's sign (−100 to −50 is +50 %). Null when
 * the base is zero: no percent is ever Infinity or NaN.
 */
export function changeInPercent(current: Cents, base: Cents): number | null {
  if (base === 0) return null;
  const change = current - base;
  const tenths = Math.round((Math.abs(change) * 1000) / Math.abs(base));
  return (change < 0 ? -tenths : tenths) / 10 || 0;
}

/** A rate in hundredths of a percent (17.5 % is 1750), so that tax is computed in integers. */
const hundredthsOf = (ratePercent: number) => Math.round(ratePercent * 100);

/**
 * The tax included in a gross amount at `ratePercent` (19 for 19 %, 17.5 for 17.5 %): gross ×
 * rate / (100 + rate), rounded half up to the cent (half away from zero for a negative gross),
 * in integers.
 */
export function taxIncluded(gross: Cents, ratePercent: number): Cents {
  const magnitude = Math.abs(gross);
  const rate = hundredthsOf(ratePercent);
  const denominator = 10_000 + rate;
  const tax = Math.floor((2 * magnitude * rate + denominator) / (2 * denominator));
  return asCents(gross < 0 ? -tax : tax);
}

/** The tax on a net amount at `ratePercent`, rounded half away from zero to the cent. */
export function taxOnNet(net: Cents, ratePercent: number): Cents {
  const scaled = Math.abs(net) * hundredthsOf(ratePercent);
  const tax = Math.floor((scaled + 5_000) / 10_000);
  return asCents(net < 0 ? -tax : tax);
}

/**
 * An amount in whole units as a tax form takes it: `down` drops the cents (towards zero),
 * `up` raises to the next whole unit (a tax reclaimed, rounded in the taxpayer's favour).
 */
export function wholeUnits(cents: Cents, direction: 'down' | 'up'): Cents {
  const units = direction === 'down' ? Math.trunc(cents / 100) : Math.ceil(cents / 100);
  return asCents(units * 100);
}
