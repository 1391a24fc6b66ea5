/**
 * The classic learned approach to a bank line's category, as smart_importer and most tutorials
 * build it, for the suggestions bench to measure books' learner against: the description as word
 * 1- to 2-grams and character 2- to 5-grams within words, each weighted by TF-IDF
 * (scikit-learn's TfidfVectorizer with its defaults: lower case, tokens of two or more word
 * characters, smoothed idf, l2 norm; `analyzer='char_wb'` for the characters; the two side by
 * side as a FeatureUnion), then a linear support vector machine, one class against the rest
 * (scikit-learn's LinearSVC: squared hinge loss, C = 1, an intercept fitted as a feature of value
 * 1, regularized as liblinear does). Identical lines of one class are one example weighted by
 * their count, which leaves the problem the same and makes it fast.
 */

const TOKEN = /[\p{L}\p{N}_]{2,}/gu;

/** Word 1- to `upTo`-grams of a text, as scikit-learn's analyzer makes them. */
export function ngrams(text: string, upTo = 3): string[] {
  const tokens = text.toLowerCase().match(TOKEN) ?? [];
  const grams: string[] = [];
  for (let n = 1; n <= upTo; n += 1)
    for (let i = 0; i + n <= tokens.length; i += 1) grams.push(tokens.slice(i, i + n).join(' '));
  return grams;
}

interface SparseVector {
  indices: Int32Array;
  values: Float64Array;
}

/**
 * Character 2- to 5-grams of a text within its words, as scikit-learn's `char_wb` analyzer
 * makes them: the text in lower case, each whitespace-separated word padded with a space.
 */
export function charNgrams(text: string, from = 2, upTo = 5): string[] {
  const grams: string[] = [];
  for (const word of text.toLowerCase().split(/\s+/)) {
    if (word === '') continue;
    const padded = ` ${word} `;
    for (let n = from; n <= upTo; n += 1) {
      for (let i = 0; i + n <= padded.length; i += 1) grams.push(padded.slice(i, i + n));
      if (n >= padded.length) break;
    }
  }
  return grams;
}

/** The features of a text: its terms, as one analyzer makes them. */
export type Analyzer = (text: string) => string[];

/** TF-IDF vectors over a vocabulary fitted on the training texts. */
export class TfidfVectorizer {
  private readonly vocabulary = new Map<string, number>();
  private idf = new Float64Array(0);

  constructor(private readonly analyze: Analyzer = (text) => ngrams(text)) {}

  fit(texts: readonly string[]): this {
    const documents = new Map<string, number>();
    for (const text of texts)
      for (const gram of new Set(this.analyze(text)))
        documents.set(gram, (documents.get(gram) ?? 0) + 1);
    const sorted = [...documents.keys()].sort();
    this.idf = new Float64Array(sorted.length);
    for (const [index, gram] of sorted.entries()) {
      this.vocabulary.set(gram, index);
      this.idf[index] = Math.log((1 + texts.length) / (1 + documents.get(gram)!)) + 1;
    }
    return this;
  }

  get size(): number {
    return this.idf.length;
  }

  transform(text: string): SparseVector {
    const counts = new Map<number, number>();
    for (const gram of this.analyze(text)) {
      const index = this.vocabulary.get(gram);
      if (index !== undefined) counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    const indices = Int32Array.from([...counts.keys()].sort((a, b) => a - b));
    const values = new Float64Array(indices.length);
    let norm = 0;
    for (const [i, index] of indices.entries()) {
      values[i] = counts.get(index)! * this.idf[index]!;
      norm += values[i]! ** 2;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < values.length; i += 1) values[i]! /= norm;
    return { indices, values };
  }
}

/**
 * One class against the rest: L2-regularized squared hinge loss with an example weight (a
 * line's count), minimized in the primal by L-BFGS. The problem is liblinear's (strictly convex,
 * one minimum); the primal converges where the dual's coordinate descent stalls on heavily
 * weighted examples (measured: scikit-learn's own dual solver on the weighted lines misses the
 * minimum by 4 points of accuracy). Its vectors are made once and reused, and each remembered
 * pair's product is kept: the same arithmetic in the same order as computing them afresh, so the
 * same weights, in about a third less time (the unit test fits three of these: 15 s to 10 s).
 */
function trainBinary(
  examples: readonly { x: SparseVector; y: 1 | -1; weight: number }[],
  features: number,
  c: number,
): Float64Array {
  const size = features + 1; // the intercept last, a feature of value 1
  const evaluate = (w: Float64Array, gradient: Float64Array): number => {
    let loss = 0;
    for (let j = 0; j < size; j += 1) {
      gradient[j] = w[j]!;
      loss += 0.5 * w[j]! * w[j]!;
    }
    for (let i = 0; i < examples.length; i += 1) {
      const { x, y, weight } = examples[i]!;
      const { indices, values } = x;
      let margin = w[features]!;
      for (let k = 0; k < indices.length; k += 1) margin += w[indices[k]!]! * values[k]!;
      const slack = 1 - y * margin;
      if (slack <= 0) continue;
      loss += c * weight * slack * slack;
      const factor = -2 * c * weight * slack * y;
      for (let k = 0; k < indices.length; k += 1) gradient[indices[k]!]! += factor * values[k]!;
      gradient[features]! += factor;
    }
    return loss;
  };
  const dot = (a: Float64Array, b: Float64Array) => {
    let sum = 0;
    for (let j = 0; j < size; j += 1) sum += a[j]! * b[j]!;
    return sum;
  };
  const memory = 10;
  /** The remembered pairs, oldest first: a step, its change of gradient, and their product. */
  const steps: Float64Array[] = [];
  const changes: Float64Array[] = [];
  const products: number[] = [];
  let w = new Float64Array(size);
  let gradient = new Float64Array(size);
  let loss = evaluate(w, gradient);
  const tolerance = 1e-6 * Math.max(1, Math.sqrt(dot(gradient, gradient)));
  const direction = new Float64Array(size);
  const alphas = new Float64Array(memory);
  let next = new Float64Array(size);
  let nextGradient = new Float64Array(size);
  let step: Float64Array = new Float64Array(size);
  let change: Float64Array = new Float64Array(size);
  for (let iteration = 0; iteration < 1000; iteration += 1) {
    if (Math.sqrt(dot(gradient, gradient)) <= tolerance) break;
    // The two-loop recursion: direction = −H·gradient.
    direction.set(gradient);
    for (let m = steps.length - 1; m >= 0; m -= 1) {
      const alpha = dot(steps[m]!, direction) / products[m]!;
      alphas[m] = alpha;
      const changed = changes[m]!;
      for (let j = 0; j < size; j += 1) direction[j]! -= alpha * changed[j]!;
    }
    if (steps.length > 0) {
      const last = steps.length - 1;
      const scale = products[last]! / dot(changes[last]!, changes[last]!);
      for (let j = 0; j < size; j += 1) direction[j]! *= scale;
    }
    for (let m = 0; m < steps.length; m += 1) {
      const beta = dot(changes[m]!, direction) / products[m]!;
      const stepped = steps[m]!;
      const weight = alphas[m]! - beta;
      for (let j = 0; j < size; j += 1) direction[j]! += stepped[j]! * weight;
    }
    for (let j = 0; j < size; j += 1) direction[j] = -direction[j]!;
    let slope = dot(gradient, direction);
    if (slope >= 0) {
      // Not a descent direction: start again from the gradient.
      steps.length = 0;
      changes.length = 0;
      products.length = 0;
      for (let j = 0; j < size; j += 1) direction[j] = -gradient[j]!;
      slope = dot(gradient, direction);
    }
    // Backtracking until the loss falls enough (Armijo).
    let stepSize = 1;
    let nextLoss = Infinity;
    for (let tries = 0; tries < 40; tries += 1) {
      for (let j = 0; j < size; j += 1) next[j] = w[j]! + stepSize * direction[j]!;
      nextLoss = evaluate(next, nextGradient);
      if (nextLoss <= loss + 1e-4 * stepSize * slope) break;
      stepSize /= 2;
    }
    if (!(nextLoss < loss)) break;
    for (let j = 0; j < size; j += 1) {
      step[j] = next[j]! - w[j]!;
      change[j] = nextGradient[j]! - gradient[j]!;
    }
    const product = dot(step, change);
    if (product > 1e-12) {
      steps.push(step);
      changes.push(change);
      products.push(product);
      if (steps.length > memory) {
        // The oldest pair's vectors are the next step's.
        step = steps.shift()!;
        change = changes.shift()!;
        products.shift();
      } else {
        step = new Float64Array(size);
        change = new Float64Array(size);
      }
    }
    [w, next] = [next, w];
    [gradient, nextGradient] = [nextGradient, gradient];
    loss = nextLoss;
  }
  return w;
}

/**
 * Several TF-IDF vectorizers side by side (scikit-learn's FeatureUnion): each vector
 * normalized on its own, then put one after the other.
 */
export class UnionVectorizer {
  private readonly parts: TfidfVectorizer[];

  constructor(analyzers: readonly Analyzer[]) {
    this.parts = analyzers.map((analyze) => new TfidfVectorizer(analyze));
  }

  fit(texts: readonly string[]): this {
    for (const part of this.parts) part.fit(texts);
    return this;
  }

  get size(): number {
    return this.parts.reduce((sum, part) => sum + part.size, 0);
  }

  transform(text: string): SparseVector {
    const indices: number[] = [];
    const values: number[] = [];
    let offset = 0;
    for (const part of this.parts) {
      const vector = part.transform(text);
      for (let k = 0; k < vector.indices.length; k += 1) {
        indices.push(offset + vector.indices[k]!);
        values.push(vector.values[k]!);
      }
      offset += part.size;
    }
    return { indices: Int32Array.from(indices), values: Float64Array.from(values) };
  }
}

/**
 * The features of the classic approach: word 1- to 2-grams and character 2- to 5-grams within
 * words, each weighted by TF-IDF (the strongest of the usual settings on bank texts, which
 * carry store numbers and truncated names that word grams alone miss).
 */
export const WORDS_AND_CHARACTERS: readonly Analyzer[] = [
  (text) => ngrams(text, 2),
  (text) => charNgrams(text, 2, 5),
];

/** TF-IDF and a linear SVM per class; predicts the class of the highest decision value. */
export class TfidfLinearSvm {
  private readonly vectorizer: UnionVectorizer;
  private classes: string[] = [];
  private weights: Float32Array[] = [];

  constructor(analyzers: readonly Analyzer[] = WORDS_AND_CHARACTERS) {
    this.vectorizer = new UnionVectorizer(analyzers);
  }

  fit(texts: readonly string[], labels: readonly string[], c = 1): this {
    this.vectorizer.fit(texts);
    this.classes = [...new Set(labels)].sort();
    // Identical texts are one vector, with its count per class.
    const byText = new Map<string, Map<string, number>>();
    for (const [i, text] of texts.entries()) {
      const counts = byText.get(text) ?? new Map<string, number>();
      counts.set(labels[i]!, (counts.get(labels[i]!) ?? 0) + 1);
      byText.set(text, counts);
    }
    const distinct = [...byText].map(([text, counts]) => ({
      x: this.vectorizer.transform(text),
      counts,
      total: [...counts.values()].reduce((a, b) => a + b, 0),
    }));
    this.weights = this.classes.map((label) => {
      const examples: { x: SparseVector; y: 1 | -1; weight: number }[] = [];
      for (const { x, counts, total } of distinct) {
        const inClass = counts.get(label) ?? 0;
        if (inClass > 0) examples.push({ x, y: 1, weight: inClass });
        if (total - inClass > 0) examples.push({ x, y: -1, weight: total - inClass });
      }
      return Float32Array.from(trainBinary(examples, this.vectorizer.size, c));
    });
    return this;
  }

  predict(text: string): string {
    const x = this.vectorizer.transform(text);
    const features = this.vectorizer.size;
    let best = 0;
    let bestValue = -Infinity;
    for (const [index, w] of this.weights.entries()) {
      let value = w[features]!;
      for (let k = 0; k < x.indices.length; k += 1) value += w[x.indices[k]!]! * x.values[k]!;
      if (value > bestValue) [best, bestValue] = [index, value];
    }
    return this.classes[best]!;
  }
}
