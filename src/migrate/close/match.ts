import { addDays, daysAfter, type CalendarDay } from '../../core/calendar.js';
import { addCents, formatCents, subtractCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { bookedSum, type BankStatement, type StatementEntry } from '../../formats/statement.js';

/*
 * A bank or card account's postings matched to the bank's own statements, as a bookkeeper ticks
 * them off: pure, no I/O (reconcile.ts reads the postings through the API).
 *
 * Each booked statement entry is matched to postings of the same amount (money in is a debit
 * of the account) within `days` of its date, the bank's reference and the text breaking ties;
 * then one entry to several postings of those days that sum to it (a deposit of several
 * receipts), and several entries to one posting; last, an item still outstanding at the end of
 * one statement to an entry of a later one, however late (a cheque cashed weeks after). Nothing
 * is matched twice. Postings before the first statement make the books' opening balance; those
 * within `days` of it may still match (a cheque written the day before, cleared on the statement).
 *
 * What is left: statement entries missing in the books, and postings of the period not on the
 * statement (outstanding cheques, deposits in transit). A posting that stands for a line the
 * bank itself sent (imported or fed), dated inside the statements' days, is no outstanding
 * item: the bank would have stated it; it is a duplicate, or another statement's, and the
 * account does not reconcile while one is left. The difference is the statement's closing
 * balance less the books' closing balance net of what is not on the statement; the account is
 * reconciled when nothing is missing in the books, nothing the bank sent is off the statement,
 * the statements state a balance (or one was given) and the difference is zero.
 */

/** A posting to the account, as the general ledger shows it. */
export interface BookPosting {
  /** The journal entry, bank transaction or opening balance it belongs to. */
  entryId: string;
  date: CalendarDay;
  /** As the bank sees it: a debit of the account is money in (positive), a credit money out. */
  amount: Cents;
  description: string;
  memo: string;
  counterparty: string | null;
  sourceType: string;
}

/** A statement entry with where it stands. */
export interface BankEntry extends StatementEntry {
  /** The statement it is on (its index among those reconciled, by period). */
  statement: number;
}

export type MatchKind =
  | 'reference'
  | 'same day'
  | 'within days'
  | 'several postings'
  | 'several entries'
  | 'cleared later';

export interface Match {
  entries: BankEntry[];
  postings: BookPosting[];
  kind: MatchKind;
}

export interface ReconcileInput {
  statements: readonly BankStatement[];
  /** Every posting from `days` before the first statement's start to the last one's end. */
  postings: readonly BookPosting[];
  /** The account's balance the day before the first statement, as the bank would state it. */
  booksOpening: Cents;
  /** Its balance at the last statement's end. */
  booksClosing: Cents;
  days: number;
  /** The journal entries and bank transactions that stand for lines the bank sent (imported or fed). */
  bankLines?: ReadonlySet<string>;
  /**
   * Balances given where the statements state none (`--opening-balance`, `--closing-balance`,
   * or the closing balance of the statement reconciled before): the first one's opening, the
   * last one's closing.
   */
  given?: { opening?: Cents | undefined; closing?: Cents | undefined; openingFrom?: string };
}

export interface ReconcileResult {
  from: CalendarDay;
  to: CalendarDay;
  /** The bank's balances: stated, or worked out from what the statements do state (`notes`). */
  bank: { opening: Cents; closing: Cents };
  books: { opening: Cents; closing: Cents };
  matches: Match[];
  /** Statement entries matched. */
  matched: number;
  missingInBooks: BankEntry[];
  /** Postings of the period the statements do not show (outstanding). */
  notOnStatement: BookPosting[];
  /** Postings of lines the bank sent, dated inside the statements' days, that they do not show. */
  sentNotOnStatement: BookPosting[];
  /** What the statements lack to prove a balance (none stated, none given): empty when they have it. */
  unproven: string[];
  /** Pending or information-only statement entries: not reconciled. */
  pending: BankEntry[];
  difference: Cents;
  reconciled: boolean;
  /** What the statements say of themselves, and what was worked out for them. */
  notes: string[];
}

/** The statements in the order of their periods, each with a start and an end. */
export function orderedStatements(statements: readonly BankStatement[]): BankStatement[] {
  return [...statements].sort(
    (a, b) => (a.from ?? '').localeCompare(b.from ?? '') || (a.to ?? '').localeCompare(b.to ?? ''),
  );
}

/**
 * The bank's opening and closing balances, what was said of the chain between statements, and
 * what is missing to prove them: statements that state no balance at all take the balances
 * given (`given`), else the books' opening, said, and prove nothing.
 */
function bankBalances(
  statements: readonly BankStatement[],
  booksOpening: Cents,
  notes: string[],
  given: ReconcileInput['given'] = {},
): { opening: Cents; closing: Cents; unproven: string[] } {
  const first = statements[0]!;
  const last = statements.at(-1)!;
  const unproven: string[] = [];
  const statesNone = statements.every((s) => s.opening === null && s.closing === null);
  let opening: Cents;
  if (first.opening !== null) opening = first.opening;
  else if (statesNone) {
    let total = ZERO_CENTS;
    for (const statement of statements) total = addCents(total, bookedSum(statement));
    if (given.closing === undefined)
      unproven.push(
        'the statement states no balance: give its closing balance, as the bank states it, with --closing-balance AMOUNT',
      );
    if (given.opening !== undefined) {
      opening = given.opening;
      if (given.openingFrom)
        notes.push(
          `the statement states no balance: the closing balance of the statement reconciled to ${given.openingFrom}, ${formatCents(opening)}, taken as its opening`,
        );
    } else {
      unproven.push(
        'no earlier statement of the account was reconciled: give the opening balance too, with --opening-balance AMOUNT',
      );
      opening = given.closing !== undefined ? subtractCents(given.closing, total) : booksOpening;
      notes.push(
        given.closing !== undefined
          ? `the statement states no opening balance: the closing balance given less its entries, ${formatCents(opening)}`
          : `the statement states no balance: the books' opening balance, ${formatCents(opening)}, taken as the bank's (which proves nothing)`,
      );
    }
  } else if (first.closing !== null) {
    opening = subtractCents(first.closing, bookedSum(first));
    notes.push(
      `the statement states no opening balance: its closing balance less its entries, ${formatCents(opening)}, taken as the bank's`,
    );
  } else {
    opening = booksOpening;
    notes.push(
      `the statement states no balance: the books' opening balance, ${formatCents(opening)}, taken as the bank's`,
    );
  }
  let running = opening;
  statements.forEach((statement, index) => {
    if (index > 0) {
      const before = statements[index - 1]!;
      if (statement.opening !== null && statement.opening !== running)
        notes.push(
          `the statement from ${statement.from} opens at ${formatCents(statement.opening)}, the one before it closed at ${formatCents(running)}: a statement between them may be missing`,
        );
      else if (
        before.to !== null &&
        statement.from !== null &&
        statement.from > addDays(before.to, 1)
      )
        notes.push(
          `no statement covers ${addDays(before.to, 1)} to ${addDays(statement.from, -1)}`,
        );
      if (statement.opening !== null) running = statement.opening;
    }
    const made = addCents(running, bookedSum(statement));
    if (statement.closing === null) {
      if (statement === last && statesNone && given.closing !== undefined) {
        if (given.closing !== made)
          notes.push(
            `the closing balance given, ${formatCents(given.closing)}, is not the opening balance and the entries, ${formatCents(made)}: ${formatCents(subtractCents(given.closing, made))} apart`,
          );
        running = given.closing;
        return;
      }
      if (index === statements.length - 1 && (statement.opening !== null || index > 0))
        notes.push(
          `the statement from ${statement.from} states no closing balance: its opening balance and its entries, ${formatCents(made)}, taken as the bank's`,
        );
      running = made;
    } else running = statement.closing;
  });
  return { opening, closing: running, unproven };
}

const NOISE = new Set([
  'the',
  'and',
  'for',
  'from',
  'payment',
  'transfer',
  'sepa',
  'card',
  'debit',
  'credit',
  'pos',
  'purchase',
  'eur',
  'usd',
  'gbp',
  'chf',
  'ref',
  'reference',
  'bank',
  'transaction',
  'online',
  'direct',
  'ach',
  'check',
  'cheque',
  'deposit',
  'withdrawal',
  'fee',
  'nr',
  'no',
]);

/** The words of a text that say something: letters or digits, three or more, noise left out. */
function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/))
    if (word.length >= 3 && !NOISE.has(word)) words.add(word);
  return words;
}

const entryText = (entry: StatementEntry) =>
  `${entry.description} ${entry.counterparty ?? ''} ${entry.reference ?? ''}`;
const postingText = (posting: BookPosting) =>
  `${posting.description} ${posting.memo} ${posting.counterparty ?? ''}`;

/** How alike an entry's and a posting's texts are: the words they share. */
function textScore(
  entryWords: Set<string>,
  posting: BookPosting,
  cache: Map<BookPosting, Set<string>>,
): number {
  let words = cache.get(posting);
  if (words === undefined) {
    words = wordsOf(postingText(posting));
    cache.set(posting, words);
  }
  let shared = 0;
  for (const word of entryWords) if (words.has(word)) shared += 1;
  return shared;
}

/**
 * The numbers an entry is known by: its reference (four or more letters and digits) and a
 * cheque's number in its text (`CHECK 1042`, `Scheck-Nr. 1042`).
 */
function referencesOf(entry: StatementEntry): string[] {
  const found: string[] = [];
  const reference = (entry.reference ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  if (reference.length >= 4 && !/^(nonref|notprovided)$/.test(reference)) found.push(reference);
  const cheque = /(?:check|cheque|chq|scheck|ck)[\s.#:-]*(?:nr|no|num)?[\s.#:-]*(\d{3,})/i.exec(
    entry.description,
  );
  if (cheque) found.push(cheque[1]!.replace(/^0+/, ''));
  return found;
}

/**
 * Whether a posting's text names one of an entry's references: as a word of its own (a
 * number with its leading zeros or without), or, six characters or more, anywhere once the
 * spaces and punctuation are left out (`INV-2026-0042` for `inv20260042`).
 */
function mentions(posting: BookPosting, references: readonly string[]): boolean {
  if (references.length === 0) return false;
  const text = postingText(posting).toLowerCase();
  let compact: string | undefined;
  for (const reference of references) {
    if (reference.length >= 6) {
      compact ??= text.replace(/[^a-z0-9]/g, '');
      if (compact.includes(reference)) return true;
    } else if (
      new RegExp(
        `(?:^|[^a-z0-9])${/^\d+$/.test(reference) ? '0*' : ''}${reference}(?![a-z0-9])`,
      ).test(text)
    )
      return true;
  }
  return false;
}

/**
 * The postings by amount, each amount's in date order, with the unmatched ones found fast: one
 * array sorted by amount then day, where each amount starts and ends, and for each place the
 * next unmatched one (a union-find over the whole array, path-compressed). A year of a busy
 * account has as many amounts as postings: no structure of its own per amount.
 */
class PostingsByAmount {
  readonly postings: BookPosting[];
  private readonly starts = new Map<number, number>();
  private readonly ends: Int32Array;
  private readonly next: Int32Array;

  constructor(postings: readonly BookPosting[]) {
    this.postings = [...postings].sort((a, b) =>
      a.amount !== b.amount ? a.amount - b.amount : a.date < b.date ? -1 : a.date > b.date ? 1 : 0,
    );
    const count = this.postings.length;
    this.ends = new Int32Array(count);
    this.next = new Int32Array(count + 1);
    for (let i = 0; i <= count; i++) this.next[i] = i;
    for (let i = 0; i < count;) {
      const amount = this.postings[i]!.amount;
      let end = i + 1;
      while (end < count && this.postings[end]!.amount === amount) end++;
      this.starts.set(amount, i);
      this.ends[i] = end;
      i = end;
    }
  }

  /** The first unmatched posting at or after `i`. */
  private free(i: number): number {
    let root = i;
    while (this.next[root] !== root) root = this.next[root]!;
    while (this.next[i] !== root) {
      const up = this.next[i]!;
      this.next[i] = root;
      i = up;
    }
    return root;
  }

  take(i: number): void {
    this.next[i] = i + 1;
  }

  /**
   * The unmatched postings of an amount dated from `start` to `end` (their places), at most
   * `limit` of them, those `accept` passes.
   */
  unmatchedBetween(
    amount: Cents,
    start: CalendarDay,
    end: CalendarDay,
    limit: number,
    accept: (posting: BookPosting) => boolean = () => true,
  ): number[] {
    const first = this.starts.get(amount);
    if (first === undefined) return [];
    const last = this.ends[first]!;
    let low = first;
    let high = last;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.postings[mid]!.date < start) low = mid + 1;
      else high = mid;
    }
    const found: number[] = [];
    for (let i = this.free(low); i < last && found.length < limit; i = this.free(i + 1)) {
      const posting = this.postings[i]!;
      if (posting.date > end) break;
      if (accept(posting)) found.push(i);
    }
    return found;
  }
}

/**
 * The candidate (an index into the group's postings) an entry is matched to: the only one, else
 * the one whose text shares most words with the entry's, then (`nearest`) the nearest in days.
 * Texts are read only where there is a choice: most entries have one posting of their amount.
 */
function bestOf(
  entry: BankEntry,
  candidates: readonly number[],
  byAmount: PostingsByAmount,
  textCache: Map<BookPosting, Set<string>>,
  nearest: boolean,
): number | undefined {
  if (candidates.length <= 1) return candidates[0];
  const words = wordsOf(entryText(entry));
  let best: { index: number; score: number; distance: number } | undefined;
  for (const index of candidates) {
    const posting = byAmount.postings[index]!;
    const score = textScore(words, posting, textCache);
    const distance = nearest ? Math.abs(daysAfter(posting.date, entry.bookingDate)) : 0;
    if (
      best === undefined ||
      score > best.score ||
      (score === best.score && distance < best.distance)
    )
      best = { index, score, distance };
  }
  return best!.index;
}

/** Matches statements to postings: what a reconciliation reports. */
export function reconcileStatements(input: ReconcileInput): ReconcileResult {
  const statements = orderedStatements(input.statements);
  if (statements.length === 0) throw new Error('reconcileStatements needs a statement');
  const notes: string[] = [];
  const from = statements[0]!.from ?? statements[0]!.entries[0]?.bookingDate;
  const to = statements.at(-1)!.to ?? statements.at(-1)!.entries.at(-1)?.bookingDate;
  if (from === undefined || to === undefined) throw new Error('a statement without a period');
  const { unproven, ...bank } = bankBalances(statements, input.booksOpening, notes, input.given);
  const books = { opening: input.booksOpening, closing: input.booksClosing };
  if (bank.opening !== books.opening)
    notes.push(
      `the bank's opening balance (${formatCents(bank.opening)}) is not the books' on ${addDays(from, -1)} (${formatCents(books.opening)}): ${formatCents(subtractCents(bank.opening, books.opening))} apart`,
    );

  const entries: BankEntry[] = [];
  const pending: BankEntry[] = [];
  let zero = 0;
  statements.forEach((statement, index) => {
    for (const entry of statement.entries) {
      const placed = { ...entry, statement: index };
      // A movement of 0.00 moves no money: the import leaves it out, so nothing matches it.
      if (entry.status === 'booked' && entry.amount === 0) zero += 1;
      else (entry.status === 'booked' ? entries : pending).push(placed);
    }
  });
  if (zero > 0)
    notes.push(
      `${zero} ${zero === 1 ? 'movement' : 'movements'} of 0.00 on the statement ${zero === 1 ? 'moves' : 'move'} no money: not reconciled (books transactions import leaves ${zero === 1 ? 'it' : 'them'} out)`,
    );
  entries.sort((a, b) =>
    a.bookingDate < b.bookingDate ? -1 : a.bookingDate > b.bookingDate ? 1 : 0,
  );
  if (pending.length > 0)
    notes.push(
      `${pending.length} ${pending.length === 1 ? 'entry is' : 'entries are'} pending or for information only on the statement: not reconciled`,
    );

  // Postings of the days before the first statement may be what was outstanding at its start
  // (a cheque written the day before); where the bank opens at the books' balance nothing was,
  // and an entry of the period is never one of them.
  const earliest = bank.opening === books.opening ? from : addDays(from, -input.days);
  const postings = input.postings
    .filter((p) => p.date >= earliest && p.date <= to)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const byAmount = new PostingsByAmount(postings);
  const matchedPosting = new Set<BookPosting>();
  const matchedEntry = new Set<BankEntry>();
  const matches: Match[] = [];
  const textCache = new Map<BookPosting, Set<string>>();
  const take = (entry: BankEntry, index: number, kind: MatchKind) => {
    const posting = byAmount.postings[index]!;
    byAmount.take(index);
    matchedPosting.add(posting);
    matchedEntry.add(entry);
    matches.push({ entries: [entry], postings: [posting], kind });
  };

  // One to one: the reference first, then the same day, then within the days; the best text
  // and the nearest day among equals.
  const passes: { kind: MatchKind; window: (entry: BankEntry) => [CalendarDay, CalendarDay] }[] = [
    { kind: 'reference', window: (e) => [earliest, addDays(e.bookingDate, input.days)] },
    { kind: 'same day', window: (e) => [e.bookingDate, e.bookingDate] },
    {
      kind: 'within days',
      window: (e) => [addDays(e.bookingDate, -input.days), addDays(e.bookingDate, input.days)],
    },
  ];
  for (const pass of passes) {
    for (const entry of entries) {
      if (matchedEntry.has(entry)) continue;
      const references = pass.kind === 'reference' ? referencesOf(entry) : [];
      if (pass.kind === 'reference' && references.length === 0) continue;
      const [start, end] = pass.window(entry);
      const candidates = byAmount.unmatchedBetween(
        entry.amount,
        start,
        end,
        64,
        pass.kind === 'reference' ? (posting) => mentions(posting, references) : undefined,
      );
      const best = bestOf(entry, candidates, byAmount, textCache, true);
      if (best !== undefined) take(entry, best, pass.kind);
    }
  }

  // One entry to several postings of its days (a deposit of several receipts), and several
  // entries to one posting: the fewest parts that make the amount exactly.
  const openPostings = postings.filter((p) => !matchedPosting.has(p)); // in date order
  for (const entry of entries) {
    if (matchedEntry.has(entry)) continue;
    const near = within(openPostings, (p) => p.date, entry.bookingDate, input.days, WIDE).filter(
      (p) =>
        !matchedPosting.has(p) &&
        Math.sign(p.amount) === Math.sign(entry.amount) &&
        Math.abs(p.amount) < Math.abs(entry.amount),
    );
    const parts =
      batchMaking(
        entry.amount,
        near,
        (p) => p.amount,
        (p) => p.date,
        (p) => keyOf(postingText(p)),
        keyOf(entryText(entry)),
        entry.bookingDate,
      ) ??
      partsMaking(
        entry.amount,
        nearest(near, (p) => p.date, entry.bookingDate),
        (p) => p.amount,
      );
    if (!parts) continue;
    for (const p of parts) matchedPosting.add(p);
    matchedEntry.add(entry);
    matches.push({ entries: [entry], postings: parts, kind: 'several postings' });
  }
  const openEntries = entries.filter((e) => !matchedEntry.has(e)); // in date order
  for (const posting of openPostings) {
    if (matchedPosting.has(posting)) continue;
    const near = within(openEntries, (e) => e.bookingDate, posting.date, input.days, WIDE).filter(
      (e) =>
        !matchedEntry.has(e) &&
        Math.sign(e.amount) === Math.sign(posting.amount) &&
        Math.abs(e.amount) < Math.abs(posting.amount),
    );
    const parts =
      batchMaking(
        posting.amount,
        near,
        (e) => e.amount,
        (e) => e.bookingDate,
        (e) => keyOf(entryText(e)),
        keyOf(postingText(posting)),
        posting.date,
      ) ??
      partsMaking(
        posting.amount,
        nearest(near, (e) => e.bookingDate, posting.date),
        (e) => e.amount,
      );
    if (!parts) continue;
    for (const e of parts) matchedEntry.add(e);
    matchedPosting.add(posting);
    matches.push({ entries: parts, postings: [posting], kind: 'several entries' });
  }

  // An item outstanding at an earlier statement's end that clears on a later one, however late.
  for (const entry of entries) {
    if (matchedEntry.has(entry) || entry.statement === 0) continue;
    const earlierEnd = statements[entry.statement - 1]!.to;
    if (earlierEnd === null) continue;
    const candidates = byAmount.unmatchedBetween(
      entry.amount,
      earliest,
      earlierEnd,
      256,
      (posting) => !matchedPosting.has(posting) && posting.date <= entry.bookingDate,
    );
    const best = bestOf(entry, candidates, byAmount, textCache, false);
    if (best !== undefined) take(entry, best, 'cleared later');
  }

  const missingInBooks = entries.filter((e) => !matchedEntry.has(e));
  const offStatement = postings.filter((p) => !matchedPosting.has(p) && p.date >= from);
  // A line the bank sent, dated inside the statements' days: the bank would have stated it.
  const sentByBank = (p: BookPosting) => input.bankLines?.has(p.entryId) === true && p.date <= to;
  const notOnStatement = offStatement.filter((p) => !sentByBank(p));
  const sentNotOnStatement = offStatement.filter(sentByBank);
  let outstanding = ZERO_CENTS;
  for (const posting of offStatement) outstanding = addCents(outstanding, posting.amount);
  const difference = subtractCents(bank.closing, subtractCents(books.closing, outstanding));
  return {
    from,
    to,
    bank,
    books,
    matches,
    matched: matchedEntry.size,
    missingInBooks,
    notOnStatement,
    sentNotOnStatement,
    unproven,
    pending,
    difference,
    reconciled:
      missingInBooks.length === 0 &&
      sentNotOnStatement.length === 0 &&
      unproven.length === 0 &&
      difference === 0,
    notes,
  };
}

/** How many items of the days around one are looked at for the batches they make. */
const WIDE = 400;

/**
 * Items (of `items`, in date order) dated within `days` of `day`: `limit` at most, the nearest
 * to the day first, so that a busy day before it never hides the day itself.
 */
function within<T>(
  items: readonly T[],
  dateOf: (item: T) => CalendarDay,
  day: CalendarDay,
  days: number,
  limit: number,
): T[] {
  const start = addDays(day, -days);
  const end = addDays(day, days);
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (dateOf(items[mid]!) < day) low = mid + 1;
    else high = mid;
  }
  const found: T[] = [];
  let before = low - 1;
  let after = low;
  while (found.length < limit) {
    const later = after < items.length && dateOf(items[after]!) <= end ? items[after]! : undefined;
    const earlier = before >= 0 && dateOf(items[before]!) >= start ? items[before]! : undefined;
    if (later === undefined && earlier === undefined) break;
    if (
      later !== undefined &&
      (earlier === undefined || daysAfter(dateOf(later), day) <= daysAfter(day, dateOf(earlier)))
    ) {
      found.push(later);
      after++;
    } else {
      found.push(earlier!);
      before--;
    }
  }
  return found;
}

/** The 24 items nearest in days to `day`. */
const nearest = <T>(items: readonly T[], dateOf: (item: T) => CalendarDay, day: CalendarDay) =>
  [...items]
    .sort((a, b) => Math.abs(daysAfter(dateOf(a), day)) - Math.abs(daysAfter(dateOf(b), day)))
    .slice(0, 24);

/** What a text is first about (`stripe`, `sq`, `gusto`): its first word of letters. */
const keyOf = (text: string) => /[a-z]{2,}/.exec(text.toLowerCase())?.[0] ?? '';

/**
 * A batch that makes `target`: the items of one day that share the target's first word (a
 * day's card or marketplace receipts paid out together), else all the items of one day; the
 * nearest day first. None: no day's batch of two or more makes it.
 */
function batchMaking<T>(
  target: Cents,
  items: readonly T[],
  amountOf: (item: T) => Cents,
  dateOf: (item: T) => CalendarDay,
  keyOfItem: (item: T) => string,
  key: string,
  near: CalendarDay,
): T[] | undefined {
  const byDay = new Map<CalendarDay, T[]>();
  for (const item of items) {
    const day = byDay.get(dateOf(item)) ?? [];
    day.push(item);
    byDay.set(dateOf(item), day);
  }
  const sumOf = (batch: readonly T[]) => {
    let sum = ZERO_CENTS;
    for (const item of batch) sum = addCents(sum, amountOf(item));
    return sum;
  };
  const days = [...byDay].sort(
    ([a], [b]) => Math.abs(daysAfter(a, near)) - Math.abs(daysAfter(b, near)),
  );
  for (const [, day] of days) {
    const same = key === '' ? [] : day.filter((item) => keyOfItem(item) === key);
    if (same.length >= 2 && sumOf(same) === target) return same;
    if (day.length >= 2 && sumOf(day) === target) return day;
  }
  return undefined;
}

/**
 * The fewest items (two to five) among `items` whose amounts make `target` exactly, the nearest
 * first; none when no such set exists. Looks at the twelve items nearest in size.
 */
function partsMaking<T>(
  target: Cents,
  items: readonly T[],
  amountOf: (item: T) => Cents,
): T[] | undefined {
  if (items.length < 2) return undefined;
  const pool = [...items]
    .sort((a, b) => Math.abs(amountOf(b)) - Math.abs(amountOf(a)))
    .slice(0, 12);
  const wanted = Math.abs(target);
  for (let size = 2; size <= Math.min(5, pool.length); size++) {
    const chosen: number[] = [];
    const search = (start: number, left: number): boolean => {
      if (chosen.length === size) return left === 0;
      for (let i = start; i < pool.length; i++) {
        const amount = Math.abs(amountOf(pool[i]!));
        if (amount > left) continue;
        chosen.push(i);
        if (search(i + 1, left - amount)) return true;
        chosen.pop();
      }
      return false;
    };
    if (search(0, wanted)) return chosen.map((i) => pool[i]!);
  }
  return undefined;
}
