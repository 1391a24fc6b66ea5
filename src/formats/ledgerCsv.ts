import { isCalendarDay, type CalendarDay } from '../core/calendar.js';
import {
  addCents,
  formatCents,
  InvalidAmountError,
  negateCents,
  parseAmountText,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../core/money.js';

/**
 * The CSV general ledger of cli.md, as pure functions: header mapping, amounts, dates, and the
 * grouping of lines into entries. Reading the file is reader.ts's.
 */

export type LedgerField =
  | 'date'
  | 'account'
  | 'accountCode'
  | 'accountName'
  | 'debit'
  | 'credit'
  | 'amount'
  | 'entry'
  | 'description'
  | 'memo'
  | 'classes'
  | 'accountType'
  | 'taxCode';

/** Header names each field answers to, normalized (lower case, no spaces or underscores). */
const ALIASES: Record<LedgerField, string[]> = {
  date: ['date'],
  account: ['account'],
  accountCode: ['accountcode'],
  accountName: ['accountname'],
  debit: ['debit'],
  credit: ['credit'],
  amount: ['amount'],
  entry: ['entry', 'entryid', 'journal', 'transactionid', 'ref'],
  description: ['description'],
  memo: ['memo'],
  classes: ['classes'],
  accountType: ['accounttype'],
  taxCode: ['taxcode', 'vatcode'],
};

export const normalizeHeader = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');

export type ColumnMap = Partial<Record<LedgerField, number>>;

export class LedgerFormatError extends Error {
  override name = 'LedgerFormatError';
}

/** `--map target=Header,...`: targets are field names (`account_code`, `debit`, ...). */
export function parseMapOption(text: string | undefined): Partial<Record<LedgerField, string>> {
  if (!text) return {};
  const byNormal = new Map(
    (Object.keys(ALIASES) as LedgerField[]).map((f) => [normalizeHeader(f), f]),
  );
  const map: Partial<Record<LedgerField, string>> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const field = byNormal.get(normalizeHeader(pair.slice(0, at)));
    if (at <= 0 || !field || pair.slice(at + 1).trim() === '') {
      throw new LedgerFormatError(
        `--map takes target=Header pairs, targets among ${Object.keys(ALIASES).join(', ')}; got "${pair}"`,
      );
    }
    map[field] = pair.slice(at + 1).trim();
  }
  return map;
}

/** Which column holds each field; throws LedgerFormatError when the header cannot work. */
export function mapColumns(
  header: string[],
  mapped: Partial<Record<LedgerField, string>> = {},
): ColumnMap {
  const normalized = header.map(normalizeHeader);
  const columns: ColumnMap = {};
  for (const field of Object.keys(ALIASES) as LedgerField[]) {
    const wanted = mapped[field] !== undefined ? [normalizeHeader(mapped[field]!)] : ALIASES[field];
    const index = normalized.findIndex((h) => wanted.includes(h));
    if (index >= 0) columns[field] = index;
    else if (mapped[field] !== undefined)
      throw new LedgerFormatError(`--map ${field}=${mapped[field]}: no such column in the header`);
  }
  const missing: string[] = [];
  if (columns.date === undefined) missing.push('date');
  if (
    columns.account === undefined &&
    columns.accountCode === undefined &&
    columns.accountName === undefined
  ) {
    missing.push('account (or account_code / account_name)');
  }
  const signed = columns.amount !== undefined;
  const sided = columns.debit !== undefined && columns.credit !== undefined;
  if (!signed && !sided) missing.push('debit and credit, or amount');
  if (missing.length > 0)
    throw new LedgerFormatError(
      `the header lacks ${missing.join('; ')} (header: ${header.join(', ')})`,
    );
  return columns;
}

/**
 * `--date-format`: the order of day and month in dates written `a/b/year` (or `a-b-year`), the
 * only dates that can read two ways. Every other shape is read whatever is given: `2018-01-31`,
 * `20180131`, `2018/01/31`, `31.01.2018` (day first, as everywhere dots are written),
 * `31 Jan 2018`, `31-Jan-18`, `Jan 31, 2018`; years of two digits are 19YY from 70, else 20YY.
 * `YYYY-MM-DD` means the file holds no `a/b/year` dates.
 */
export const DATE_FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** The two numbers of an `a/b/year` date (either order possible), or undefined. */
export function slashedPair(text: string): [number, number] | undefined {
  const match = SLASHED.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

const SLASHED = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Months as Norwegian, Danish and Swedish write them where English does not (`31. des. 2016`). */
const NORDIC_MONTHS: Record<string, number> = { mai: 5, okt: 10, des: 12, maj: 5 };

/**
 * What a file's `a/b/year` dates say of their order, as a problem to report, or the order:
 * `dayMonthOrder`'s answer put in words, with the readings when there are two.
 */
export function dateOrderOrProblem(
  found: ReturnType<typeof dayMonthOrder>,
  example?: string,
  /** The order a person settled for files that do not tell it (`books config set date-format`). */
  usual?: DateFormat,
): DateFormat | { problem: string } {
  if (found === 'neither' && usual !== undefined && usual !== 'YYYY-MM-DD') return usual;
  if (found === 'neither') {
    const both =
      example && slashedPair(example)
        ? `: ${example} reads ${calendarDayOf(example, 'MM/DD/YYYY') ?? '?'} as MM/DD/YYYY and ${calendarDayOf(example, 'DD/MM/YYYY') ?? '?'} as DD/MM/YYYY`
        : '';
    return {
      problem: `the dates read two ways, as MM/DD/YYYY and as DD/MM/YYYY (no day is over 12)${both}: pass --date-format MM/DD/YYYY or --date-format DD/MM/YYYY (books config set date-format DD/MM/YYYY settles it for every such file)`,
    };
  }
  if (found === 'both') {
    return {
      problem:
        'the dates read neither as MM/DD/YYYY nor as DD/MM/YYYY throughout (some have a first number over 12, some a second): pass --date-format, and the lines that do not read so are listed',
    };
  }
  return found ?? 'YYYY-MM-DD';
}

/**
 * The order of day and month that a file's `a/b/year` dates show: a first number over 12 is a
 * day, so is a second one over 12. `both` when some dates read one way and some the other,
 * `neither` when no number is over 12 (either order reads them all); undefined without dates.
 */
export function dayMonthOrder(
  pairs: Iterable<readonly [number, number]>,
): 'MM/DD/YYYY' | 'DD/MM/YYYY' | 'both' | 'neither' | undefined {
  let any = false;
  let dayFirst = false;
  let monthFirst = false;
  for (const [first, second] of pairs) {
    any = true;
    if (first > 12) dayFirst = true;
    if (second > 12) monthFirst = true;
  }
  if (!any) return undefined;
  if (dayFirst && monthFirst) return 'both';
  if (!dayFirst && !monthFirst) return 'neither';
  return dayFirst ? 'DD/MM/YYYY' : 'MM/DD/YYYY';
}

/** A date in the file's format to a calendar day, or undefined when it is not one. */
export function parseLedgerDate(
  text: string | undefined,
  format: DateFormat = 'YYYY-MM-DD',
): CalendarDay | undefined {
  const value = (text ?? '').trim();
  // A ledger runs in date order, a date over many lines: the last one checked is often the next.
  if (value === lastDate.text && format === lastDate.format) return lastDate.day;
  const day = calendarDayOf(value, format);
  Object.assign(lastDate, { text: value, format, day });
  return day;
}

const lastDate: { text: string; format: DateFormat; day: CalendarDay | undefined } = {
  text: '',
  format: 'YYYY-MM-DD',
  day: undefined,
};

function calendarDayOf(value: string, format: DateFormat): CalendarDay | undefined {
  if (isCalendarDay(value)) return value;
  const day = (year: string, month: string | number, date: string) => {
    const fullYear = year.length === 2 ? `${Number(year) >= 70 ? '19' : '20'}${year}` : year;
    const iso = `${fullYear}-${String(month).padStart(2, '0')}-${date.padStart(2, '0')}`;
    return isCalendarDay(iso) ? iso : undefined;
  };
  const monthOf = (name: string) =>
    MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1 ||
    NORDIC_MONTHS[name.slice(0, 3).toLowerCase()] ||
    0;
  let match =
    /^(\d{4})(\d{2})(\d{2})$/.exec(value) ??
    /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(value) ??
    // Year first as the locales of Asia and the Baltics write it: 2016年12月31日, 2016년 12월
    // 31일, 2016. 12. 31., 2016.12.31.
    /^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일號]?$/.exec(value) ??
    /^(\d{4})\.\s*(\d{1,2})\.\s*(\d{1,2})\.$/.exec(value) ??
    /^(\d{4})\. (\d{1,2})\. (\d{1,2})$/.exec(value);
  if (match) return day(match[1]!, match[2]!, match[3]!);
  // Day first with dots: 31.12.2016, 31. 12. 2016 (Czech, Slovak), 31.12.2016. (Serbian,
  // Croatian).
  match = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{2}|\d{4})\.?$/.exec(value);
  if (match) return day(match[3]!, match[2]!, match[1]!);
  match = /^(\d{1,2})\.?[ -]([A-Za-z]{3,9})\.?[ -](\d{2}|\d{4})$/.exec(value);
  if (match) return monthOf(match[2]!) ? day(match[3]!, monthOf(match[2]!), match[1]!) : undefined;
  match = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(value);
  if (match) return monthOf(match[1]!) ? day(match[3]!, monthOf(match[1]!), match[2]!) : undefined;
  match = SLASHED.exec(value);
  if (!match || format === 'YYYY-MM-DD') return undefined;
  const [first, second, year] = [match[1]!, match[2]!, match[3]!];
  const [month, date] = format === 'MM/DD/YYYY' ? [first, second] : [second, first];
  return day(year, month, date);
}

/** The key of an account named by code and name (either may be missing, not both). */
export function accountKey(code: string | undefined, name: string | undefined): string {
  return `${code ?? ''}\u0000${name ?? ''}`;
}

/** Whether an account belongs to the balance sheet or to profit and loss. */
export type AccountKind = 'balance sheet' | 'profit and loss';

/** One line of the file, read and checked. */
export interface LedgerLine {
  fileLine: number;
  date: CalendarDay;
  /**
   * The account as the file names it: the `account` column's text, or, with `account_code` /
   * `account_name` columns, `accountKey(code, name)`. Lines naming an account alike share it.
   */
  account: string;
  /** From `account_code` / `account_name` (undefined with an `account` column, or when empty). */
  accountCode: string | undefined;
  accountName: string | undefined;
  accountType: string | undefined;
  /** The type is the reader's inference (a national chart's class), which `--chart` overrides. */
  typeInferred?: true;
  /**
   * What the file states of the account when it states no type: a balance-sheet or a
   * profit-and-loss account (XAF's accTp, SIE's #IB/#UB or #RES). The import then types it by
   * the side of its balance in the file (see planAccounts), unless `--chart` types it.
   */
  accountKind?: AccountKind;
  debitCents: Cents;
  creditCents: Cents;
  description: string;
  memo: string;
  classes: string[];
  entry: string | undefined;
  /** The line's tax code, as the file names it (a `tax_code` column; a reader's own). */
  taxCode?: string;
}

/** An entry of the file: consecutive lines grouped by entry id, or by date until they balance. */
export interface LedgerEntry {
  /** The file line of its first line (it names the entry in messages and receipts). */
  fileLine: number;
  entry: string | undefined;
  date: CalendarDay;
  memo: string;
  lines: LedgerLine[];
}

export interface Problem {
  fileLine: number;
  message: string;
}

/**
 * Problems kept to report: the first ones. A file wrong on every one of a million lines would
 * otherwise hold a message per line in memory; the rest are counted.
 */
export const MAX_KEPT_PROBLEMS = 10_000;

export function reportProblem(
  result: { problems: Problem[]; problemCount: number },
  problem: Problem,
): void {
  result.problemCount += 1;
  if (result.problems.length < MAX_KEPT_PROBLEMS) result.problems.push(problem);
}

/** How a file writes its dates and amounts. */
export interface LineFormat {
  dateFormat: DateFormat;
  /** Decimals written with a comma: `1.234,56`. */
  decimalComma: boolean;
}

/** A line whose amount is written and is zero (`0.00`): left out of the books, and counted. */
export interface ZeroLine {
  fileLine: number;
  zero: true;
  entry: string | undefined;
}

export const isZeroLine = (value: LedgerLine | Problem | ZeroLine): value is ZeroLine =>
  'zero' in value;

/**
 * Counts the entries made only of zero lines (left out whole), as lines stream by: entries
 * are consecutive lines of one id, so one id at a time is remembered.
 */
export class ZeroEntries {
  count = 0;
  private current: string | undefined;
  private onlyZero = false;

  /** A line of entry `entry` (undefined: a file without entry ids, where nothing is counted). */
  line(entry: string | undefined, zero: boolean): void {
    if (entry === undefined) return;
    if (entry !== this.current) {
      this.finish();
      this.current = entry;
      this.onlyZero = zero;
    } else if (!zero) {
      this.onlyZero = false;
    }
  }

  finish(): void {
    if (this.current !== undefined && this.onlyZero) this.count += 1;
    this.current = undefined;
  }
}

/** Reads one CSV record into a line, a zero line, or a problem. */
export function readLine(
  record: string[],
  fileLine: number,
  columns: ColumnMap,
  format: LineFormat,
): LedgerLine | Problem | ZeroLine {
  const { dateFormat } = format;
  const amountOf = (text: string | undefined) => parseAmountText(text ?? '', format);
  const field = (f: LedgerField) =>
    columns[f] === undefined ? undefined : (record[columns[f]!] ?? '').trim();
  const date = parseLedgerDate(field('date'), dateFormat);
  if (!date)
    return { fileLine, message: `date "${field('date') ?? ''}" is not a date (${dateFormat})` };
  // With account_code / account_name columns the pair names the account (a lone `account`
  // column beside them is not read); else the `account` column, a code or a name.
  const paired = columns.accountCode !== undefined || columns.accountName !== undefined;
  const accountCode = (paired && field('accountCode')) || undefined;
  const accountName = (paired && field('accountName')) || undefined;
  const account = paired
    ? accountCode || accountName
      ? accountKey(accountCode, accountName)
      : ''
    : (field('account') ?? '');
  if (account === '') return { fileLine, message: 'the account is empty' };
  let debitCents: Cents;
  let creditCents: Cents;
  try {
    if (
      columns.debit !== undefined &&
      columns.credit !== undefined &&
      (field('debit') || field('credit'))
    ) {
      const debit = amountOf(field('debit')) ?? ZERO_CENTS;
      const credit = amountOf(field('credit')) ?? ZERO_CENTS;
      if (debit !== 0 && credit !== 0)
        return { fileLine, message: 'both debit and credit hold an amount' };
      // A negative amount on one side is a positive amount on the other.
      const signed = subtractCents(debit, credit);
      [debitCents, creditCents] =
        signed >= 0 ? [signed, ZERO_CENTS] : [ZERO_CENTS, negateCents(signed)];
    } else {
      const amount = amountOf(field('amount')) ?? ZERO_CENTS;
      [debitCents, creditCents] =
        amount >= 0 ? [amount, ZERO_CENTS] : [ZERO_CENTS, negateCents(amount)];
    }
  } catch (error) {
    if (error instanceof InvalidAmountError)
      return { fileLine, message: `the amount ${error.message}` };
    throw error;
  }
  if (debitCents === 0 && creditCents === 0) {
    const written = [field('debit'), field('credit'), field('amount')].some(Boolean);
    return written
      ? { fileLine, zero: true, entry: field('entry') || undefined }
      : { fileLine, message: 'the line has no amount' };
  }
  return {
    fileLine,
    date,
    account,
    accountCode,
    accountName,
    accountType: field('accountType') || undefined,
    debitCents,
    creditCents,
    description: field('description') ?? '',
    memo: field('memo') ?? '',
    classes: classesOf(field('classes')),
    entry: field('entry') || undefined,
    ...(field('taxCode') ? { taxCode: field('taxCode')!.trim() } : {}),
  };
}

/** The `;`-separated class labels of a line (most lines have none). */
function classesOf(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
}

export const isProblem = (value: LedgerLine | Problem | ZeroLine): value is Problem =>
  'message' in value;

const MAX_LINES = 500;

/**
 * Groups lines into entries as they stream by. With an entry column, consecutive lines sharing
 * an entry id; without one, consecutive lines of one date, closed as soon as they balance.
 * Every entry must balance to the cent, keep one date and have 2–500 lines.
 */
export class EntryGrouper {
  private open: LedgerLine[] = [];
  private debits = ZERO_CENTS;
  private credits = ZERO_CENTS;
  private readonly seenEntries: SeenIds | undefined;

  constructor(
    private readonly byEntryColumn: boolean,
    private readonly emit: (entry: LedgerEntry) => void,
    private readonly problem: (problem: Problem) => void,
  ) {
    this.seenEntries = byEntryColumn ? new SeenIds() : undefined;
  }

  add(line: LedgerLine): void {
    if (this.byEntryColumn) {
      if (this.open.length > 0 && line.entry !== this.open[0]!.entry) this.close();
      if (this.open.length === 0 && line.entry !== undefined && this.seenEntries?.has(line.entry)) {
        this.problem({
          fileLine: line.fileLine,
          message: `entry "${line.entry}" appears again after other entries; keep its lines together`,
        });
      }
      if (line.entry === undefined) {
        this.problem({ fileLine: line.fileLine, message: 'the entry column is empty' });
        return;
      }
      if (this.open.length > 0 && line.date !== this.open[0]!.date) {
        this.problem({
          fileLine: line.fileLine,
          message: `entry "${line.entry}" has two dates: ${this.open[0]!.date} and ${line.date}`,
        });
      }
      this.push(line);
      return;
    }
    if (this.open.length > 0 && line.date !== this.open[0]!.date) this.close();
    this.push(line);
    if (this.open.length >= 2 && this.debits === this.credits) this.close();
  }

  /** Ends the file: an open group is closed (and reported when it does not balance). */
  finish(): void {
    if (this.open.length > 0) this.close();
  }

  private push(line: LedgerLine): void {
    this.open.push(line);
    this.debits = addCents(this.debits, line.debitCents);
    this.credits = addCents(this.credits, line.creditCents);
  }

  private close(): void {
    const lines = this.open;
    const first = lines[0]!;
    if (lines.length >= 2 && lines.length <= MAX_LINES && this.debits === this.credits) {
      this.emit({
        fileLine: first.fileLine,
        entry: first.entry,
        date: first.date,
        memo: lines.find((l) => l.memo !== '')?.memo ?? '',
        lines,
      });
    } else {
      this.problem({ fileLine: first.fileLine, message: this.whatIsWrong() });
    }
    if (first.entry !== undefined) this.seenEntries?.add(first.entry);
    this.open = [];
    this.debits = ZERO_CENTS;
    this.credits = ZERO_CENTS;
  }

  /** Why the open lines are not an entry: too few, unbalanced, or too many. */
  private whatIsWrong(): string {
    const lines = this.open;
    const first = lines[0]!;
    const last = lines[lines.length - 1]!;
    const span =
      first.fileLine === last.fileLine
        ? `line ${first.fileLine}`
        : `lines ${first.fileLine}–${last.fileLine}`;
    // "entry "E1" (lines 2–3) does not balance"; "lines 2–3 of 2026-01-01 do not balance".
    const [name, verb] =
      first.entry !== undefined
        ? [`entry "${first.entry}" (${span})`, 'does']
        : [`${span} of ${first.date}`, lines.length === 1 ? 'does' : 'do'];
    const sums = `debits ${formatCents(this.debits)}, credits ${formatCents(this.credits)}`;
    if (lines.length < 2) return `${name} is a single line: an entry needs two (${sums})`;
    if (this.debits !== this.credits) return `${name} ${verb} not balance: ${sums}`;
    return `${name} has ${lines.length} lines; at most ${MAX_LINES}`;
  }
}

/**
 * The entry ids a pass has closed, for the "appears again" check over millions of lines: each id
 * is kept as a 64-bit hash (FNV-1a and a Murmur-style mix, 32 bits each) in open-addressed typed
 * arrays, about 20 bytes an entry where a Set of strings takes 60 or more. Two ids sharing a hash
 * would report a false repeat, never miss a real one; for a million-entry file the odds that any
 * pair does are about 1 in 37 million.
 */
export class SeenIds {
  private hashLow = new Uint32Array(1 << 12);
  private hashHigh = new Uint32Array(1 << 12);
  private occupied = new Uint8Array(1 << 12);
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(id: string): boolean {
    const [low, high] = hashId(id);
    return this.occupied[this.slotOf(low, high)] === 1;
  }

  add(id: string): void {
    const [low, high] = hashId(id);
    const slot = this.slotOf(low, high);
    if (this.occupied[slot] === 1) return;
    this.occupied[slot] = 1;
    this.hashLow[slot] = low;
    this.hashHigh[slot] = high;
    this.count += 1;
    if (this.count * 2 > this.occupied.length) this.grow();
  }

  /** The slot holding this hash, or the free slot where it would go (linear probing). */
  private slotOf(low: number, high: number): number {
    const mask = this.occupied.length - 1;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      if (this.occupied[slot] === 0) return slot;
      if (this.hashLow[slot] === low && this.hashHigh[slot] === high) return slot;
    }
  }

  private grow(): void {
    const { hashLow, hashHigh, occupied } = this;
    this.hashLow = new Uint32Array(occupied.length * 2);
    this.hashHigh = new Uint32Array(occupied.length * 2);
    this.occupied = new Uint8Array(occupied.length * 2);
    for (let slot = 0; slot < occupied.length; slot += 1) {
      if (occupied[slot] === 0) continue;
      const target = this.slotOf(hashLow[slot]!, hashHigh[slot]!);
      this.occupied[target] = 1;
      this.hashLow[target] = hashLow[slot]!;
      this.hashHigh[target] = hashHigh[slot]!;
    }
  }
}

/** Two 32-bit hashes of a text (FNV-1a and a Murmur-style mix): a cheap 64-bit fingerprint. */
export function hashId(id: string): [number, number] {
  let fnv = 0x811c9dc5;
  let murmur = 0x9747b28c ^ id.length;
  for (let i = 0; i < id.length; i += 1) {
    const code = id.charCodeAt(i);
    fnv = Math.imul(fnv ^ code, 0x01000193);
    murmur = Math.imul(murmur ^ Math.imul(code, 0xcc9e2d51), 0x1b873593);
    murmur = (murmur << 13) | (murmur >>> 19);
  }
  murmur ^= murmur >>> 16;
  murmur = Math.imul(murmur, 0x85ebca6b);
  murmur ^= murmur >>> 13;
  murmur = Math.imul(murmur, 0xc2b2ae35);
  murmur ^= murmur >>> 16;
  return [fnv >>> 0, murmur >>> 0];
}

/**
 * The decimal mark a file's amounts show: `1.234,56` and `12,34` end in a comma and one or two
 * digits, `1,234.56` and `12.34` in a point. `both` when some amounts read one way and some the
 * other; undefined when none tells (whole numbers, `1,234`).
 */
export class DecimalMark {
  private comma = false;
  private point = false;

  add(text: string): void {
    const number = text.replace(/[^\d.,]/g, '');
    if (/,\d{1,2}$/.test(number) && !/,.*\./.test(number)) this.comma = true;
    else if (/\.\d{1,2}$/.test(number) && !/\..*,/.test(number)) this.point = true;
  }

  get found(): 'comma' | 'point' | 'both' | undefined {
    if (this.comma && this.point) return 'both';
    return this.comma ? 'comma' : this.point ? 'point' : undefined;
  }
}

/** An account as the file names it (one per distinct way of naming it), from pass one. */
export interface FileAccount {
  /** The lines' `account` key (see LedgerLine.account). */
  key: string;
  /** From an `account_code` / `account_name` pair. */
  code: string | undefined;
  name: string | undefined;
  /** From an `account` column: a code, a name or an id. */
  text: string | undefined;
  firstLine: number;
  lines: number;
  /** The first `account_type` given for it, and its line. */
  accountType: { text: string; line: number } | undefined;
  /** What the file states of it without a type (balance sheet, or profit and loss), and where. */
  kind?: { kind: AccountKind; line: number } | undefined;
}
