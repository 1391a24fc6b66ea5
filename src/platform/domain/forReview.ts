/**
 * The for-review queue's suggestions: for each waiting bank line, the decision a bookkeeper
 * would most likely make, and why. Pure: the queue, the client's learned history, its journal
 * entries on its bank accounts and what the firm's other clients decided come in; suggestions
 * go out.
 *
 * In order of what the books can least afford to get wrong:
 * 1. a **match**: a journal entry already posts this money on this bank account (payroll
 *    posted by journal, the bank line following): posting the line too would count it twice;
 * 2. a **transfer**: the opposite amount arrived on another of the client's own accounts within
 *    days (checking pays the card): posting both as income and expense would invent both;
 * 3. an **account** (or a transfer) learned from the client's own decisions;
 * 4. where the client has never seen the payee, what the firm's other clients decided, on the
 *    account of the same name in this client's chart, with less confidence.
 */
import { confidenceRoundedDown } from '../../core/confidence.js';
import { alikeTexts } from '../../core/duplicates.js';
import { asCents, formatCents } from '../../core/money.js';
import {
  payeeLabel,
  payeeWords,
  type LearnedCategories,
  type Prediction,
  type UnlabeledLine,
} from './categoryLearning.js';

/** A waiting bank line. */
export interface WaitingLine extends UnlabeledLine {
  id: string;
  /** How its bank account is named: `1010 Chase Checking`. */
  bankAccountName: string;
}

/** A journal entry's line on a bank or card account (what a match looks for). */
export interface EntryOnBank {
  entryId: string;
  day: string;
  memo: string | null;
  description: string;
  bankAccountId: string;
  /** Debits less credits on the bank account: as the bank states it. */
  amountCents: number;
  /** The entry's largest other line's account. */
  otherAccountId: string | null;
}

/**
 * What the firm's other clients decided of a payee: account names (and, where their charts keep
 * the firm's codes, the code), how often, by how many.
 */
export interface FirmDecisions {
  byAccountName: Map<string, { name: string; code?: string; uses: number; clients: Set<string> }>;
  total: number;
}

/** An account as the suggestions name it. */
export interface AccountInfo {
  id: string;
  code: string;
  name: string;
  /** A bank or card account (Cash, Credit Cards): posting to it is a transfer. */
  isBank: boolean;
  usable: boolean;
}

export interface SuggestionOut {
  kind: 'account' | 'transfer' | 'match';
  accountId: string;
  confidence: number;
  reason: string;
  transactionId?: string;
  entryId?: string;
}

/** Days apart a transfer's two sides may arrive. */
export const TRANSFER_DAYS = 5;
/**
 * How far from its bank line a journal entry that posts it may be dated: up to 90 days before
 * (a cheque cashed late) and 20 after (an entry dated when the bill was due), as QuickBooks
 * looks for a bank line's match.
 */
export const MATCH_DAYS_BEFORE = 90;
export const MATCH_DAYS_AFTER = 20;

/**
 * What the books know of a bank account's statements: the entries they cleared, where the last
 * reconciled one ended, where the first one the books hold began. An entry the bank cleared, or
 * dated on or before the end of the last reconciled statement, or before the first statement
 * (it is in the account's opening balance), is no new bank line's match.
 */
export interface MatchWindow {
  reconciled: ReadonlySet<string>;
  /** By bank or card account: the last day of its last reconciled statement. */
  lastReconciled: ReadonlyMap<string, string>;
  /** By bank or card account: the first day its statements in the books cover. */
  firstStatement: ReadonlyMap<string, string>;
}

export const NO_MATCH_WINDOW: MatchWindow = {
  reconciled: new Set(),
  lastReconciled: new Map(),
  firstStatement: new Map(),
};

/** Confidence of a firm-wide suggestion, at most: below what `--auto` takes by default. */
export const FIRM_CONFIDENCE_CAP = 0.85;

/** Words that say a line moves money between one's own accounts. */
const TRANSFER_WORDS =
  /\b(transfer|xfer|trnsfr|tfr|trf|payment thank you|thank you|autopay|auto pay|online banking|internal|to savings|from savings|to checking|from checking|card payment|credit card|epay|bill pay)\b/i;

const dayNumber = (day: string) =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) /
  86_400_000;
const daysApart = (a: string, b: string) => Math.abs(dayNumber(a) - dayNumber(b));

const money = (cents: number) => formatCents(asCents(Math.abs(cents)), { thousands: true });
const quote = (text: string) => `"${text.length > 40 ? `${text.slice(0, 39)}…` : text}"`;
const named = (account: AccountInfo) => `${account.code} ${account.name}`.trim();

/** The other sides a waiting line's transfer may have: opposite amount, another account, days apart. */
export function transferPartners(line: WaitingLine, queue: readonly WaitingLine[]): WaitingLine[] {
  return partnersAmong(line, queue);
}

function partnersAmong(line: WaitingLine, candidates: readonly WaitingLine[]): WaitingLine[] {
  return candidates
    .filter(
      (other) =>
        other.id !== line.id &&
        other.bankAccountId !== line.bankAccountId &&
        other.amountCents === -line.amountCents &&
        daysApart(other.day, line.day) <= TRANSFER_DAYS,
    )
    .sort((a, b) => daysApart(a.day, line.day) - daysApart(b.day, line.day));
}

/** A queue's lines by their amount, so that each finds its opposite at once. */
function byAmount(queue: readonly WaitingLine[]): Map<number, WaitingLine[]> {
  const index = new Map<number, WaitingLine[]>();
  for (const line of queue) {
    const list = index.get(line.amountCents);
    if (list) list.push(line);
    else index.set(line.amountCents, [line]);
  }
  return index;
}

/**
 * The journal entries that may already post a waiting line: on its bank account, of its
 * amount, not matched to another line nor cleared by a reconciled statement, dated from 90 days
 * before it to 20 after and inside the statements the books hold (the window); those whose text
 * agrees with the line's first, the nearest in days next.
 */
export function entryMatches(
  line: WaitingLine,
  entries: readonly EntryOnBank[],
  matched: ReadonlySet<string>,
  window: MatchWindow = NO_MATCH_WINDOW,
): EntryOnBank[] {
  const day = dayNumber(line.day);
  const lastReconciled = window.lastReconciled.get(line.bankAccountId);
  const firstStatement = window.firstStatement.get(line.bankAccountId);
  return entries
    .filter((entry) => {
      if (matched.has(entry.entryId) || window.reconciled.has(entry.entryId)) return false;
      if (entry.bankAccountId !== line.bankAccountId || entry.amountCents !== line.amountCents)
        return false;
      const offset = dayNumber(entry.day) - day;
      if (offset < -MATCH_DAYS_BEFORE || offset > MATCH_DAYS_AFTER) return false;
      if (lastReconciled !== undefined && entry.day <= lastReconciled) return false;
      return firstStatement === undefined || entry.day >= firstStatement;
    })
    .map((entry) => ({ entry, agrees: textsAgree(line.text, entry) }))
    .sort(
      (a, b) =>
        Number(b.agrees) - Number(a.agrees) ||
        daysApart(a.entry.day, line.day) - daysApart(b.entry.day, line.day),
    )
    .map(({ entry }) => entry);
}

/**
 * Whether a bank line's text and a journal entry's agree: a word of substance in common (the
 * payee, what was bought), or a number of four digits or more of the line's (a cheque's, an
 * invoice's) in the entry.
 */
export function textsAgree(lineText: string, entry: Pick<EntryOnBank, 'description' | 'memo'>) {
  const text = `${entry.description} ${entry.memo ?? ''}`;
  if (alikeTexts(lineText, text) && lineText.trim() !== '' && text.trim() !== '') return true;
  const numbers = lineText.match(/\d{4,}/g) ?? [];
  return numbers.some((n) => text.includes(n.replace(/^0+/, '')));
}

/**
 * How sure a match is: sure only where the texts agree and the days are near; a week apart with
 * nothing in common is no sure match. `sole`: no other entry fits, and no other line wants it.
 */
export function matchConfidence(line: WaitingLine, entry: EntryOnBank, sole: boolean): number {
  const apart = daysApart(entry.day, line.day);
  const agrees = textsAgree(line.text, entry);
  if (!sole) return agrees ? 0.7 : 0.5;
  if (agrees) return apart <= 3 ? 0.97 : apart <= 10 ? 0.93 : apart <= 20 ? 0.9 : 0.85;
  return apart <= 3 ? 0.85 : apart <= 7 ? 0.75 : 0.6;
}

/**
 * The reason of a learned suggestion, in a bookkeeper's words: the strongest of what the
 * history says (all nine earlier STAPLES, rather than the one of a like amount; the amount's
 * record where that is what decides).
 */
export function learnedReason(
  prediction: Prediction,
  line: UnlabeledLine,
  account: AccountInfo,
): string {
  const { evidence } = prediction;
  const record = evidence.strongest;
  const where = account.isBank
    ? `were transfers to ${named(account)}`
    : `went to ${named(account)}`;
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  switch (record.level) {
    case 'prior':
      return `no earlier ${payeeLabel(payeeWords(line.text)) || 'line like it'}; most money ${line.amountCents > 0 ? 'in' : 'out'} ${where}`;
    case 'similar':
      return `no earlier ${record.label}; of the ${plural(record.total, 'earlier line')} most like it (${evidence.like.map((text) => text.toUpperCase()).join(', ')}), ${record.agreeing} ${where}`;
    default: {
      const of =
        record.level === 'text-amount'
          ? ` of ${money(line.amountCents)}`
          : record.level === 'like-amount' || record.level === 'payee-amount'
            ? ' of a like amount'
            : record.level === 'text-account'
              ? ' on this bank account'
              : '';
      const earlier = `earlier ${record.label}${of}`;
      if (record.agreeing * 2 <= record.total && record.latestRun > 0)
        return `the latest ${record.latestRun} of ${record.total} ${earlier} ${where}`;
      return record.agreeing === record.total
        ? `${record.total === 1 ? 'the one' : `all ${record.total}`} ${earlier} ${where}`
        : `${record.agreeing} of ${record.total} ${earlier} ${where}`;
    }
  }
}

/** Whether a prediction knows the payee itself (not only texts like it, or nothing). */
const knowsPayee = (prediction: Prediction | undefined) =>
  prediction !== undefined &&
  prediction.evidence.level !== 'prior' &&
  prediction.evidence.level !== 'similar';

/**
 * Suggestions for a queue. `accounts` describes the entity's chart; `firm` answers what the
 * firm's other clients decided of a payee (by its payee words and direction).
 */
export function suggestForQueue(input: {
  queue: readonly WaitingLine[];
  learned: LearnedCategories | undefined;
  entries: readonly EntryOnBank[];
  matchedEntries: ReadonlySet<string>;
  /** What the books know of the statements (default: nothing reconciled). */
  window?: MatchWindow;
  accounts: ReadonlyMap<string, AccountInfo>;
  /** Account ids by name, lower case (the firm's decisions are mapped by name). */
  accountsByName: ReadonlyMap<string, AccountInfo>;
  /**
   * Accounts by code, where the client's chart keeps the firm's codes (a custom chart): a
   * decision of a client whose chart keeps them too maps to the account of its code.
   */
  accountsByCode?: ReadonlyMap<string, AccountInfo>;
  firm: (words: readonly string[], inflow: boolean) => FirmDecisions | undefined;
}): Map<string, SuggestionOut | null> {
  const { queue, learned, accounts } = input;
  const usable = (id: string) => accounts.get(id)?.usable ?? false;
  // A journal entry wanted by several waiting lines is no sure match for any of them.
  const entryClaims = new Map<string, number>();
  const matchesOf = new Map<string, EntryOnBank[]>();
  const entriesByAmount = new Map<number, EntryOnBank[]>();
  for (const entry of input.entries) {
    const list = entriesByAmount.get(entry.amountCents);
    if (list) list.push(entry);
    else entriesByAmount.set(entry.amountCents, [entry]);
  }
  for (const line of queue) {
    const matches = entryMatches(
      line,
      entriesByAmount.get(line.amountCents) ?? [],
      input.matchedEntries,
      input.window,
    );
    matchesOf.set(line.id, matches);
    for (const entry of matches)
      entryClaims.set(entry.entryId, (entryClaims.get(entry.entryId) ?? 0) + 1);
  }
  const amounts = byAmount(queue);
  const partnersOf = (line: WaitingLine) =>
    partnersAmong(line, amounts.get(-line.amountCents) ?? []);
  const result = new Map<string, SuggestionOut | null>();
  for (const line of queue) {
    const predicted = learned?.predict(line, usable);
    result.set(line.id, suggestOne(line, predicted));
  }
  return result;

  function suggestOne(line: WaitingLine, predicted: Prediction | undefined): SuggestionOut | null {
    // 1. A journal entry already posts it.
    const matches = matchesOf.get(line.id)!;
    const entry = matches[0];
    if (entry) {
      const apart = daysApart(entry.day, line.day);
      const sole = matches.length === 1 && entryClaims.get(entry.entryId) === 1;
      const confidence = matchConfidence(line, entry, sole);
      const agrees = textsAgree(line.text, entry);
      const other = entry.otherAccountId ? accounts.get(entry.otherAccountId) : undefined;
      const bank = accounts.get(line.bankAccountId);
      return {
        kind: 'match',
        accountId: other?.id ?? line.bankAccountId,
        confidence,
        entryId: entry.entryId,
        reason: `journal entry of ${entry.day}${entry.memo || entry.description ? ` ${quote(entry.memo || entry.description)}` : ''} already posts this ${money(line.amountCents)} ${line.amountCents > 0 ? 'into' : 'out of'} ${bank ? named(bank) : 'this account'}${apart > 3 ? `, ${apart} days ${dayNumber(entry.day) < dayNumber(line.day) ? 'before' : 'after'} the line` : ''}${agrees ? '' : '; its text shares nothing with the line’s'}${sole ? '' : `; ${matches.length > 1 ? `${matches.length} entries fit` : 'another bank line fits it too'}`}`,
      };
    }
    // 2. The other side of a transfer arrived.
    const partners = partnersOf(line);
    const partner = partners[0];
    if (partner) {
      const partnerAccount = accounts.get(partner.bankAccountId);
      const learnedTransfer = predicted?.accountId === partner.bankAccountId;
      const worded = TRANSFER_WORDS.test(line.text) || TRANSFER_WORDS.test(partner.text);
      const apart = daysApart(partner.day, line.day);
      const confidence =
        partners.length > 1
          ? 0.6
          : learnedTransfer || (worded && apart <= 3)
            ? 0.97
            : worded
              ? 0.9
              : 0.8;
      if (
        partnerAccount &&
        partnerAccount.usable &&
        (!predicted ||
          !knowsPayee(predicted) ||
          learnedTransfer ||
          predicted.confidence < confidence)
      )
        return {
          kind: 'transfer',
          accountId: partnerAccount.id,
          confidence,
          transactionId: partner.id,
          reason: `the opposite ${money(line.amountCents)} arrived on ${named(partnerAccount)} on ${partner.day} (${quote(partner.text)}): money between the client's own accounts${partners.length > 1 ? `; ${partners.length} lines fit` : ''}`,
        };
    }
    // 3. The client's own history.
    if (predicted && knowsPayee(predicted)) return fromHistory(line, predicted);
    // 4. The firm's other clients.
    const words = payeeWords(line.text);
    const firm = words.length > 0 ? input.firm(words, line.amountCents > 0) : undefined;
    if (firm) {
      let best: { name: string; code?: string; uses: number; clients: Set<string> } | undefined;
      for (const decided of firm.byAccountName.values())
        if (!best || decided.uses > best.uses) best = decided;
      const account =
        best &&
        (input.accountsByName.get(best.name.toLowerCase()) ??
          (best.code === undefined ? undefined : input.accountsByCode?.get(best.code)));
      if (best && account?.usable && account.id !== line.bankAccountId) {
        const confidence = Math.min(
          FIRM_CONFIDENCE_CAP,
          FIRM_CONFIDENCE_CAP * (best.uses / (firm.total + 1)),
        );
        if (!predicted || confidence > predicted.confidence)
          return {
            kind: account.isBank ? 'transfer' : 'account',
            accountId: account.id,
            confidence: round(confidence),
            reason: `no earlier ${payeeLabel(words, 2)} for this client; the firm's other clients sent ${best.uses} of their ${firm.total} ${firm.total === 1 ? 'line' : 'lines'} to ${best.name}${account.name.toLowerCase() === best.name.toLowerCase() ? '' : ` (here ${named(account)})`} (${best.clients.size} ${best.clients.size === 1 ? 'client' : 'clients'})`,
          };
      }
    }
    if (predicted && predicted.evidence.level === 'similar') return fromHistory(line, predicted);
    return null;
  }

  function fromHistory(line: WaitingLine, predicted: Prediction): SuggestionOut | null {
    const account = accounts.get(predicted.accountId);
    if (!account || account.id === line.bankAccountId) return null;
    const partner = account.isBank
      ? partnersOf(line).find((p) => p.bankAccountId === account.id)
      : undefined;
    return {
      kind: account.isBank ? 'transfer' : 'account',
      accountId: account.id,
      confidence: round(predicted.confidence),
      reason: learnedReason(predicted, line, account),
      ...(partner && { transactionId: partner.id }),
    };
  }
}

/** A confidence as the platform gives it: three places, rounded down. */
const round = (value: number) => confidenceRoundedDown(value, 3);

/** Sums the firm's decisions of one payee (all its lines) by account name. */
export function firmDecisionsOf(
  rows: readonly {
    accountName: string;
    accountCode?: string;
    codesKept?: boolean;
    uses: number;
    entityId: string;
  }[],
): FirmDecisions | undefined {
  if (rows.length === 0) return undefined;
  const byAccountName = new Map<
    string,
    { name: string; code?: string; uses: number; clients: Set<string> }
  >();
  let total = 0;
  for (const row of rows) {
    const key = row.accountName.toLowerCase();
    let decided = byAccountName.get(key);
    if (!decided)
      byAccountName.set(
        key,
        (decided = {
          name: row.accountName,
          ...(row.codesKept && row.accountCode !== undefined && { code: row.accountCode }),
          uses: 0,
          clients: new Set(),
        }),
      );
    decided.uses += row.uses;
    decided.clients.add(row.entityId);
    total += row.uses;
  }
  return { byAccountName, total };
}

/** The key the firm's decisions are kept under: a payee's first two words and its direction. */
export const firmKey = (words: readonly string[], inflow: boolean) =>
  `${inflow ? '+' : '-'}${words.slice(0, 2).join(' ')}`;
