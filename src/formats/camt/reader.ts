import type { CalendarDay } from '../../core/calendar.js';
import { InvalidAmountError, negateCents, type Cents } from '../../core/money.js';
import { CsvReadError } from '../common/csvRecords.js';
import { readXml } from '../common/xmlStream.js';
import {
  checkBalances,
  bankAmount,
  compactOrIsoDay,
  dayAfter,
  entriesPeriod,
  UnreadableStatement,
  type BankStatement,
  type EntryStatus,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
} from '../statement.js';

/**
 * ISO 20022 cash management messages, as banks send them: camt.053 (the statement of a day or
 * a month), camt.052 (a report within the day) and camt.054 (notifications of single movements),
 * every version in use (001.01 to 001.13: the container named with its version in 001.01, the
 * parties under `Pty` from 001.08, the status a code under `Sts/Cd` from 001.08), in any
 * namespace, also inside a business application header's envelope.
 *
 * - Each `Stmt` (`Rpt`, `Ntfctn`) is a statement: its account (`IBAN`, else the other id given),
 *   currency (`Acct/Ccy`, else the entries'), period (`FrToDt`; else the booked balances' days;
 *   else the entries'), its opening balance (`OPBD`, else `PRCD`, the previous statement's
 *   closing, a day earlier) and closing (`CLBD`; in a camt.052 without it, the last interim
 *   booked balance, `ITBD`), each on its side by `CdtDbtInd`.
 * - Each `Ntry` is an entry: its amount on its side (`CdtDbtInd` names the side money really
 *   moved: a reversal, `RvslInd`, is already on the side that undoes the original), booking and
 *   value days (the day of a `DtTm` as the bank wrote it), the bank's reference (`AcctSvcrRef`,
 *   else the transaction's, else its end-to-end id, else `NtryRef`), the other party (the
 *   debtor of money in, the creditor of money out, else the ultimate ones) and the text
 *   (remittance information, else the additional information). A batch of several transactions
 *   is one entry, as the bank booked it.
 * - The file against itself — opening and booked entries against closing, `TxsSummry`'s count
 *   and net, a gap in the electronic sequence numbers of one account's statements — is said.
 */

const CONTAINERS = /^BkToCstmr(?:Stmt|AcctRpt|DbtCdtNtfctn)(?:V\d+)?$/;
const STATEMENTS = new Set(['Stmt', 'Rpt', 'Ntfctn']);

export const looksLikeCamt = (head: string) =>
  /camt\.05[234]/.test(head) || /<(\w+:)?BkToCstmr(Stmt|AcctRpt|DbtCdtNtfctn)\b/.test(head);

interface Balance {
  code: string;
  amount: string;
  currency: string | undefined;
  side: string;
  day: CalendarDay | undefined;
  line: number;
}

interface EntryBeingRead {
  line: number;
  amount: string;
  currency: string | undefined;
  side: string;
  reversal: boolean;
  status: string;
  bookingDate: CalendarDay | undefined;
  valueDate: CalendarDay | undefined;
  reference: string | undefined;
  entryReference: string | undefined;
  transactionReference: string | undefined;
  endToEnd: string | undefined;
  debtor: string | undefined;
  creditor: string | undefined;
  ultimateDebtor: string | undefined;
  ultimateCreditor: string | undefined;
  remittance: string[];
  creditorReference: string | undefined;
  transactionInfo: string | undefined;
  entryInfo: string | undefined;
  transactions: number;
}

interface StatementBeingRead {
  line: number;
  kind: string;
  account: string | undefined;
  otherAccount: string | undefined;
  currency: string | undefined;
  from: CalendarDay | undefined;
  to: CalendarDay | undefined;
  sequence: string | undefined;
  balances: Balance[];
  entries: StatementEntry[];
  summary: { count?: string; net?: string; netSide?: string };
}

const NO_REFERENCE = /^(NOTPROVIDED|NONREF|NOT PROVIDED)$/i;

export const camt: StatementFormatDefinition = {
  name: 'camt',
  title: 'ISO 20022 camt.052/053/054',
  detect: (head) => /^\s*(\xef\xbb\xbf)?\s*</.test(head) && looksLikeCamt(head),
  async read(file, options) {
    const statements: BankStatement[] = [];
    const checks: StatementCheck[] = [];
    let message: string | undefined;
    let statement: StatementBeingRead | undefined;
    let entry: EntryBeingRead | undefined;
    let balance: Balance | undefined;
    let at = -1; // the statement element's index in the path
    let sawContainer = false;
    const elements = {
      open(path: readonly string[], attributes: Readonly<Record<string, string>>, line: number) {
        const name = path[path.length - 1]!;
        if (path.length === 1 && name !== 'Document' && name !== 'BizMsgEnvlp' && !sawContainer)
          throw new UnreadableStatement(`its root is <${name}>, not a camt Document`, line);
        if (CONTAINERS.test(name)) {
          sawContainer = true;
          message ??= /AcctRpt/.test(name)
            ? 'camt.052'
            : /Ntfctn/.test(name)
              ? 'camt.054'
              : 'camt.053';
          return;
        }
        if (statement === undefined) {
          if (STATEMENTS.has(name) && CONTAINERS.test(path[path.length - 2] ?? '')) {
            at = path.length - 1;
            statement = {
              line,
              kind: name,
              account: undefined,
              otherAccount: undefined,
              currency: undefined,
              from: undefined,
              to: undefined,
              sequence: undefined,
              balances: [],
              entries: [],
              summary: {},
            };
          }
          return;
        }
        const relative = path.slice(at + 1);
        if (relative.length === 1 && name === 'Bal') {
          balance = { code: '', amount: '', currency: undefined, side: '', day: undefined, line };
        } else if (relative.length === 1 && name === 'Ntry') {
          entry = {
            line,
            amount: '',
            currency: undefined,
            side: '',
            reversal: false,
            status: '',
            bookingDate: undefined,
            valueDate: undefined,
            reference: undefined,
            entryReference: undefined,
            transactionReference: undefined,
            endToEnd: undefined,
            debtor: undefined,
            creditor: undefined,
            ultimateDebtor: undefined,
            ultimateCreditor: undefined,
            remittance: [],
            creditorReference: undefined,
            transactionInfo: undefined,
            entryInfo: undefined,
            transactions: 0,
          };
        } else if (name === 'Amt' && balance && relative.length === 2) {
          balance.currency = attributes['Ccy'];
        } else if (name === 'Amt' && entry && relative.length === 2) {
          entry.currency = attributes['Ccy'];
        } else if (entry && name === 'TxDtls') {
          entry.transactions += 1;
        }
      },
      close(path: readonly string[], text: string) {
        if (statement === undefined) return;
        const relative = path.slice(at + 1);
        if (relative.length === 0) {
          statements.push(finish(statement, message ?? 'camt', checks));
          statement = undefined;
          return;
        }
        const where = relative.join('/');
        if (balance && relative[0] === 'Bal') {
          if (relative.length === 1) {
            statement.balances.push(balance);
            balance = undefined;
          } else if (/^Bal\/Tp\/(CdOrPrtry\/)?(Cd|Prtry)$/.test(where)) balance.code ||= text;
          else if (where === 'Bal/Amt') balance.amount = text;
          else if (where === 'Bal/CdtDbtInd') balance.side = text;
          else if (where === 'Bal/Dt/Dt' || where === 'Bal/Dt/DtTm')
            balance.day = compactOrIsoDay(text);
          return;
        }
        if (entry && relative[0] === 'Ntry') {
          if (relative.length === 1) {
            statement.entries.push(entryOf(entry, checks));
            entry = undefined;
            return;
          }
          readEntryField(entry, relative.slice(1), text);
          return;
        }
        switch (where) {
          case 'Acct/Id/IBAN':
            statement.account = text.replace(/\s+/g, '').toUpperCase();
            break;
          case 'Acct/Id/Othr/Id':
          case 'Acct/Id/PrtryAcct/Id':
          case 'Acct/Id/BBAN':
          case 'Acct/Id/UPIC':
            statement.otherAccount ??= text.trim();
            break;
          case 'Acct/Ccy':
            statement.currency = text.trim().toUpperCase();
            break;
          case 'FrToDt/FrDtTm':
          case 'FrToDt/FrDt':
            statement.from = compactOrIsoDay(text);
            break;
          case 'FrToDt/ToDtTm':
          case 'FrToDt/ToDt':
            statement.to = compactOrIsoDay(text);
            break;
          case 'ElctrncSeqNb':
            statement.sequence = text.trim();
            break;
          case 'TxsSummry/TtlNtries/NbOfNtries':
            statement.summary.count = text;
            break;
          case 'TxsSummry/TtlNtries/TtlNetNtryAmt':
          case 'TxsSummry/TtlNtries/TtlNetNtry/Amt':
            statement.summary.net = text;
            break;
          case 'TxsSummry/TtlNtries/CdtDbtInd':
          case 'TxsSummry/TtlNtries/TtlNetNtry/CdtDbtInd':
            statement.summary.netSide = text;
            break;
        }
      },
    };
    try {
      for await (const _ of readXml(file, options.encoding, elements, () => {}));
    } catch (error) {
      if (error instanceof CsvReadError) throw new UnreadableStatement(error.message, error.lines);
      throw error;
    }
    if (!sawContainer)
      throw new UnreadableStatement(
        'it holds no camt message (BkToCstmrStmt, BkToCstmrAcctRpt or BkToCstmrDbtCdtNtfctn)',
      );
    sequenceGaps(statements, checks, message ?? 'camt');
    checkBalances(statements, checks);
    return { format: 'camt', statements, checks };
  },
};

/** The sequence numbers of each statement, for the gap check after all are read. */
const sequences = new WeakMap<BankStatement, number>();

function readEntryField(entry: EntryBeingRead, path: readonly string[], text: string): void {
  const where = path.join('/');
  switch (where) {
    case 'Amt':
      entry.amount = text;
      return;
    case 'CdtDbtInd':
      entry.side = text;
      return;
    case 'RvslInd':
      entry.reversal = /^(true|1)$/i.test(text);
      return;
    case 'Sts':
    case 'Sts/Cd':
    case 'Sts/Prtry':
      entry.status ||= text.trim().toUpperCase();
      return;
    case 'BookgDt/Dt':
    case 'BookgDt/DtTm':
      entry.bookingDate = compactOrIsoDay(text);
      return;
    case 'ValDt/Dt':
    case 'ValDt/DtTm':
      entry.valueDate = compactOrIsoDay(text);
      return;
    case 'AcctSvcrRef':
      entry.reference = text.trim();
      return;
    case 'NtryRef':
      entry.entryReference = text.trim();
      return;
    case 'AddtlNtryInf':
      entry.entryInfo = text.trim();
      return;
  }
  // 001.01 puts a transaction's details in the entry itself; later versions in NtryDtls.
  if ((path[0] !== 'NtryDtls' && path[0] !== 'TxDtls') || entry.transactions > 1) return;
  const inTransaction = path.slice(path.indexOf('TxDtls') + 1).join('/');
  switch (inTransaction) {
    case 'Refs/AcctSvcrRef':
      entry.transactionReference ??= text.trim();
      return;
    case 'Refs/EndToEndId':
      entry.endToEnd ??= text.trim();
      return;
    case 'RltdPties/Dbtr/Nm':
    case 'RltdPties/Dbtr/Pty/Nm':
      entry.debtor ??= text.trim();
      return;
    case 'RltdPties/Cdtr/Nm':
    case 'RltdPties/Cdtr/Pty/Nm':
      entry.creditor ??= text.trim();
      return;
    case 'RltdPties/UltmtDbtr/Nm':
    case 'RltdPties/UltmtDbtr/Pty/Nm':
      entry.ultimateDebtor ??= text.trim();
      return;
    case 'RltdPties/UltmtCdtr/Nm':
    case 'RltdPties/UltmtCdtr/Pty/Nm':
      entry.ultimateCreditor ??= text.trim();
      return;
    case 'RmtInf/Ustrd':
      if (text.trim()) entry.remittance.push(text.trim());
      return;
    case 'RmtInf/Strd/CdtrRefInf/Ref':
      entry.creditorReference ??= text.trim();
      return;
    case 'AddtlTxInf':
      entry.transactionInfo ??= text.trim();
      return;
  }
}

const STATUSES: Record<string, EntryStatus> = {
  BOOK: 'booked',
  PDNG: 'pending',
  FUTR: 'pending',
  INFO: 'info',
};

function signed(amount: string, side: string, line: number, what: string): Cents {
  let cents: Cents;
  try {
    cents = bankAmount(amount);
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    throw new UnreadableStatement(`${what}: ${error.message}`, line);
  }
  if (side === 'DBIT') return negateCents(cents);
  if (side === 'CRDT') return cents;
  throw new UnreadableStatement(`${what}: CdtDbtInd is "${side}", not CRDT or DBIT`, line);
}

function entryOf(entry: EntryBeingRead, checks: StatementCheck[]): StatementEntry {
  const amount = signed(entry.amount, entry.side, entry.line, 'an entry');
  if (entry.bookingDate === undefined && entry.valueDate === undefined)
    throw new UnreadableStatement(
      'an entry has no booking date (BookgDt) and no value date',
      entry.line,
    );
  if (entry.bookingDate === undefined)
    checks.push({
      line: entry.line,
      message: 'an entry without a booking date: its value date taken',
    });
  const status = STATUSES[entry.status] ?? (entry.status === '' ? 'booked' : undefined);
  if (status === undefined)
    checks.push({
      line: entry.line,
      message: `an entry of status "${entry.status}", which camt does not define: kept as information, not booked`,
    });
  const reference = [
    entry.reference,
    entry.transactionReference,
    entry.endToEnd,
    entry.entryReference,
  ].find((r) => r !== undefined && r !== '' && !NO_REFERENCE.test(r));
  const counterparty =
    amount >= 0
      ? (entry.debtor ?? entry.ultimateDebtor ?? entry.creditor)
      : (entry.creditor ?? entry.ultimateCreditor ?? entry.debtor);
  const text =
    entry.transactions > 1
      ? (entry.entryInfo ?? `${entry.transactions} transactions`)
      : entry.remittance.join(' ') ||
        entry.creditorReference ||
        entry.transactionInfo ||
        entry.entryInfo ||
        '';
  return {
    bookingDate: entry.bookingDate ?? entry.valueDate!,
    valueDate: entry.valueDate ?? null,
    amount,
    reference: reference ?? null,
    counterparty: entry.transactions > 1 ? null : (counterparty ?? null),
    description: text.replace(/\s+/g, ' ').trim(),
    status: status ?? 'info',
    line: entry.line,
  };
}

function finish(
  read: StatementBeingRead,
  message: string,
  checks: StatementCheck[],
): BankStatement {
  const find = (...codes: string[]) => {
    for (const code of codes) {
      const found = read.balances.filter((b) => b.code.toUpperCase() === code);
      if (found.length > 0) return code === 'ITBD' ? found.at(-1) : found[0];
    }
    return undefined;
  };
  const opening = find('OPBD', 'PRCD');
  const closing = find('CLBD', ...(read.kind === 'Rpt' ? ['ITBD'] : []));
  const amountOf = (b: Balance | undefined) =>
    b === undefined ? null : signed(b.amount, b.side, b.line, `the ${b.code} balance`);
  const currency = read.currency ?? opening?.currency ?? closing?.currency ?? undefined;
  for (const b of [opening, closing])
    if (b?.currency && currency && b.currency.toUpperCase() !== currency)
      checks.push({
        line: b.line,
        message: `the ${b.code} balance is in ${b.currency}, the account in ${currency}`,
      });
  const ofEntries = entriesPeriod(read.entries);
  const from =
    read.from ??
    (opening?.code.toUpperCase() === 'OPBD'
      ? opening.day
      : opening?.day !== undefined
        ? dayAfter(opening.day)
        : undefined) ??
    ofEntries.from;
  const to = read.to ?? closing?.day ?? ofEntries.to;
  const statement: BankStatement = {
    account: read.account ?? read.otherAccount ?? null,
    currency: currency ?? null,
    from: from ?? null,
    to: to ?? null,
    opening: amountOf(opening),
    closing: amountOf(closing),
    entries: read.entries,
    card: false,
    line: read.line,
  };
  const stated = read.summary;
  if (stated.count !== undefined && Number(stated.count) !== read.entries.length)
    checks.push({
      line: read.line,
      message: `${message}: the summary counts ${stated.count} entries, the statement holds ${read.entries.length}`,
    });
  if (read.sequence !== undefined && /^\d+$/.test(read.sequence))
    sequences.set(statement, Number(read.sequence));
  return statement;
}

/** Statements of one account whose electronic sequence numbers skip one: one is missing. */
function sequenceGaps(
  statements: BankStatement[],
  checks: StatementCheck[],
  message: string,
): void {
  const last = new Map<string, number>();
  for (const statement of statements) {
    const number = sequences.get(statement);
    if (number === undefined) continue;
    const key = statement.account ?? '';
    const before = last.get(key);
    if (before !== undefined && number > before + 1)
      checks.push({
        line: statement.line,
        message: `${message}: statement ${number} of ${statement.account ?? 'the account'} follows statement ${before}: ${number - before - 1 === 1 ? 'one is' : `${number - before - 1} are`} missing`,
      });
    last.set(key, number);
  }
}
