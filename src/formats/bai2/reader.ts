import {
  addCents,
  asCents,
  formatCents,
  negateCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import type { CalendarDay } from '../../core/calendar.js';
import { overlongRun, overlongText } from '../common/bounds.js';
import { decodedText } from '../common/statementText.js';
import {
  checkBalances,
  dayOfYymmdd,
  UnreadableStatement,
  type BankStatement,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
} from '../statement.js';

/**
 * BAI2 (BAI's Cash Management Balance Reporting Specification, version 2), the previous-day
 * and same-day reports of American banks: comma-separated records ending in `/`, one or several
 * to a physical line, a record going on over lines or in `88` continuation records.
 *
 * - `01` the file, `02` a group (its as-of day and, by default, its currency), `03` an account
 *   (its number, currency, then its balances and summaries: type code, amount, item count,
 *   funds type), `16` a transaction (type code, amount, funds type, the bank's reference, the
 *   customer's, and text to the end of the record, commas and slashes included), `49`, `98`, `99`
 *   their trailers with control totals and record counts.
 * - Each account of each group is a statement of its as-of day: opening ledger (010) to closing
 *   ledger (015); where it states neither, its opening and closing available balances (040/045)
 *   when its entries tie them (said), else no balance. Type codes say the side: 100–399 and 920–959 are credits (money in), 400–699
 *   and 960–999 debits; 001–099 and 900–919 are balances, not movements; loans' 700–799 name no
 *   side, so such a transaction is said and left out.
 * - A funds type takes its further fields (`S`: three amounts; `V`: value day and time, the day
 *   taken as the entry's value day; `D`: a count and as many day/amount pairs).
 * - Amounts are whole numbers of the currency's smallest unit (cents; yen; a three-decimal
 *   currency only where it ends in 0), balances signed, transactions not.
 * - Each trailer's control total (the sum of every amount of what it closes) and record count are
 *   checked and said when they differ; a group marked deletion or test is said.
 */

export const looksLikeBai2 = (head: string) =>
  /^\s*(\xef\xbb\xbf)?01,[^\n]*,[^\n]*,\d{6},/.test(head);

interface RawRecord {
  code: string;
  text: string;
  line: number;
  /** Physical lines it took (for the trailers' counts, which count records with their 88s). */
  records: number;
}

const RECORD_START = /^(01|02|03|16|49|88|98|99),/;

/** The logical records of a file: split at `/` where another record follows on the same line. */
function recordsOf(text: string): RawRecord[] {
  // Records may run together on one line, but none is a million characters long.
  const overlong = overlongRun(text, '/');
  if (overlong !== undefined)
    throw new UnreadableStatement(
      overlongText('BAI2: a record (the characters between two /)'),
      overlong,
    );
  const records: RawRecord[] = [];
  text.split(/\r\n|\r|\n/).forEach((physical, index) => {
    const line = index + 1;
    if (physical.trim() === '') return;
    const pieces = physical.split(/\/\s+(?=(?:0[123]|16|49|88|9[89]),)/);
    pieces.forEach((piece, at) => {
      const text = at < pieces.length - 1 ? `${piece}/` : piece;
      if (RECORD_START.test(text.trimStart())) {
        const code = text.trimStart().slice(0, 2);
        if (code === '88' && records.length > 0) {
          // A continuation: its fields go on the record before it.
          const previous = records[records.length - 1]!;
          previous.text = `${stripSlash(previous.text, previous.code)}${previous.code === '16' ? ' ' : ','}${text.trimStart().slice(3)}`;
          previous.records += 1;
        } else records.push({ code, text: text.trimStart(), line, records: 1 });
      } else if (records.length > 0) {
        // A record that goes on to the next line without an 88.
        const previous = records[records.length - 1]!;
        previous.text = `${stripSlash(previous.text, previous.code)}${previous.code === '16' ? ' ' : ''}${text}`;
      } else {
        throw new UnreadableStatement(
          `"${text.slice(0, 40)}" is not a BAI2 record (01, 02, 03, 16, 49, 88, 98, 99)`,
          line,
        );
      }
    });
  });
  return records;
}

/** A record without its ending `/` (a 16's text keeps slashes inside it). */
const stripSlash = (text: string, _code: string) => text.replace(/\/\s*$/, '');

const fieldsOf = (record: RawRecord) => stripSlash(record.text, record.code).split(',').slice(1);

/** Digits after the point of each currency that is not two (ISO 4217). */
const DECIMALS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

function amountOf(text: string, currency: string, line: number): Cents {
  const match = /^([+-]?)(\d+)$/.exec(text.trim());
  if (!match)
    throw new UnreadableStatement(`BAI2: "${text}" is not an amount (whole units, no point)`, line);
  const decimals = DECIMALS[currency] ?? 2;
  let digits = match[2]!.replace(/^0+(?=\d)/, '');
  if (decimals === 3) {
    if (!digits.endsWith('0'))
      throw new UnreadableStatement(
        `BAI2: ${text} ${currency} has three decimals, which books cannot hold to the cent`,
        line,
      );
    digits = digits.slice(0, -1) || '0';
  } else if (decimals === 0) digits = `${digits}00`;
  if (digits.length > 14)
    throw new UnreadableStatement(`BAI2: ${text} is larger than books holds`, line);
  const cents = asCents(Number(digits));
  return match[1] === '-' ? negateCents(cents) : cents;
}

/** Fields a funds type takes after it. */
function fundsFields(fields: string[], at: number): { next: number; valueDay?: string } {
  const type = (fields[at] ?? '').trim().toUpperCase();
  if (type === 'S') return { next: at + 4 };
  if (type === 'V') return { next: at + 3, valueDay: fields[at + 1] };
  if (type === 'D') return { next: at + 2 + 2 * Number(fields[at + 1] || 0) };
  return { next: at + 1 };
}

const side = (code: number): 'credit' | 'debit' | 'status' | 'loan' =>
  code < 100 || (code >= 900 && code < 920)
    ? 'status'
    : code < 400 || (code >= 920 && code < 960)
      ? 'credit'
      : code < 700 || code >= 960
        ? 'debit'
        : 'loan';

interface Account {
  statement: BankStatement;
  total: Cents;
  records: number;
  /** The opening (040) and closing (045) available balances, where the account states them. */
  available: { opening?: Cents; closing?: Cents };
}

/**
 * Where an account states no ledger balance (010/015), its available balances (040/045) are its
 * opening and closing when its entries make the one the other; said either way.
 */
function availableBalances(account: Account, say: (line: number, message: string) => void): void {
  const { statement, available } = account;
  if (statement.opening !== null || statement.closing !== null) return;
  if (available.opening === undefined || available.closing === undefined) return;
  const moved = statement.entries.reduce((sum, e) => addCents(sum, e.amount), ZERO_CENTS);
  if (addCents(available.opening, moved) === available.closing) {
    statement.opening = available.opening;
    statement.closing = available.closing;
    say(
      statement.line,
      `account ${statement.account ?? ''}: no ledger balance (010/015): the available balances (040/045), which its entries tie, taken as its opening and closing`,
    );
  } else
    say(
      statement.line,
      `account ${statement.account ?? ''}: no ledger balance (010/015), and its available balances (040 ${formatCents(available.opening)}, 045 ${formatCents(available.closing)}) are not what its entries make (${formatCents(moved)}): no balance taken`,
    );
}

export const bai2: StatementFormatDefinition = {
  name: 'bai2',
  title: 'BAI2',
  detect: looksLikeBai2,
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const records = recordsOf(await decodedText(file, options.encoding, checks, 'BAI2', true));
    if (records[0]?.code !== '01')
      throw new UnreadableStatement('BAI2: the file does not begin with its 01 header');
    const statements: BankStatement[] = [];
    let group:
      | {
          day: CalendarDay | undefined;
          currency: string;
          total: Cents;
          accounts: number;
          records: number;
          line: number;
        }
      | undefined;
    let account: Account | undefined;
    let file99 = { total: ZERO_CENTS, groups: 0, records: 0 };
    let ended = false;
    const say = (line: number, message: string) =>
      checks.push({ line, message: `BAI2: ${message}` });
    for (const record of records) {
      const fields = fieldsOf(record);
      file99.records += record.records;
      switch (record.code) {
        case '01':
          file99 = { total: ZERO_CENTS, groups: 0, records: record.records };
          break;
        case '02': {
          const status = (fields[2] ?? '').trim();
          group = {
            day: dayOfYymmdd((fields[3] ?? '').trim()),
            currency: (fields[5] ?? '').trim().toUpperCase() || 'USD',
            total: ZERO_CENTS,
            accounts: 0,
            records: record.records,
            line: record.line,
          };
          if (group.day === undefined)
            throw new UnreadableStatement(
              `BAI2: the group's as-of day "${fields[3] ?? ''}" is not YYMMDD`,
              record.line,
            );
          if (status === '2' || status === '4')
            say(
              record.line,
              `a group marked ${status === '2' ? 'deletion' : 'test only'} (group status ${status}): read, but it is not a report of the books`,
            );
          break;
        }
        case '03': {
          if (!group)
            throw new UnreadableStatement(
              'BAI2: an account (03) outside a group (02)',
              record.line,
            );
          group.records += record.records;
          const currency = (fields[1] ?? '').trim().toUpperCase() || group.currency;
          const statement: BankStatement = {
            account: (fields[0] ?? '').trim() || null,
            currency,
            from: group.day!,
            to: group.day!,
            opening: null,
            closing: null,
            entries: [],
            card: false,
            line: record.line,
          };
          account = { statement, total: ZERO_CENTS, records: record.records, available: {} };
          for (let at = 2; at < fields.length;) {
            const typeText = (fields[at] ?? '').trim();
            if (typeText === '') {
              at += 1;
              continue;
            }
            const amountText = (fields[at + 1] ?? '').trim();
            const amount =
              amountText === '' ? ZERO_CENTS : amountOf(amountText, currency, record.line);
            account.total = addCents(account.total, amount);
            const type = Number(typeText);
            if (type === 10) statement.opening = amount;
            if (type === 15) statement.closing = amount;
            if (type === 40) account.available.opening = amount;
            if (type === 45) account.available.closing = amount;
            // type, amount, item count, funds type (and what it takes)
            at = fundsFields(fields, at + 3).next;
          }
          statements.push(statement);
          break;
        }
        case '16': {
          if (!account)
            throw new UnreadableStatement(
              'BAI2: a transaction (16) outside an account (03)',
              record.line,
            );
          account.records += record.records;
          group!.records += record.records;
          const currency = account.statement.currency ?? 'USD';
          const type = Number((fields[0] ?? '').trim());
          const amount = amountOf((fields[1] ?? '').trim() || '0', currency, record.line);
          account.total = addCents(account.total, amount);
          const funds = fundsFields(fields, 2);
          const bankReference = (fields[funds.next] ?? '').trim();
          const customerReference = (fields[funds.next + 1] ?? '').trim();
          const text = fields
            .slice(funds.next + 2)
            .join(',')
            .replace(/\s+/g, ' ')
            .trim();
          const kind = side(type);
          if (kind === 'status' || kind === 'loan' || Number.isNaN(type)) {
            say(
              record.line,
              `transaction of type code ${fields[0] ?? ''}: ${kind === 'loan' ? 'a loan code, which names no side' : 'not a movement'}: left out`,
            );
            break;
          }
          const entry: StatementEntry = {
            bookingDate: account.statement.from!,
            valueDate: funds.valueDay ? (dayOfYymmdd(funds.valueDay.trim()) ?? null) : null,
            amount: kind === 'debit' ? negateCents(amount) : amount,
            reference: bankReference || customerReference || null,
            counterparty: null,
            description: text,
            status: 'booked',
            line: record.line,
          };
          account.statement.entries.push(entry);
          break;
        }
        case '49': {
          if (!account)
            throw new UnreadableStatement(
              'BAI2: an account trailer (49) without its account',
              record.line,
            );
          account.records += record.records;
          group!.records += record.records;
          const currency = account.statement.currency ?? 'USD';
          const stated = amountOf((fields[0] ?? '0').trim() || '0', currency, record.line);
          const count = Number((fields[1] ?? '').trim());
          if (stated !== account.total)
            say(
              record.line,
              `the account trailer's control total is ${formatCents(stated)}, its amounts sum to ${formatCents(account.total)} (${formatCents(subtractCents(stated, account.total))} apart)`,
            );
          if (
            Number.isFinite(count) &&
            (fields[1] ?? '').trim() !== '' &&
            count !== account.records
          )
            say(
              record.line,
              `the account trailer counts ${count} records, the account has ${account.records}`,
            );
          group!.total = addCents(group!.total, stated);
          group!.accounts += 1;
          availableBalances(account, say);
          account = undefined;
          break;
        }
        case '98': {
          if (!group)
            throw new UnreadableStatement(
              'BAI2: a group trailer (98) without its group',
              record.line,
            );
          if (account) say(record.line, 'an account without its trailer (49)');
          group.records += record.records;
          const stated = amountOf((fields[0] ?? '0').trim() || '0', group.currency, record.line);
          if (stated !== group.total)
            say(
              record.line,
              `the group trailer's control total is ${formatCents(stated)}, its accounts' sum to ${formatCents(group.total)}`,
            );
          if ((fields[1] ?? '').trim() !== '' && Number(fields[1]) !== group.accounts)
            say(
              record.line,
              `the group trailer counts ${Number(fields[1])} accounts, the group has ${group.accounts}`,
            );
          if ((fields[2] ?? '').trim() !== '' && Number(fields[2]) !== group.records)
            say(
              record.line,
              `the group trailer counts ${Number(fields[2])} records, the group has ${group.records}`,
            );
          file99.total = addCents(file99.total, stated);
          file99.groups += 1;
          group = undefined;
          account = undefined;
          break;
        }
        case '99': {
          const stated = amountOf((fields[0] ?? '0').trim() || '0', 'USD', record.line);
          if (stated !== file99.total)
            say(
              record.line,
              `the file trailer's control total is ${formatCents(stated)}, its groups' sum to ${formatCents(file99.total)}`,
            );
          if ((fields[1] ?? '').trim() !== '' && Number(fields[1]) !== file99.groups)
            say(
              record.line,
              `the file trailer counts ${Number(fields[1])} groups, the file has ${file99.groups}`,
            );
          if ((fields[2] ?? '').trim() !== '' && Number(fields[2]) !== file99.records)
            say(
              record.line,
              `the file trailer counts ${Number(fields[2])} records, the file has ${file99.records}`,
            );
          ended = true;
          break;
        }
      }
    }
    if (!ended)
      say(records.at(-1)?.line ?? 1, 'the file ends without its trailer (99): it may be cut short');
    checkBalances(statements, checks, 'BAI2: ');
    return { format: 'bai2', statements, checks };
  },
};
