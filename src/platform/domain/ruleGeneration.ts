import type { CalendarDay } from '../../core/calendar.js';

/** A line the generator may learn from (already filtered by the Procedure's step 4). */
export interface LearningLine {
  description: string;
  accountId: string;
}

/** A rule to create: text every description of the group contains, and the account to assign. */
export interface GeneratedRule {
  contains: string;
  accountId: string;
  /** How many lines the rule was learned from. */
  support: number;
}

/** Payment-processor and card prefixes that say nothing about the merchant. */
const NOISE_PREFIX =
  /^(sq|tst|sp|pp|paypal|pos|ach|dd|checkcard|debit card|card purchase|purchase|pmnt|pymt)\s*\*?\s*/i;

/**
 * The key similar descriptions share: lower case, processor prefixes dropped, `*#/.-` and other
 * punctuation turned to spaces, tokens with digits (store numbers, card and trip codes) dropped,
 * at most the first three words. `UBER *TRIP 8XJ2` → `uber trip`; `AMZN Mktp US*2K4LM1` →
 * `amzn mktp us`; `SQ *BLUE BOTTLE 0142` → `blue bottle`.
 */
export function descriptionKey(description: string): string {
  const words = description
    .trim()
    .replace(NOISE_PREFIX, '')
    .toLowerCase()
    .replace(/[^a-z0-9& ]+/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !/\d/.test(word));
  return words.slice(0, 3).join(' ');
}

/** The longest text every description contains (case-insensitive), trimmed to whole words. */
export function commonText(descriptions: readonly string[]): string {
  const lowered = descriptions.map((d) => d.toLowerCase());
  const [shortest] = [...lowered].sort((a, b) => a.length - b.length);
  if (!shortest) return '';
  const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char);
  for (let length = shortest.length; length >= 3; length -= 1) {
    for (let start = 0; start + length <= shortest.length; start += 1) {
      let text = shortest.slice(start, start + length);
      if (!lowered.every((d) => d.includes(text))) continue;
      // Whole words only: a word cut at either end is dropped.
      if (!isSpace(shortest[start - 1]) && !isSpace(text[0])) text = text.replace(/^\S+/, '');
      if (!isSpace(shortest[start + length]) && !isSpace(text[text.length - 1]))
        text = text.replace(/\S+$/, '');
      text = text.trim();
      if (text.replace(/[^a-z]/g, '').length >= 3) return text;
    }
  }
  return '';
}

/** What a group keeps of its lines: counts, and its distinct descriptions for the rule's text. */
interface LineGroup {
  support: number;
  /** Lines per account, in the order the accounts were first seen. */
  uses: Map<string, number>;
  descriptions: Set<string>;
}

/**
 * Groups lines by description key and makes one rule per group of at least two lines, assigning
 * the account most of the group used (ties: the one seen first). The rule's text is what the
 * group's descriptions have in common, or the key's first word. Lines are read once, as they
 * come: a group keeps its counts and distinct descriptions, never the lines themselves.
 */
export function generateRules(lines: Iterable<LearningLine>): GeneratedRule[] {
  const groups = new Map<string, LineGroup>();
  for (const line of lines) {
    const key = descriptionKey(line.description);
    if (key === '') continue;
    let group = groups.get(key);
    if (!group) {
      group = { support: 0, uses: new Map(), descriptions: new Set() };
      groups.set(key, group);
    }
    group.support += 1;
    group.uses.set(line.accountId, (group.uses.get(line.accountId) ?? 0) + 1);
    group.descriptions.add(line.description.trim());
  }
  const rules: GeneratedRule[] = [];
  for (const [key, { support, uses, descriptions }] of groups) {
    if (support < 2) continue;
    let accountId = '';
    let most = 0;
    for (const [candidate, count] of uses) {
      if (count > most) [accountId, most] = [candidate, count];
    }
    const contains = commonText([...descriptions]) || key.split(' ')[0]!;
    rules.push({ contains, accountId, support });
  }
  return rules.sort((a, b) => b.support - a.support || a.contains.localeCompare(b.contains));
}

/** The Procedure's window: entries dated in the year before the bookkeeping start date. */
export function learningWindow(bookkeepingStartDate: CalendarDay): {
  from: CalendarDay;
  before: CalendarDay;
} {
  const year = Number(bookkeepingStartDate.slice(0, 4)) - 1;
  let from = `${String(year).padStart(4, '0')}${bookkeepingStartDate.slice(4)}`;
  if (from.endsWith('-02-29')) from = `${from.slice(0, 8)}28`;
  return { from, before: bookkeepingStartDate };
}

/** A line's text for learning: its description, else the entry memo when it is ≤ 1,024 bytes. */
export function learningText(description: string, memo: string | null): string {
  if (description.trim() !== '') return description;
  if (memo && Buffer.byteLength(memo, 'utf8') <= 1024) return memo;
  return '';
}

/** The lines to learn from, as they are read: each with its `learningText`, those without any left out. */
export function* learningLinesOf(
  rows: Iterable<{ description: string; memo: string | null; accountId: string }>,
): Generator<LearningLine> {
  for (const row of rows) {
    const description = learningText(row.description, row.memo);
    if (description !== '') yield { description, accountId: row.accountId };
  }
}
