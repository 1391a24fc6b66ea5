import { isCalendarDay, type CalendarDay } from '../../core/calendar.js';
import { InvalidAmountError, parseAmountText, type Cents } from '../../core/money.js';
import { nameKey } from '../../core/names.js';
import { decodedText } from '../common/statementText.js';
import {
  checkBalances,
  entriesPeriod,
  UnreadableStatement,
  type BankStatement,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
  type StatementReadOptions,
} from '../statement.js';

/**
 * QIF, the Quicken Interchange Format banks still offer for download: registers of bank, cash
 * and card accounts (`!Type:Bank`, `!Type:Cash`, `!Type:CCard`, `!Type:Oth A`, `!Type:Oth L`),
 * each record its lines of one letter and a value, ended by `^`.
 *
 * - An account is named by the `!Account` block before its register (`N` its name, `$` the
 *   statement balance and `/` its day, taken as the closing balance); with `!Option:AutoSwitch`
 *   the blocks up to `!Clear:AutoSwitch` only list accounts. A file of one register without
 *   `!Account` is one statement of an account it does not name.
 * - A record is an entry: `D` its day, `T` (or `U`) its amount, signed as money in or out, `P`
 *   the payee, `M` the memo, `N` the number (a cheque's, or the bank's reference). Quicken's
 *   first record `Opening Balance` with the account itself as category (`L[Checking]`) is the
 *   opening balance, not an entry.
 * - Days as Quicken and the banks write them: `M/D/YY`, `M/D'YY` (an apostrophe before the years
 *   2000 and later), three digits counting the years since 1900 (`03/25/099`, `01/01/100`, as
 *   older Quicken wrote them), `MM/DD/YYYY`, `DD/MM/YYYY`, `DD.MM.YYYY`, `YYYY-MM-DD`, spaces
 *   inside (`1/ 5/98`, `1/ 5'04`). Whether the day or the month comes first is told by the file's days (one day
 *   past 12 settles it); else `--date-format`, else month first, as Quicken writes it, and said.
 * - Investment registers (`!Type:Invst`) and lists (categories, classes, memorized
 *   transactions, securities, prices) are not statements: left out, said.
 */

export const looksLikeQif = (head: string) =>
  /^(\xef\xbb\xbf)?\s*(#[^\n]*\n\s*)*!(Type|Account|Option|Clear)\b/i.test(head);

const REGISTERS = /^!Type:(Bank|Cash|CCard|Oth A|Oth L)\s*$/i;

interface RecordLines {
  line: number;
  fields: [string, string][];
}

interface Register {
  account: string | null;
  card: boolean;
  closing: { amount: string; day: string } | undefined;
  records: RecordLines[];
  line: number;
}

interface QifDay {
  text: string;
  line: number;
}

/** The parts of a written day: `[a, b, year]`, the year's century settled. */
function partsOf(text: string): { a: number; b: number; year: number; iso?: boolean } | undefined {
  const trimmed = text.replace(/\s+/g, '');
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  if (iso) return { a: Number(iso[2]), b: Number(iso[3]), year: Number(iso[1]), iso: true };
  const match = /^(\d{1,2})[/.-](\d{1,2})(?:([/.-])|('))(\d{2,4})$/.exec(trimmed);
  if (!match) return undefined;
  let year = Number(match[5]);
  // Two digits: an apostrophe marks the 2000s (`1/ 5'04`), else a window at 1970; three digits
  // count the years since 1900, as older Quicken writes them (`03/25/099` is 1999, `01/01/100`
  // is 2000).
  if (match[5]!.length === 2) year += match[4] === "'" ? 2000 : year >= 70 ? 1900 : 2000;
  else if (match[5]!.length === 3) year += 1900;
  return { a: Number(match[1]), b: Number(match[2]), year };
}

type DayOrder = 'MDY' | 'DMY';

/** The order of the file's days: told by a part past 12, else given, else Quicken's month first. */
function dayOrderOf(
  days: readonly QifDay[],
  options: StatementReadOptions,
  checks: StatementCheck[],
): DayOrder {
  if (options.dateFormat === 'DD/MM/YYYY') return 'DMY';
  if (options.dateFormat === 'MM/DD/YYYY') return 'MDY';
  let dayFirst = false;
  let monthFirst = false;
  let dotted = false;
  for (const day of days) {
    const parts = partsOf(day.text);
    if (!parts || parts.iso) continue;
    if (parts.a > 12) dayFirst = true;
    if (parts.b > 12) monthFirst = true;
    if (day.text.includes('.')) dotted = true;
  }
  if (dayFirst && monthFirst)
    throw new UnreadableStatement('QIF: some days are written day first and others month first');
  if (dayFirst || dotted) return 'DMY';
  if (monthFirst) return 'MDY';
  // Settled by the person for files that do not tell (books config set date-format).
  if (options.usualDateFormat === 'DD/MM/YYYY') return 'DMY';
  if (options.usualDateFormat === 'MM/DD/YYYY') return 'MDY';
  if (days.some((d) => !partsOf(d.text)?.iso))
    checks.push({
      line: days[0]?.line ?? 1,
      message:
        'QIF: no day in the file tells whether the month or the day comes first: read month first, as Quicken writes them (--date-format DD/MM/YYYY for the other)',
    });
  return 'MDY';
}

function dayOf(day: QifDay, order: DayOrder): CalendarDay {
  const parts = partsOf(day.text);
  const [month, date] = parts?.iso
    ? [parts.a, parts.b]
    : order === 'MDY'
      ? [parts?.a, parts?.b]
      : [parts?.b, parts?.a];
  const iso =
    parts &&
    `${String(parts.year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
  if (!iso || !isCalendarDay(iso))
    throw new UnreadableStatement(`QIF: "${day.text}" is not a day`, day.line);
  return iso;
}

function amountOf(text: string, line: number, options: StatementReadOptions): Cents {
  try {
    const cents = parseAmountText(text.trim(), { decimalComma: options.decimalComma ?? false });
    if (cents === null) throw new InvalidAmountError('is empty');
    return cents;
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    throw new UnreadableStatement(
      `QIF: the amount ${error.message.startsWith('"') ? error.message : `"${text}" ${error.message}`}`,
      line,
    );
  }
}

export const qif: StatementFormatDefinition = {
  name: 'qif',
  title: 'QIF',
  detect: looksLikeQif,
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const text = await decodedText(file, options.encoding, checks, 'QIF');
    const registers: Register[] = [];
    let section: 'register' | 'account' | 'other' = 'other';
    let autoSwitch = false;
    let account: { name: string | null; closing?: { amount: string; day: string } } = {
      name: null,
    };
    let pendingAccount:
      | {
          name: string | null;
          closing?: { amount: string; day: string };
          fields: [string, string][];
        }
      | undefined;
    let register: Register | undefined;
    let record: RecordLines | undefined;
    const leftOut = new Set<string>();
    text.split(/\r\n|\r|\n/).forEach((raw, index) => {
      const line = index + 1;
      const content = raw.trimEnd();
      // Blank lines, and the comments some exporters write before the data.
      if (content.trim() === '' || (content.startsWith('#') && register === undefined)) return;
      if (content.startsWith('!')) {
        const header = content.trim();
        if (/^!Option:AutoSwitch/i.test(header)) autoSwitch = true;
        else if (/^!Clear:AutoSwitch/i.test(header)) autoSwitch = false;
        else if (/^!Account/i.test(header)) {
          section = 'account';
          pendingAccount = { name: null, fields: [] };
        } else if (REGISTERS.test(header)) {
          section = 'register';
          register = {
            account: account.name,
            card: /CCard|Oth L/i.test(header),
            closing: account.closing,
            records: [],
            line,
          };
          registers.push(register);
        } else {
          section = 'other';
          leftOut.add(header);
        }
        record = undefined;
        return;
      }
      const code = content.charAt(0);
      const value = content.slice(1);
      if (section === 'account') {
        if (code === '^') {
          if (pendingAccount && !autoSwitch) {
            const fields = new Map(pendingAccount.fields);
            account = {
              name: fields.get('N')?.trim() ?? null,
              ...(fields.has('$') && {
                closing: { amount: fields.get('$')!, day: fields.get('/') ?? '' },
              }),
            };
          }
          pendingAccount = { name: null, fields: [] };
        } else pendingAccount?.fields.push([code, value]);
        return;
      }
      if (section !== 'register' || !register) {
        if (section === 'other') return;
        throw new UnreadableStatement(
          `QIF: "${content.slice(0, 40)}" comes before any !Type: header`,
          line,
        );
      }
      if (code === '^') {
        if (record) register.records.push(record);
        record = undefined;
        return;
      }
      record ??= { line, fields: [] };
      record.fields.push([code, value]);
    });
    if (record !== undefined)
      checks.push({
        line: record.line,
        message: 'QIF: the last record has no ^ after it: read as if it had',
      });
    if (record && register) register.records.push(record);
    for (const header of leftOut)
      checks.push({
        line: 1,
        message: `QIF: ${header} is not a register of a bank, cash or card account: left out`,
      });
    if (registers.length === 0)
      throw new UnreadableStatement(
        'QIF: the file holds no register of a bank, cash or card account (!Type:Bank, !Type:CCard, …)',
      );

    const days: QifDay[] = registers.flatMap((r) =>
      r.records.flatMap((rec) =>
        rec.fields.filter(([c]) => c === 'D').map(([, v]) => ({ text: v.trim(), line: rec.line })),
      ),
    );
    const order = dayOrderOf(days, options, checks);
    const statements = registers.map((r) => statementOf(r, order, options));
    checkBalances(statements, checks, 'QIF: ');
    return { format: 'qif', statements, checks };
  },
};

function statementOf(
  register: Register,
  order: DayOrder,
  options: StatementReadOptions,
): BankStatement {
  const entries: StatementEntry[] = [];
  let opening: Cents | null = null;
  let openingDay: CalendarDay | null = null;
  register.records.forEach((record, index) => {
    const fields = new Map<string, string>();
    for (const [code, value] of record.fields) if (!fields.has(code)) fields.set(code, value);
    const dayText = fields.get('D');
    if (dayText === undefined)
      throw new UnreadableStatement('QIF: a record has no day (D)', record.line);
    const amountText = fields.get('T') ?? fields.get('U');
    if (amountText === undefined)
      throw new UnreadableStatement('QIF: a record has no amount (T)', record.line);
    const bookingDate = dayOf({ text: dayText.trim(), line: record.line }, order);
    const amount = amountOf(amountText, record.line, options);
    const payee = fields.get('P')?.trim() ?? '';
    const category = fields.get('L')?.trim() ?? '';
    const own = /^\[(.*)\]$/.exec(category)?.[1];
    if (
      index === 0 &&
      nameKey(payee) === 'opening balance' &&
      (own === undefined || register.account === null || nameKey(own) === nameKey(register.account))
    ) {
      opening = amount;
      openingDay = bookingDate;
      return;
    }
    const memo = fields.get('M')?.trim() ?? '';
    const number = fields.get('N')?.trim();
    entries.push({
      bookingDate,
      valueDate: null,
      amount,
      reference: number || null,
      counterparty: payee || null,
      description: memo || payee,
      status: 'booked',
      line: record.line,
    });
  });
  const period = entriesPeriod(entries);
  let closing: Cents | null = null;
  let closingDay: CalendarDay | null = null;
  if (register.closing) {
    closing = amountOf(register.closing.amount, register.line, options);
    const day = register.closing.day.trim();
    if (day !== '') closingDay = dayOf({ text: day, line: register.line }, order);
  }
  return {
    account: options.account ?? register.account,
    currency: options.currency ?? null,
    from: openingDay ?? period.from,
    to: closingDay ?? period.to,
    opening,
    closing,
    entries,
    card: register.card,
    line: register.line,
  };
}
