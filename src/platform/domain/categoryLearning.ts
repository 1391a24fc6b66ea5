/**
 * What a client's own books teach about a bank line it has not seen: which account a
 * bookkeeper would post it to, how sure that is, and why. Pure: history in, predictions out.
 *
 * The model is the one an experienced bookkeeper carries in their head, made exact: the same
 * payee went to the same account before (and, when the payee is paid for several things, the
 * same amount, or the same bank account, tells which); where the text is new, the earlier texts
 * most like it went somewhere (`shell fiveways 387` is like `shell kings 587`: their letters
 * say so where their words do not); where nothing is known, most money out went somewhere. Each
 * level refines the coarser one below it (hierarchical smoothing: a level's counts, with the
 * level below as prior), so one earlier line says little and fifty say a lot. Recent decisions
 * weigh more than old ones (half-life HALF_LIFE_DAYS): a client that moved a payee to another
 * account last spring is followed.
 *
 * The confidence is calibrated on the client's own history, replayed in date order: each
 * decision of the past was predicted from what came before it, and how often predictions like
 * it were right is the confidence of a prediction like it now (per level of evidence, monotone
 * in the raw probability, taken at a lower bound so that a few lucky guesses do not make a
 * confident one). So 0.95 means that of the suggestions given 0.95 in this client's past, at
 * least about 95 of 100 were right.
 *
 * Measured against the classic approach (TF-IDF of word and character n-grams and a linear SVM
 * on the description) on real categorized data, from a migrated ledger and from categorized
 * bank lines: test/bench/suggestions.bench.test.ts, figures in the README.
 */

import { payeeWords } from '../../core/ruleLearning.js';

export { payeeWords };

/** A decided bank line of the client's history. */
export interface LabeledLine {
  /** The text as the bank wrote it (or the entry's description or memo). */
  text: string;
  /** Signed: positive money in, negative money out (as the bank states it). */
  amountCents: number;
  /** The chart account of the bank or card the line is on. */
  bankAccountId: string;
  /** YYYY-MM-DD. */
  day: string;
  /** The account it was posted to (for a transfer, the other bank or card account). */
  accountId: string;
}

/** A line to predict. */
export type UnlabeledLine = Omit<LabeledLine, 'accountId'>;

/**
 * How much the prediction knows: the finest level that has seen something like the line.
 * `similar`: its text is new, the earlier texts most like it decided; `payee-amount`: a text
 * new of a payee known, of an amount in the same band; `like-amount`: the same text of an
 * amount in the same band; `text-amount`: the same text, bank account and amount.
 */
export const EVIDENCE_LEVELS = [
  'prior',
  'similar',
  'payee',
  'payee-amount',
  'text',
  'text-account',
  'like-amount',
  'text-amount',
] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

/** What one level of the history says of the predicted account, for the words of a reason. */
export interface LevelRecord {
  level: EvidenceLevel;
  /** The payee as a bookkeeper reads it: `VERIZON WIRELESS`. */
  label: string;
  /** Earlier lines at this level that went to the predicted account. */
  agreeing: number;
  /** Earlier lines at this level. */
  total: number;
  /** How many of the latest lines in a row went to it (it may not be most of them). */
  latestRun: number;
}

/** What a prediction rests on: the deciding (finest) level, and the strongest to tell. */
export interface Evidence extends LevelRecord {
  /** The earlier texts most like it, most alike first (level `similar`), as the bank wrote them. */
  like: string[];
  /**
   * The level whose record says most for the predicted account (the most lines agreeing, by
   * the lower bound of their share): all nine earlier STAPLES, rather than the one of a like
   * amount. The deciding level itself where no keyed level was found.
   */
  strongest: LevelRecord;
}

export interface Prediction {
  accountId: string;
  /** The model's probability, before calibration. */
  probability: number;
  /** Calibrated: how often such predictions were right in the client's past (a lower bound). */
  confidence: number;
  evidence: Evidence;
}

/** Older decisions count half as much every this many days. */
export const HALF_LIFE_DAYS = 180;
/**
 * How strongly each keyed level leans on the one below it (pseudo-lines): the amount's levels
 * more (a payee paid for several things at many amounts tells little by one amount's few lines).
 */
const SMOOTHING = {
  payee: 1,
  'payee-amount': 3,
  text: 1,
  'text-account': 1,
  'like-amount': 3,
  'text-amount': 3,
};
/**
 * What the most alike texts say weighs against this many pseudo-texts of the level below (the
 * prior), each text by its say: ten texts 0.9 alike outweigh it eight to one, one text a third
 * alike (a word in common: `Contact Theatre Company`, `… Building Company`) is a ninth of it.
 */
const PRIOR_AGAINST_SIMILAR = 1;
/** The earlier texts a new text is compared with, at most: the most alike. */
const NEIGHBOURS = 10;
/** A neighbour's say grows with the square of its likeness (cosine, 0 to 1). */
const LIKENESS_POWER = 2;
/** Below this likeness, texts are not alike at all. */
const MIN_LIKENESS = 0.2;
/** Predictions replayed to calibrate, at most (the latest). */
const MAX_REPLAYED = 20_000;
/**
 * Pseudo-observations per bin of a level, at how often all the client's predictions of that raw
 * probability were right: few observations of a level say little. (A year of twelve regular
 * payees gave each level too few observations to show 0.95 alone; all its predictions together
 * showed it.)
 */
const BIN_PRIOR = 10;
/**
 * The most the pseudo-observations vouch for: beyond it, only what the client's own past
 * showed. Two weeks of a council's payments held fifteen lucky predictions of a supplier paid
 * twice to one code, and pseudo-observations at 0.96 made them 0.95 sure; 4 in 32 were wrong.
 */
const BIN_PRIOR_AT_MOST = 0.95;
/** z of the one-sided lower bound taken of a bin's accuracy (about 84%). */
const LOWER_BOUND_Z = 1;

/** The payee as a reason names it: its first words in capitals. */
export const payeeLabel = (words: readonly string[], count = 3) =>
  words.slice(0, count).join(' ').toUpperCase();

/** An amount's band: about a third of a doubling wide (19.00 and 21.00 share one). */
const amountBand = (cents: number) => Math.floor(Math.log2(Math.abs(cents) + 1) * 3);

const dayNumber = (day: string) =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) /
  86_400_000;

/** A typed array at least `length` long: itself, or a copy in one twice as long or more. */
function atLeast<T extends Float64Array | Int32Array | Uint16Array>(array: T, length: number): T {
  if (length <= array.length) return array;
  const longer = new (array.constructor as new (length: number) => T)(
    Math.max(length, 2 * array.length),
  );
  longer.set(array);
  return longer;
}

/**
 * The counts of each key of each level (a tally): decayed weights for the model, whole lines
 * for the reason. All in flat arrays, not an object and an array per key: a big history holds
 * hundreds of thousands of keys, and a key rarely goes to more than a few accounts.
 *
 * A tally is a number; its accounts are a chain of entries, in the order first seen.
 */
class Tallies {
  private weighted = new Float64Array(1024);
  private lines = new Int32Array(1024);
  private last = new Int32Array(1024);
  private run = new Int32Array(1024);
  private firstEntry = new Int32Array(1024);
  private size = 0;
  /** Per entry: the account, its weight, its lines, the tally's next entry (-1: none). */
  private entryAccount = new Int32Array(1024);
  private entryWeight = new Float64Array(1024);
  private entryLines = new Int32Array(1024);
  private nextEntry = new Int32Array(1024);
  private entries = 0;

  /** A new tally, empty. */
  create(): number {
    const tally = this.size++;
    if (tally === this.weighted.length) {
      this.weighted = atLeast(this.weighted, tally + 1);
      this.lines = atLeast(this.lines, tally + 1);
      this.last = atLeast(this.last, tally + 1);
      this.run = atLeast(this.run, tally + 1);
      this.firstEntry = atLeast(this.firstEntry, tally + 1);
    }
    this.last[tally] = -1;
    this.firstEntry[tally] = -1;
    return tally;
  }

  add(tally: number, account: number, weight: number): void {
    let entry = this.firstEntry[tally]!;
    let previous = -1;
    while (entry >= 0 && this.entryAccount[entry] !== account) {
      previous = entry;
      entry = this.nextEntry[entry]!;
    }
    if (entry < 0) {
      entry = this.entries++;
      if (entry === this.entryAccount.length) {
        this.entryAccount = atLeast(this.entryAccount, entry + 1);
        this.entryWeight = atLeast(this.entryWeight, entry + 1);
        this.entryLines = atLeast(this.entryLines, entry + 1);
        this.nextEntry = atLeast(this.nextEntry, entry + 1);
      }
      this.entryAccount[entry] = account;
      this.nextEntry[entry] = -1;
      if (previous < 0) this.firstEntry[tally] = entry;
      else this.nextEntry[previous] = entry;
    }
    this.entryWeight[entry]! += weight;
    this.weighted[tally]! += weight;
    this.entryLines[entry]! += 1;
    this.lines[tally]! += 1;
    this.run[tally] = this.last[tally] === account ? this.run[tally]! + 1 : 1;
    this.last[tally] = account;
  }

  /** The decayed weight of all its lines. */
  weightedTotal(tally: number): number {
    return this.weighted[tally]!;
  }

  /** All its lines. */
  rawTotal(tally: number): number {
    return this.lines[tally]!;
  }

  /** How many of the latest lines in a row went to `account`. */
  latestRunOf(tally: number, account: number): number {
    return this.last[tally] === account ? this.run[tally]! : 0;
  }

  /** Whole lines that went to `account`. */
  rawOf(tally: number, account: number): number {
    for (let entry = this.firstEntry[tally]!; entry >= 0; entry = this.nextEntry[entry]!)
      if (this.entryAccount[entry] === account) return this.entryLines[entry]!;
    return 0;
  }

  /** Each account it went to, in the order first seen, with its weight and lines. */
  forEach(tally: number, each: (account: number, weight: number, lines: number) => void): void {
    for (let entry = this.firstEntry[tally]!; entry >= 0; entry = this.nextEntry[entry]!)
      each(this.entryAccount[entry]!, this.entryWeight[entry]!, this.entryLines[entry]!);
  }
}

/**
 * The levels keyed by the line's payee, coarsest first: the order a line's keys come in. The
 * text (the payee, its whole text, on this bank account), then what the amount adds: the
 * payee's amounts (`AMAZON MKTP US*ZZ` of 1,600.00 goes where the payee's large amounts went),
 * the text's own amounts where it has them (`AMAZON UK RETAIL` is not `AMAZON UK MARKETPLACE`),
 * the exact recurring amount last.
 */
const KEYED_LEVELS = [
  'payee',
  'text',
  'text-account',
  'payee-amount',
  'like-amount',
  'text-amount',
] as const;
const TEXT_LEVEL = KEYED_LEVELS.indexOf('text');

/** What the model reads of a line, worked out once. */
interface LineFeatures {
  /** The text as the neighbours compare it: lower case, its spaces one. */
  plain: string;
  words: string[];
  /** The line's key at each of KEYED_LEVELS (none when its text names no payee). */
  keys: string[] | undefined;
  inflow: boolean;
  day: number;
}

const plainText = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

function featuresOf(line: UnlabeledLine): LineFeatures {
  const words = payeeWords(line.text);
  const inflow = line.amountCents > 0;
  let keys: string[] | undefined;
  if (words.length > 0) {
    // Joined, not concatenated: a joined string is one flat string, where a concatenation is
    // a pair of pointers to its parts besides (hundreds of thousands of keys are kept).
    const direction = inflow ? '+' : '-';
    const payee = [direction, words.slice(0, 2).join(' ')].join('');
    const text = [direction, words.join(' ')].join('');
    const band = amountBand(line.amountCents);
    keys = [
      payee,
      text,
      [text, line.bankAccountId].join('|'),
      [payee, band].join('|'),
      [text, band].join('|'),
      [text, line.bankAccountId, Math.abs(line.amountCents)].join('|'),
    ];
  }
  return { plain: plainText(line.text), words, keys, inflow, day: dayNumber(line.day) };
}

/** A text's words as its grams read them: lower case, split at spaces. */
const gramWords = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');

/** A word's 2- to 5-letter pieces, the word padded with a space. */
function letterGrams(word: string): string[] {
  const grams: string[] = [];
  const padded = ` ${word} `;
  for (let n = 2; n <= 5 && n <= padded.length; n += 1)
    for (let i = 0; i + n <= padded.length; i += 1) grams.push(padded.slice(i, i + n));
  return grams;
}

/** A word's tokens: its runs of two or more letters and digits. */
const wordTokens = (word: string) => word.match(/[\p{L}\p{N}_]{2,}/gu) ?? [];

/**
 * A text as its character grams read it: lower case, each word padded with a space, its 2- to
 * 5-letter pieces (`shell kings 587` and `shell fiveways 387` share ` sh`, `shell`, `ll `, …),
 * and its words and pairs of words. A store number or a name cut short still shares most of its
 * grams with the texts of the same payee.
 */
export function textGrams(text: string): string[] {
  const words = gramWords(text);
  const grams = words.flatMap(letterGrams);
  const tokens = words.flatMap(wordTokens);
  for (const [i, token] of tokens.entries()) {
    grams.push(`|${token}`);
    if (i + 1 < tokens.length) grams.push(`|${token} ${tokens[i + 1]!}`);
  }
  return grams;
}

/**
 * A list of whole numbers that grows, kept in a typed array (millions of a big history's
 * grams): in 16 bits while every number fits (`small`), else in 32.
 */
class NumberList {
  private data: Uint16Array | Int32Array;
  length = 0;

  constructor(small = false) {
    this.data = small ? new Uint16Array(64) : new Int32Array(64);
  }

  push(value: number): void {
    if (value > 0xffff && this.data instanceof Uint16Array) this.data = Int32Array.from(this.data);
    this.data = atLeast(this.data, this.length + 1);
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }

  /** Empties the list, keeping its storage (and its width). */
  clear(): void {
    this.length = 0;
  }

  /** The numbers: a view of the list's own storage, not a copy (push no more after). */
  values(): Uint16Array | Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * The distinct texts of a history as vectors of their grams (TF-IDF over the history's texts,
 * at unit length), and which of them are most like a text: an inverted index of every text,
 * built at once, in which a text is found only once it is learned (a replay finds only the
 * earlier ones). Texts are learned in the order the index was given them (a history in date
 * order), so the learned ones are the first documents and each gram's postings, in document
 * order, end where the learned ones do.
 *
 * The postings in flat typed arrays, not arrays of objects: a big history holds tens of
 * thousands of distinct texts (a store number makes each a new one) and millions of postings.
 * Each text's grams are found once, while the index is built; only the postings are kept.
 */
export class TextNeighbours {
  private readonly gramIndex = new Map<string, number>();
  private readonly idf: Float64Array;
  /**
   * Per gram, its postings in one pool, from `postingStart[gram]` to `postingStart[gram + 1]`:
   * the documents holding it, and how often it occurs in each (its weight there is that times
   * the gram's idf over the document's norm: worked out when asked, not kept, a third of the
   * memory).
   */
  private readonly postingStart: Int32Array;
  /** In 16 bits where the history has no more than 65,536 distinct texts (most clients). */
  private readonly postingDocs: Uint16Array | Int32Array;
  private readonly postingCounts: Uint16Array | Int32Array;
  /** Each indexed document's length as a vector of its weighted grams. */
  private readonly norms: Float64Array;
  /** How many indexed documents are learned: the first ones. */
  private learned = 0;
  private readonly docOf = new Map<string, number>();
  /** The texts by document: the indexed ones, then any learned that were not indexed. */
  readonly texts: string[];
  /** Each document's likeness to the text asked about, summed gram by gram (zero between asks). */
  private scores = new Float64Array(1024);
  /** The documents a text asked about shares a gram with. */
  private touched = new Int32Array(1024);
  /** The words met, each with its letter grams' indexes and its tokens. */
  private readonly words = new Map<string, { letters: Int32Array; tokens: string[] }>();
  /** A text's count of each gram, while it is read (zero between texts). */
  private gramCount = new Float64Array(1024);

  constructor(texts: Iterable<string>) {
    this.texts = [...new Set(texts)].filter((text) => text !== '');
    const documents = this.texts.length;
    // Each text's grams are found twice (the words' pieces are found once, and kept) rather
    // than kept between: first to count the texts holding each gram, then to post them.
    const grams = new NumberList();
    // A gram rarely occurs twice in a text: its counts in 16 bits, unless some text has more.
    const counts = new NumberList(true);
    let frequency = new Int32Array(1024);
    let postings = 0;
    let narrow = true;
    for (const [doc, text] of this.texts.entries()) {
      this.docOf.set(text, doc);
      grams.clear();
      counts.clear();
      this.countGrams(text, true, grams, counts);
      frequency = atLeast(frequency, this.gramIndex.size);
      for (let k = 0; k < grams.length; k += 1) {
        frequency[grams.at(k)]! += 1;
        if (counts.at(k) > 0xffff) narrow = false;
      }
      postings += grams.length;
    }
    const gramTotal = this.gramIndex.size;
    this.idf = new Float64Array(gramTotal);
    this.postingStart = new Int32Array(gramTotal + 1);
    for (let gram = 0; gram < gramTotal; gram += 1) {
      const d = frequency[gram]!;
      this.idf[gram] = Math.log((1 + documents) / (1 + d)) + 1;
      this.postingStart[gram + 1] = this.postingStart[gram]! + d;
    }
    this.postingDocs = documents <= 0x10000 ? new Uint16Array(postings) : new Int32Array(postings);
    this.postingCounts = narrow ? new Uint16Array(postings) : new Int32Array(postings);
    this.norms = new Float64Array(documents);
    const filled = frequency.fill(0);
    for (const [doc, text] of this.texts.entries()) {
      grams.clear();
      counts.clear();
      this.countGrams(text, false, grams, counts);
      this.norms[doc] = this.normOf(grams.values(), counts.values());
      for (let k = 0; k < grams.length; k += 1) {
        const gram = grams.at(k);
        const at = this.postingStart[gram]! + filled[gram]!;
        this.postingDocs[at] = doc;
        this.postingCounts[at] = counts.at(k);
        filled[gram]! += 1;
      }
    }
  }

  /**
   * Appends a text's distinct grams (those the index knows, or every gram when `learn`) and how
   * often each occurs, in the order first met.
   */
  private countGrams(text: string, learn: boolean, grams: NumberList, counts: NumberList): void {
    // The grams of textGrams, in its order, each word's pieces found once (texts share words).
    const from = grams.length;
    const words = gramWords(text).map((word) => this.wordOf(word, learn));
    for (const word of words) for (const gram of word.letters) this.count(gram, grams);
    const tokens = words.flatMap((word) => word.tokens);
    for (let i = 0; i < tokens.length; i += 1) {
      this.count(this.gramOf(`|${tokens[i]!}`, learn), grams);
      if (i + 1 < tokens.length)
        this.count(this.gramOf(`|${tokens[i]!} ${tokens[i + 1]!}`, learn), grams);
    }
    for (let k = from; k < grams.length; k += 1) {
      const gram = grams.at(k);
      counts.push(this.gramCount[gram]!);
      this.gramCount[gram] = 0;
    }
  }

  /** A gram's index (-1: unknown to the index, which learns it when `learn`). */
  private gramOf(gram: string, learn: boolean): number {
    let index = this.gramIndex.get(gram);
    if (index === undefined) {
      if (!learn) return -1;
      index = this.gramIndex.size;
      this.gramIndex.set(gram, index);
    }
    return index;
  }

  /** A word's letter grams (indexed) and tokens, worked out on the word's first sight. */
  private wordOf(word: string, learn: boolean): { letters: Int32Array; tokens: string[] } {
    let known = this.words.get(word);
    if (known === undefined || (learn && known.letters.includes(-1))) {
      known = {
        letters: Int32Array.from(letterGrams(word), (gram) => this.gramOf(gram, learn)),
        tokens: wordTokens(word),
      };
      this.words.set(word, known);
    }
    return known;
  }

  /** Counts one more of a gram in the text being read (its first time: appended to `grams`). */
  private count(gram: number, grams: NumberList): void {
    if (gram < 0) return;
    this.gramCount = atLeast(this.gramCount, gram + 1);
    if (this.gramCount[gram] === 0) grams.push(gram);
    this.gramCount[gram]! += 1;
  }

  /** The length of a text's vector of grams, each weighted by its count and idf. */
  private normOf(grams: ArrayLike<number>, counts: ArrayLike<number>): number {
    let squares = 0;
    for (let k = 0; k < grams.length; k += 1) {
      const weight = counts[k]! * this.idf[grams[k]!]!;
      squares += weight * weight;
    }
    return Math.sqrt(squares) || 1;
  }

  /**
   * The document of a text, learned: an indexed text is found from now on (each in its turn:
   * the index's order); a text the index was not built from is kept but never found.
   */
  add(text: string): number {
    let doc = this.docOf.get(text);
    if (doc === undefined) {
      doc = this.texts.length;
      this.docOf.set(text, doc);
      this.texts.push(text);
    } else if (doc === this.learned && doc < this.norms.length) this.learned += 1;
    else if (doc > this.learned && doc < this.norms.length)
      throw new Error('texts are learned in the order the index was given them');
    return doc;
  }

  /** The earlier texts most like `text` (cosine at least `least`), most alike first. */
  nearest(text: string, count: number, least: number): { doc: number; likeness: number }[] {
    const found = new NumberList();
    const times = new NumberList(true);
    this.countGrams(text, false, found, times);
    const grams = found.values();
    const counts = times.values();
    const norm = this.normOf(grams, counts);
    // A flat array indexed by document, not a map: a gram as common as ` s` lists most of a
    // big history's texts, and a replay asks about every text never seen before.
    if (this.scores.length < this.learned) {
      const size = Math.max(this.learned, 2 * this.scores.length);
      this.scores = new Float64Array(size);
      this.touched = new Int32Array(size);
    }
    const { scores, touched, postingDocs, postingCounts, norms, learned } = this;
    let touchedCount = 0;
    for (let k = 0; k < grams.length; k += 1) {
      const gram = grams[k]!;
      const idf = this.idf[gram]!;
      const weight = (counts[k]! * idf) / norm;
      const end = this.postingStart[gram + 1]!;
      for (let i = this.postingStart[gram]!; i < end; i += 1) {
        const doc = postingDocs[i]!;
        if (doc >= learned) break;
        if (scores[doc] === 0) touched[touchedCount++] = doc;
        // The document's weight of the gram, as normOf() weighs it for the document.
        scores[doc]! += weight * ((postingCounts[i]! * idf) / norms[doc]!);
      }
    }
    const best: { doc: number; likeness: number }[] = [];
    for (let t = 0; t < touchedCount; t += 1) {
      const doc = touched[t]!;
      const likeness = scores[doc]!;
      scores[doc] = 0;
      if (likeness < least) continue;
      if (best.length < count) best.push({ doc, likeness });
      else if (likeness > best[best.length - 1]!.likeness)
        best[best.length - 1] = { doc, likeness };
      else continue;
      best.sort((a, b) => b.likeness - a.likeness);
    }
    return best;
  }
}

/** The strength of a record: the lower bound of its share agreeing (ties: more lines). */
const strength = (record: LevelRecord) =>
  wilsonLowerBound(record.agreeing, record.total) + record.total * 1e-9;

/**
 * What the history holds, learned one line at a time in date order (so that a replay can ask
 * before each line what it would have said).
 */
export class CategoryModel {
  private readonly accounts: string[] = [];
  private readonly accountIndex = new Map<string, number>();
  private readonly counts = new Tallies();
  /** Per level of KEYED_LEVELS, its keys' tallies. */
  private readonly tallies = KEYED_LEVELS.map(() => new Map<string, number>());
  /** Per text of the neighbours, its tally. */
  private readonly textTallies: number[] = [];
  private readonly prior = { in: new Map<number, number>(), out: new Map<number, number>() };
  private readonly priorTotal = { in: 0, out: 0 };
  private lines = 0;
  private firstDay: number | undefined;

  /** `neighbours`: the history's texts, to find the ones most like a text never seen. */
  constructor(private readonly neighbours: TextNeighbours = new TextNeighbours([])) {}

  get size(): number {
    return this.lines;
  }

  /** The weight of a line of `day` (growing with time: the same scale for every line). */
  private weightOf(day: number): number {
    this.firstDay ??= day;
    return 2 ** ((day - this.firstDay) / HALF_LIFE_DAYS);
  }

  add(line: LabeledLine, features: LineFeatures = featuresOf(line)): void {
    let account = this.accountIndex.get(line.accountId);
    if (account === undefined) {
      account = this.accounts.length;
      this.accounts.push(line.accountId);
      this.accountIndex.set(line.accountId, account);
    }
    const weight = this.weightOf(features.day);
    if (features.keys)
      for (let level = 0; level < KEYED_LEVELS.length; level += 1) {
        const tallies = this.tallies[level]!;
        const key = features.keys[level]!;
        let tally = tallies.get(key);
        if (tally === undefined) tallies.set(key, (tally = this.counts.create()));
        this.counts.add(tally, account, weight);
      }
    if (features.plain !== '') {
      const doc = this.neighbours.add(features.plain);
      this.counts.add((this.textTallies[doc] ??= this.counts.create()), account, weight);
    }
    const side = features.inflow ? 'in' : 'out';
    this.prior[side].set(account, (this.prior[side].get(account) ?? 0) + weight);
    this.priorTotal[side] += weight;
    this.lines += 1;
  }

  /** Whether the history has seen the line's payee (not only texts like it). */
  knows(line: UnlabeledLine): boolean {
    const { keys } = featuresOf(line);
    return keys !== undefined && keys.some((key, level) => this.tallies[level]!.has(key));
  }

  /**
   * The most probable account for a line (among the accounts `usable` allows), with its raw
   * probability and what it rests on; undefined before any history.
   */
  predict(
    line: UnlabeledLine,
    usable?: (accountId: string) => boolean,
    features: LineFeatures = featuresOf(line),
  ): Omit<Prediction, 'confidence'> | undefined {
    const count = this.accounts.length;
    if (count === 0) return undefined;
    const scale = this.weightOf(features.day);
    const side = features.inflow ? 'in' : 'out';
    const probability = new Float64Array(count);
    const priorSmoothing = 0.1 * scale;
    const priorTotal = this.priorTotal[side] + priorSmoothing * count;
    for (let a = 0; a < count; a += 1)
      probability[a] = ((this.prior[side].get(a) ?? 0) + priorSmoothing) / priorTotal;
    let level: EvidenceLevel = 'prior';

    // A text never seen: what the earlier texts most like it decided, each by its likeness.
    let similar: { agreeing: Float64Array; lines: number; like: string[] } | undefined;
    const textKnown =
      features.keys !== undefined && this.tallies[TEXT_LEVEL]!.has(features.keys[TEXT_LEVEL]!);
    if (!textKnown && features.plain !== '') {
      const near = new Float64Array(count);
      const agreeing = new Float64Array(count);
      let said = 0;
      let lines = 0;
      const nearest = this.neighbours.nearest(features.plain, NEIGHBOURS, MIN_LIKENESS);
      for (const { doc, likeness } of nearest) {
        const tally = this.textTallies[doc]!;
        const say = likeness ** LIKENESS_POWER;
        const weightedTotal = this.counts.weightedTotal(tally);
        this.counts.forEach(tally, (account, weight, accountLines) => {
          near[account]! += (say * weight) / weightedTotal;
          agreeing[account]! += accountLines;
        });
        lines += this.counts.rawTotal(tally);
        said += say;
      }
      if (said > 0) {
        level = 'similar';
        similar = {
          agreeing,
          lines,
          like: nearest.slice(0, 3).map(({ doc }) => this.neighbours.texts[doc]!),
        };
        for (let a = 0; a < count; a += 1)
          probability[a] =
            (near[a]! + PRIOR_AGAINST_SIMILAR * probability[a]!) / (said + PRIOR_AGAINST_SIMILAR);
      }
    }

    // The payee's levels, each refining the one before.
    const found: { index: number; tally: number }[] = [];
    for (let index = 0; index < KEYED_LEVELS.length && features.keys; index += 1) {
      const tally = this.tallies[index]!.get(features.keys[index]!);
      if (tally === undefined) continue;
      found.push({ index, tally });
      level = KEYED_LEVELS[index]!;
      const smoothing = SMOOTHING[KEYED_LEVELS[index]!] * scale;
      const total = this.counts.weightedTotal(tally) + smoothing;
      const keep = smoothing / total;
      for (let a = 0; a < count; a += 1) probability[a] = probability[a]! * keep;
      this.counts.forEach(tally, (account, weight) => {
        probability[account]! += weight / total;
      });
    }

    let best = -1;
    for (let a = 0; a < count; a += 1) {
      if (usable && !usable(this.accounts[a]!)) continue;
      if (best < 0 || probability[a]! > probability[best]!) best = a;
    }
    if (best < 0) return undefined;
    const labelOf = (of: EvidenceLevel) =>
      (of === 'payee' || of === 'similar' || of === 'prior'
        ? payeeLabel(features.words, 2)
        : payeeLabel(features.words, 4)) || 'THIS TEXT';
    const records: LevelRecord[] = found.map(({ index, tally }) => ({
      level: KEYED_LEVELS[index]!,
      label: labelOf(KEYED_LEVELS[index]!),
      agreeing: this.counts.rawOf(tally, best),
      total: this.counts.rawTotal(tally),
      latestRun: this.counts.latestRunOf(tally, best),
    }));
    const deciding: LevelRecord = records.at(-1) ?? {
      level,
      label: labelOf(level),
      agreeing: similar ? similar.agreeing[best]! : 0,
      total: similar ? similar.lines : 0,
      latestRun: 0,
    };
    let strongest = deciding;
    for (const record of records) if (strength(record) > strength(strongest)) strongest = record;
    return {
      accountId: this.accounts[best]!,
      probability: probability[best]!,
      evidence: { ...deciding, like: similar?.like ?? [], strongest },
    };
  }
}

/** Where the calibration's bins of the raw probability end: finer where suggestions are taken. */
const BIN_EDGES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 1.000_001];
const BINS = BIN_EDGES.length;

/** How many earlier lines the deciding level holds, in three bands: one or two, a few, many. */
const supportBand = (total: number) => (total < 3 ? 'few' : total < 10 ? 'some' : 'many');

/** A prediction as the calibration tells it apart: its level and how much that level has seen. */
const calibrationKey = (evidence: Pick<Evidence, 'level' | 'total'>) =>
  `${evidence.level}|${supportBand(evidence.total)}`;

/**
 * How often predictions were right, by their level of evidence and its support (one earlier
 * line at the deciding level says less than thirty) and by raw probability, made monotone.
 */
export class Calibration {
  private readonly table = new Map<string, Float64Array>();
  private readonly empty: Float64Array;

  constructor(observations: readonly { key: string; probability: number; right: boolean }[]) {
    const byKey = new Map<string, { seen: number[]; right: number[] }>();
    const all = { seen: Array<number>(BINS).fill(0), right: Array<number>(BINS).fill(0) };
    for (const { key, probability, right } of observations) {
      let bins = byKey.get(key);
      if (!bins) byKey.set(key, (bins = { seen: Array(BINS).fill(0), right: Array(BINS).fill(0) }));
      const bin = binOf(probability);
      bins.seen[bin]! += 1;
      all.seen[bin]! += 1;
      if (right) {
        bins.right[bin]! += 1;
        all.right[bin]! += 1;
      }
    }
    // A key's bin with few observations leans on how often all predictions of that raw
    // probability were right, and that on the bin's probability (at most BIN_PRIOR_AT_MOST).
    const pooled = all.seen.map(
      (seen, bin) =>
        (all.right[bin]! + BIN_PRIOR * Math.min(binCenter(bin), BIN_PRIOR_AT_MOST)) /
        (seen + BIN_PRIOR),
    );
    this.empty = monotoneBounds(Array(BINS).fill(0), Array(BINS).fill(0), pooled);
    for (const [key, bins] of byKey)
      this.table.set(key, monotoneBounds(bins.seen, bins.right, pooled));
  }

  /** The confidence of a prediction of this evidence and raw probability. */
  confidence(evidence: Pick<Evidence, 'level' | 'total'>, probability: number): number {
    return (this.table.get(calibrationKey(evidence)) ?? this.empty)[binOf(probability)]!;
  }
}

const binOf = (probability: number) => {
  const bin = BIN_EDGES.findIndex((edge) => probability < edge);
  return bin < 0 ? BINS - 1 : bin;
};

/** A bin's own probability: its middle. */
const binCenter = (bin: number) =>
  ((bin === 0 ? 0 : BIN_EDGES[bin - 1]!) + Math.min(1, BIN_EDGES[bin]!)) / 2;

/**
 * Each bin's accuracy, with BIN_PRIOR pseudo-observations at the bin's `prior` accuracy,
 * pooled with its neighbours wherever a lower bin would be more accurate than a higher one
 * (pool adjacent violators), then taken at its lower bound.
 */
function monotoneBounds(
  seen: readonly number[],
  right: readonly number[],
  prior: readonly number[],
): Float64Array {
  const blocks: { n: number; k: number; from: number; to: number }[] = [];
  for (let bin = 0; bin < BINS; bin += 1) {
    blocks.push({
      n: seen[bin]! + BIN_PRIOR,
      k: right[bin]! + BIN_PRIOR * prior[bin]!,
      from: bin,
      to: bin,
    });
    while (blocks.length > 1) {
      const last = blocks.at(-1)!;
      const before = blocks.at(-2)!;
      if (before.k / before.n <= last.k / last.n) break;
      blocks.splice(-2, 2, {
        n: before.n + last.n,
        k: before.k + last.k,
        from: before.from,
        to: last.to,
      });
    }
  }
  const table = new Float64Array(BINS);
  for (const block of blocks) {
    const bound = wilsonLowerBound(block.k, block.n);
    for (let bin = block.from; bin <= block.to; bin += 1) table[bin] = bound;
  }
  return table;
}

/** The lower end of the Wilson score interval of k successes in n (LOWER_BOUND_Z). */
export function wilsonLowerBound(k: number, n: number): number {
  if (n <= 0) return 0;
  const z = LOWER_BOUND_Z;
  const share = k / n;
  const denominator = 1 + (z * z) / n;
  const center = share + (z * z) / (2 * n);
  const margin = z * Math.sqrt((share * (1 - share)) / n + (z * z) / (4 * n * n));
  return Math.max(0, (center - margin) / denominator);
}

/** A model of a client's history and the calibration of its predictions. */
export interface LearnedCategories {
  model: CategoryModel;
  calibration: Calibration;
  /** Predicts with a calibrated confidence; undefined before any history. */
  predict(line: UnlabeledLine, usable?: (accountId: string) => boolean): Prediction | undefined;
}

/**
 * Learns a client's history (any order: it is read by day, lines of a day in the order given),
 * replaying it to calibrate the confidence: before each of the latest lines (up to
 * MAX_REPLAYED, after the first tenth), what the lines before it predicted, and whether it was
 * right.
 */
export function learnCategories(history: readonly LabeledLine[]): LearnedCategories {
  const ordered = history
    .map((line, index) => ({ line, index }))
    .sort((a, b) =>
      a.line.day < b.line.day ? -1 : a.line.day > b.line.day ? 1 : a.index - b.index,
    )
    .map(({ line }) => line);
  const model = new CategoryModel(new TextNeighbours(ordered.map((line) => plainText(line.text))));
  const observations: { key: string; probability: number; right: boolean }[] = [];
  const replayFrom = Math.max(Math.ceil(ordered.length / 10), ordered.length - MAX_REPLAYED, 1);
  for (const [index, line] of ordered.entries()) {
    const features = featuresOf(line);
    if (index >= replayFrom) {
      const predicted = model.predict(line, undefined, features);
      if (predicted)
        observations.push({
          key: calibrationKey(predicted.evidence),
          probability: predicted.probability,
          right: predicted.accountId === line.accountId,
        });
    }
    model.add(line, features);
  }
  const calibration = new Calibration(observations);
  return {
    model,
    calibration,
    predict(line, usable) {
      const predicted = model.predict(line, usable);
      if (!predicted) return undefined;
      return {
        ...predicted,
        confidence: calibration.confidence(predicted.evidence, predicted.probability),
      };
    },
  };
}
