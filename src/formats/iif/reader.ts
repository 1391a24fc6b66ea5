import type { AccountType } from '../../api/index.js';
import {
  InvalidAmountError,
  negateCents,
  parseAmountText,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { addDays } from '../../core/calendar.js';
import { openingEntry, type AuditAccount, type OpeningFacts } from '../common/auditFile.js';
import { eachRecord, namedColumns, type NamedColumns } from '../common/csvRecords.js';
import {
  accountKey,
  EntryGrouper,
  parseLedgerDate,
  type LedgerEntry,
  type LedgerLine,
  type Problem,
  ZeroEntries,
} from '../ledgerCsv.js';
import {
  readExport,
  auditOptions,
  count,
  zeroWhole,
  type LedgerFormatDefinition,
} from '../format.js';
import { formatCents as saidCents, negateCents as negated } from '../../core/money.js';

/**
 * QuickBooks Desktop's IIF ("Intuit Interchange Format"), as its IIF Import Kit describes it:
 * tab-separated rows, each list or transaction kind declared by a header row (`!ACCNT`,
 * `!TRNS`, `!SPL`, `!ENDTRNS`, …) naming its columns, then its rows (`ACCNT`, `TRNS`, …).
 *
 * - `!ACCNT` rows are the chart: NAME, ACCNTTYPE (mapped to ours below) and ACCNUM (the code).
 *   OBAMOUNT, the balance an account had when exported, is how a QuickBooks user hands over a
 *   chart with its opening balances: in a file of lists only (or with `--opening-balances`) the
 *   OBAMOUNTs are one opening entry, on `--opening-date` or else the day before the first
 *   transaction, signed as every IIF amount (positive a debit; income and expense accounts carry
 *   the year to date); a difference goes to `--offset-account` (QuickBooks calls that account
 *   Opening Balance Equity). In a file with transactions they are left aside, counted: the
 *   transactions make the balances.
 * - A transaction is a `TRNS` row, its `SPL` rows, then `ENDTRNS`, of any TRNSTYPE (GENERAL
 *   JOURNAL, CHECK, INVOICE, CASH SALE, DEPOSIT, …). Each row posts AMOUNT to ACCNT: positive
 *   is a debit, negative a credit. The entry takes the TRNS row's DATE (QuickBooks writes
 *   M/D/YYYY), its memo the TRNS MEMO; a line's description is its NAME (the payee or customer)
 *   or MEMO. Lines of zero are skipped and counted.
 * - Every other list (customers, vendors, items…) is not part of the books and is skipped.
 */

/** IIF's account types, as QuickBooks names them, in ours. NONPOSTING accounts take no lines. */
export const IIF_ACCOUNT_TYPES: Record<string, AccountType> = {
  BANK: 'Cash',
  AR: 'Accounts Receivable',
  OCASSET: 'Other Current Assets',
  FIXASSET: 'Fixed Assets',
  OASSET: 'Other Assets',
  AP: 'Accounts Payable',
  CCARD: 'Credit Cards',
  OCLIAB: 'Other Current Liabilities',
  LTLIAB: 'Long-Term Loans',
  EQUITY: 'Equity',
  INC: 'Income',
  COGS: 'COGS',
  EXP: 'Operating Expenses',
  EXINC: 'Other Income',
  EXEXP: 'Other Expenses',
};

/** What reading an IIF file found beside its entries, for the import to say. */
export interface IifFacts extends OpeningFacts {
  transactions: number;
  chartAccounts: number;
  zeroLines: number;
  /** Transactions made only of lines of zero, left out whole. */
  zeroEntries: number;
  /** Rows of lists that are not the books (customers, vendors, items…), by kind. */
  skippedLists: Map<string, number>;
  openingDay?: string;
  /** OBAMOUNTs left aside: the file has transactions, and no `--opening-balances`. */
  obAmountsLeftAside: number;
}

/** What reading an IIF file is told by the import's flags. */
export interface IifOptions {
  encoding?: string;
  /** `--opening-date`: the day the chart's OBAMOUNTs stand at. */
  openingDate?: string;
  /** `--opening-balances`: post the OBAMOUNTs of a file that also has transactions. */
  openingBalances?: boolean;
  offsetAccount?: string;
}

/** True when a file's first line is an IIF header row (`!HDR`, `!ACCNT`, `!TRNS`…). */
export function looksLikeIif(firstLine: string): boolean {
  return /^\uFEFF?"?![A-Z]+"?\t/.test(firstLine);
}

/** A field as QuickBooks wrote it: quotes around a whole field are not part of it. */
const unquoted = (text: string | undefined) => {
  const trimmed = (text ?? '').trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).replaceAll('""', '"')
    : trimmed;
};

interface ChartAccount {
  code: string | undefined;
  type: AccountType | undefined;
  iifType: string;
}

/**
 * The entries of an IIF file, streamed; problems (by file line) go to `report`. Unbalanced
 * transactions are problems listing their lines, as for any entry.
 */
export async function* readIif(
  file: string,
  options: IifOptions,
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: IifFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const facts: IifFacts = {
    transactions: 0,
    chartAccounts: 0,
    zeroLines: 0,
    zeroEntries: 0,
    skippedLists: new Map(),
    openingBalances: 0,
    obAmountsLeftAside: 0,
  };
  /** The chart's accounts with an OBAMOUNT that is not zero. */
  const openings: AuditAccount[] = [];
  let firstDay: string | undefined;
  /** Each kind's columns, as its `!KIND` row names them (the kind's own cell included). */
  const headers = new Map<string, NamedColumns>();
  const chart = new Map<string, ChartAccount>();
  const ready: LedgerEntry[] = [];
  const grouper = new EntryGrouper(true, (entry) => ready.push(entry), report);
  const usedIds = new Set<string>();
  const zeros = new ZeroEntries();
  let transaction: { id: string; date: string | undefined; memo: string; line: number } | undefined;
  let hash = '';

  const field = (kind: string, record: string[], name: string) =>
    unquoted(headers.get(kind)?.cell(record, name));

  const split = (kind: 'TRNS' | 'SPL', record: string[], fileLine: number) => {
    if (!transaction) {
      report({
        fileLine,
        message: `an ${kind} row outside a transaction (after ENDTRNS, or before any TRNS)`,
      });
      return;
    }
    const accountName = field(kind, record, 'ACCNT');
    if (accountName === '') {
      report({ fileLine, message: `${kind}: ACCNT is empty` });
      return;
    }
    let cents: Cents | null;
    try {
      cents = parseAmountText(field(kind, record, 'AMOUNT'));
    } catch (error) {
      if (!(error instanceof InvalidAmountError)) throw error;
      report({ fileLine, message: `${kind}: AMOUNT ${error.message}` });
      return;
    }
    zeros.line(transaction.id, cents === null || cents === 0);
    if (cents === null || cents === 0) {
      facts.zeroLines += 1;
      return;
    }
    const known = chart.get(accountName);
    if (known && known.iifType === 'NONPOSTING') {
      report({
        fileLine,
        message: `${kind}: account "${accountName}" is NONPOSTING in the file's chart (an estimate or an order): it takes no lines`,
      });
      return;
    }
    const date = transaction.date;
    if (date === undefined) return; // its TRNS row's date was reported
    const name = field(kind, record, 'NAME');
    const memo = field(kind, record, 'MEMO');
    const line: LedgerLine = {
      fileLine,
      date,
      account: known?.code !== undefined ? accountKey(known.code, accountName) : accountName,
      accountCode: known?.code,
      accountName: known?.code !== undefined ? accountName : undefined,
      accountType: known?.type,
      debitCents: cents > 0 ? cents : ZERO_CENTS,
      creditCents: cents < 0 ? negateCents(cents) : ZERO_CENTS,
      description: [name, memo].filter(Boolean).join(' — '),
      memo: transaction.memo,
      classes: [],
      entry: transaction.id,
    };
    grouper.add(line);
  };

  for await (const { record, fileLine } of eachRecord(
    file,
    {
      encoding: options.encoding,
      delimiter: '\t',
      quotesAreText: true,
    },
    onLine,
    (digest) => (hash = digest),
  )) {
    // What the records before this one completed goes out first.
    if (ready.length > 0) {
      yield* ready;
      ready.length = 0;
    }
    const kind = unquoted(record[0]).toUpperCase();
    if (kind === '') continue;
    if (kind.startsWith('!')) {
      headers.set(
        kind.slice(1),
        namedColumns(record, (name) => unquoted(name).toUpperCase()),
      );
      continue;
    }
    switch (kind) {
      case 'ACCNT': {
        const name = field(kind, record, 'NAME');
        const iifType = field(kind, record, 'ACCNTTYPE').toUpperCase();
        const code = field(kind, record, 'ACCNUM');
        facts.chartAccounts += 1;
        if (name === '') {
          report({ fileLine, message: 'ACCNT: NAME is empty' });
          break;
        }
        chart.set(name, { code: code || undefined, type: IIF_ACCOUNT_TYPES[iifType], iifType });
        const obAmount = field(kind, record, 'OBAMOUNT');
        if (obAmount !== '') {
          let cents: Cents | null = null;
          try {
            cents = parseAmountText(obAmount);
          } catch (error) {
            if (!(error instanceof InvalidAmountError)) throw error;
            report({ fileLine, message: `ACCNT: OBAMOUNT ${error.message}` });
          }
          if (cents)
            openings.push({
              code: code,
              name,
              type: IIF_ACCOUNT_TYPES[iifType],
              opening: cents,
              fileLine,
            });
        }
        break;
      }
      case 'TRNS': {
        if (transaction) {
          report({
            fileLine,
            message: 'a TRNS row before the ENDTRNS of the transaction before it',
          });
        }
        facts.transactions += 1;
        const text = field(kind, record, 'DATE');
        const date = parseIifDate(text);
        if (!date) report({ fileLine, message: `TRNS: DATE "${text}" is not a date (M/D/YYYY)` });
        else if (firstDay === undefined || date < firstDay) firstDay = date;
        const type = field(kind, record, 'TRNSTYPE') || 'TRNS';
        const number = field(kind, record, 'DOCNUM') || field(kind, record, 'TRNSID');
        let id = number ? `${type} ${number}` : `${type} at line ${fileLine}`;
        if (usedIds.has(id)) id = `${id} at line ${fileLine}`;
        usedIds.add(id);
        transaction = { id, date, memo: field(kind, record, 'MEMO'), line: fileLine };
        split('TRNS', record, fileLine);
        break;
      }
      case 'SPL':
        split('SPL', record, fileLine);
        break;
      case 'ENDTRNS':
        if (!transaction) report({ fileLine, message: 'an ENDTRNS row without its TRNS' });
        transaction = undefined;
        break;
      case 'HDR':
        break;
      default:
        facts.skippedLists.set(kind, (facts.skippedLists.get(kind) ?? 0) + 1);
    }
  }
  if (transaction) {
    report({
      fileLine: transaction.line,
      message: `transaction "${transaction.id}" has no ENDTRNS`,
    });
  }
  grouper.finish();
  yield* ready;
  if (openings.length > 0 && facts.transactions > 0 && !options.openingBalances) {
    facts.obAmountsLeftAside = openings.length;
  } else if (openings.length > 0) {
    const day = options.openingDate ?? (firstDay === undefined ? undefined : addDays(firstDay, -1));
    if (day === undefined) {
      report({
        fileLine: openings[0]!.fileLine,
        message: `the chart's OBAMOUNTs are opening balances and the file has no transaction to date them by: pass --opening-date YYYY-MM-DD, the day they stand at`,
      });
    } else {
      const opening = openingEntry(facts, openings, day, options.offsetAccount, report);
      if (opening) {
        facts.openingDay = day;
        // Named as the transactions name them: an account without ACCNUM by its name alone;
        // its type is the one the file states.
        yield {
          ...opening,
          lines: opening.lines.map(({ typeInferred: _inferred, ...line }) =>
            line.accountCode === undefined && line.accountName !== undefined
              ? { ...line, account: line.accountName, accountName: undefined }
              : line,
          ),
        };
      }
    }
  }
  zeros.finish();
  onEnd(hash, { ...facts, zeroEntries: zeros.count });
}

/** QuickBooks writes M/D/YYYY (and M/D/YY in old files); ISO days are read too. */
export function parseIifDate(text: string): string | undefined {
  const short = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(text);
  if (short) {
    const [, month, day, year] = short;
    // QuickBooks' own rule for two-digit years: 00–49 are 2000s, 50–99 are 1900s.
    const century = Number(year) < 50 ? '20' : '19';
    return parseLedgerDate(`${month}/${day}/${century}${year}`, 'MM/DD/YYYY');
  }
  return parseLedgerDate(text, 'MM/DD/YYYY') ?? parseLedgerDate(text, 'YYYY-MM-DD');
}

/** QuickBooks Desktop's Intuit Interchange Format. */
export const iif: LedgerFormatDefinition = {
  name: 'iif',
  title: 'IIF (QuickBooks Desktop)',
  detect: (_head, firstLine) => looksLikeIif(firstLine),
  toldBy: 'read as IIF (QuickBooks Desktop): its first line is an IIF header',
  read: (file, _head, options, result) =>
    readExport<IifFacts>(
      result,
      (...hooks) =>
        readIif(
          file,
          {
            ...auditOptions(options),
            ...(options.openingDate !== undefined && { openingDate: options.openingDate }),
            ...(options.openingBalances !== undefined && {
              openingBalances: options.openingBalances,
            }),
          },
          ...hooks,
        ),
      (facts) => [
        `IIF: ${count(facts.transactions, 'transaction', 'transactions')}, ${count(facts.chartAccounts, 'chart account', 'chart accounts')} (!ACCNT)`,
        facts.zeroLines > 0 &&
          `IIF: ${count(facts.zeroLines, 'line', 'lines')} of zero left out${zeroWhole(facts.zeroEntries, 'transaction', 'transactions')}`,
        facts.openingBalances > 0 &&
          `IIF: the OBAMOUNTs of ${count(facts.openingBalances, 'account', 'accounts')} posted as one opening entry on ${facts.openingDay}${options.openingDate === undefined ? ' (the day before the first transaction; --opening-date to say another)' : ' (--opening-date)'}`,
        facts.offsetTook !== undefined &&
          `IIF: the OBAMOUNTs do not net to zero; ${options.offsetAccount} (--offset-account) took ${saidCents(facts.offsetTook < 0 ? negated(facts.offsetTook) : facts.offsetTook)} as a ${facts.offsetTook < 0 ? 'credit' : 'debit'}`,
        facts.obAmountsLeftAside > 0 &&
          `IIF: ${count(facts.obAmountsLeftAside, 'OBAMOUNT', 'OBAMOUNTs')} of the chart left aside: the transactions make the balances (--opening-balances posts them as well)`,
        facts.skippedLists.size > 0 &&
          `IIF: lists that are not the books left out: ${[...facts.skippedLists].map(([kind, rows]) => `${kind} ${rows}`).join(', ')}`,
      ],
    ),
};
