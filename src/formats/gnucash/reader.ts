import { InvalidAmountError, negateCents, parseAmountText, ZERO_CENTS } from '../../core/money.js';
import { eachRecord, namedColumns, type NamedColumns } from '../common/csvRecords.js';
import {
  dayMonthOrder,
  EntryGrouper,
  parseLedgerDate,
  type DateFormat,
  type LedgerEntry,
  type Problem,
  ZeroEntries,
  slashedPair,
  dateOrderOrProblem,
  DecimalMark,
} from '../ledgerCsv.js';
import { count, datesSaid, readExport, zeroWhole, type LedgerFormatDefinition } from '../format.js';

/**
 * GnuCash's "Export Transactions to CSV", simple and full layouts: a row per split under the
 * header `Date, Transaction ID, Number, Description, Notes, Commodity/Currency, Void Reason,
 * Action, Memo, Full Account Name, Account Name, Amount With Sym, Amount Num., …`.
 *
 * - The transaction's fields (date, id, number, description, notes, currency) are on its first
 *   split only, in the simple layout: they are filled down to the splits after it.
 * - A split posts `Amount Num.` (`Value Num.` in the full layout, the amount in the
 *   transaction's currency) to its full account name (`Assets:Current Assets:Checking`):
 *   positive is a debit. The top-level name gives the class (Assets, Liabilities, Equity,
 *   Income, Expenses), which stands for its most general type. Splits of zero are left out.
 * - Dates are in the exporter's locale: MM/DD/YYYY or DD/MM/YYYY, told apart over the whole
 *   file (a day over 12), or ISO days. A file whose dates read both ways needs `--date-format`.
 * - More than one currency is refused, listing them, unless `--currency CODE` keeps one (the
 *   splits of the others are left out, and counted).
 */

/** GnuCash's column names without case, spaces or punctuation: `Amount Num.` → `amountnum`. */
const normalizeHeader = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The class of a GnuCash top-level account name, or undefined (Trading, Orphan…). */
export const CLASS_OF_TOP: Record<string, string> = {
  assets: 'asset',
  asset: 'asset',
  liabilities: 'liability',
  liability: 'liability',
  equity: 'equity',
  income: 'income',
  revenue: 'income',
  expenses: 'expense',
  expense: 'expense',
};

/** True when a CSV header is GnuCash's transaction export. */
export function looksLikeGnuCash(headerLine: string): boolean {
  const header = headerLine.split(/[,;\t]/).map(normalizeHeader);
  return header.includes('transactionid') && header.includes('fullaccountname');
}

export interface GnuCashFacts {
  transactions: number;
  /** Splits of other currencies than `--currency`, left out. */
  currencyLeftOut?: number;
  zeroSplits: number;
  /** Transactions made only of splits of zero, left out whole. */
  zeroEntries?: number;
  dateFormat: DateFormat;
  /** Amounts written with a decimal comma (told over the file, or --decimal-comma). */
  decimalComma?: boolean;
}

/** The date order of a file's dates: the one a day over 12 shows, else undefined (both read). */
async function dateOrderOf(
  file: string,
  encoding: string | undefined,
): Promise<{ order: DateFormat | { problem: string }; decimalComma: boolean | 'both' }> {
  const pairs: [number, number][] = [];
  let example: string | undefined;
  const mark = new DecimalMark();
  let columns: NamedColumns | undefined;
  for await (const { record } of eachRecord(
    file,
    { encoding },
    () => {},
    () => {},
  )) {
    if (!columns) {
      columns = namedColumns(record, normalizeHeader);
      continue;
    }
    mark.add(
      columns.has('valuenum')
        ? columns.cell(record, 'valuenum')
        : columns.cell(record, 'amountnum'),
    );
    const pair = slashedPair(columns.cell(record, 'date'));
    if (pair) {
      pairs.push(pair);
      example ??= columns.cell(record, 'date');
    }
  }
  return {
    order: dateOrderOrProblem(dayMonthOrder(pairs), example),
    decimalComma: mark.found === 'both' ? 'both' : mark.found === 'comma',
  };
}

/** The entries of a GnuCash transaction export, streamed; problems go to `report`. */
export async function* readGnuCash(
  file: string,
  options: {
    encoding?: string;
    dateFormat?: DateFormat;
    currency?: string;
    decimalComma?: boolean;
  },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: GnuCashFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const told = await dateOrderOf(file, options.encoding);
  const order = options.dateFormat ?? told.order;
  if (typeof order !== 'string') {
    report({ fileLine: 1, message: order.problem });
    return;
  }
  const decimalComma = options.decimalComma ?? told.decimalComma;
  if (decimalComma === 'both') {
    report({
      fileLine: 1,
      message:
        'the amounts write decimals both with a comma (12,34) and with a point (12.34): pass --decimal-comma, or fix the file',
    });
    return;
  }
  const facts: GnuCashFacts = { transactions: 0, zeroSplits: 0, dateFormat: order, decimalComma };
  const zeros = new ZeroEntries();
  const ready: LedgerEntry[] = [];
  const grouper = new EntryGrouper(true, (entry) => ready.push(entry), report);
  let columns: NamedColumns | undefined;
  let current = { id: '', date: '', dateText: '', description: '', notes: '', currency: '' };
  /** Transactions per currency, in the order first met. */
  const currencies = new Map<string, number>();
  let leftOut = 0;
  let hash = '';
  for await (const { record, fileLine } of eachRecord(
    file,
    { encoding: options.encoding },
    onLine,
    (digest) => (hash = digest),
  )) {
    // What the records before this one completed goes out first.
    if (ready.length > 0) {
      yield* ready;
      ready.length = 0;
    }
    if (!columns) {
      columns = namedColumns(record, normalizeHeader);
      if (
        !columns.has('fullaccountname') ||
        (!columns.has('valuenum') && !columns.has('amountnum'))
      ) {
        report({
          fileLine,
          message: `not a GnuCash transaction export: the header lacks Full Account Name or Amount Num. (header: ${record.join(', ')})`,
        });
        return;
      }
      continue;
    }
    const field = (name: string) => columns!.cell(record, name);
    if (record.every((f) => f.trim() === '')) continue;
    const id = field('transactionid');
    if (id !== '' && id !== current.id) {
      facts.transactions += 1;
      current = {
        id,
        dateText: field('date'),
        date: parseLedgerDate(field('date'), order) ?? '',
        description: field('description'),
        notes: field('notes'),
        currency: field('commoditycurrency').replace(/^CURRENCY::/, ''),
      };
      if (current.date === '')
        report({ fileLine, message: `date "${current.dateText}" is not a date (${order})` });
      const code = current.currency;
      if (code !== '') currencies.set(code, (currencies.get(code) ?? 0) + 1);
    } else if (current.id === '') {
      report({
        fileLine,
        message: 'a split before any transaction (its Transaction ID is empty)',
      });
      continue;
    }
    if (current.date === '') continue;
    const code = current.currency;
    if (options.currency !== undefined && code !== '' && code !== options.currency) {
      leftOut += 1;
      continue;
    }
    const account = field('fullaccountname');
    if (account === '') {
      report({ fileLine, message: 'the Full Account Name is empty' });
      continue;
    }
    const amountText = columns.has('valuenum') ? field('valuenum') : field('amountnum');
    let cents;
    try {
      cents = parseAmountText(amountText, { decimalComma });
    } catch (error) {
      if (!(error instanceof InvalidAmountError)) throw error;
      report({ fileLine, message: `the amount ${error.message}` });
      continue;
    }
    zeros.line(current.id, cents === null || cents === 0);
    if (cents === null || cents === 0) {
      facts.zeroSplits += 1;
      continue;
    }
    const memo = field('memo');
    grouper.add({
      fileLine,
      date: current.date,
      account,
      accountCode: undefined,
      accountName: undefined,
      accountType: CLASS_OF_TOP[account.split(':')[0]!.trim().toLowerCase()],
      debitCents: cents > 0 ? cents : ZERO_CENTS,
      creditCents: cents < 0 ? negateCents(cents) : ZERO_CENTS,
      description: memo || current.description,
      memo: [current.description, current.notes].filter(Boolean).join(' — '),
      classes: [],
      entry: current.id,
    });
  }
  grouper.finish();
  if (options.currency === undefined && currencies.size > 1) {
    const listed = [...currencies]
      .map(([code, n]) => `${code} (${n} transaction${n === 1 ? '' : 's'})`)
      .join(', ');
    report({
      fileLine: 1,
      message: `the file holds ${currencies.size} currencies: ${listed}; an entity keeps its books in one: keep one with --currency CODE`,
    });
    return;
  }
  if (options.currency !== undefined && !currencies.has(options.currency)) {
    report({
      fileLine: 1,
      message: `--currency ${options.currency}: the file holds ${[...currencies.keys()].join(', ') || 'no currency column'}`,
    });
    return;
  }
  yield* ready;
  zeros.finish();
  onEnd(hash, { ...facts, currencyLeftOut: leftOut, zeroEntries: zeros.count });
}

/** GnuCash's "Export Transactions to CSV". */
export const gnucash: LedgerFormatDefinition = {
  name: 'gnucash',
  title: 'GnuCash transactions CSV',
  detect: (_head, firstLine) => looksLikeGnuCash(firstLine),
  toldBy:
    'read as GnuCash "Export Transactions to CSV": its header has Transaction ID and Full Account Name',
  read: (file, _head, options, result) =>
    readExport<GnuCashFacts>(
      result,
      (...hooks) =>
        readGnuCash(
          file,
          {
            encoding: options.encoding,
            ...(options.dateFormat !== undefined && { dateFormat: options.dateFormat }),
            ...(options.currency !== undefined && { currency: options.currency }),
            ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
          },
          ...hooks,
        ),
      (facts) => [
        Boolean(facts.currencyLeftOut) &&
          `GnuCash: ${count(facts.currencyLeftOut ?? 0, 'split', 'splits')} in other currencies than ${options.currency} left out (--currency)`,
        `GnuCash: ${count(facts.transactions, 'transaction', 'transactions')}, dates ${datesSaid(facts.dateFormat)}, decimals with a ${facts.decimalComma ? 'comma' : 'point'}; accounts by full name, typed by their top-level name`,
        facts.zeroSplits > 0 &&
          `GnuCash: ${count(facts.zeroSplits, 'split', 'splits')} of zero left out${zeroWhole(facts.zeroEntries, 'transaction', 'transactions')}`,
      ],
    ),
};
