import {
  addCents,
  negateCents,
  parseAmountText,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { eachRecord } from '../common/csvRecords.js';
import { reportAmounts } from '../common/reportRows.js';
import { count, datesSaid, readExport, zeroWhole, type LedgerFormatDefinition } from '../format.js';
import {
  dateOrderOrProblem,
  DecimalMark,
  dayMonthOrder,
  EntryGrouper,
  parseLedgerDate,
  slashedPair,
  ZeroEntries,
  type DateFormat,
  type LedgerEntry,
  type Problem,
} from '../ledgerCsv.js';
import {
  classOfTop,
  gnucashByPosition,
  gnucashHeader,
  isSplitTransaction,
  languageName,
  looksLikeGnuCash,
  type GnuCashHeader,
} from './header.js';
import { GNUCASH_COLUMNS, type GnuCashColumn } from './words.js';

/**
 * GnuCash's "Export Transactions to CSV", in every layout it has written (header.ts tells them
 * apart, in any of GnuCash's languages):
 *
 * - A split posts its value in the transaction's currency (`Value Num.`; where the layout has
 *   none, `Amount Num.`, times `Rate/Price` for a split in another commodity) to its full
 *   account name (`Assets:Current Assets:Checking`): positive is a debit. The top-level name
 *   gives the class (Assets, Aktiva, Actifs (avoirs), 資産 …). Splits of zero are left out.
 * - A split in another commodity than the transaction's currency (shares, another currency)
 *   is said, its quantity kept in its description (`10 AAPL`); where GnuCash printed its value
 *   rounded, the transaction's other splits decide it to the cent.
 * - Voided transactions (a Void Reason) are left out and counted: GnuCash prints their former
 *   amounts.
 * - Dates are in the exporter's date format or locale: MM/DD/YYYY or DD/MM/YYYY told apart over
 *   the whole file (a day over 12), ISO days, 31.12.2016, 2016年12月31日 and the rest of the
 *   locales'. Amounts are in the locale's style: its decimal mark told over the file (else by each
 *   amount), its thousands separators, its sign before, after or in brackets.
 * - More than one currency is refused, listing them, unless `--currency CODE` keeps one (the
 *   splits of the others are left out, and counted).
 */

export interface GnuCashFacts {
  transactions: number;
  layout: GnuCashHeader['layout'];
  language: string | undefined;
  /** Splits of other currencies than `--currency`, left out. */
  currencyLeftOut?: number;
  zeroSplits: number;
  /** Transactions made only of splits of zero, left out whole. */
  zeroEntries?: number;
  voided: number;
  /** Splits in another commodity than their transaction's currency. */
  otherCommodity: number;
  dateFormat: DateFormat;
  /** Amounts written with a decimal comma (told over the file, or --decimal-comma). */
  decimalComma: boolean | 'either';
}

/** A split as read, before its transaction is complete. */
interface SplitRead {
  fileLine: number;
  account: string;
  value: Cents;
  /** Set for a split in another commodity: its quantity as written, and whether its value was
   * worked out from a rounded price (the transaction decides it then). */
  quantity?: string;
  valueFromPrice?: boolean;
  memo: string;
}

interface TransactionRead {
  id: string;
  fileLine: number;
  date: string;
  dateText: string;
  description: string;
  notes: string;
  currency: string;
  voided: boolean;
  splits: SplitRead[];
}

/** The first rows of a file: its header's layout, its date order and its decimal mark. */
async function survey(
  file: string,
  encoding: string | undefined,
  usual: DateFormat | undefined,
): Promise<{
  header: GnuCashHeader | { problem: string };
  order: DateFormat | { problem: string };
  decimalComma: boolean | 'either' | 'both';
}> {
  const pairs: [number, number][] = [];
  let example: string | undefined;
  const mark = new DecimalMark();
  let cells: string[] | undefined;
  let header: GnuCashHeader | undefined;
  for await (const { record } of eachRecord(
    file,
    { encoding },
    () => {},
    () => {},
  )) {
    if (!cells) {
      cells = record;
      header = gnucashHeader(record);
      continue;
    }
    if (!header) {
      header = gnucashByPosition(cells, record);
      if (!header) break;
    }
    const cell = (column: GnuCashColumn) => {
      const at = header!.columns.get(column);
      return at === undefined ? '' : (record[at] ?? '').trim();
    };
    mark.add(cell('value') || cell('amount'));
    const date = cell('date');
    const pair = slashedPair(date);
    if (pair) {
      pairs.push(pair);
      example ??= date;
    }
  }
  return {
    header: header ?? {
      problem: `not a GnuCash transaction export: the header names neither Transaction ID, Full Account Name and Amount Num. nor Account Name, Full Category Path and Amount Num., in any language GnuCash writes (header: ${(cells ?? []).join(', ')})`,
    },
    order: dateOrderOrProblem(dayMonthOrder(pairs), example, usual),
    decimalComma:
      mark.found === 'both' ? 'both' : mark.found === undefined ? 'either' : mark.found === 'comma',
  };
}

/** The entries of a GnuCash transaction export, streamed; problems go to `report`. */
export async function* readGnuCash(
  file: string,
  options: {
    encoding?: string;
    dateFormat?: DateFormat;
    usualDateFormat?: DateFormat;
    currency?: string;
    decimalComma?: boolean;
  },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: GnuCashFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const told = await survey(file, options.encoding, options.usualDateFormat);
  if ('problem' in told.header) {
    report({ fileLine: 1, message: told.header.problem });
    return;
  }
  const header = told.header;
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
  const facts: GnuCashFacts = {
    transactions: 0,
    layout: header.layout,
    language: header.language,
    zeroSplits: 0,
    voided: 0,
    otherCommodity: 0,
    dateFormat: order,
    decimalComma,
  };
  const zeros = new ZeroEntries();
  const ready: LedgerEntry[] = [];
  const grouper = new EntryGrouper(true, (entry) => ready.push(entry), report);
  /** Transactions per currency, in the order first met. */
  const currencies = new Map<string, number>();
  let leftOut = 0;
  let hash = '';
  let current: TransactionRead | undefined;
  const amountOf = reportAmounts(report, decimalComma);

  /** A transaction complete: its splits to the grouper, what it is said. */
  const finish = (transaction: TransactionRead | undefined) => {
    if (!transaction || transaction.date === '') return;
    if (transaction.voided) {
      facts.voided += 1;
      return;
    }
    const code = transaction.currency;
    if (options.currency !== undefined && code !== '' && code !== options.currency) {
      leftOut += transaction.splits.length;
      return;
    }
    settleFromPrice(transaction.splits);
    for (const split of transaction.splits) {
      const zero = split.value === 0;
      zeros.line(transaction.id, zero);
      if (zero) {
        facts.zeroSplits += 1;
        continue;
      }
      if (split.quantity !== undefined) facts.otherCommodity += 1;
      const text = split.memo || transaction.description;
      grouper.add({
        fileLine: split.fileLine,
        date: transaction.date,
        account: split.account,
        accountCode: undefined,
        accountName: undefined,
        accountType: classOfTop(split.account),
        debitCents: split.value > 0 ? split.value : ZERO_CENTS,
        creditCents: split.value < 0 ? negateCents(split.value) : ZERO_CENTS,
        description: split.quantity === undefined ? text : `${text} (${split.quantity})`.trim(),
        memo: [transaction.description, transaction.notes].filter(Boolean).join(' — '),
        classes: [],
        entry: transaction.id,
      });
    }
  };

  const start = (
    id: string,
    fileLine: number,
    fields: { date: string; description: string; notes: string; currency: string },
    voided: boolean,
  ): TransactionRead => {
    facts.transactions += 1;
    const transaction: TransactionRead = {
      id,
      fileLine,
      dateText: fields.date,
      date: parseLedgerDate(fields.date, order) ?? '',
      description: fields.description,
      notes: fields.notes,
      currency: fields.currency.replace(/^(CURRENCY|ISO4217)::/, ''),
      voided,
      splits: [],
    };
    if (transaction.date === '')
      report({ fileLine, message: `date "${fields.date}" is not a date (${order})` });
    const code = transaction.currency;
    if (code !== '' && !voided) currencies.set(code, (currencies.get(code) ?? 0) + 1);
    return transaction;
  };

  let first = true;
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
    // The header (a file told by column order has none to skip: its first row is its header).
    if (first) {
      first = false;
      continue;
    }
    if (record.every((f) => f.trim() === '')) continue;
    const cell = (column: GnuCashColumn) => {
      const at = header.columns.get(column);
      return at === undefined ? '' : (record[at] ?? '').trim();
    };
    const fields = () => ({
      date: cell('date'),
      description: cell('description'),
      notes: cell('notes'),
      currency: cell('commodity') || cell('commodityMnemonic'),
    });

    if (header.layout === 'simple') {
      // A row per transaction: the exported account's split and the other account.
      finish(current);
      current = start(`line ${fileLine}`, fileLine, fields(), false);
      const account = cell('accountName');
      const other = cell('fullCategoryPath');
      if (isSplitTransaction(other)) {
        report({
          fileLine,
          message: `the transaction has more than two splits ("${other}"): the simple layout does not name their accounts; export again with "Use Simple Layout" off`,
        });
        current.date = '';
        continue;
      }
      if (account === '' || other === '') {
        report({
          fileLine,
          message: `the ${account === '' ? GNUCASH_COLUMNS.accountName : GNUCASH_COLUMNS.fullCategoryPath} is empty`,
        });
        current.date = '';
        continue;
      }
      const value = amountOf(cell('value') || cell('amount'), fileLine, 'the amount');
      if (value === undefined) {
        current.date = '';
        continue;
      }
      const cents = value;
      current.splits.push(
        { fileLine, account, value: cents, memo: '' },
        { fileLine, account: other, value: negateCents(cents), memo: '' },
      );
      continue;
    }

    if (header.layout === 'register') {
      // GnuCash 2.6: a T row opens the transaction, an S row per split follows.
      const type = cell('rowType').toUpperCase();
      if (type === 'T') {
        finish(current);
        current = start(`line ${fileLine}`, fileLine, fields(), false);
        continue;
      }
      if (!current) {
        report({ fileLine, message: 'a split before any transaction (no T row above it)' });
        continue;
      }
      // An S row's Notes hold the transaction's void reason.
      if (cell('notes') !== '') current.voided = true;
      const account = cell('fullCategoryPath');
      if (account === '') {
        report({ fileLine, message: `the ${GNUCASH_COLUMNS.fullCategoryPath} is empty` });
        continue;
      }
      const amount = amountOf(cell('amount'), fileLine, 'the amount');
      if (amount === undefined) continue;
      const namespace = cell('commodityNamespace');
      const commodity = cell('commodityMnemonic');
      const foreign =
        (namespace !== '' && !/^(CURRENCY|ISO4217)$/.test(namespace)) ||
        (commodity !== '' && current.currency !== '' && commodity !== current.currency);
      current.splits.push(
        splitOf(fileLine, account, amount, cell('memo'), {
          foreign,
          price: cell('ratePrice'),
          quantity: `${cell('amount')} ${commodity}`.trim(),
          decimalComma,
        }),
      );
      continue;
    }

    // The transactions layout: every row a split; 3.x leaves the transaction's fields empty on
    // all but its first.
    const id = cell('transactionId');
    if (id !== '' && id !== current?.id) {
      finish(current);
      current = start(id, fileLine, fields(), cell('voidReason') !== '');
    } else if (!current) {
      report({
        fileLine,
        message: 'a split before any transaction (its Transaction ID is empty)',
      });
      continue;
    }
    const account = cell('fullAccountName');
    if (account === '') {
      report({ fileLine, message: 'the Full Account Name is empty' });
      continue;
    }
    if (header.columns.has('value')) {
      const value = amountOf(cell('value'), fileLine, 'the amount');
      if (value === undefined) continue;
      const amount = cell('amount');
      let quantity: Cents | null | undefined;
      try {
        quantity = parseAmountText(amount, { decimalComma });
      } catch {
        quantity = undefined;
      }
      const foreign = quantity !== undefined && quantity !== value;
      current.splits.push({
        fileLine,
        account,
        value,
        memo: cell('memo'),
        ...(foreign && { quantity: cell('amountWithSymbol') || amount }),
      });
    } else {
      const amount = amountOf(cell('amount'), fileLine, 'the amount');
      if (amount === undefined) continue;
      const price = cell('ratePrice');
      current.splits.push(
        splitOf(fileLine, account, amount, cell('memo'), {
          foreign: price !== '' && !isOne(price),
          price,
          quantity: cell('amountWithSymbol') || cell('amount'),
          decimalComma,
        }),
      );
    }
  }
  finish(current);
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

/** `1`, `1.00`, `1,0000`: a price of one (a split in the transaction's currency). */
const isOne = (price: string) => /^\+?0*1(?:[.,]0*)?$/.test(price.trim());

/**
 * A split of a layout without values: in the transaction's currency its amount is its value;
 * in another commodity its value is its amount times its price, rounded to the cent (the
 * transaction's other splits settle it: settleFromPrice).
 */
function splitOf(
  fileLine: number,
  account: string,
  amount: Cents,
  memo: string,
  commodity: {
    foreign: boolean;
    price: string;
    quantity: string;
    decimalComma: boolean | 'either';
  },
): SplitRead {
  if (!commodity.foreign) return { fileLine, account, value: amount, memo };
  const price = Number(
    commodity.decimalComma === true
      ? commodity.price.replace(/[.\s\u00a0\u202f]/g, '').replace(',', '.')
      : commodity.price.replace(/[,\s\u00a0\u202f]/g, ''),
  );
  const value = Number.isFinite(price) ? (Math.round(amount * price) as Cents) : amount;
  return {
    fileLine,
    account,
    value,
    memo,
    quantity: commodity.quantity,
    valueFromPrice: true,
  };
}

/**
 * A transaction of one split valued from a rounded price: its value is what balances the
 * others (GnuCash keeps every transaction balanced in its currency).
 */
function settleFromPrice(splits: SplitRead[]): void {
  const priced = splits.filter((s) => s.valueFromPrice);
  if (priced.length !== 1) return;
  let others = ZERO_CENTS;
  for (const split of splits) if (!split.valueFromPrice) others = addCents(others, split.value);
  const balancing = negateCents(others);
  const off = subtractCents(balancing, priced[0]!.value);
  // Only a rounding of the price: a cent or so per unit of the amount's size, never more.
  if (Math.abs(off) <= Math.max(100, Math.abs(priced[0]!.value) / 1000))
    priced[0]!.value = balancing;
}

const LAYOUTS_SAID: Record<GnuCashHeader['layout'], string> = {
  transactions: 'a row per split',
  simple: 'the simple layout, a row per transaction',
  register: "GnuCash 2.6's layout, a T row and its S rows",
};

/** GnuCash's "Export Transactions to CSV". */
export const gnucash: LedgerFormatDefinition = {
  name: 'gnucash',
  title: 'GnuCash transactions CSV',
  detect: (head) => looksLikeGnuCash(head),
  toldBy:
    'read as GnuCash "Export Transactions to CSV": its header names GnuCash\'s columns, in one of its languages',
  read: (file, _head, options, result) =>
    readExport<GnuCashFacts>(
      result,
      (...hooks) =>
        readGnuCash(
          file,
          {
            encoding: options.encoding,
            ...(options.dateFormat !== undefined && { dateFormat: options.dateFormat }),
            ...(options.usualDateFormat !== undefined && {
              usualDateFormat: options.usualDateFormat,
            }),
            ...(options.currency !== undefined && { currency: options.currency }),
            ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
          },
          ...hooks,
        ),
      (facts) => [
        facts.language === undefined
          ? `GnuCash: the header is in a language books does not know: its columns read by GnuCash's order (${LAYOUTS_SAID[facts.layout]})`
          : facts.language !== 'en' &&
            `GnuCash: the header is in ${languageName(facts.language)} (${LAYOUTS_SAID[facts.layout]})`,
        facts.language === 'en' &&
          facts.layout !== 'transactions' &&
          `GnuCash: ${LAYOUTS_SAID[facts.layout]}`,
        Boolean(facts.currencyLeftOut) &&
          `GnuCash: ${count(facts.currencyLeftOut ?? 0, 'split', 'splits')} in other currencies than ${options.currency} left out (--currency)`,
        `GnuCash: ${count(facts.transactions, 'transaction', 'transactions')}, dates ${datesSaid(facts.dateFormat)}, decimals with a ${facts.decimalComma === 'either' ? 'point or a comma, as each amount reads' : facts.decimalComma ? 'comma' : 'point'}; accounts by full name, typed by their top-level name`,
        facts.voided > 0 &&
          `GnuCash: ${count(facts.voided, 'voided transaction', 'voided transactions')} left out (GnuCash prints their former amounts)`,
        facts.otherCommodity > 0 &&
          `GnuCash: ${count(facts.otherCommodity, 'split', 'splits')} in another commodity than its transaction's currency, posted at its value, its quantity in its description`,
        facts.zeroSplits > 0 &&
          `GnuCash: ${count(facts.zeroSplits, 'split', 'splits')} of zero left out${zeroWhole(facts.zeroEntries, 'transaction', 'transactions')}`,
      ],
    ),
};
