import type { AccountType } from '../../src/api/index.js';
import { ACCOUNT_TYPES } from '../../src/api/index.js';
import { addDays } from '../../src/core/calendar.js';

/** A small, fast, seeded PRNG (mulberry32): the same seed always makes the same ledger. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

export interface GeneratedAccount {
  name: string;
  type: AccountType;
}

export interface GeneratedLine {
  account: number;
  debitCents: number;
  creditCents: number;
}

export interface GeneratedEntry {
  date: string;
  basis: 'cash' | 'accrual';
  memo: string;
  lines: GeneratedLine[];
}

export interface GeneratedLedger {
  accounts: GeneratedAccount[];
  /** Posted on both ledgers, on the day before the first entry. */
  openingBalance: { date: string; lines: GeneratedLine[] };
  entries: GeneratedEntry[];
}

/**
 * A ledger of `count` balanced entries over `days` days from `firstDay`: two accounts of every
 * type, 2–5 lines per entry, amounts from 0.01 to 25,000.00, a share on the accrual ledger.
 */
export function generateLedger(options: {
  seed: number;
  count: number;
  firstDay: string;
  days: number;
  accrualShare?: number;
}): GeneratedLedger {
  const rng = random(options.seed);
  const accounts: GeneratedAccount[] = ACCOUNT_TYPES.flatMap((type) => [
    { name: `${type} A`, type },
    { name: `${type} B`, type },
  ]);
  const amount = () => (rng.next() < 0.3 ? rng.int(1, 9_999) : rng.int(100, 2_500_000));
  const entries: GeneratedEntry[] = [];
  for (let n = 0; n < options.count; n += 1) {
    const lineCount = rng.int(2, 5);
    const debits = rng.int(1, lineCount - 1);
    const lines: GeneratedLine[] = [];
    let total = 0;
    for (let i = 0; i < debits; i += 1) {
      const cents = amount();
      total += cents;
      lines.push({ account: rng.int(0, accounts.length - 1), debitCents: cents, creditCents: 0 });
    }
    // Split the total over the credit lines, to the cent.
    let left = total;
    for (let i = debits; i < lineCount; i += 1) {
      const cents =
        i === lineCount - 1 ? left : rng.int(1, Math.max(1, left - (lineCount - 1 - i)));
      left -= cents;
      lines.push({ account: rng.int(0, accounts.length - 1), debitCents: 0, creditCents: cents });
    }
    if (lines.some((line) => line.debitCents + line.creditCents <= 0)) continue;
    entries.push({
      date: addDays(options.firstDay, rng.int(0, options.days - 1)),
      basis: rng.next() < (options.accrualShare ?? 0.2) ? 'accrual' : 'cash',
      memo: `Generated entry ${n}`,
      lines,
    });
  }
  const cash = accounts.findIndex((a) => a.type === 'Cash');
  const equity = accounts.findIndex((a) => a.type === 'Equity');
  return {
    accounts,
    openingBalance: {
      date: addDays(options.firstDay, -1),
      lines: [
        { account: cash, debitCents: 5_000_000, creditCents: 0 },
        { account: equity, debitCents: 0, creditCents: 5_000_000 },
      ],
    },
    entries,
  };
}

const HLEDGER_TOP: Record<string, string> = {
  Assets: 'assets',
  Liabilities: 'liabilities',
  Equity: 'equity',
  Income: 'revenues',
  Expenses: 'expenses',
};

/** The cash ledger as an hledger journal; account names are `top:CODE Name`. */
export function toHledgerJournal(
  ledger: GeneratedLedger,
  codes: string[],
  classOf: (type: AccountType) => string,
): string {
  const name = (index: number) => {
    const account = ledger.accounts[index]!;
    return `${HLEDGER_TOP[classOf(account.type)]}:${codes[index]} ${account.name}`;
  };
  const amount = (line: GeneratedLine) => ((line.debitCents - line.creditCents) / 100).toFixed(2);
  const transaction = (date: string, memo: string, lines: GeneratedLine[]) =>
    `${date} ${memo}\n${lines.map((line) => `    ${name(line.account)}  ${amount(line)}`).join('\n')}\n`;
  return [
    transaction(ledger.openingBalance.date, 'Opening balance', ledger.openingBalance.lines),
    ...ledger.entries
      .filter((e) => e.basis === 'cash')
      .map((e) => transaction(e.date, e.memo, e.lines)),
  ].join('\n');
}
