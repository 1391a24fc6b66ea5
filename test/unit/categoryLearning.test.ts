import { describe, expect, it } from 'vitest';
import {
  learnCategories,
  payeeWords,
  TextNeighbours,
  wilsonLowerBound,
  type LabeledLine,
  type LearnedCategories,
} from '../../src/platform/domain/categoryLearning.js';
import { ruleTextOf } from '../../src/core/ruleLearning.js';
import {
  byDay,
  generatedBooks,
  manchesterPayments,
  oxfordPayments,
  REGULAR_PAYEES,
} from '../helpers/categorizedData.js';
import { TfidfLinearSvm } from '../helpers/svmBaseline.js';

/** The earlier share of a history learned from, the latest 20% predicted: the bench's split. */
function split<T>(lines: readonly T[]) {
  const at = lines.length - Math.floor(lines.length * 0.2);
  return { learned: lines.slice(0, at), heldOut: lines.slice(at) };
}

/** How a learner did on held-out lines: right overall, and right among the confident ones. */
function measure(
  history: readonly LabeledLine[],
  heldOut: readonly LabeledLine[],
  threshold = 0.95,
) {
  return measureLearned(learnCategories(history), heldOut, threshold);
}

/**
 * How a learned history did on held-out lines: right overall, and right among those it called
 * at least `threshold` sure (and less than `below`).
 */
function measureLearned(
  learned: LearnedCategories,
  heldOut: readonly LabeledLine[],
  threshold: number,
  below = Infinity,
) {
  let right = 0;
  let confident = 0;
  let confidentRight = 0;
  for (const line of heldOut) {
    const p = learned.predict(line);
    const ok = p?.accountId === line.accountId;
    if (ok) right += 1;
    if (p && p.confidence >= threshold && p.confidence < below) {
      confident += 1;
      if (ok) confidentRight += 1;
    }
  }
  return {
    accuracy: right / heldOut.length,
    coverage: confident / heldOut.length,
    confidentAccuracy: confident === 0 ? 1 : confidentRight / confident,
  };
}

const line = (
  text: string,
  accountId: string,
  day: string,
  amountCents = -1000,
  bankAccountId = 'bank',
): LabeledLine => ({
  text,
  accountId,
  day,
  amountCents,
  bankAccountId,
});

describe('the words of a bank text that name its payee', () => {
  it.each([
    ['CHECKCARD 0412 STARBUCKS #1234 SEATTLE WA', ['starbucks', 'seattle', 'wa']],
    ['SQ *BLUE BOTTLE 0142', ['blue', 'bottle']],
    ['POS PURCHASE VERIZON WIRELESS 800-922-0204', ['verizon', 'wireless']],
    ['ACH DEBIT GUSTO PAYROLL 260116', ['gusto', 'payroll']],
    ['PAYPAL *NOTION LABS', ['notion', 'labs']],
    ['Müller GmbH Rechnung 2026-01', ['müller', 'gmbh', 'rechnung']],
    ['12345', []],
  ])('%s → %j', (text, words) => {
    expect(payeeWords(text)).toEqual(words);
  });

  it.each([
    ['VERIZON WIRELESS PAYMENT 1234', 'VERIZON WIRELESS PAYMENT'],
    ['SQ *BLUE BOTTLE 0142', 'BLUE BOTTLE'],
    ['CHECKCARD 0412 STARBUCKS #1234 SEATTLE WA', 'STARBUCKS'],
    ['WAL-MART #123 AUSTIN TX', 'WAL-MART'],
    ['POS 1234', ''],
  ])('the rule one decision on %j implies looks for %j', (text, ruleText) => {
    expect(ruleTextOf(text)).toBe(ruleText);
  });
});

describe('learning categories from a client’s own books', () => {
  it('the same payee goes where it went before, however the bank writes it, and says so', () => {
    const history = [
      ...Array.from({ length: 14 }, (_, i) =>
        line(
          `VERIZON WIRELESS PAYMENT ${1000 + i}`,
          'telephone',
          `2025-${String((i % 12) + 1).padStart(2, '0')}-05`,
          -8999,
        ),
      ),
      line('VERIZON WIRELESS PAYMENT 2000', 'office', '2025-03-06', -8999),
    ];
    const learned = learnCategories(history);
    const p = learned.predict(line('VERIZON WIRELESS PAYMENT 3000', '', '2026-01-05', -8999));
    expect(p).toMatchObject({
      accountId: 'telephone',
      evidence: {
        level: 'text-amount',
        label: 'VERIZON WIRELESS PAYMENT',
        agreeing: 14,
        total: 15,
      },
    });
    // Written another way (a processor prefix, a city), the payee is still known.
    const other = learned.predict(
      line('POS VERIZON WIRELESS SEATTLE WA', '', '2026-01-05', -12000),
    );
    expect(other).toMatchObject({ accountId: 'telephone', evidence: { level: 'payee' } });
  });

  it('a payee paid for two things: the amount tells which', () => {
    const history: LabeledLine[] = [];
    for (let i = 0; i < 20; i += 1) {
      const day = `2025-${String((i % 12) + 1).padStart(2, '0')}-${String(1 + (i % 27)).padStart(2, '0')}`;
      history.push(line(`AMAZON MKTP US*${i}X`, 'supplies', day, -(1500 + i * 100)));
      history.push(line(`AMAZON MKTP US*${i}Y`, 'equipment', day, -(150000 + i * 1000)));
    }
    const learned = learnCategories(history);
    expect(learned.predict(line('AMAZON MKTP US*ZZ', '', '2026-01-10', -2100))!.accountId).toBe(
      'supplies',
    );
    expect(learned.predict(line('AMAZON MKTP US*ZZ', '', '2026-01-10', -160000))!.accountId).toBe(
      'equipment',
    );
  });

  it('the bank account tells which, where the text is the same on two', () => {
    const history: LabeledLine[] = [];
    for (let i = 0; i < 10; i += 1) {
      const day = `2025-0${1 + (i % 9)}-10`;
      history.push(line('MONTHLY SERVICE FEE', 'bank fees', day, -1500, 'checking'));
      history.push(line('MONTHLY SERVICE FEE', 'card fees', day, -1500, 'card'));
    }
    const learned = learnCategories(history);
    expect(
      learned.predict(line('MONTHLY SERVICE FEE', '', '2026-01-10', -1500, 'card')),
    ).toMatchObject({
      accountId: 'card fees',
      evidence: { agreeing: 10, total: 10 },
    });
    expect(
      learned.predict(line('MONTHLY SERVICE FEE', '', '2026-01-10', -2000, 'checking')),
    ).toMatchObject({
      accountId: 'bank fees',
      evidence: { level: 'text-account' },
    });
  });

  it('a payee the client moved to another account is followed, and the reason says the latest went there', () => {
    const history = [
      ...Array.from({ length: 10 }, (_, i) =>
        line(
          'ADOBE CREATIVE CLOUD',
          'software',
          `2024-${String(i + 1).padStart(2, '0')}-03`,
          -5499,
        ),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        line(
          'ADOBE CREATIVE CLOUD',
          'subscriptions',
          `2025-${String(i + 7).padStart(2, '0')}-03`,
          -5499,
        ),
      ),
    ];
    const p = learnCategories(history).predict(
      line('ADOBE CREATIVE CLOUD', '', '2026-01-03', -5499),
    )!;
    expect(p.accountId).toBe('subscriptions');
    expect(p.evidence).toMatchObject({ agreeing: 4, total: 14, latestRun: 4 });
  });

  it('a new text is guessed from the earlier texts most like it, with little confidence; with none alike, from nothing', () => {
    const history = Array.from({ length: 30 }, (_, i) =>
      line(
        `${['JOES', 'MARIAS', 'SAMS'][i % 3]} COFFEE ROASTERS`,
        'meals',
        `2025-0${1 + (i % 9)}-0${1 + (i % 9)}`,
      ),
    );
    const learned = learnCategories(history);
    const guess = learned.predict(line('NEW COFFEE PLACE', '', '2026-01-02'))!;
    expect(guess).toMatchObject({
      accountId: 'meals',
      evidence: { level: 'similar', agreeing: 30, total: 30 },
    });
    expect(guess.evidence.like).toHaveLength(3);
    expect(guess.confidence).toBeLessThan(0.95);
    const nothing = learned.predict(line('XYZZY QUUX', '', '2026-01-02'))!;
    expect(nothing.evidence.level).toBe('prior');
    expect(learned.model.knows(line('JOES COFFEE ROASTERS', '', '2026-01-02'))).toBe(true);
    expect(learned.model.knows(line('NEW COFFEE PLACE', '', '2026-01-02'))).toBe(false);
  });

  it('a card text never seen, a store of a chain seen, by the letters their names share', () => {
    // Card issuers write a merchant cut short, with its store's number: `shell fiveways 387`
    // shares no word with `shell kings 587` beyond SHELL, and `tesco stores 2638` is a new store.
    const history = [
      ...['shell kings 587', 'shell hagley rd 112', 'shell bristol rd 44'].flatMap((text, i) =>
        Array.from({ length: 4 }, (_, k) =>
          line(text, 'fuel', `2025-0${1 + k}-${String(10 + i).padStart(2, '0')}`, -4500),
        ),
      ),
      ...['sainsburys s/mkts 0412', 'sainsburys s/mkt 0788'].flatMap((text, i) =>
        Array.from({ length: 4 }, (_, k) =>
          line(text, 'food', `2025-0${1 + k}-${String(20 + i).padStart(2, '0')}`, -2300),
        ),
      ),
    ];
    const learned = learnCategories(history);
    expect(learned.predict(line('shell fiveways 387', '', '2026-01-05', -5000))).toMatchObject({
      accountId: 'fuel',
    });
    expect(learned.predict(line('sainsbury s/mkt 1133', '', '2026-01-05', -1800))).toMatchObject({
      accountId: 'food',
      evidence: { level: 'similar' },
    });
  });

  it('blank texts in the history weigh in the prior and are never compared; the texts after them are', () => {
    // The index holds the texts with letters, in the order learned: a blank one first, or
    // between, shifts nothing.
    const history = [
      line('   ', 'bank-fees', '2025-01-01'),
      ...Array.from({ length: 6 }, (_, i) =>
        line(`shell kings ${500 + i}`, 'fuel', `2025-01-0${2 + i}`),
      ),
      line('', 'bank-fees', '2025-01-08'),
      ...Array.from({ length: 6 }, (_, i) =>
        line(`tesco stores ${200 + i}`, 'food', `2025-02-0${1 + i}`),
      ),
    ];
    const learned = learnCategories(history);
    expect(learned.predict(line('shell fiveways 999', '', '2026-01-02'))).toMatchObject({
      accountId: 'fuel',
      evidence: { level: 'similar' },
    });
    const food = learned.predict(line('tesco express 999', '', '2026-01-02'))!;
    expect(food).toMatchObject({ accountId: 'food', evidence: { level: 'similar' } });
    expect(food.evidence.like).toHaveLength(3);
    for (const text of food.evidence.like) expect(text).toMatch(/^tesco stores 20\d$/);
    expect(learned.predict(line(' ', '', '2026-01-02'))!.evidence.level).toBe('prior');
  });

  it('a text whose letters repeat more than 65,535 times is compared as any other (its counts kept whole)', () => {
    // The index keeps how often a gram occurs in 16 bits unless some text needs more (a memo
    // pasted whole can): 65,539 kept in 16 bits would be 3, and the long text would look like
    // the short one.
    const history = [
      ...Array.from({ length: 3 }, (_, i) =>
        line(`${'Z'.repeat(65_540)} LTD`, 'sundries', `2025-01-0${1 + i}`),
      ),
      ...Array.from({ length: 3 }, (_, i) => line('ZZZZZ LTD', 'tools', `2025-02-0${1 + i}`)),
    ];
    const learned = learnCategories(history);
    const guess = learned.predict(line(`${'Z'.repeat(69_000)} LTD`, '', '2026-01-02'))!;
    expect(guess).toMatchObject({ accountId: 'sundries', evidence: { level: 'similar' } });
    expect(guess.evidence.like[0]).toHaveLength(65_544);
  });

  it('an index of more than 65,536 distinct texts finds the latest of them (documents counted in 32 bits)', () => {
    // The index numbers its texts in 16 bits where they fit: past 65,536, a text's number kept
    // in 16 bits would name another text.
    const texts = Array.from({ length: 70_000 }, (_, i) => (i * 7919).toString(36));
    texts.push('zebracorn holdings');
    const index = new TextNeighbours(texts);
    for (const text of texts) index.add(text);
    const [nearest] = index.nearest('zebracorn holding', 1, 0.2);
    expect(index.texts[nearest!.doc]).toBe('zebracorn holdings');
  });

  it('says the strongest of its record: the payee’s whole record when it is unanimous, the amount’s when that decides', () => {
    // Nine earlier STAPLES, all to office supplies, one of this amount.
    const staples = Array.from({ length: 9 }, (_, i) =>
      line(`STAPLES ${100 + i}`, 'office', `2025-0${1 + i}-04`, -(2000 + i * 731)),
    );
    const unanimous = learnCategories(staples).predict(
      line('STAPLES 777', '', '2026-01-04', -2000),
    )!;
    expect(unanimous.evidence.level).toBe('text-amount');
    expect(unanimous.evidence.strongest).toMatchObject({
      level: 'payee',
      label: 'STAPLES',
      agreeing: 9,
      total: 9,
    });
    // AMAZON: most of it to supplies, but every one of 240.00 to the printer lease.
    const amazon = [
      ...Array.from({ length: 12 }, (_, i) =>
        line('AMAZON MKTP', 'supplies', `2025-0${1 + (i % 9)}-1${i % 9}`, -(1500 + i * 377)),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        line('AMAZON MKTP', 'lease', `2025-0${1 + i}-28`, -24000),
      ),
    ];
    const decided = learnCategories(amazon).predict(line('AMAZON MKTP', '', '2026-01-28', -24000))!;
    expect(decided.accountId).toBe('lease');
    expect(decided.evidence.strongest).toMatchObject({
      level: 'text-amount',
      agreeing: 6,
      total: 6,
    });
  });

  it('an account the caller cannot use (archived) is never predicted', () => {
    const learned = learnCategories([
      line('SHELL OIL 123', 'fuel', '2025-01-01'),
      line('SHELL OIL 124', 'fuel', '2025-02-01'),
      line('SHELL OIL 125', 'car', '2025-03-01'),
    ]);
    expect(
      learned.predict(line('SHELL OIL 126', '', '2026-01-01'), (id) => id !== 'fuel')!.accountId,
    ).toBe('car');
  });

  it('with no history there is nothing to predict', () => {
    expect(learnCategories([]).predict(line('ANYTHING', '', '2026-01-01'))).toBeUndefined();
  });

  it('a lower bound of a share is below it, and closer with more observations', () => {
    expect(wilsonLowerBound(9, 10)).toBeLessThan(0.9);
    expect(wilsonLowerBound(90, 100)).toBeGreaterThan(wilsonLowerBound(9, 10));
    expect(wilsonLowerBound(0, 0)).toBe(0);
  });
});

describe('on books generated with known answers', () => {
  it.each([1, 2, 3])(
    'seed %i: right nine times in ten, right at least 95 in 100 where confident, and ahead of TF-IDF and a linear SVM',
    (seed) => {
      const { learned, heldOut } = split(generatedBooks({ seed, lines: 3000, payees: 80 }));
      const books = measure(learned, heldOut);
      expect(books.accuracy).toBeGreaterThan(0.95);
      expect(books.coverage).toBeGreaterThan(0.5);
      expect(books.confidentAccuracy).toBeGreaterThanOrEqual(0.95);
      const svm = new TfidfLinearSvm().fit(
        learned.map((l) => l.text),
        learned.map((l) => l.accountId),
      );
      const svmAccuracy =
        heldOut.filter((l) => svm.predict(l.text) === l.accountId).length / heldOut.length;
      expect(books.accuracy).toBeGreaterThan(svmAccuracy);
    },
    60_000,
  );
});

describe('on real categorized payments (Oxford City Council, 2014-2018, OGL v3.0)', () => {
  it('learned from the earlier 80% and measured on the latest 20%: its figures hold, confident only when right', () => {
    const { learned, heldOut } = split(oxfordPayments());
    expect(learned.length + heldOut.length).toBe(61_327);
    const books = measure(learned, heldOut);
    // The classic TF-IDF and linear SVM gets 0.653 on this split (scikit-learn and our own
    // implementation alike: the suggestions bench prints both).
    expect(books.accuracy).toBeGreaterThan(0.71);
    expect(books.confidentAccuracy).toBeGreaterThanOrEqual(0.95);
    expect(books.coverage).toBeGreaterThan(0.15);
    const at90 = measure(learned, heldOut, 0.9);
    expect(at90.confidentAccuracy).toBeGreaterThanOrEqual(0.9);
  }, 60_000);
});

describe('a new client on real payments (Manchester City Council, April 2017, OGL v3.0)', () => {
  it('its first two days learned, the next thousand lines: what it calls likely is likely, a text never seen like a known one only in a word is no sure guess', () => {
    const lines = manchesterPayments();
    // The first two days of payments (126 lines), as a client's first statement would give.
    const at = lines.findIndex((l) => l.day > '2017-04-04');
    const firstDays = lines.slice(0, at);
    expect(firstDays.length).toBe(126);
    const next = lines.slice(at, at + 1000);
    const learned = learnCategories(firstDays);
    const likely = measureLearned(learned, next, 0.85);
    // It said 0.85 or more of 152 lines, 47 of them right (31%; 94 said 0.90-0.93 were 8.5%
    // right: `Contact Theatre Company` at 0.91 to Building Works, like a builder's `… Company`).
    // Now of 55 lines, the same 47 right (85%).
    expect(likely.coverage).toBeGreaterThan(0);
    expect(likely.confidentAccuracy).toBeGreaterThanOrEqual(0.8);
    const theatre = learned.predict({
      text: 'Contact Theatre Company',
      amountCents: -2_425_000,
      bankAccountId: 'council-bank',
      day: '2017-04-10',
    })!;
    expect(theatre.evidence.level).toBe('similar');
    expect(theatre.confidence).toBeLessThan(0.5); // 0.34
  });
});

describe('a young client on real payments (Oxford City Council, January 2014, OGL v3.0)', () => {
  it('its first three weeks learned, the next thousand lines: what it calls 0.95 sure is right 95 times in 100, or it calls nothing so', () => {
    const lines = byDay(oxfordPayments());
    const at = lines.findIndex((l) => l.day > '2014-01-21');
    const firstWeeks = lines.slice(0, at);
    expect(firstWeeks.length).toBe(607);
    const next = lines.slice(at, at + 1000);
    const learned = learnCategories(firstWeeks);
    const sure = measureLearned(learned, next, 0.95);
    const likely = measureLearned(learned, next, 0.9, 0.95);
    // It called 32 lines 0.95 sure, 28 right (87.5%): a supplier paid twice to one code, in a
    // council where a supplier's commonest code is right three times in four. Two weeks of
    // replayed history held too few such predictions to show it, and the calibration's
    // pseudo-observations at 0.96 made up the rest. Now none; of 217 called 0.90-0.95, 93% right.
    expect(sure.confidentAccuracy).toBeGreaterThanOrEqual(0.95); // 1 when it calls none so
    expect(likely.coverage).toBeGreaterThan(0);
    expect(likely.confidentAccuracy).toBeGreaterThanOrEqual(0.9);
  });
});

describe('a small client whose every payee is regular', () => {
  it('a year of twelve monthly payees: the thirteenth month of each is sure', () => {
    const payees = REGULAR_PAYEES;
    const history = payees.flatMap(([text, cents, account], p) =>
      Array.from({ length: 12 }, (_, i) =>
        line(
          `${text} ${1000 + i}`,
          account,
          `2025-${String(i + 1).padStart(2, '0')}-${String(3 + p).padStart(2, '0')}`,
          cents,
        ),
      ),
    );
    const learned = learnCategories(history);
    for (const [text, cents, account] of payees) {
      const p = learned.predict(line(`${text} 2001`, '', '2026-01-05', cents))!;
      expect(p.accountId).toBe(account);
      expect(p.confidence, text).toBeGreaterThanOrEqual(0.95);
    }
  });
});
