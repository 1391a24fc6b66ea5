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

/**
 * Counts of one key of one level: decayed weights for the model, whole lines for the reason.
 * In one flat array, not maps: a key rarely goes to more than a few accounts, and a big history
 * holds over a hundred thousand keys.
 */
class Tally {
  /** Per account the key went to, in the order first seen: the account, its weight, its lines. */
  readonly counts: number[] = [];
  weightedTotal = 0;
  rawTotal = 0;
  last = -1;
  latestRun = 0;

  add(account: number, weight: number): void {
    let at = 0;
    while (at < this.counts.length && this.counts[at] !== account) at += 3;
    if (at === this.counts.length) this.counts.push(account, 0, 0);
    this.counts[at + 1]! += weight;
    this.weightedTotal += weight;
    this.counts[at + 2]! += 1;
    this.rawTotal += 1;
    this.latestRun = this.last === account ? this.latestRun + 1 : 1;
    this.last = account;
  }

  /** Whole lines that went to `account`. */
  rawOf(account: number): number {
    for (let at = 0; at < this.counts.length; at += 3)
      if (this.counts[at] === account) return this.counts[at + 2]!;
    return 0;
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
    const direction = inflow ? '+' : '-';
    const payee = `${direction}${words.slice(0, 2).join(' ')}`;
    const text = `${direction}${words.join(' ')}`;
    const band = amountBand(line.amountCents);
    keys = [
      payee,
      text,
      `${text}|${line.bankAccountId}`,
      `${payee}|${band}`,
      `${text}|${band}`,
      `${text}|${line.bankAccountId}|${Math.abs(line.amountCents)}`,
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
    if (value > 0xffff && this.data instanceof Uint16Array) this.data = this.widened(true, 1);
    else if (this.length === this.data.length) this.data = this.widened(false, 2);
    this.data[this.length++] = value;
  }

  /** The storage `growth` times as long, in 32 bits if `wide` (or already). */
  private widened(wide: boolean, growth: number): Uint16Array | Int32Array {
    const length = growth * this.data.length;
    const wider =
      wide || this.data instanceof Int32Array ? new Int32Array(length) : new Uint16Array(length);
    wider.set(this.data);
    return wider;
  }

  at(index: number): number {
    return this.data[index]!;
  }

  /** The numbers: a view of the list's own storage, not a copy (push no more after). */
  values(): Uint16Array | Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * The distinct texts of a history as vectors of their grams (TF-IDF over the history's texts,
 * at unit length), and which of them are most like a text: an inverted index, filled as the
 * texts are first seen (a replay finds only the earlier ones).
 *
 * The postings and each text's grams in flat typed arrays, not arrays of objects: a big history
 * holds tens of thousands of distinct texts (a store number makes each a new one) and millions
 * of postings. Each text's grams are found once, when the index is built.
 */
class TextNeighbours {
  private readonly gramIndex = new Map<string, number>();
  private readonly idf: Float64Array;
  /** The grams of each text the index was built from (distinct, with counts), found once. */
  private readonly builtSlot = new Map<string, number>();
  private readonly builtGrams: Uint16Array | Int32Array;
  private readonly builtCounts: Uint16Array | Int32Array;
  private readonly builtStart: Int32Array;
  /**
   * Per gram, its postings in one pool: a run of documents, and how often the gram occurs in
   * each (its weight there is that times the gram's idf over the document's norm: worked out
   * when asked, not kept, a third of the memory).
   */
  private readonly postingStart: Int32Array;
  private readonly postingLength: Int32Array;
  private readonly postingDocs: Int32Array;
  private readonly postingCounts: Uint16Array | Int32Array;
  /** Each document's length as a vector of its weighted grams. */
  private readonly norms: number[] = [];
  private readonly docOf = new Map<string, number>();
  readonly texts: string[] = [];
  /** Each document's likeness to the text asked about, summed gram by gram (zero between asks). */
  private scores = new Float64Array(1024);
  /** The documents a text asked about shares a gram with. */
  private touched = new Int32Array(1024);
  /** The words met, each with its letter grams' indexes and its tokens. */
  private readonly words = new Map<string, { letters: Int32Array; tokens: string[] }>();
  /** A text's count of each gram, while it is read (zero between texts). */
  private gramCount = new Float64Array(1024);

  constructor(texts: Iterable<string>) {
    const distinct = [...new Set(texts)];
    const grams = new NumberList();
    // A gram rarely occurs twice in a text: its counts in 16 bits, unless some text has more.
    const counts = new NumberList(true);
    const starts = new Int32Array(distinct.length + 1);
    for (const [slot, text] of distinct.entries()) {
      this.builtSlot.set(text, slot);
      starts[slot] = grams.length;
      this.countGrams(text, true, grams, counts);
    }
    starts[distinct.length] = grams.length;
    this.builtGrams = grams.values();
    this.builtCounts = counts.values();
    const narrow = this.builtCounts instanceof Uint16Array;
    this.builtStart = starts;
    const gramCount = this.gramIndex.size;
    const documents = new Int32Array(gramCount);
    for (const gram of this.builtGrams) documents[gram]! += 1;
    this.idf = Float64Array.from(documents, (d) => Math.log((1 + distinct.length) / (1 + d)) + 1);
    // Room in the pool for every text the index is built from, each gram's run as long as the
    // texts holding it.
    this.postingStart = new Int32Array(gramCount);
    this.postingLength = new Int32Array(gramCount);
    let at = 0;
    for (let gram = 0; gram < gramCount; gram += 1) {
      this.postingStart[gram] = at;
      at += documents[gram]!;
    }
    this.postingDocs = new Int32Array(at);
    this.postingCounts = narrow ? new Uint16Array(at) : new Int32Array(at);
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
    if (gram >= this.gramCount.length) {
      const wider = new Float64Array(Math.max(gram + 1, 2 * this.gramCount.length));
      wider.set(this.gramCount);
      this.gramCount = wider;
    }
    if (this.gramCount[gram] === 0) grams.push(gram);
    this.gramCount[gram]! += 1;
  }

  /**
   * The text's grams known to the history, how often each occurs, their weights at unit length,
   * and the norm they were divided by.
   */
  private vector(
    text: string,
    slot = this.builtSlot.get(text),
  ): {
    grams: ArrayLike<number>;
    counts: ArrayLike<number>;
    weights: Float64Array;
    norm: number;
  } {
    let grams: ArrayLike<number>;
    let counts: ArrayLike<number>;
    if (slot !== undefined) {
      const from = this.builtStart[slot]!;
      const to = this.builtStart[slot + 1]!;
      grams = this.builtGrams.subarray(from, to);
      counts = this.builtCounts.subarray(from, to);
    } else {
      const found = new NumberList();
      const times = new NumberList(true);
      this.countGrams(text, false, found, times);
      grams = found.values();
      counts = times.values();
    }
    const weights = new Float64Array(grams.length);
    let squares = 0;
    for (let k = 0; k < grams.length; k += 1) {
      const weight = counts[k]! * this.idf[grams[k]!]!;
      weights[k] = weight;
      squares += weight * weight;
    }
    const norm = Math.sqrt(squares) || 1;
    for (let k = 0; k < weights.length; k += 1) weights[k]! /= norm;
    return { grams, counts, weights, norm };
  }

  /**
   * The document of a text, indexed on its first sight. Only the texts the index was built from
   * are found by their grams (a model learns only its own history's texts): each has room in
   * its grams' postings.
   */
  add(text: string): number {
    let doc = this.docOf.get(text);
    if (doc !== undefined) return doc;
    doc = this.texts.length;
    this.docOf.set(text, doc);
    this.texts.push(text);
    const slot = this.builtSlot.get(text);
    if (slot === undefined) {
      this.norms.push(1);
      return doc;
    }
    const { grams, counts, norm } = this.vector(text, slot);
    this.norms.push(norm);
    for (let k = 0; k < grams.length; k += 1) {
      const gram = grams[k]!;
      const at = this.postingStart[gram]! + this.postingLength[gram]!;
      this.postingDocs[at] = doc;
      this.postingCounts[at] = counts[k]!;
      this.postingLength[gram]! += 1;
    }
    return doc;
  }

  /** The earlier texts most like `text` (cosine at least `least`), most alike first. */
  nearest(text: string, count: number, least: number): { doc: number; likeness: number }[] {
    const { grams, weights } = this.vector(text);
    // A flat array indexed by document, not a map: a gram as common as ` s` lists most of a
    // big history's texts, and a replay asks about every text never seen before.
    if (this.scores.length < this.texts.length) {
      const size = Math.max(this.texts.length, 2 * this.scores.length);
      this.scores = new Float64Array(size);
      this.touched = new Int32Array(size);
    }
    const { scores, touched, postingDocs, postingCounts, norms } = this;
    let touchedCount = 0;
    for (let k = 0; k < grams.length; k += 1) {
      const gram = grams[k]!;
      const weight = weights[k]!;
      const idf = this.idf[gram]!;
      const start = this.postingStart[gram]!;
      const end = start + this.postingLength[gram]!;
      for (let i = start; i < end; i += 1) {
        const doc = postingDocs[i]!;
        if (scores[doc] === 0) touched[touchedCount++] = doc;
        // The document's weight of the gram, as vector() works it out for the document.
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
  /** Per level of KEYED_LEVELS, its keys' tallies. */
  private readonly tallies = KEYED_LEVELS.map(() => new Map<string, Tally>());
  /** Per text of the neighbours, its tally. */
  private readonly textTallies: Tally[] = [];
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
        if (!tally) tallies.set(key, (tally = new Tally()));
        tally.add(account, weight);
      }
    if (features.plain !== '') {
      const doc = this.neighbours.add(features.plain);
      (this.textTallies[doc] ??= new Tally()).add(account, weight);
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
        const counts = tally.counts;
        for (let at = 0; at < counts.length; at += 3) {
          near[counts[at]!]! += (say * counts[at + 1]!) / tally.weightedTotal;
          agreeing[counts[at]!]! += counts[at + 2]!;
        }
        lines += tally.rawTotal;
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
    const found: { index: number; tally: Tally }[] = [];
    for (let index = 0; index < KEYED_LEVELS.length && features.keys; index += 1) {
      const tally = this.tallies[index]!.get(features.keys[index]!);
      if (!tally) continue;
      found.push({ index, tally });
      level = KEYED_LEVELS[index]!;
      const smoothing = SMOOTHING[KEYED_LEVELS[index]!] * scale;
      const total = tally.weightedTotal + smoothing;
      const keep = smoothing / total;
      for (let a = 0; a < count; a += 1) probability[a] = probability[a]! * keep;
      for (let at = 0; at < tally.counts.length; at += 3)
        probability[tally.counts[at]!]! += tally.counts[at + 1]! / total;
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
      agreeing: tally.rawOf(best),
      total: tally.rawTotal,
      latestRun: tally.last === best ? tally.latestRun : 0,
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
