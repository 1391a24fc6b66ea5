import { InvalidAmountError, negateCents, parseAmountText, ZERO_CENTS } from '../../core/money.js';
import { eachRecord, namedColumns, type NamedColumns } from '../common/csvRecords.js';
import { CLASS_OF_TOP } from '../gnucash/header.js';
import {
  EntryGrouper,
  parseLedgerDate,
  type LedgerEntry,
  type Problem,
  ZeroEntries,
} from '../ledgerCsv.js';
import {
  count,
  readExport,
  zeroWhole,
  type LedgerFormatDefinition,
  type ReadOptions,
  type ReadResult,
} from '../format.js';

/**
 * Plain-text accounting tools' postings as CSV, one posting a row, amounts signed (positive a
 * debit):
 * - `hledger`: `hledger print -O csv` (txnidx, date, date2, status, code, description, comment,
 *   account, amount, commodity, credit, debit, …) and `hledger register -O csv` (txnidx, date,
 *   code, description, account, amount with its commodity, total). A transaction is the rows of
 *   one txnidx.
 * - `ledger`: `ledger csv`, headerless: date, code, payee, account, commodity, amount, cleared
 *   state, note. Transactions have no id: consecutive rows of a date form one as soon as they
 *   balance.
 * - `beancount`: `bean-query -f csv` of postings with a header: date and account, the amount as
 *   `position` or `units` (`-100.00 USD`) or `number` with `currency`; payee and narration; a
 *   transaction by `id` when the query selects it, else grouped like ledger's.
 *
 * - Virtual postings, `(Account)` and `[Account]`, are not part of the double-entry books: they
 *   are left out and counted.
 * - Accounts keep their full names (`assets:bank:checking`) and are typed by their top-level
 *   name (assets, liabilities, equity, income or revenue(s), expenses).
 * - More than one commodity is refused, listing them, unless `--currency` keeps one.
 */

/** The class a full account name's top level stands for (`revenues` → income), or undefined. */
function classOfTop(account: string): string | undefined {
  const top = account.split(':')[0]!.trim().toLowerCase();
  return CLASS_OF_TOP[top] ?? CLASS_OF_TOP[top.replace(/s$/, '')];
}

export function looksLikeHledger(headerLine: string): boolean {
  const header = headerLine.toLowerCase().replace(/"/g, '');
  return /(^|,)txnidx(,|$)/.test(header) && /(^|,)account(,|$)/.test(header);
}

/** `ledger csv`'s first line: eight quoted fields, a date, …, a commodity, a number, a state. */
export function looksLikeLedgerCsv(firstLine: string): boolean {
  return /^"\d{4}[/-]\d{1,2}[/-]\d{1,2}","[^"]*","[^"]*","[^"]*","[^"]*","[^"]*","[*!]?","/.test(
    firstLine,
  );
}

/** A `bean-query -f csv` header: date, account, and a position, units, or number and currency. */
export function looksLikeBeancount(headerLine: string): boolean {
  const cells = headerLine.toLowerCase().replace(/["\s]/g, '').split(',');
  return (
    cells.includes('date') &&
    cells.includes('account') &&
    (cells.includes('position') ||
      cells.includes('units') ||
      (cells.includes('number') && cells.includes('currency')))
  );
}

export type PostingsFlavor = 'hledger' | 'ledger' | 'beancount';

/** The columns `ledger csv` writes, in order, without a header. */
const LEDGER_CSV_COLUMNS = [
  'date',
  'code',
  'payee',
  'account',
  'commodity',
  'amount',
  'cleared',
  'note',
];

export interface HledgerFacts {
  transactions: number;
  virtualPostings: number;
  zeroPostings: number;
  /** Transactions made only of postings of zero, left out whole. */
  zeroEntries?: number;
  /** Postings in other commodities than `--currency`, left out. */
  otherCommodity: number;
}

/** The commodity written beside an amount (`1200.00 EUR`, `$5`, `EUR -3`), and the number. */
function splitCommodity(text: string): { commodity: string; number: string } {
  const trimmed = text.trim();
  const match = /^([^\d\s().,+-]*)\s*([-+(]?[\d.,' ]*\d[\d.,]*\)?)\s*([^\d\s().,+-]*)$/.exec(
    trimmed,
  );
  if (!match) return { commodity: '', number: trimmed };
  return { commodity: (match[1] || match[3] || '').replace(/"/g, ''), number: match[2]!.trim() };
}

export async function* readHledger(
  file: string,
  options: {
    encoding?: string;
    currency?: string;
    flavor?: PostingsFlavor;
    decimalComma?: boolean;
  },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: HledgerFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const facts: HledgerFacts = {
    transactions: 0,
    virtualPostings: 0,
    zeroPostings: 0,
    otherCommodity: 0,
  };
  const commodities = new Map<string, number>();
  const zeros = new ZeroEntries();
  const ready: LedgerEntry[] = [];
  const flavor = options.flavor ?? 'hledger';
  let grouper: EntryGrouper | undefined;
  let columns: NamedColumns | undefined =
    flavor === 'ledger' ? namedColumns(LEDGER_CSV_COLUMNS, (h) => h) : undefined;
  /** The column naming each posting's transaction: txnidx, a query's id, or none. */
  let transactionColumn: string | undefined = flavor === 'ledger' ? undefined : 'txnidx';
  let lastTransaction = '';
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
      columns = namedColumns(record, (h) => h.trim().toLowerCase());
      const wanted =
        flavor === 'hledger'
          ? ['txnidx', 'date', 'account', 'amount']
          : [
              'date',
              'account',
              ['position', 'units', 'number', 'amount'].find((n) => columns!.has(n)) ?? 'position',
            ];
      const missing = wanted.filter((n) => !columns!.has(n));
      if (missing.length > 0) {
        report({ fileLine, message: `not ${flavor} CSV: the header lacks ${missing.join(', ')}` });
        return;
      }
      if (flavor === 'beancount') transactionColumn = columns.has('id') ? 'id' : undefined;
      continue;
    }
    grouper ??= new EntryGrouper(
      transactionColumn !== undefined,
      (entry) => ready.push(entry),
      report,
    );
    const field = (name: string) => columns!.cell(record, name);
    const transaction =
      transactionColumn !== undefined
        ? field(transactionColumn)
        : `${field('date')} ${field('code')} ${field('payee')} ${field('narration')}`;
    if (transaction !== lastTransaction) {
      facts.transactions += 1;
      lastTransaction = transaction;
    }
    const account = field('account');
    if (/^\(.*\)$|^\[.*\]$/.test(account)) {
      facts.virtualPostings += 1;
      continue;
    }
    const date = parseLedgerDate(field('date'), 'YYYY-MM-DD');
    if (!date) {
      report({ fileLine, message: `date "${field('date')}" is not a date (YYYY-MM-DD)` });
      continue;
    }
    const amountColumn =
      flavor === 'beancount'
        ? (['position', 'units', 'number', 'amount'].find((n) => columns!.has(n)) ?? 'position')
        : 'amount';
    const split = splitCommodity(field(amountColumn));
    const commodityColumn = flavor === 'beancount' ? 'currency' : 'commodity';
    const commodity =
      (columns.has(commodityColumn) ? field(commodityColumn) : split.commodity) || '';
    commodities.set(commodity, (commodities.get(commodity) ?? 0) + 1);
    if (options.currency !== undefined && commodity !== options.currency) {
      facts.otherCommodity += 1;
      continue;
    }
    let cents;
    try {
      cents = parseAmountText(split.number, { decimalComma: options.decimalComma ?? false });
    } catch (error) {
      if (!(error instanceof InvalidAmountError)) throw error;
      report({ fileLine, message: `the amount ${error.message}` });
      continue;
    }
    zeros.line(transaction, cents === null || cents === 0);
    if (cents === null || cents === 0) {
      facts.zeroPostings += 1;
      continue;
    }
    const description =
      flavor === 'hledger'
        ? field('description')
        : [field('payee'), field('narration')].filter(Boolean).join(' ');
    const comment = field(flavor === 'hledger' ? 'comment' : 'note');
    grouper.add({
      fileLine,
      date,
      account,
      accountCode: undefined,
      accountName: undefined,
      accountType: classOfTop(account),
      debitCents: cents > 0 ? cents : ZERO_CENTS,
      creditCents: cents < 0 ? negateCents(cents) : ZERO_CENTS,
      description: field('posting-comment') || description,
      memo: [field('code'), description, comment].filter(Boolean).join(' '),
      classes: [],
      entry: transactionColumn !== undefined ? transaction : undefined,
    });
  }
  grouper?.finish();
  const named = [...commodities.keys()].filter((c) => c !== '');
  if (options.currency === undefined && named.length > 1) {
    report({
      fileLine: 1,
      message: `the file holds ${named.length} commodities: ${[...commodities].map(([c, n]) => `${c || '(none)'} (${n} posting${n === 1 ? '' : 's'})`).join(', ')}; an entity keeps its books in one: keep one with --currency CODE`,
    });
    return;
  }
  yield* ready;
  zeros.finish();
  onEnd(hash, { ...facts, zeroEntries: zeros.count });
}

/** The postings of an hledger, ledger or beancount CSV, with what was left out said. */
function readPostings(
  flavor: PostingsFlavor,
  file: string,
  options: ReadOptions,
  result: ReadResult,
) {
  return readExport<HledgerFacts>(
    result,
    (...hooks) =>
      readHledger(
        file,
        {
          encoding: options.encoding,
          ...(options.currency !== undefined && { currency: options.currency }),
          ...(options.decimalComma !== undefined && { decimalComma: options.decimalComma }),
          flavor,
        },
        ...hooks,
      ),
    (facts) => [
      `${flavor}: ${count(facts.transactions, 'transaction', 'transactions')}${flavor === 'ledger' ? ' (it writes no ids: consecutive postings of a date, closed as they balance)' : ''}; accounts by full name, typed by their top-level name`,
      facts.virtualPostings > 0 &&
        `${flavor}: ${count(facts.virtualPostings, 'virtual posting', 'virtual postings')} ((Account) or [Account]) left out`,
      facts.zeroPostings > 0 &&
        `${flavor}: ${count(facts.zeroPostings, 'posting', 'postings')} of zero left out${zeroWhole(facts.zeroEntries, 'transaction', 'transactions')}`,
      facts.otherCommodity > 0 &&
        `${flavor}: ${count(facts.otherCommodity, 'posting', 'postings')} in other commodities than ${options.currency} left out (--currency)`,
    ],
  );
}

/** `hledger print -O csv` or `hledger register -O csv`. */
export const hledger: LedgerFormatDefinition = {
  name: 'hledger',
  title: 'hledger CSV',
  detect: (_head, firstLine) => looksLikeHledger(firstLine),
  toldBy: 'read as hledger CSV (print or register -O csv): its header has txnidx and account',
  read: (file, _head, options, result) => readPostings('hledger', file, options, result),
};

/** `ledger csv`. */
export const ledger: LedgerFormatDefinition = {
  name: 'ledger',
  title: 'ledger CSV',
  detect: (_head, firstLine) => looksLikeLedgerCsv(firstLine),
  toldBy: 'read as `ledger csv` output: eight quoted fields, no header',
  read: (file, _head, options, result) => readPostings('ledger', file, options, result),
};

/** bean-query's CSV. */
export const beancount: LedgerFormatDefinition = {
  name: 'beancount',
  title: 'beancount (bean-query CSV)',
  detect: (_head, firstLine) => looksLikeBeancount(firstLine),
  toldBy:
    'read as bean-query CSV: its header has date, account and a position (or number and currency)',
  read: (file, _head, options, result) => readPostings('beancount', file, options, result),
};
