import { createHash } from 'node:crypto';
import type { Account, CreateJournalEntryBody, LedgerBasis } from '../../api/index.js';
import type { BooksApi } from '../../client/index.js';
import { absCents, centsToAmount } from '../../core/money.js';
import type { BankEntry } from './match.js';

/*
 * `books reconcile --post-missing ACCOUNT`: each statement entry missing in the books posted as
 * a journal entry between the reconciled account and ACCOUNT, dated as the bank booked it.
 * Keyed by the bank's reference (else by its day, amount and text): a retry replays, and a
 * rerun finds them in the books and posts nothing twice.
 */

const MEMO_MAX = 1000;
const BULK = 100;

/** The text an entry is posted with: what the bank says of it, and its reference. */
export function postedMemo(entry: BankEntry): string {
  const text = [entry.counterparty, entry.description].filter((t) => t && t.trim() !== '');
  const unique = text.length === 2 && text[1]!.includes(text[0]!) ? [text[1]!] : text;
  const memo = `${unique.join(': ') || 'Bank entry'}${entry.reference ? ` (ref ${entry.reference})` : ''}`;
  return [...memo].slice(0, MEMO_MAX).join('');
}

/** A journal entry for a statement entry: money in debits the bank account, money out credits it. */
function bodyOf(
  entry: BankEntry,
  bank: Account,
  other: Account,
  basis: LedgerBasis,
): CreateJournalEntryBody {
  const amount = centsToAmount(absCents(entry.amount));
  const inflow = entry.amount > 0;
  const memo = postedMemo(entry);
  return {
    date: entry.bookingDate,
    ledgerBasis: basis,
    memo,
    lines: [
      {
        accountId: bank.id,
        ...(inflow ? { debitAmount: amount } : { creditAmount: amount }),
        description: memo,
      },
      {
        accountId: other.id,
        ...(inflow ? { creditAmount: amount } : { debitAmount: amount }),
        description: memo,
      },
    ],
  };
}

/** Posts the entries, a hundred to a keyed request; resolves with the journal entries' ids. */
export async function postMissing(
  api: BooksApi,
  entityId: string,
  entries: readonly BankEntry[],
  accounts: { bank: Account; other: Account },
  basis: LedgerBasis,
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < entries.length; start += BULK) {
    const chunk = entries.slice(start, start + BULK);
    const key = createHash('sha256')
      .update(['reconcile', entityId, accounts.bank.id, accounts.other.id, basis].join('\n'))
      .update(
        chunk
          .map((e) => e.reference ?? `${e.bookingDate}|${e.amount}|${e.description}|${e.line}`)
          .join('\n'),
      )
      .digest('hex');
    const { data } = await api.journalEntries.bulkCreate(
      entityId,
      chunk.map((e) => bodyOf(e, accounts.bank, accounts.other, basis)),
      `reconcile-${key.slice(0, 48)}`,
    );
    ids.push(...data.map((e) => e.id));
  }
  return ids;
}
