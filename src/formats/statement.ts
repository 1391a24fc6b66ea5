import { addDays, isCalendarDay, type CalendarDay } from '../core/calendar.js';
import {
  addCents,
  decimalToCents,
  formatCents,
  InvalidAmountError,
  negateCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../core/money.js';
import type { DateFormat } from './ledgerCsv.js';

/*
 * A bank's own statement, as every statement format (camt/, mt940/, ofx/, bai2/, qif/,
 * bankCsv/) hands it over: the account it is of, its currency and period, the balances the bank
 * states, and each movement, money in positive. What a reconciliation matches against the books.
 */

/**
 * Booked entries are on the account; pending ones (camt `PDNG`, a card's authorizations) may
 * still change or vanish, and information-only ones (camt `INFO`, `FUTR`) never were: only
 * booked entries make a balance, and only they are reconciled.
 */
export const ENTRY_STATUSES = ['booked', 'pending', 'info'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export interface StatementEntry {
  bookingDate: CalendarDay;
  /** The day the money counts from (interest), where the file gives one. */
  valueDate: CalendarDay | null;
  /** Money in positive, out negative; a reversal on the side it really moves money. */
  amount: Cents;
  /** The bank's reference for it (camt AcctSvcrRef, MT940's bank reference, OFX FITID…). */
  reference: string | null;
  counterparty: string | null;
  /** The counterparty's account as the file writes it, where it does (CODA, CFONB 120). */
  counterpartyAccount?: string | null;
  description: string;
  status: EntryStatus;
  /** The file line it starts on, for what is said of it. */
  line: number;
}

export interface BankStatement {
  /** The account as the file identifies it: an IBAN (spaces removed) or the bank's number. */
  account: string | null;
  /** ISO 4217, where the file says. */
  currency: string | null;
  from: CalendarDay | null;
  to: CalendarDay | null;
  /** The booked balances the bank states at the start and the end; null where it states none. */
  opening: Cents | null;
  closing: Cents | null;
  entries: StatementEntry[];
  /** A credit card's statement (OFX CCSTMTRS, QIF CCard), not a bank account's. */
  card: boolean;
  /** The file line it starts on. */
  line: number;
}

/** What a file says against itself, by line: said, never a reason to stop reading. */
export interface StatementCheck {
  line: number;
  message: string;
}

export interface StatementFile {
  file: string;
  format: StatementFormatName;
  statements: BankStatement[];
  /** Opening + entries ≠ closing, a control total, a sequence gap, what was tolerated. */
  checks: StatementCheck[];
  /**
   * Rows that could not be read (a bank CSV's bad day or amount), each with its line; the
   * others are read. A command refuses a file that has any, naming them all.
   */
  problems?: StatementCheck[];
}

export const STATEMENT_FORMATS_NAMES = [
  'camt',
  'mt940',
  'ofx',
  'bai2',
  'qif',
  'coda',
  'norma43',
  'cfonb120',
  'bank-csv',
] as const;
export type StatementFormatName = (typeof STATEMENT_FORMATS_NAMES)[number];

/** A statement file that cannot be read: truncated, not the format it claims, bytes unknown. */
export class UnreadableStatement extends Error {
  override name = 'UnreadableStatement';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** How a bank CSV's columns are named (`--map`) and its amounts and dates written. */
export interface StatementReadOptions {
  /** `--map field=Header,…` for a bank's CSV. */
  map?: Partial<Record<BankCsvField, string>>;
  /** `--date-format` where the file does not settle it. */
  dateFormat?: DateFormat;
  /** The order of `a/b/year` days where neither the file nor a flag tells it (`books config set date-format`). */
  usualDateFormat?: DateFormat;
  decimalComma?: boolean;
  encoding?: string;
  /** `--account` / `--currency` for a file that names none (a QIF, a bank CSV). */
  account?: string;
  currency?: string;
}

export const BANK_CSV_FIELDS = [
  'date',
  'valueDate',
  'amount',
  'debit',
  'credit',
  'description',
  'counterparty',
  'reference',
  'balance',
  'status',
  'currency',
  'account',
] as const;
export type BankCsvField = (typeof BANK_CSV_FIELDS)[number];

/** One statement format: how it is told from its first bytes, and its reader. */
export interface StatementFormatDefinition {
  name: StatementFormatName;
  /** As said: `ISO 20022 camt.053`. */
  title: string;
  /** The file's first 4 kB (bytes as Latin-1) show it. */
  detect?: (head: string) => boolean;
  read(file: string, options: StatementReadOptions): Promise<Omit<StatementFile, 'file'>>;
}

/**
 * An amount as a bank file writes it (`1234.56`, `1234,56` with `decimalComma`, `0.10000`),
 * unsigned unless `signed`, to cents. Decimals past the second must be zeros: a currency of
 * three decimals (BHD, KWD) cannot be held to the cent, and is refused rather than rounded.
 */
export function bankAmount(
  text: string,
  options: { decimalComma?: boolean; signed?: boolean } = {},
): Cents {
  const raw = text.trim();
  let body = options.decimalComma ? raw.replace(',', '.') : raw;
  let negative = false;
  if (options.signed && (body.startsWith('-') || body.startsWith('+'))) {
    negative = body.startsWith('-');
    body = body.slice(1);
  }
  const match = /^(\d*)(?:\.(\d*))?$/.exec(body);
  if (!match || (match[1] === '' && (match[2] ?? '') === ''))
    throw new InvalidAmountError(`"${raw}" is not an amount`);
  const whole = match[1] || '0';
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction.slice(2)))
    throw new InvalidAmountError(
      `"${raw}" has more than 2 decimals, which books cannot hold to the cent`,
    );
  const digits = whole.replace(/^0+(?=\d)/, '');
  if (digits.length > 12)
    throw new InvalidAmountError(`"${raw}" is larger than 999,999,999,999.99`);
  const cents = decimalToCents(`${digits}.${fraction.slice(0, 2).padEnd(2, '0')}`);
  return negative ? negateCents(cents) : cents;
}

/** The sum of a statement's booked entries. */
export function bookedSum(statement: Pick<BankStatement, 'entries'>): Cents {
  let sum = ZERO_CENTS;
  for (const entry of statement.entries)
    if (entry.status === 'booked') sum = addCents(sum, entry.amount);
  return sum;
}

/**
 * The statement against itself: the opening balance and its booked entries should make the
 * closing balance. Said with the figures when they do not.
 */
export function balanceCheck(statement: BankStatement, label: string): StatementCheck | undefined {
  if (statement.opening === null || statement.closing === null) return undefined;
  const made = addCents(statement.opening, bookedSum(statement));
  if (made === statement.closing) return undefined;
  return {
    line: statement.line,
    message: `${label}: the opening balance ${formatCents(statement.opening)} and the booked entries (${formatCents(bookedSum(statement))}) make ${formatCents(made)}, but the closing balance is ${formatCents(statement.closing)} (${formatCents(subtractCents(statement.closing, made))} apart)`,
  };
}

/**
 * A reference a statement gives more than one of its entries is no one entry's: what is brought
 * in is keyed by it, and the second would pass for the first and be lost. Taken off them, said;
 * such entries are then told apart by account, day, amount and text. (The same reference in two
 * statements of a file may be one entry stated twice, overlapping statements: it is kept.)
 */
export function dropSharedReferences(
  statements: readonly BankStatement[],
  checks: StatementCheck[],
  format: string,
): void {
  for (const statement of statements) {
    const byReference = new Map<string, StatementEntry[]>();
    for (const entry of statement.entries)
      if (entry.reference !== null)
        byReference.set(entry.reference, [...(byReference.get(entry.reference) ?? []), entry]);
    for (const [reference, entries] of byReference) {
      if (entries.length < 2) continue;
      for (const entry of entries) entry.reference = null;
      checks.push({
        line: entries[0]!.line,
        message: `${format}: the reference ${reference} is on ${entries.length} entries of one statement (lines ${entries.map((e) => e.line).join(', ')}): not taken as theirs`,
      });
    }
  }
}

/** Each statement against itself (`balanceCheck`), said with `prefix` (`MT940: `) where not. */
export function checkBalances(
  statements: readonly BankStatement[],
  checks: StatementCheck[],
  prefix = '',
): void {
  statements.forEach((statement, index) => {
    const check = balanceCheck(
      statement,
      `${prefix}${statementLabel(statement, index, statements.length)}`,
    );
    if (check) checks.push(check);
  });
}

/** `statement 2 of 3 (NL91ABNA0417164300)`, as the checks name a statement. */
export const statementLabel = (statement: BankStatement, index: number, count: number) =>
  `${count > 1 ? `statement ${index + 1} of ${count}` : 'the statement'}${statement.account ? ` (${statement.account})` : ''}`;

/** The period a statement covers where its file states none: its entries' first and last days. */
export function entriesPeriod(entries: readonly StatementEntry[]): {
  from: CalendarDay | null;
  to: CalendarDay | null;
} {
  let from: CalendarDay | null = null;
  let to: CalendarDay | null = null;
  for (const entry of entries) {
    if (from === null || entry.bookingDate < from) from = entry.bookingDate;
    if (to === null || entry.bookingDate > to) to = entry.bookingDate;
  }
  return { from, to };
}

/** `20260131` or `2026-01-31` (and a time after it) to a calendar day, else undefined. */
export function compactOrIsoDay(text: string): CalendarDay | undefined {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(trimmed);
  const compact = /^(\d{4})(\d{2})(\d{2})/.exec(trimmed);
  const match = iso ?? compact;
  if (!match) return undefined;
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  return isCalendarDay(day) ? day : undefined;
}

/**
 * A two-digit year as bank files write it (`YYMMDD`): the century that puts it nearest to
 * `near` (the file's other dates, or today), as SWIFT's own rule reads 50–99 as 19xx.
 */
export function dayOfYymmdd(text: string): CalendarDay | undefined {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!match) return undefined;
  const yy = Number(match[1]);
  const day = `${yy >= 80 ? 19 : 20}${match[1]}-${match[2]}-${match[3]}`;
  return isCalendarDay(day) ? day : undefined;
}

/** The day after, for a balance stated at the end of a day. */
export const dayAfter = (day: CalendarDay) => addDays(day, 1);

/**
 * The first day of a statement whose opening balance is dated the end of the day before (MT940,
 * CODA, CFONB): the day after that one — or the first entry's day where the bank dates its
 * opening on it, or the closing's where it dates both the same.
 */
export function periodStart(
  openingDay: CalendarDay,
  closingDay: CalendarDay | undefined,
  entriesFrom: CalendarDay | null,
): CalendarDay {
  if (entriesFrom !== null && openingDay >= entriesFrom) return entriesFrom;
  if (closingDay !== undefined && openingDay >= closingDay) return openingDay;
  return dayAfter(openingDay);
}

/** ISO 13616's mod 97 of an account's characters (letters as 10 to 35). */
function ibanRemainder(text: string): number {
  let remainder = 0;
  for (const character of text) {
    const value = /\d/.test(character) ? character : String(character.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** An IBAN by its check digits (ISO 13616: mod 97 of the rearranged number is 1). */
export function isIban(text: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(text)) return false;
  return ibanRemainder(`${text.slice(4)}${text.slice(0, 4)}`) === 1;
}

/** The IBAN of a country's national account number (`BE`, `539007547034` → `BE68539007547034`). */
export function ibanOf(country: string, bban: string): string {
  const check = 98 - ibanRemainder(`${bban}${country}00`);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

/**
 * An account as a statement names it: an IBAN without its spaces (ING writes the currency after
 * it: `NL12INGB0001234567EUR`), else the bank's number as written.
 */
export function ibanWithCurrency(text: string): {
  account: string | null;
  currency: string | null;
} {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  if (compact === '') return { account: null, currency: null };
  if (isIban(compact)) return { account: compact, currency: null };
  const suffix = /^(.*?)([A-Z]{3})$/.exec(compact);
  if (suffix && isIban(suffix[1]!)) return { account: suffix[1]!, currency: suffix[2]! };
  return { account: text.trim(), currency: null };
}

/** Two ways of writing one account (`NL91 ABNA 0417 1643 00`, `nl91abna0417164300`) compared. */
export const sameAccount = (a: string, b: string) =>
  a.replace(/[\s./-]+/g, '').toUpperCase() === b.replace(/[\s./-]+/g, '').toUpperCase();
