import type {
  GeneralLedger,
  GeneralLedgerEntry,
  LedgerBasis,
  SourceType,
} from '../../../api/index.js';
import type { CalendarDay } from '../../../core/calendar.js';
import {
  addCents,
  centsToAmount,
  signedCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../../core/money.js';
import { naturalSign, type ReportAccount } from './ledgerData.js';

/** One posting as the general ledger shows it. */
export interface LedgerPosting {
  accountSeq: number;
  day: CalendarDay;
  debitCents: Cents;
  creditCents: Cents;
  description: string;
  memo: string;
  counterpartyName: string | null;
  /** The posting's tax code, where it carries one. */
  taxCode?: string | null;
  /** The journal entry, bank transaction or opening balance it belongs to. */
  sourceId: string;
  sourceType: SourceType;
}

export interface GeneralLedgerInput {
  /** The accounts to show, in chart order. */
  accounts: readonly ReportAccount[];
  /** Debits minus credits per account before the start date. */
  opening: ReadonlyMap<number, Cents>;
  /** The range's postings, by date and then creation. */
  postings: readonly LedgerPosting[];
  /** The timestamp of a calendar day (its start in the workspace time zone). */
  timestampOf: (day: CalendarDay) => string;
  /** List every given account, even without activity or balance (one account was asked for). */
  listEvery: boolean;
}

/** What the general ledger says of an account before its entries. */
export interface LedgerAccountHead {
  accountId: string;
  accountCode: number;
  accountName: string;
  openingBalance: number;
}

/**
 * One account's part of the general ledger, entry by entry: its head (with the balance before
 * the start date), each posting with the running balance, and the closing balance, all in the
 * account's natural sign. The general ledger is written account by account with it, whole or
 * streamed.
 */
export function ledgerAccount(
  account: ReportAccount,
  openingNet: Cents,
  timestampOf: (day: CalendarDay) => string,
) {
  const sign = naturalSign(account.class);
  const opening = signedCents(openingNet, sign);
  let balance = opening;
  return {
    head: {
      accountId: account.id,
      accountCode: Number(account.code),
      accountName: account.name,
      openingBalance: centsToAmount(opening),
    } satisfies LedgerAccountHead,
    entry(posting: LedgerPosting): GeneralLedgerEntry {
      balance = addCents(
        balance,
        signedCents(subtractCents(posting.debitCents, posting.creditCents), sign),
      );
      const entry: GeneralLedgerEntry = {
        date: timestampOf(posting.day),
        balance: centsToAmount(balance),
        debitAmount: posting.debitCents > 0 ? centsToAmount(posting.debitCents) : null,
        creditAmount: posting.creditCents > 0 ? centsToAmount(posting.creditCents) : null,
        description: posting.description,
        memo: posting.memo,
        counterpartyName: posting.counterpartyName,
        journalEntryId: posting.sourceId,
        sourceType: posting.sourceType,
      };
      // A local-platform addition: only where the posting carries a code.
      if (posting.taxCode) entry.taxCode = posting.taxCode;
      return entry;
    },
    closingBalance: () => centsToAmount(balance),
  };
}

/**
 * General ledger: per account, the balance before the start date, each posting with the
 * running balance, and the closing balance, all in natural sign. (The platform streams it
 * account by account with `ledgerAccount`; this whole form is the same report at once.)
 */
export function generalLedger(
  spec: {
    entityId: string;
    startDate: CalendarDay;
    endDate: CalendarDay;
    ledgerBasis: LedgerBasis;
  },
  input: GeneralLedgerInput,
): GeneralLedger {
  const postingsByAccount = new Map<number, LedgerPosting[]>();
  for (const posting of input.postings) {
    const list = postingsByAccount.get(posting.accountSeq) ?? [];
    list.push(posting);
    postingsByAccount.set(posting.accountSeq, list);
  }
  const accounts = input.accounts
    .filter(
      (account) =>
        input.listEvery ||
        postingsByAccount.has(account.seq) ||
        (input.opening.get(account.seq) ?? 0) !== 0,
    )
    .map((account) => {
      const ledger = ledgerAccount(
        account,
        input.opening.get(account.seq) ?? ZERO_CENTS,
        input.timestampOf,
      );
      const entries = (postingsByAccount.get(account.seq) ?? []).map(ledger.entry);
      return { ...ledger.head, closingBalance: ledger.closingBalance(), entries };
    });
  return {
    entityId: spec.entityId,
    startDate: spec.startDate,
    endDate: spec.endDate,
    ledgerBasis: spec.ledgerBasis,
    accounts,
  };
}
