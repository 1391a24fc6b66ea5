import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { absCents, addCents, subtractCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { groupingType, norwegianType } from './groupings.js';
import {
  auditAmount,
  auditLine,
  balancedEntry,
  checkStatedCount,
  checkStatedTotal,
  codeVatLines,
  contradictions,
  openingEntry,
  type AuditAccount,
  newAuditFacts,
  tallyTyped,
  type AuditFacts,
  type StatedFigure,
} from '../common/auditFile.js';
import type { AccountKind, LedgerEntry, LedgerLine, Problem } from '../ledgerCsv.js';
import { readXml } from '../common/xmlStream.js';
import { readAuditFile, type LedgerFormatDefinition } from '../format.js';

/**
 * SAF-T Financial (the OECD Standard Audit File for Tax, as Norway's schema 1.10 to 1.30 and
 * the national ones built on it write it): one XML document, read as a stream. The version
 * (Header/AuditFileVersion) is said; the elements read here are named alike in all of them.
 *
 * - The chart is `MasterFiles/GeneralLedgerAccounts/Account`: AccountID (the code),
 *   AccountDescription, and Opening/Closing Debit/Credit Balance. Its type comes from what the
 *   file states: 1.10/1.20's StandardAccountID (the standard account it maps to), 1.30's
 *   GroupingCategory and GroupingCode (the næringsspesifikasjon's categories, whose codes are
 *   standard accounts; the state's KS and the municipalities' KOSTRA lists), or an AccountType
 *   other than `GL` that names a class; failing all, its own AccountID read as a standard
 *   account — said as such, since it is right only where a firm numbers by the standard chart.
 * - An entry is a `GeneralLedgerEntries/Journal/Transaction` (JournalID and TransactionID name
 *   it), dated TransactionDate; its lines carry `DebitAmount/Amount` or `CreditAmount/Amount` in
 *   the file's currency. VAT is on lines of its own already.
 * - The opening balances are one entry on the first day of the period
 *   (`SelectionCriteria`), before the transactions.
 * - The file checks the import: `NumberOfEntries`, `TotalDebit` and `TotalCredit` against the
 *   transactions read; a closing balance that is not the opening balance and the lines is said.
 */

/** A class named by an AccountType other than GL (the OECD schema lets countries name them). */
const CLASS_NAMES: Record<string, AccountType> = {
  asset: 'Other Current Assets',
  assets: 'Other Current Assets',
  liability: 'Other Current Liabilities',
  liabilities: 'Other Current Liabilities',
  equity: 'Equity',
  income: 'Income',
  revenue: 'Income',
  expense: 'Operating Expenses',
  expenses: 'Operating Expenses',
};

/** The first bytes show a SAF-T file: its root is an AuditFile in a SAF-T namespace. */
export const looksLikeSaft = (head: string) =>
  /<(\w+:)?AuditFile\b[^>]*StandardAuditFile/i.test(head);

interface OpenLine {
  fileLine: number;
  account: string;
  description: string;
  debit?: string;
  credit?: string;
  /** Its TaxInformation's first code: the line's. */
  taxCode?: string;
  /** Each TaxInformation's code and TaxAmount (the VAT a line of the entry posts). */
  taxAmounts: { code: string; amount: string }[];
  /** The code of the TaxInformation being read. */
  readingCode?: string;
}

/** The entries of a SAF-T Financial file; problems go to `report`. */
export async function* readSaft(
  file: string,
  options: { encoding?: string; offsetAccount?: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: AuditFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const accounts = new Map<string, AuditAccount>();
  const movements = new Map<string, Cents>();
  const facts = newAuditFacts();
  const ready: LedgerEntry[] = [];
  const period: Record<string, string> = {};
  const control: Record<string, StatedFigure> = {};
  let account:
    | (AuditAccount & { balances: Record<string, string>; stated: Record<string, string> })
    | undefined;
  let journal = '';
  let transaction: { id: string; date: string; description: string; fileLine: number } | undefined;
  let lines: LedgerLine[] = [];
  /** The TaxInformation of the transaction's lines: each code with its TaxAmount in cents. */
  let taxes: { code: string; cents: Cents }[] = [];
  let line: OpenLine | undefined;
  let openingSent = false;
  let totalDebit = ZERO_CENTS;
  let totalCredit = ZERO_CENTS;
  let hash = '';

  const accountOf = (code: string): Pick<AuditAccount, 'code' | 'name' | 'type' | 'kind'> =>
    accounts.get(code) ?? { code, name: code, type: norwegianType(code) };

  const sendOpening = (fileLine: number) => {
    if (openingSent) return;
    openingSent = true;
    const day = firstDayOf(period);
    facts.firstDay = day;
    if (day === undefined) {
      if ([...accounts.values()].some((a) => a.opening))
        report({
          fileLine,
          message: 'the file states opening balances but not its period (SelectionCriteria)',
        });
      return;
    }
    const opening = openingEntry(facts, accounts.values(), day, options.offsetAccount, report);
    if (opening) ready.push(opening);
  };

  const closeLine = (fileLine: number) => {
    if (!line || !transaction) return;
    const debit = auditAmount(line.debit ?? '', line.fileLine, 'DebitAmount', report);
    const credit = auditAmount(line.credit ?? '', line.fileLine, 'CreditAmount', report);
    facts.lines += 1;
    if (debit === undefined || credit === undefined) return;
    totalDebit = addCents(totalDebit, debit);
    totalCredit = addCents(totalCredit, credit);
    const cents = subtractCents(debit, credit);
    if (line.account === '') {
      report({ fileLine, message: 'a Line without an AccountID' });
      return;
    }
    movements.set(line.account, addCents(movements.get(line.account) ?? ZERO_CENTS, cents));
    if (cents === 0) {
      facts.zeroLines += 1;
      return;
    }
    const entry = `${journal} ${transaction.id}`;
    for (const { code, amount } of line.taxAmounts) {
      const tax = auditAmount(amount, line.fileLine, 'TaxAmount', report);
      if (tax !== undefined && tax !== 0) taxes.push({ code, cents: absCents(tax) });
    }
    lines.push(
      auditLine(
        {
          fileLine: line.fileLine,
          date: transaction.date,
          entry,
          description: line.description || transaction.description,
          memo: [transaction.description, line.description]
            .filter((text, i, all) => text && all.indexOf(text) === i)
            .join(' — ')
            .slice(0, 1000),
        },
        accountOf(line.account),
        cents,
      ),
    );
    if (line.taxCode) lines.at(-1)!.taxCode = line.taxCode;
  };

  /**
   * SAF-T states a line's tax on the line it is the tax of (TaxInformation: the code, the base,
   * the TaxAmount); the line that posts the VAT itself carries none: see `codeVatLines` (a file
   * may state the TaxAmount in whole units: Skatteetaten's own example states 40729 of a VAT
   * line of 40,729.75).
   */
  const codeTheVatLines = () => {
    codeVatLines(lines, taxes);
    taxes = [];
  };

  const closeTransaction = (fileLine: number) => {
    if (!transaction) return;
    facts.transactions += 1;
    codeTheVatLines();
    const entry = `${journal} ${transaction.id}`;
    const balanced = balancedEntry(
      {
        fileLine: transaction.fileLine,
        entry,
        date: transaction.date,
        memo: transaction.description,
      },
      lines,
      fileLine,
      report,
      { dateField: 'TransactionDate' },
    );
    if (balanced) ready.push(balanced);
    transaction = undefined;
    lines = [];
  };

  for await (const _ of readXml(
    file,
    options.encoding,
    {
      open(path, _attributes, fileLine) {
        const name = path.at(-1)!;
        const parent = path.at(-2);
        if (name === 'Account' && parent === 'GeneralLedgerAccounts') {
          account = { code: '', name: '', type: undefined, fileLine, balances: {}, stated: {} };
        } else if (name === 'GeneralLedgerEntries') {
          sendOpening(fileLine);
        } else if (name === 'Journal' && parent === 'GeneralLedgerEntries') {
          facts.journals += 1;
          journal = '';
        } else if (name === 'Transaction' && parent === 'Journal') {
          transaction = { id: '', date: '', description: '', fileLine };
        } else if (name === 'Line' && parent === 'Transaction') {
          line = { fileLine, account: '', description: '', taxAmounts: [] };
        } else if (name === 'TaxInformation' && line) {
          line.readingCode = undefined;
        }
      },
      close(path, text, fileLine) {
        onLine(fileLine);
        const name = path.at(-1)!;
        const parent = path.at(-2);
        if (account && parent === 'Account') {
          if (name === 'AccountID') account.code = text;
          else if (name === 'AccountDescription') account.name = text;
          else if (/^(StandardAccountID|GroupingCategory|GroupingCode|AccountType)$/.test(name))
            account.stated[name] = text;
          else if (/^(Opening|Closing)(Debit|Credit)Balance$/.test(name))
            account.balances[name] = text;
        } else if (account && name === 'Account' && parent === 'GeneralLedgerAccounts') {
          const { balances, stated, ...described } = account;
          const balance = (kind: 'Opening' | 'Closing') => {
            const debit = balances[`${kind}DebitBalance`];
            const credit = balances[`${kind}CreditBalance`];
            if (debit === undefined && credit === undefined) return undefined;
            const d = auditAmount(debit ?? '', fileLine, `${kind}DebitBalance`, report);
            const c = auditAmount(credit ?? '', fileLine, `${kind}CreditBalance`, report);
            return d === undefined || c === undefined ? undefined : subtractCents(d, c);
          };
          const opening = balance('Opening');
          const closing = balance('Closing');
          const typed = saftType(described.code, stated);
          tallyTyped(facts, typed.how);
          accounts.set(described.code, {
            ...described,
            name: described.name || described.code,
            type: typed.type,
            ...(typed.kind !== undefined && { kind: typed.kind }),
            ...(opening !== undefined && { opening }),
            ...(closing !== undefined && { closing }),
          });
          if (closing !== undefined) facts.closingBalances.set(described.code, closing);
          account = undefined;
        } else if (parent === 'Header' && name === 'AuditFileVersion') {
          facts.version = text;
        } else if (parent === 'SelectionCriteria') {
          period[name] = text;
        } else if (
          parent === 'GeneralLedgerEntries' &&
          /^(NumberOfEntries|TotalDebit|TotalCredit)$/.test(name)
        ) {
          control[name] = { text, line: fileLine };
        } else if (parent === 'Journal' && name === 'JournalID') {
          journal = text;
        } else if (transaction && parent === 'Transaction' && !line) {
          if (name === 'TransactionID') transaction.id = text;
          else if (name === 'TransactionDate') transaction.date = text;
          else if (name === 'Description') transaction.description = text;
        } else if (name === 'Transaction' && parent === 'Journal') {
          closeTransaction(fileLine);
        } else if (line && parent === 'Line') {
          if (name === 'AccountID') line.account = text;
          else if (name === 'Description') line.description = text;
        } else if (line && parent === 'TaxInformation' && name === 'TaxCode') {
          line.taxCode ??= text;
          line.readingCode = text;
        } else if (
          line &&
          name === 'Amount' &&
          (parent === 'TaxAmount' || parent === 'DebitTaxAmount' || parent === 'CreditTaxAmount')
        ) {
          // SAF-T 1.0 and Norway's 1.10 write TaxAmount; 1.30 DebitTaxAmount or CreditTaxAmount.
          if (line.readingCode !== undefined)
            line.taxAmounts.push({ code: line.readingCode, amount: text });
        } else if (line && name === 'Amount' && path.at(-3) === 'Line') {
          if (parent === 'DebitAmount') line.debit = text;
          else if (parent === 'CreditAmount') line.credit = text;
        } else if (line && name === 'Line' && parent === 'Transaction') {
          closeLine(fileLine);
          line = undefined;
        }
      },
    },
    (digest) => (hash = digest),
  )) {
    yield* ready;
    ready.length = 0;
  }
  sendOpening(1);
  yield* ready;
  ready.length = 0;

  checkStatedCount(
    'NumberOfEntries',
    control.NumberOfEntries,
    facts.transactions,
    facts.contradictions,
  );
  checkStatedTotal('TotalDebit', control.TotalDebit, totalDebit, report);
  checkStatedTotal('TotalCredit', control.TotalCredit, totalCredit, report);
  facts.accounts = accounts.size;
  facts.contradictions.push(...contradictions(accounts.values(), movements));
  onEnd(hash, facts);
}

/** What the file states of an account's type, read in that order, and what it came from. */
function saftType(
  code: string,
  stated: Record<string, string>,
): { type?: AccountType; kind?: AccountKind; how: string } {
  if (stated.StandardAccountID) {
    const type = norwegianType(stated.StandardAccountID);
    if (type) return { type, how: 'StandardAccountID (Norway’s standard chart)' };
  }
  if (stated.GroupingCategory) {
    const grouped = groupingType(stated.GroupingCategory, stated.GroupingCode ?? '');
    if (grouped === 'balance sheet' || grouped === 'profit and loss')
      return { kind: grouped, how: 'GroupingCategory and the side of its balance' };
    if (grouped) return { type: grouped, how: 'GroupingCategory and GroupingCode' };
  }
  const named = CLASS_NAMES[(stated.AccountType ?? '').trim().toLowerCase()];
  if (named) return { type: named, how: 'AccountType' };
  const own = norwegianType(code);
  if (own)
    return {
      type: own,
      how: 'its own AccountID read as a standard account of Norway’s chart (the file states no StandardAccountID or GroupingCategory it names: --chart types them exactly)',
    };
  return { how: 'nothing the file states' };
}

/** The first day of the period a SAF-T file covers, from its SelectionCriteria. */
function firstDayOf(period: Record<string, string>): string | undefined {
  if (period.SelectionStartDate && isCalendarDay(period.SelectionStartDate))
    return period.SelectionStartDate;
  const month = Number(period.PeriodStart);
  const year = period.PeriodStartYear;
  if (!year || !/^\d{4}$/.test(year) || !(month >= 1 && month <= 12)) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-01`;
}

/** SAF-T Financial: Norway's 1.10 to 1.30, and the OECD schema's national versions. */
export const saft: LedgerFormatDefinition = {
  name: 'saft',
  title: 'SAF-T Financial',
  detect: (head) => looksLikeSaft(head),
  toldBy: 'read as SAF-T Financial: its root is an AuditFile in a SAF-T namespace',
  read: readAuditFile('SAF-T', readSaft),
};
