import {
  InvalidAmountError,
  negateCents,
  parseAmountText,
  ZERO_CENTS,
  type AmountTextOptions,
  type Cents,
} from '../../core/money.js';
import {
  accountKey,
  dateOrderOrProblem,
  dayMonthOrder,
  parseLedgerDate,
  slashedPair,
  type DateFormat,
  type LedgerLine,
  type Problem,
} from '../ledgerCsv.js';

/*
 * What the readers of ledger *reports* (nominal ledgers, QuickBooks and Xero reports) share: a
 * report's rows are one side each of a transaction, under an account's section.
 */

/** What a report's reader is told by the import's flags. */
export interface ReportReadOptions {
  encoding?: string;
  dateFormat?: DateFormat;
  /** `books config set date-format`: the order where neither the dates nor a flag tell it. */
  usualDateFormat?: DateFormat;
  /** `--offset-account`: the other side of every row of a single-sided report. */
  offsetAccount?: string;
  decimalComma?: boolean;
}

/** A report reader's options, from the import's. */
export const reportOptions = (options: ReportReadOptions): ReportReadOptions => ({
  encoding: options.encoding,
  ...(options.dateFormat !== undefined && { dateFormat: options.dateFormat }),
  ...(options.usualDateFormat !== undefined && { usualDateFormat: options.usualDateFormat }),
  ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
  ...(options.offsetAccount !== undefined && { offsetAccount: options.offsetAccount }),
});

/**
 * The order of day and month of a report's `a/b/year` dates: `given` (`--date-format`), else
 * told over them all (their rows are held until the report is read), else `fallback` when it
 * writes none so. Dates that cannot tell are reported, and there is none.
 */
export function reportDateOrder(
  given: DateFormat | undefined,
  dates: Iterable<string>,
  fallback: DateFormat,
  report: (problem: Problem) => void,
  /** `books config set date-format`: the order where the dates do not tell it. */
  usual?: DateFormat,
): DateFormat | undefined {
  if (given) return given;
  const pairs: [number, number][] = [];
  let example: string | undefined;
  for (const date of dates) {
    const pair = slashedPair(date);
    if (!pair) continue;
    pairs.push(pair);
    example ??= date;
  }
  if (pairs.length === 0) return fallback;
  const found = dateOrderOrProblem(dayMonthOrder(pairs), example, usual);
  if (typeof found === 'object') {
    report({ fileLine: 1, message: found.problem });
    return undefined;
  }
  return found;
}

/** A report's date (any shape `parseLedgerDate` reads), `a/b/year` in the order found. */
export const reportDate = (text: string, order: DateFormat) => parseLedgerDate(text.trim(), order);

/** A report's amount cell to cents (empty: zero); a bad one is reported, and undefined. */
export function reportAmounts(
  report: (problem: Problem) => void,
  decimalComma: AmountTextOptions['decimalComma'],
): (text: string | undefined, fileLine: number, what: string) => Cents | undefined {
  return (text, fileLine, what) => {
    try {
      return parseAmountText(text ?? '', { decimalComma: decimalComma ?? false }) ?? ZERO_CENTS;
    } catch (error) {
      if (!(error instanceof InvalidAmountError)) throw error;
      report({ fileLine, message: `${what} ${error.message}` });
      return undefined;
    }
  };
}

/**
 * The names several codes share (an ERP allows it; a chart of accounts does not), in lower
 * case: such accounts are named apart as "Name (code)".
 */
export function namesOfSeveralCodes(
  accounts: Iterable<{ code: string | undefined; name: string }>,
): Set<string> {
  const codesOfName = new Map<string, Set<string>>();
  for (const { code, name } of accounts) {
    const key = name.toLowerCase();
    codesOfName.set(key, (codesOfName.get(key) ?? new Set()).add(code ?? ''));
  }
  return new Set([...codesOfName].filter(([, codes]) => codes.size > 1).map(([name]) => name));
}

/**
 * The headings of a report's tax column, as QuickBooks (`Sales Tax Code`, `Tax Code`, `VAT Code`,
 * `Tax Name`) and Xero (`Tax Rate`, `Tax Rate Name`) let a user add it, normalized: its text is
 * the line's tax code, which `--tax-codes` maps to the entity's where a preset does not know it.
 */
export const TAX_CODE_HEADINGS = [
  'salestaxcode',
  'taxcode',
  'vatcode',
  'taxname',
  'taxratename',
  'taxrate',
  'vatrate',
] as const;

/** One side of a report's row as a line of an entry. */
export function sideLine(side: {
  fileLine: number;
  date: string;
  code: string | undefined;
  name: string;
  cents: Cents;
  memo: string;
  entry: string;
  taxCode?: string;
}): LedgerLine {
  return {
    ...(side.taxCode ? { taxCode: side.taxCode } : {}),
    fileLine: side.fileLine,
    date: side.date,
    account: accountKey(side.code, side.name),
    accountCode: side.code,
    accountName: side.name,
    accountType: undefined,
    debitCents: side.cents > 0 ? side.cents : ZERO_CENTS,
    creditCents: side.cents < 0 ? negateCents(side.cents) : ZERO_CENTS,
    description: side.memo,
    memo: side.memo,
    classes: [],
    entry: side.entry,
  };
}

/** The other side of `line` against `--offset-account`. */
export function offsetSide(line: LedgerLine, offsetAccount: string): LedgerLine {
  return {
    ...line,
    account: offsetAccount,
    accountCode: undefined,
    accountName: undefined,
    debitCents: line.creditCents,
    creditCents: line.debitCents,
  };
}
