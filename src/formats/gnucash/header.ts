import { detectDelimiter, lineCells } from '../common/csvRecords.js';
import {
  GNUCASH_COLUMNS,
  GNUCASH_TRANSLATIONS,
  SPLIT_TRANSACTION,
  TOP_LEVEL_NAMES,
  type GnuCashColumn,
} from './words.js';

/*
 * A GnuCash transaction export told by its header, in whichever language GnuCash wrote it,
 * and the layout the header shows:
 *
 * - `transactions` (the default, 3.x to 5.x): a row per split, the transaction's fields on its
 *   first split only (3.x) or on every one (4.x on, which adds `Value With Sym` and `Value Num.`);
 * - `simple` ("Use simple layout"): a row per transaction of the exported account, the other
 *   account in `Full Category Path` (`-- Split Transaction --` where there are several);
 * - `register` (2.6): a `T` row with the transaction's fields, then an `S` row per split, whose
 *   full account name stands under `Full Category Path`.
 *
 * A header in a language GnuCash has no translation for, or in one of a later version, is told
 * by GnuCash's own column order when its rows show a transaction id and a currency where
 * GnuCash writes them. Columns named alike (the amount and the value both `Wert mit Symbol`, as
 * GnuCash 5 in German and its Android app write them) are told by their place: the amount first.
 */

export type GnuCashLayout = 'transactions' | 'simple' | 'register';

export interface GnuCashHeader {
  /** GnuCash's language code (`de`, `pt_BR`), `en`, or undefined when told by column order. */
  language: string | undefined;
  columns: ReadonlyMap<GnuCashColumn, number>;
  layout: GnuCashLayout;
}

/** A column name compared without case, spaces or punctuation: `Amount Num.` → `amountnum`. */
export const wordKey = (text: string) =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '');

const ORDER = Object.keys(GNUCASH_COLUMNS) as GnuCashColumn[];

/**
 * Each language's names of each column, as keys: its translation and the English name (GnuCash
 * writes English where it has no translation). Worked out once, when a header is first read.
 */
let languageKeys: [string, [GnuCashColumn, Set<string>][]][] | undefined;
const keysOfLanguages = () =>
  (languageKeys ??= [
    ['en', {} as Partial<Record<GnuCashColumn, string>>] as const,
    ...Object.entries(GNUCASH_TRANSLATIONS),
  ].map(([language, translation]) => [
    language,
    ORDER.map((column) => {
      const names = [GNUCASH_COLUMNS[column], translation[column]];
      return [column, new Set(names.filter((n) => n !== undefined).map(wordKey))];
    }),
  ]));

/** Which column each header cell is in one language. */
function columnsIn(
  cells: readonly string[],
  keys: readonly [GnuCashColumn, Set<string>][],
): Map<GnuCashColumn, number> {
  const columns = new Map<GnuCashColumn, number>();
  const foundBy = new Map<string, GnuCashColumn>();
  cells.forEach((cell, at) => {
    const key = wordKey(cell);
    if (key === '') return;
    // A name two columns share (Latvian's Notes and Memo) goes to the first not yet found.
    const found = keys.find(([column, names]) => !columns.has(column) && names.has(key));
    if (found) {
      columns.set(found[0], at);
      foundBy.set(key, found[0]);
      return;
    }
    // The amount's name again, where the value has none of its own (GnuCash 5 in German, its
    // Android app): the value, which GnuCash writes after the amount.
    const sibling = VALUE_OF[foundBy.get(key) ?? ''];
    if (sibling && !columns.has(sibling)) columns.set(sibling, at);
  });
  return columns;
}

/** The value column GnuCash writes after each amount column. */
const VALUE_OF: Partial<Record<string, GnuCashColumn>> = {
  amountWithSymbol: 'valueWithSymbol',
  amount: 'value',
};

function layoutOf(columns: ReadonlyMap<GnuCashColumn, number>): GnuCashLayout | undefined {
  const amounts = columns.has('amount') || columns.has('value');
  if (columns.has('rowType') && columns.has('fullCategoryPath') && amounts) return 'register';
  if (columns.has('transactionId') && columns.has('fullAccountName') && amounts)
    return 'transactions';
  if (!columns.has('transactionId') && columns.has('fullCategoryPath') && amounts) {
    if (columns.has('accountName')) return 'simple';
  }
  return undefined;
}

/** The header's language and layout: the language that finds the most of its columns. */
export function gnucashHeader(cells: readonly string[]): GnuCashHeader | undefined {
  let best: GnuCashHeader | undefined;
  for (const [language, keys] of keysOfLanguages()) {
    const columns = columnsIn(cells, keys);
    const layout = layoutOf(columns);
    if (layout && (best === undefined || columns.size > best.columns.size))
      best = { language, columns, layout };
  }
  return best;
}

/** GnuCash's column order from 4.x on (18 columns, with the values). */
const ORDER_4X: GnuCashColumn[] = [
  'date',
  'transactionId',
  'number',
  'description',
  'notes',
  'commodity',
  'voidReason',
  'action',
  'memo',
  'fullAccountName',
  'accountName',
  'amountWithSymbol',
  'amount',
  'valueWithSymbol',
  'value',
  'reconcile',
  'reconcileDate',
  'ratePrice',
];
/** By the number of columns: 3.x's 16 are 4.x's without the values. */
const BY_POSITION: Record<number, GnuCashColumn[]> = {
  16: ORDER_4X.filter((column) => column !== 'valueWithSymbol' && column !== 'value'),
  18: ORDER_4X,
};

/**
 * A transaction export whose header no language reads, told by GnuCash's column order: its
 * first row has a transaction id (32 hexadecimal digits) second and a currency
 * (`CURRENCY::EUR`, `ISO4217::EUR`) sixth.
 */
export function gnucashByPosition(
  cells: readonly string[],
  firstRow: readonly string[] | undefined,
): GnuCashHeader | undefined {
  const order = BY_POSITION[cells.length];
  if (!order || !firstRow || firstRow.length !== cells.length) return undefined;
  if (!/^[0-9a-f]{32}$/i.test(firstRow[1]!.trim())) return undefined;
  if (!/^(CURRENCY|ISO4217)::\S+$/.test(firstRow[5]!.trim())) return undefined;
  return {
    language: undefined,
    columns: new Map(order.map((column, at) => [column, at])),
    layout: 'transactions',
  };
}

/** True when a file's first lines are a GnuCash transaction export, in any language. */
export function looksLikeGnuCash(head: string): boolean {
  // The head comes as Latin-1; GnuCash writes UTF-8 (a byte order mark or not).
  const whole = head.lastIndexOf('\n') > 0 ? head.slice(0, head.lastIndexOf('\n')) : head;
  const utf8 = Buffer.from(whole, 'latin1').toString('utf8');
  const text = utf8.includes('\uFFFD') && !whole.includes('\uFFFD') ? whole : utf8;
  const [first = '', second] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const delimiter = detectDelimiter(first);
  const cells = lineCells(first, delimiter) ?? [];
  return (
    gnucashHeader(cells) !== undefined ||
    gnucashByPosition(cells, second === undefined ? undefined : lineCells(second, delimiter)) !==
      undefined
  );
}

/** A language's name in English (`German`, `Brazilian Portuguese`), else its code. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames('en', { type: 'language' }).of(code.replace('_', '-')) ?? code;
  } catch {
    return code;
  }
}

/** What the simple layout writes for the other side of a transaction of several splits. */
const SPLIT_TRANSACTIONS = new Set(
  [SPLIT_TRANSACTION, ...Object.values(GNUCASH_TRANSLATIONS).map((t) => t.splitTransaction)]
    .filter((text): text is string => text !== undefined)
    .map(wordKey),
);

export const isSplitTransaction = (category: string) => SPLIT_TRANSACTIONS.has(wordKey(category));

/** The class of an English top-level account name (hledger's too), or undefined. */
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

const CLASS_BY_TOP = new Map<string, string>(
  Object.entries(TOP_LEVEL_NAMES).flatMap(([kind, names]) =>
    names.map((name) => [name.normalize('NFC').toLowerCase(), kind] as [string, string]),
  ),
);
for (const [name, kind] of Object.entries(CLASS_OF_TOP)) CLASS_BY_TOP.set(name, kind);

/**
 * The class of an account by its top-level name (`Assets`, `Aktiva`, `資産`): GnuCash's charts'
 * top-level names in every language they ship; undefined for another (Trading, Orphan…).
 */
export const classOfTop = (fullName: string): string | undefined =>
  CLASS_BY_TOP.get(fullName.split(':')[0]!.trim().normalize('NFC').toLowerCase());
