import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type { LabeledLine } from '../../src/platform/domain/categoryLearning.js';

/*
 * Categorized bank lines for the learner's tests and the suggestions bench: real ones kept
 * under test/fixtures/categorized (see its SOURCES.md), and generated ones whose right answers
 * are known.
 */

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../fixtures/categorized',
);

/** A categorized line with its label (the account) as the data names it. */
export interface CategorizedLine extends LabeledLine {
  /** What the label means, for messages. */
  labelName: string;
}

/**
 * Oxford City Council's payments over £500, January 2014 to March 2018, as published (Open
 * Government Licence v3.0): each a payment out of the council's bank to a supplier, posted to
 * an expenditure code. In the order published (quarter by quarter). The text is the supplier's
 * name, the label the expenditure code. Rows without a supplier or a code are left out; a row
 * the council published without its day (one quarter's file) takes the day of the row before
 * it, else the quarter's first day.
 */
export function oxfordPayments(): CategorizedLine[] {
  const text = gunzipSync(
    readFileSync(path.join(FIXTURES, 'oxford-city-council-payments-2014-2018.csv.gz')),
  ).toString('utf8');
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const QUARTER_START: Record<string, string> = {
    'jan-mar': '01-01',
    'apr-jun': '04-01',
    'jul-sep': '07-01',
    'oct-dec': '10-01',
  };
  const lines: CategorizedLine[] = [];
  let lastDay = '';
  let lastQuarter = '';
  for (const row of rows) {
    const quarter = row.quarter_file!;
    if (quarter !== lastQuarter) {
      lastQuarter = quarter;
      lastDay = `${quarter.slice(0, 4)}-${QUARTER_START[quarter.slice(5)]!}`;
    }
    if (row.paid_date) lastDay = row.paid_date;
    const supplier = row.supplier_name!.trim();
    const code = row.expenditure_code!.trim();
    if (!supplier || !code) continue;
    const cents = Math.round(Number(row.amount) * 100);
    if (!Number.isFinite(cents) || cents === 0) continue;
    lines.push({
      text: supplier,
      amountCents: -cents,
      bankAccountId: 'council-bank',
      day: lastDay,
      accountId: code,
      labelName: row.expenditure_category || code,
    });
  }
  return lines;
}

/** Reads a kept set: its rows, in the order published. */
const keptRows = (file: string) =>
  parse(gunzipSync(readFileSync(path.join(FIXTURES, file))).toString('utf8'), {
    columns: true,
    skip_empty_lines: true,
  }) as Record<string, string>[];

/** Sorts by day, keeping the order of a day's lines (as a bank's lines arrive). */
export const byDay = (lines: CategorizedLine[]) =>
  lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) =>
      a.line.day < b.line.day ? -1 : a.line.day > b.line.day ? 1 : a.index - b.index,
    )
    .map(({ line }) => line);

/**
 * Birmingham City Council's purchase-card transactions, December 2016 to November 2017, as
 * published (Open Government Licence v3.0): each a card payment with the merchant as the card
 * issuer writes it (`shell kings 587`, `amazon uk marketplace`), posted by the council to one of
 * 125 expense accounts (`Vehicle Fuel`, `Equip Operational`). By day. A purchase is money out on
 * the card, a refund money in. Rows without an account are left out.
 */
export function birminghamPurchaseCards(): CategorizedLine[] {
  const lines: CategorizedLine[] = [];
  for (const row of keptRows('birmingham-city-council-purchase-cards-2016-2017.csv.gz')) {
    const merchant = row.merchant_name!.trim();
    const account = row.cac_description!.trim();
    const cents = Math.round(Number(row.gross_amount) * 100);
    if (!merchant || !account || !row.trans_date || !Number.isFinite(cents) || cents === 0)
      continue;
    lines.push({
      text: merchant,
      amountCents: -cents,
      bankAccountId: 'council-card',
      day: row.trans_date,
      accountId: account,
      labelName: account,
    });
  }
  return byDay(lines);
}

/**
 * Manchester City Council's payments over £500, April 2017 to March 2019, as published monthly
 * (Open Government Licence v3.0): each a payment to a supplier as its payments system names it,
 * posted to one of 274 expense types (`Professional fees`, `Electricity`). By day. A credit note
 * (a negative amount) is money in.
 */
export function manchesterPayments(): CategorizedLine[] {
  const lines: CategorizedLine[] = [];
  for (const row of keptRows('manchester-city-council-payments-2017-2019.csv.gz')) {
    const supplier = row.supplier_name!.trim();
    const account = row.expenses_type!.trim();
    const cents = Math.round(Number(row.net_amount) * 100);
    if (!supplier || !account || !row.payment_date || !Number.isFinite(cents) || cents === 0)
      continue;
    lines.push({
      text: supplier,
      amountCents: -cents,
      bankAccountId: 'council-bank',
      day: row.payment_date,
      accountId: account,
      labelName: account,
    });
  }
  return byDay(lines);
}

/**
 * The real sets the bench measures on, each named with its source and licence: by day, as a
 * bank's lines arrive (Oxford's payments are published by quarter, suppliers in no order of day).
 */
export const REAL_SETS: readonly { name: string; lines: () => CategorizedLine[] }[] = [
  {
    name: 'Oxford City Council payments 2014-2018 (OGL v3.0)',
    lines: () => byDay(oxfordPayments()),
  },
  {
    name: 'Birmingham City Council purchase cards 2016-2017 (OGL v3.0)',
    lines: () => birminghamPurchaseCards(),
  },
  {
    name: 'Manchester City Council payments 2017-2019 (OGL v3.0)',
    lines: () => manchesterPayments(),
  },
];

/** A deterministic random number generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A payee of the generated books: how its bank writes it, where it goes, what it costs. */
interface GeneratedPayee {
  name: string;
  /** The account (one, or by amount: below `split` to the first, else the second). */
  accounts: [string] | [string, string];
  split?: number;
  /** Typical amount in cents (money out negative). */
  cents: number;
  /** Whether the amount is the same every time (a subscription). */
  fixed: boolean;
  bankAccountId: string;
}

const PREFIXES = [
  '',
  'SQ *',
  'POS ',
  'CHECKCARD 0412 ',
  'ACH DEBIT ',
  'PAYPAL *',
  'TST* ',
  'DEBIT CARD PURCHASE ',
];
const CITIES = ['SEATTLE WA', 'PORTLAND OR', 'AUSTIN TX', 'NEW YORK NY', ''];
const WORDS = [
  'blue',
  'bottle',
  'coffee',
  'verizon',
  'wireless',
  'adobe',
  'creative',
  'staples',
  'office',
  'depot',
  'shell',
  'oil',
  'delta',
  'air',
  'lines',
  'uber',
  'trip',
  'comcast',
  'business',
  'gusto',
  'payroll',
  'aws',
  'amazon',
  'web',
  'services',
  'home',
  'lowes',
  'fedex',
  'ground',
  'united',
  'parcel',
  'zoom',
  'video',
  'slack',
  'technologies',
  'notion',
  'labs',
  'costco',
  'wholesale',
  'chevron',
  'whole',
  'foods',
  'market',
  'hilton',
  'hotels',
  'marriott',
  'lyft',
  'ride',
  'dropbox',
  'google',
  'workspace',
  'intuit',
  'mailchimp',
  'stripe',
  'transfer',
];

/**
 * A client's books generated with known answers: `payees` payees, each written by its bank in
 * its own way (a processor prefix, a store number, a city), each going to one account, or to
 * one of two by its amount; `lines` lines over two years, in date order. The label of a line
 * is the account its payee's rule gives: what a careful bookkeeper decided.
 */
export function generatedBooks(options: {
  seed: number;
  payees?: number;
  lines: number;
  accounts?: number;
  bankAccounts?: number;
}): CategorizedLine[] {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const accountCount = options.accounts ?? 25;
  const accounts = Array.from({ length: accountCount }, (_, i) => `account-${6000 + i * 10}`);
  const bankAccounts = Array.from({ length: options.bankAccounts ?? 2 }, (_, i) => `bank-${i}`);
  const payees: GeneratedPayee[] = [];
  const names = new Set<string>();
  for (let i = 0; i < (options.payees ?? 150); i += 1) {
    let name: string;
    do {
      name =
        `${pick(WORDS)} ${pick(WORDS)}${random() < 0.5 ? ` ${pick(WORDS)}` : ''}`.toUpperCase();
    } while (names.has(name));
    names.add(name);
    const twoWays = random() < 0.15;
    const cents = -Math.round(10 ** (1 + random() * 3.5)) * (random() < 0.5 ? 100 : 1);
    payees.push({
      name,
      accounts: twoWays ? [pick(accounts), pick(accounts)] : [pick(accounts)],
      ...(twoWays && { split: Math.abs(cents) }),
      cents,
      fixed: random() < 0.3,
      bankAccountId: pick(bankAccounts),
    });
  }
  // Some payees are seen often, most rarely (as in real books).
  const popularity = payees.map(() => random() ** 3);
  const totalPopularity = popularity.reduce((a, b) => a + b, 0);
  const start = Date.UTC(2024, 0, 1);
  const lines: CategorizedLine[] = [];
  for (let i = 0; i < options.lines; i += 1) {
    let r = random() * totalPopularity;
    let p = 0;
    while (r > popularity[p]! && p < payees.length - 1) r -= popularity[p++]!;
    const payee = payees[p]!;
    const cents = payee.fixed
      ? payee.cents
      : Math.round(payee.cents * (0.4 + random() * 1.2)) || payee.cents;
    const account =
      payee.accounts.length === 2 && Math.abs(cents) >= payee.split!
        ? payee.accounts[1]
        : payee.accounts[0];
    const store = random() < 0.5 ? ` #${1000 + Math.floor(random() * 9000)}` : '';
    const city = pick(CITIES);
    const text = `${pick(PREFIXES)}${payee.name}${store}${city ? ` ${city}` : ''}`;
    const day = new Date(start + Math.floor((i / options.lines) * 730) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    lines.push({
      text,
      amountCents: cents,
      bankAccountId: payee.bankAccountId,
      day,
      accountId: account,
      labelName: account,
    });
  }
  return lines;
}

/**
 * A small client's regular payees, each paid monthly as its bank writes it (the text, the
 * amount in cents, the account it goes to): the bookkeeper's day and the learner's tests.
 */
export const REGULAR_PAYEES = [
  ['VERIZON WIRELESS', -8999, 'Telephone'],
  ['COMCAST BUSINESS', -14999, 'Telephone'],
  ['ADOBE CREATIVE CLOUD', -5499, 'Office Supplies'],
  ['STAPLES STORE', -4210, 'Office Supplies'],
  ['DROPBOX', -1999, 'Office Supplies'],
  ['BLUE BOTTLE COFFEE', -1250, 'Meals'],
  ['SWEETGREEN', -1575, 'Meals'],
  ['GUSTO PAYROLL', -425000, 'Payroll'],
  ['STRIPE PAYOUT', 250000, 'Sales'],
  ['SQUARE DEPOSIT', 120000, 'Sales'],
  ['ZOOM VIDEO', -1499, 'Office Supplies'],
  ['SLACK TECHNOLOGIES', -875, 'Office Supplies'],
] as const;
