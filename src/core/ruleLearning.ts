/**
 * How rules are learned from descriptions, shared by the platform (which seeds an entity's rules
 * when its migration is finalized) and the CLI (`books rule suggest`): the key similar
 * descriptions share, the text they have in common, and a rule per group of lines.
 */

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
  /** Up to three of its group's descriptions, as first seen. */
  examples: string[];
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
  const learner = new RuleLearner();
  for (const line of lines) learner.add(line);
  return learner.rules();
}

/** generateRules one line at a time, for lines that arrive asynchronously. */
export class RuleLearner {
  private readonly groups = new Map<string, LineGroup>();

  add(line: LearningLine): void {
    const key = descriptionKey(line.description);
    if (key === '') return;
    let group = this.groups.get(key);
    if (!group) {
      group = { support: 0, uses: new Map(), descriptions: new Set() };
      this.groups.set(key, group);
    }
    group.support += 1;
    group.uses.set(line.accountId, (group.uses.get(line.accountId) ?? 0) + 1);
    group.descriptions.add(line.description.trim());
  }

  rules(): GeneratedRule[] {
    const rules: GeneratedRule[] = [];
    for (const [key, { support, uses, descriptions }] of this.groups) {
      if (support < 2) continue;
      let accountId = '';
      let most = 0;
      for (const [candidate, count] of uses) {
        if (count > most) [accountId, most] = [candidate, count];
      }
      const contains = commonText([...descriptions]) || key.split(' ')[0]!;
      rules.push({ contains, accountId, support, examples: [...descriptions].slice(0, 3) });
    }
    return rules.sort((a, b) => b.support - a.support || a.contains.localeCompare(b.contains));
  }
}

/** A rule proposed from an entity's history, with how it did on the lines held out. */
export interface RuleSuggestion extends GeneratedRule {
  /** Held-out lines whose description contains the rule's text (where it would have fired). */
  heldOut: number;
  /** Of those, the lines posted to the rule's account. */
  agreed: number;
  /** `agreed / heldOut`, or null when it would have fired on none. */
  precision: number | null;
}

/** The share of a history held out to measure the rules learned from the rest: its latest. */
export const HELD_OUT_SHARE = 0.2;

/**
 * Rules learned from the earlier 80% of an entity's categorized lines (by date; lines of a day
 * keep their order) and measured on the latest 20%: a rule's precision is the share of held-out
 * lines it would fire on (their description contains its text, in any case, as the platform
 * matches) that are posted to its account. Rules learned from fewer than `minSupport` lines are
 * not proposed. Deterministic: the same lines give the same rules, in the same order.
 */
export function suggestRules(
  lines: readonly (LearningLine & { date: string })[],
  options: { minSupport: number },
): RuleSuggestion[] {
  const ordered = lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) =>
      a.line.date < b.line.date ? -1 : a.line.date > b.line.date ? 1 : a.index - b.index,
    )
    .map(({ line }) => line);
  const split = ordered.length - Math.floor(ordered.length * HELD_OUT_SHARE);
  const learned = ordered.slice(0, split);
  const heldOut = ordered.slice(split).map((line) => ({
    description: line.description.trim().toLocaleLowerCase('en-US'),
    accountId: line.accountId,
  }));
  return generateRules(learned)
    .filter((rule) => rule.support >= options.minSupport)
    .map((rule) => {
      const text = rule.contains.trim().toLocaleLowerCase('en-US');
      const fired = heldOut.filter((line) => line.description.includes(text));
      const agreed = fired.filter((line) => line.accountId === rule.accountId).length;
      return {
        ...rule,
        heldOut: fired.length,
        agreed,
        precision: fired.length === 0 ? null : agreed / fired.length,
      };
    });
}

/** Processor, card and channel words banks put before the payee. */
export const GENERIC_LEADING = new Set([
  'ach',
  'authorized',
  'card',
  'ccd',
  'checkcard',
  'dd',
  'debit',
  'des',
  'id',
  'mastercard',
  'mc',
  'on',
  'online',
  'pos',
  'pp',
  'ppd',
  'paypal',
  'pmnt',
  'preauthorized',
  'purchase',
  'pymt',
  'recurring',
  'ref',
  'sp',
  'sq',
  'the',
  'tst',
  'visa',
  'web',
]);

/**
 * The words of a bank text that name its payee: lower case, punctuation and symbols as spaces,
 * tokens with digits (store numbers, card digits, dates, trip codes) and single letters
 * dropped, the processor and channel words banks put first (`SQ *`, `POS`, `CHECKCARD`,
 * `ACH DEBIT`) dropped from the front. `CHECKCARD 0412 STARBUCKS #1234 SEATTLE WA` → starbucks
 * seattle wa; `SQ *BLUE BOTTLE 0142` → blue bottle.
 */
export function payeeWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}&]+/u)
    .filter((word) => word.length > 1 && !/\p{N}/u.test(word));
  let start = 0;
  while (start < words.length - 1 && GENERIC_LEADING.has(words[start]!)) start += 1;
  return words.slice(start, start + 8);
}

/**
 * The text a rule made from one decision looks for: the payee as the bank wrote it, from the
 * first word that is not a processor or channel word to the last before a store number, card
 * digits or a date. `VERIZON WIRELESS PAYMENT 1234` → `VERIZON WIRELESS PAYMENT`; `SQ *BLUE
 * BOTTLE 0142` → `BLUE BOTTLE`; `CHECKCARD 0412 STARBUCKS #1234 SEATTLE WA` → `STARBUCKS`.
 * Empty when the text names no payee (a rule would then take too much).
 */
export function ruleTextOf(description: string): string {
  const tokens = description.trim().split(/\s+/);
  let start = 0;
  const bare = (token: string) => token.toLowerCase().replace(/[^\p{L}\p{N}&]+/gu, '');
  while (
    start < tokens.length - 1 &&
    (GENERIC_LEADING.has(bare(tokens[start]!)) ||
      /\p{N}/u.test(tokens[start]!) ||
      bare(tokens[start]!) === '')
  )
    start += 1;
  const kept: string[] = [];
  for (const token of tokens.slice(start)) {
    if (/\p{N}/u.test(token)) break;
    kept.push(token);
    if (kept.length === 4) break;
  }
  const text = kept
    .join(' ')
    .replace(/^[^\p{L}\p{N}&]+|[^\p{L}\p{N}&.)]+$/gu, '')
    .trim();
  return text.replace(/[^\p{L}]/gu, '').length >= 3 ? text : '';
}
