import type { CalendarDay } from '../../core/calendar.js';
import { formatCents, type Cents } from '../../core/money.js';
import { listed } from '../../core/names.js';
import type { AuditBooks, AuditEntry, RetainedEarningsAccount } from './books.js';
import type { CharsetText } from './text.js';

/*
 * What each audit-file writer (fec.ts, saft.ts, xaf.ts, sie.ts, datev.ts) hands the export
 * (index.ts): its name, character set, file name, the account its country's charts give the
 * earlier years' results, and the writing itself, to a sink that encodes and streams.
 */

export const AUDIT_FORMATS = ['fec', 'saft', 'xaf', 'sie', 'datev'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

export interface WriterOptions {
  /** `--org-number`, checked by the format's register (identifiers.ts) and as it is written. */
  orgNumber?: string | undefined;
  /** SAF-T's contact person (`--contact "First Last"`) and telephone (`--phone`). */
  contact?: { firstName: string; lastName: string } | undefined;
  phone?: string | undefined;
  datev?: { consultant: number; client: number; skr: '03' | '04' } | undefined;
  /** ISO 4217; each format's country's currency unless `--currency`. */
  currency: string;
  createdAt: Date;
  /** The day `createdAt` falls on, where the firm is. */
  createdOn: CalendarDay;
  software: { name: string; version: string };
}

/** Writes text to the file, encoded in the format's character set; resolves when it may go on. */
export type Put = (text: string) => Promise<void>;

export interface AuditFileWriter {
  format: AuditFormat;
  /** As said to the user: `SAF-T Financial 1.30`. */
  title: string;
  /** An iconv-lite encoding name. */
  encoding: string;
  /** The format and its character set as said when text was replaced. */
  charset: string;
  /** Characters of the format's syntax that text may not hold, and what replaces them. */
  forbidden?: { characters: string; replacement: string };
  /** Its country's currency, written unless `--currency`. */
  currency: string;
  /**
   * The account its country's charts give the earlier years' results (`carried`, debit-positive:
   * a loss is a debit).
   */
  retainedEarnings(options: WriterOptions, carried: Cents): RetainedEarningsAccount;
  /** The range must lie within one fiscal year (and for `fiscalYearStart`, begin it). */
  oneFiscalYear: boolean;
  fromFiscalYearStart?: boolean;
  /** `--org-number` is required. */
  needsOrgNumber: boolean;
  fileName(books: AuditBooks, options: WriterOptions): string;
  /** Checks the books can be written (account codes the format cannot hold): a sentence, or none. */
  refusal?(books: AuditBooks, options: WriterOptions): string | undefined;
  /** What the user should know of how the books were written (said on stderr). */
  notes?(books: AuditBooks, options: WriterOptions): string[];
  write(books: AuditBooks, put: Put, text: CharsetText, options: WriterOptions): Promise<void>;
}

/** `1234.56`, `-0.50`: a decimal point, no grouping. */
export const decimal = (cents: Cents) => formatCents(cents, { thousands: false });

/** `1234,56`: a decimal comma, no grouping (the FEC's and DATEV's amounts). */
export const decimalComma = (cents: Cents) => decimal(cents).replace('.', ',');

/** `2026-03-31` → `20260331`. */
export const compactDay = (day: CalendarDay) => day.replaceAll('-', '');

/** Text escaped for XML (element content and attributes). */
export const xmlText = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** At most `length` characters (by code point), never half a surrogate pair. */
export const cut = (value: string, length: number) => {
  const characters = [...value];
  return characters.length <= length ? value : characters.slice(0, length).join('');
};

/** What an entry is called where the platform gave it no memo and its line no description. */
export const SOURCE_LABELS: Record<string, string> = {
  manual: 'Journal entry',
  migration: 'Journal entry (migrated)',
  transaction: 'Bank transaction',
  opening_balance: 'Opening balance',
};

/** What an entry is called: its memo, else what posted it and its number (`Bank transaction 7`). */
export const entryDescription = (entry: AuditEntry) =>
  entry.memo.trim() || `${SOURCE_LABELS[entry.source] ?? 'Journal entry'} ${entry.number}`;

/** An XML element's text: as the character set holds it, cut to the schema's length, escaped. */
export const xmlField = (text: CharsetText) => (value: string, length: number) =>
  xmlText(cut(text.text(value), length));

/** Whether any entry was posted by one of `sources` (a journal that holds them has some). */
export const holdsEntries = (books: AuditBooks, sources: readonly string[]) =>
  sources.some((source) => (books.sources.get(source) ?? 0) > 0);

/** Where a format's accounts are numbers (SIE, DATEV): the codes that are not, said. */
export function numbersOnly(format: string, books: AuditBooks): string | undefined {
  const named = books.accounts.filter((a) => !/^\d+$/.test(a.code));
  if (named.length === 0) return undefined;
  const codes = listed(
    named.map((a) => `"${a.code}" (${a.name})`),
    5,
  );
  return `${format} accounts are numbers: ${codes} cannot be written`;
}
