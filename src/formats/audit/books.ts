import type { AccountClass, AccountType, LedgerBasis } from '../../api/index.js';
import type { CalendarDay } from '../../core/calendar.js';
import { subtractCents, type Cents } from '../../core/money.js';

/*
 * An entity's books over a range, as every audit file writes them (<format>/writer.ts): its
 * chart with each account's opening and closing balance, the openings, the file's control
 * totals, and its entries in date order, numbered from 1. The export (src/migrate/export/
 * auditBooks.ts) reads them through the API and hands them over; the writers only write.
 */

export interface AuditAccount {
  code: string;
  name: string;
  type: AccountType;
  class: AccountClass;
  /** Debit-positive, in cents: before the range, and at its end (opening + movement). */
  opening: Cents;
  closing: Cents;
  /** The range's debits and credits on it. */
  debit: Cents;
  credit: Cents;
  /** Not in the entity's chart: the retained-earnings account the format's usual chart has. */
  added: boolean;
}

export interface AuditLine {
  code: string;
  debit: Cents;
  credit: Cents;
  description: string;
  /** The line's tax code, where it carries one. */
  taxCode?: string;
}

export interface AuditEntry {
  /** 1, 2, … in date order. */
  number: number;
  /** The platform's id of what posted it (a journal entry, a bank transaction, …). */
  reference: string;
  date: CalendarDay;
  /** `manual`, `migration`, `transaction` (a bank transaction) or `opening_balance`. */
  source: string;
  memo: string;
  lines: AuditLine[];
}

/** A tax code as the audit files describe it: its name, and its rates (oldest first). */
export interface AuditTaxCode {
  code: string;
  name: string;
  rates: readonly { from: CalendarDay | null; percent: number }[];
  /** The accounts (by code) of its VAT due and reclaimed, where not the entity's `vatAccounts`. */
  outputAccount?: string;
  inputAccount?: string;
}

/** The percentage of `code` on `day`: the latest rate holding by then (0 before any). */
export const ratePercentOn = (code: AuditTaxCode, day: CalendarDay): number =>
  code.rates.findLast((rate) => rate.from === null || rate.from <= day)?.percent ?? 0;

/**
 * What an entry's VAT lines (coded lines on the entity's VAT accounts) post under each code,
 * debit-positive, one amount a line: the tax amounts the audit files state on the code's base.
 */
export function vatLinesByCode(
  entry: AuditEntry,
  vatAccountCodes: ReadonlySet<string>,
): Map<string, Cents[]> {
  const vatLines = new Map<string, Cents[]>();
  for (const line of entry.lines)
    if (line.taxCode && vatAccountCodes.has(line.code))
      vatLines.set(line.taxCode, [
        ...(vatLines.get(line.taxCode) ?? []),
        subtractCents(line.debit, line.credit),
      ]);
  return vatLines;
}

/** The account that takes the results of the years before the range. */
export interface RetainedEarningsAccount {
  code: string;
  name: string;
}

export interface AuditBooks {
  entity: { id: string; name: string };
  basis: LedgerBasis;
  from: CalendarDay;
  to: CalendarDay;
  /** The fiscal year holding `from`. */
  fiscalYear: { startDate: CalendarDay; endDate: CalendarDay };
  /** Accounts with a balance or a posting, in code order (numbers numerically). */
  accounts: AuditAccount[];
  accountByCode: Map<string, AuditAccount>;
  /** Balances carried in on `from`: balance-sheet accounts and the retained earnings; net zero. */
  openings: { code: string; amount: Cents }[];
  /** What the retained-earnings account took (zero when no results came before `from`). */
  retainedEarnings: RetainedEarningsAccount & { amount: Cents; added: boolean };
  /** The entries' figures (not the openings'): lines of a zero amount are left out. */
  totals: { entries: number; lines: number; debit: Cents; credit: Cents };
  /** How many entries each source posted (`manual`, `transaction`, …). */
  sources: Map<string, number>;
  /** Lines of a zero amount left out, and entries that had nothing else. */
  leftOut: { lines: number; entries: number };
  /** The entity's VAT accounts (by code): a coded line on one is the VAT of its code. */
  vatAccountCodes?: ReadonlySet<string>;
  /** The entity's tax codes (where it keeps them), and its VAT accounts of each side by code. */
  taxCodes?: readonly AuditTaxCode[];
  vatAccounts?: { output: string; input: string };
  /** The entity's VAT number, where its tax setting gives one. */
  vatNumber?: string;
  /** The previous fiscal year (when asked and it has postings): its closing and results. */
  previousYear?: {
    startDate: CalendarDay;
    endDate: CalendarDay;
    closing: Map<string, Cents>;
    results: Map<string, Cents>;
    /** The name and class of every account it names. */
    accounts: Map<string, { name: string; class: AccountClass }>;
  };
  entries(): AsyncIterable<AuditEntry>;
  /** Removes the spooled postings. */
  dispose(): void;
}
