import type { AccountType } from '../../api/index.js';
import { addCents, negateCents, ratioToCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { accountKey, type LedgerEntry, type LedgerLine, type Problem } from '../ledgerCsv.js';

/*
 * A GnuCash book (the file GnuCash saves: XML, gzip-compressed or not, or SQLite) as entries:
 * what bookXml.ts and bookSqlite.ts read, turned into the import's lines here.
 *
 * - Accounts keep GnuCash's full names (`Assets:Current Assets:Checking`, its separator `:`) and
 *   codes, typed by their GnuCash type (ACCOUNT_TYPES below). The root, placeholders without
 *   postings and the scheduled transactions' template accounts are not accounts of the books;
 *   hidden accounts and placeholders that hold postings are, and are said.
 * - A transaction is an entry on its posted day, its splits its lines at their value in the
 *   book's currency: a split's value where the transaction is in that currency; else the
 *   quantities of its splits in the book's currency set the rate the others are valued at (a
 *   transaction none of whose splits is in the book's currency cannot be valued, and is named).
 *   A split of an account in another commodity than the book's currency (shares, a euro account
 *   of a dollar book) is said, its quantity kept in its description. Rounding to the cent never unbalances an entry: its largest line takes the cent.
 * - Voided transactions and the scheduled transactions' templates are left out, and counted.
 */

export interface BookCommodity {
  space: string;
  id: string;
}

export interface BookAccount {
  id: string;
  name: string;
  /** GnuCash's type: BANK, CASH, ASSET, STOCK, … ROOT. */
  type: string;
  parent: string | undefined;
  code: string;
  commodity: BookCommodity | undefined;
  placeholder: boolean;
  hidden: boolean;
}

/** A GnuCash number: numerator over denominator, as GnuCash keeps amounts. */
export interface GncNumeric {
  num: bigint;
  denom: bigint;
}

export interface BookSplit {
  account: string;
  value: GncNumeric;
  quantity: GncNumeric;
  memo: string;
  line: number;
}

export interface BookTransaction {
  id: string;
  line: number;
  date: string;
  number: string;
  description: string;
  currency: BookCommodity | undefined;
  voided: boolean;
  splits: BookSplit[];
}

/** GnuCash's account types, as the platform types them. */
export const ACCOUNT_TYPES: Readonly<Record<string, AccountType>> = {
  BANK: 'Cash',
  CASH: 'Cash',
  CHECKING: 'Cash',
  SAVINGS: 'Cash',
  MONEYMRKT: 'Cash',
  CREDIT: 'Credit Cards',
  CREDITLINE: 'Credit Cards',
  ASSET: 'Other Current Assets',
  STOCK: 'Investments',
  MUTUAL: 'Investments',
  CURRENCY: 'Investments',
  RECEIVABLE: 'Accounts Receivable',
  LIABILITY: 'Other Current Liabilities',
  PAYABLE: 'Accounts Payable',
  EQUITY: 'Equity',
  // Trading accounts hold what multi-currency transactions leave in each commodity: the
  // unrealized gains and losses, the owners'.
  TRADING: 'Equity',
  INCOME: 'Income',
  EXPENSE: 'Operating Expenses',
};

export interface BookFacts {
  kind: 'XML' | 'gzip-compressed XML' | 'SQLite';
  currency: string | undefined;
  accounts: number;
  transactions: number;
  splits: number;
  voided: number;
  templates: number;
  zeroSplits: number;
  otherCommodity: number;
  otherCurrency: number;
  hidden: Set<string>;
  placeholders: Set<string>;
  /** Days read from a time that was not GnuCash's neutral 10:59 UTC, in this machine's zone. */
  zonedDays: number;
  timeZone: string | undefined;
}

export const newBookFacts = (kind: BookFacts['kind']): BookFacts => ({
  kind,
  currency: undefined,
  accounts: 0,
  transactions: 0,
  splits: 0,
  voided: 0,
  templates: 0,
  zeroSplits: 0,
  otherCommodity: 0,
  otherCurrency: 0,
  hidden: new Set(),
  placeholders: new Set(),
  zonedDays: 0,
  timeZone: undefined,
});

const sameCommodity = (a: BookCommodity | undefined, b: BookCommodity | undefined) =>
  a !== undefined && b !== undefined && a.id === b.id && isCurrency(a) === isCurrency(b);
const isCurrency = (c: BookCommodity) => c.space === 'CURRENCY' || c.space === 'ISO4217';

/** A numeric as cents, exact or rounded half away from zero. */
const centsOf = (n: GncNumeric): Cents => ratioToCents(n.num, n.denom);

/** Numerics added exactly: `a/b + c/d`. */
const plus = (a: GncNumeric, b: GncNumeric): GncNumeric =>
  a.denom === b.denom
    ? { num: a.num + b.num, denom: a.denom }
    : { num: a.num * b.denom + b.num * a.denom, denom: a.denom * b.denom };
const magnitude = (n: GncNumeric): GncNumeric => ({
  num: n.num < 0n ? -n.num : n.num,
  denom: n.denom < 0n ? -n.denom : n.denom,
});

/** A quantity as written for the description: `10 ACME`, `1,234.5 EUR`. */
function quantityText(n: GncNumeric, commodity: BookCommodity | undefined): string {
  const value = Number(n.num) / Number(n.denom || 1n);
  return `${Number(value.toFixed(6))} ${commodity?.id ?? ''}`.trim();
}

/** The accounts of a book and what is needed to turn its transactions into entries. */
export class BookLedger {
  private readonly accounts = new Map<string, BookAccount>();
  private readonly fullNames = new Map<string, string>();
  /** Accounts under the template root (scheduled transactions), by id. */
  private readonly templateAccounts = new Set<string>();
  currency: BookCommodity | undefined;

  constructor(
    readonly facts: BookFacts,
    private readonly report: (problem: Problem) => void,
  ) {}

  addAccount(account: BookAccount, template = false): void {
    if (template) this.templateAccounts.add(account.id);
    else this.accounts.set(account.id, account);
  }

  /**
   * The book's currency: the one given (`--currency`), else the currency most of its accounts
   * are kept in (GnuCash gives each account a commodity; the root's is the book's default).
   */
  chooseCurrency(given: string | undefined): void {
    if (given !== undefined) {
      this.currency = { space: 'CURRENCY', id: given };
    } else {
      const counts = new Map<string, number>();
      for (const account of this.accounts.values()) {
        const c = account.commodity;
        if (c && isCurrency(c) && account.type !== 'ROOT' && account.type !== 'TRADING')
          counts.set(c.id, (counts.get(c.id) ?? 0) + 1);
      }
      const [most] = [...counts].sort((a, b) => b[1] - a[1]);
      const root = [...this.accounts.values()].find((a) => a.type === 'ROOT')?.commodity;
      this.currency = most
        ? { space: 'CURRENCY', id: most[0] }
        : root && isCurrency(root)
          ? root
          : undefined;
    }
    this.facts.currency = this.currency?.id;
    this.facts.accounts = [...this.accounts.values()].filter((a) => a.type !== 'ROOT').length;
  }

  /** An account's full name, its ancestors' names joined by `:` (the root left out). */
  fullName(id: string): string | undefined {
    const known = this.fullNames.get(id);
    if (known !== undefined) return known;
    const account = this.accounts.get(id);
    if (!account || account.type === 'ROOT') return undefined;
    const parent = account.parent === undefined ? undefined : this.fullName(account.parent);
    const name = parent === undefined ? account.name : `${parent}:${account.name}`;
    this.fullNames.set(id, name);
    return name;
  }

  private isTemplate(transaction: BookTransaction): boolean {
    return transaction.splits.some((s) => this.templateAccounts.has(s.account));
  }

  /** A transaction as an entry of the book's currency; undefined when it is left out. */
  entryOf(transaction: BookTransaction): LedgerEntry | undefined {
    if (this.isTemplate(transaction)) {
      this.facts.templates += 1;
      return undefined;
    }
    if (transaction.voided) {
      this.facts.voided += 1;
      return undefined;
    }
    const stray = transaction.splits.find((s) => !this.accounts.has(s.account));
    if (stray) {
      this.report({
        fileLine: stray.line,
        message: `transaction "${transaction.description}" of ${transaction.date}: a split names an account the book does not have (${stray.account}); GnuCash's Check & Repair mends such a book`,
      });
      return undefined;
    }
    this.facts.transactions += 1;
    this.facts.splits += transaction.splits.length;
    const book = this.currency;
    const inBook = book === undefined || sameCommodity(transaction.currency, book);
    let values: Cents[];
    if (inBook) values = transaction.splits.map((s) => centsOf(s.value));
    else {
      // The splits kept in the book's currency give the rate: their quantities over values.
      this.facts.otherCurrency += 1;
      let quantity: GncNumeric = { num: 0n, denom: 1n };
      let value: GncNumeric = { num: 0n, denom: 1n };
      for (const split of transaction.splits) {
        if (!sameCommodity(this.accounts.get(split.account)?.commodity, book)) continue;
        quantity = plus(quantity, magnitude(split.quantity));
        value = plus(value, magnitude(split.value));
      }
      if (value.num === 0n) {
        this.report({
          fileLine: transaction.line,
          message: `transaction "${transaction.description}" of ${transaction.date} is in ${transaction.currency?.id ?? '?'} and none of its splits is in ${book.id}, the book's currency: books cannot value it (give it a split in ${book.id}, or import with --currency ${transaction.currency?.id ?? ''})`,
        });
        return undefined;
      }
      // A value in the book's currency: its value times the quantities over the values.
      values = transaction.splits.map((s) =>
        sameCommodity(this.accounts.get(s.account)?.commodity, book)
          ? centsOf(s.quantity)
          : ratioToCents(
              s.value.num * quantity.num * value.denom,
              s.value.denom * quantity.denom * value.num,
            ),
      );
    }
    settleRounding(values);
    const lines: LedgerLine[] = [];
    transaction.splits.forEach((split, index) => {
      const cents = values[index]!;
      if (cents === 0) {
        this.facts.zeroSplits += 1;
        return;
      }
      const account = this.accounts.get(split.account)!;
      const name = this.fullName(split.account) ?? account.name;
      if (account.hidden) this.facts.hidden.add(name);
      if (account.placeholder) this.facts.placeholders.add(name);
      const own = account.commodity;
      // Posted at other than its own quantity: its quantity is said in its description.
      const other = own !== undefined && !sameCommodity(own, book ?? transaction.currency);
      if (other) this.facts.otherCommodity += 1;
      const text = split.memo || transaction.description;
      const code = account.code.trim() || undefined;
      lines.push({
        fileLine: split.line,
        date: transaction.date,
        account: accountKey(code, name),
        accountCode: code,
        accountName: name,
        accountType: ACCOUNT_TYPES[account.type],
        debitCents: cents > 0 ? cents : ZERO_CENTS,
        creditCents: cents < 0 ? negateCents(cents) : ZERO_CENTS,
        description: other ? `${text} (${quantityText(split.quantity, own)})`.trim() : text,
        memo: [transaction.number, transaction.description].filter(Boolean).join(' '),
        classes: [],
        entry: transaction.id,
      });
    });
    if (lines.length === 0) return undefined;
    return {
      fileLine: transaction.line,
      entry: transaction.id,
      date: transaction.date,
      memo: [transaction.number, transaction.description].filter(Boolean).join(' '),
      lines,
    };
  }
}

/**
 * Values rounded to the cent may leave a cent or two over: GnuCash keeps every transaction
 * balanced, so the largest line takes what rounding left.
 */
function settleRounding(values: Cents[]): void {
  let sum = ZERO_CENTS;
  for (const v of values) sum = addCents(sum, v);
  if (sum === 0 || values.length === 0) return;
  if (Math.abs(sum) > values.length) return; // not rounding: the entry says it does not balance
  let largest = 0;
  values.forEach((v, i) => {
    if (Math.abs(v) > Math.abs(values[largest]!)) largest = i;
  });
  values[largest] = (values[largest]! - sum) as Cents;
}

/** `123/100` as GnuCash writes a numeric in XML. */
export function parseNumeric(text: string): GncNumeric | undefined {
  const match = /^\s*(-?\d+)\/(-?\d+)\s*$/.exec(text);
  if (!match) return undefined;
  return { num: BigInt(match[1]!), denom: BigInt(match[2]!) };
}
