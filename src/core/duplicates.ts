import { addDays, daysAfter, type CalendarDay } from './calendar.js';

/*
 * Whether a bank line arriving is one the books hold already, however the file that brings it
 * is laid out: pure, used by the platform when lines arrive and by the close review.
 *
 * A bank line is the same line whatever file brings it — a CSV with more or fewer columns, the
 * bank's OFX or camt of the same days. What a line is: its bank account, day and amount, and
 * its text; or, where both lines carry one, the bank's own reference. So an arriving line is
 * **already there** when a line of the account not yet taken by another arriving line has its
 * reference, or (where the two do not both carry a reference) its day, amount and text (read
 * as words: case, accents and punctuation aside). Two alike lines of one file are two lines:
 * each takes one line of the books, and only those beyond what the books hold come in. Two
 * lines that each carry a reference of the bank's, not the same, are two lines whatever else
 * they share (a feed's two coffees of one amount on one day).
 *
 * A line alike but not certain is a **possible duplicate**, held for a person to decide: the
 * same amount as a line of an earlier file that covered its days (or whose day this file
 * covers), a day or two apart with a text alike (a word in common), or on the same day
 * whatever its text (a bank's CSV and its OFX may describe one payment differently). Files
 * that do not overlap (this month's and last month's) never hold each other's lines: a coffee
 * of 3.50 on the 30th and another on the 1st are two coffees.
 */

/** A line of the books on the account, as a duplicate check reads it. */
export interface KnownLine {
  id: string;
  date: CalendarDay;
  amountCents: number;
  description: string;
  /** The bank's own reference, or null (books' own keys are not the bank's references). */
  reference: string | null;
  /** The days the file that brought it covered (null where not known: its own day). */
  arrivedFrom: CalendarDay | null;
  arrivedTo: CalendarDay | null;
}

/** A line arriving. */
export interface ArrivingLine {
  date: CalendarDay;
  amountCents: number;
  description: string;
  reference: string | null;
}

export type Arrival =
  | { kind: 'new' }
  /**
   * The books hold it: by the bank's reference, or by its day, amount and text (`of` null: a
   * line the arriving lines state twice, by its reference).
   */
  | { kind: 'already'; of: string | null; by: 'reference' | 'content' }
  /** Held for a person: alike, not certain. */
  | { kind: 'possible'; of: string };

/** How many days apart a possible duplicate may be. */
export const DUPLICATE_DAYS = 2;

/** Words that say nothing of whom a line is with. */
const NOISE = new Set([
  'the',
  'and',
  'for',
  'from',
  'to',
  'payment',
  'transfer',
  'card',
  'debit',
  'credit',
  'direct',
  'pos',
  'purchase',
  'sepa',
  'ref',
  'bank',
  'online',
  'fee',
  'gbp',
  'eur',
  'usd',
]);

/** A text as words: lower case, accents and punctuation aside, spaces made one. */
export function lineText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of a text that say whom a line is with: three letters or more, not noise, not numbers. */
function significantWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of lineText(text).split(' '))
    if (word.length >= 3 && !NOISE.has(word) && !/^\d+$/.test(word)) words.add(word);
  return words;
}

/** Two texts alike: a word of substance in common (or both without any, and equal). */
export function alikeTexts(a: string, b: string): boolean {
  const first = significantWords(a);
  const second = significantWords(b);
  if (first.size === 0 || second.size === 0) return lineText(a) === lineText(b);
  for (const word of first) if (second.has(word)) return true;
  return false;
}

/**
 * What each arriving line is, in order: already there, a possible duplicate, or new. `known`
 * are the account's lines from `DUPLICATE_DAYS` before the arriving lines' days to as many
 * after (`knownWindow`);
 * `covering` the days the arriving file covers (its statement's period, else its lines' days).
 * Each line of the books stands for one arriving line at most.
 */
export function sortArrivals(
  arriving: readonly ArrivingLine[],
  known: readonly KnownLine[],
  covering: { from: CalendarDay; to: CalendarDay },
): Arrival[] {
  const result: Arrival[] = arriving.map(() => ({ kind: 'new' }));
  const taken = new Set<string>();
  const byAmount = new Map<number, KnownLine[]>();
  const byReference = new Map<string, KnownLine>();
  for (const line of known) {
    const same = byAmount.get(line.amountCents) ?? [];
    same.push(line);
    byAmount.set(line.amountCents, same);
    if (line.reference !== null && !byReference.has(line.reference))
      byReference.set(line.reference, line);
  }
  const open = () => result.flatMap((r, index) => (r.kind === 'new' ? [index] : []));
  const claim = (index: number, line: KnownLine, arrival: Arrival) => {
    taken.add(line.id);
    result[index] = arrival;
  };

  // 1. The bank's own reference: a line of the books, or one stated earlier among these.
  const stated = new Set<string>();
  for (const index of open()) {
    const reference = arriving[index]!.reference;
    if (reference === null) continue;
    const line = byReference.get(reference);
    if (line) claim(index, line, { kind: 'already', of: line.id, by: 'reference' });
    else if (stated.has(reference)) result[index] = { kind: 'already', of: null, by: 'reference' };
    stated.add(reference);
  }
  // 2. The same day, amount and text, where the two do not both carry a reference.
  for (const index of open()) {
    const line = arriving[index]!;
    const text = lineText(line.description);
    const twin = (byAmount.get(line.amountCents) ?? []).find(
      (k) =>
        !taken.has(k.id) &&
        k.date === line.date &&
        !(k.reference !== null && line.reference !== null) &&
        lineText(k.description) === text,
    );
    if (twin) claim(index, twin, { kind: 'already', of: twin.id, by: 'content' });
  }
  // 3. Alike within days, then 4. the same day whatever the text: of files that overlap.
  const overlaps = (line: ArrivingLine, k: KnownLine) =>
    (line.date >= (k.arrivedFrom ?? k.date) && line.date <= (k.arrivedTo ?? k.date)) ||
    (k.date >= covering.from && k.date <= covering.to);
  const nearestOf = (line: ArrivingLine, accept: (k: KnownLine) => boolean) => {
    let best: KnownLine | undefined;
    for (const k of byAmount.get(line.amountCents) ?? []) {
      // Two references of the bank's own, not the same: two lines (a feed's morning and evening
      // coffee of one amount).
      if (k.reference !== null && line.reference !== null) continue;
      if (taken.has(k.id) || !overlaps(line, k) || !accept(k)) continue;
      if (best === undefined || distance(line, k) < distance(line, best)) best = k;
    }
    return best;
  };
  for (const index of open()) {
    const line = arriving[index]!;
    const alike = nearestOf(
      line,
      (k) => distance(line, k) <= DUPLICATE_DAYS && alikeTexts(k.description, line.description),
    );
    if (alike) claim(index, alike, { kind: 'possible', of: alike.id });
  }
  for (const index of open()) {
    const line = arriving[index]!;
    const sameDay = nearestOf(line, (k) => k.date === line.date);
    if (sameDay) claim(index, sameDay, { kind: 'possible', of: sameDay.id });
  }
  return result;
}

const distance = (line: ArrivingLine, known: KnownLine) =>
  Math.abs(daysAfter(line.date, known.date));

/** The days a duplicate check of lines arriving on these days reads the books for. */
export const knownWindow = (days: { from: CalendarDay; to: CalendarDay }) => ({
  from: addDays(days.from, -DUPLICATE_DAYS),
  to: addDays(days.to, DUPLICATE_DAYS),
});
