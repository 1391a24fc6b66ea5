import type { CalendarDay } from '../../core/calendar.js';
import {
  addCents,
  formatCents,
  InvalidAmountError,
  negateCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { decodedText } from '../common/statementText.js';
import {
  checkBalances,
  bankAmount,
  periodStart,
  dayOfYymmdd,
  entriesPeriod,
  ibanWithCurrency,
  UnreadableStatement,
  type BankStatement,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
} from '../statement.js';

/**
 * SWIFT MT940 (the customer statement) and MT942 (the interim report), as banks write them,
 * with or without SWIFT's blocks around each message (`{1:…}{2:…}{4:` … `-}`), header lines of
 * their own before a message (`0000 01INGBNL2AXXXX00001`, `ABNANL2A`, `940`), several
 * statements to a file, one after the other, ended by `-` or by the next `:20:`.
 *
 * - `:25:` the account: an IBAN (ING writes its currency after it), or the bank's number
 *   (`BLZ/account`); `:28C:` the statement's number and page; `:60F:`/`:60M:` its opening
 *   balance, `:62F:`/`:62M:` its closing, each `C` or `D` (a debit balance is negative), day,
 *   currency and amount with a decimal comma. A statement sent in pages (`60F`…`62M`, then
 *   `60M`…`62M`, …, `60M`…`62F`) is one statement: the pages must follow on, each opening what
 *   the last closed, or it is said.
 * - `:61:` an entry: value day, booking day (`MMDD`, its year the one nearest the value day),
 *   its mark — `C` money in, `D` money out, `RC` the reversal of a credit (money out), `RD` of a
 *   debit (money in) —, an optional funds code, the amount, the transaction type, the account
 *   owner's reference and after `//` the bank's; a second line of supplementary details.
 * - `:86:` what the bank tells of it, in its dialect: the German structured field (a business
 *   code, then `?00` posting text, `?20`–`?29` and `?60`–`?63` purpose, `?30`/`?31` the other
 *   party's bank and account, `?32`/`?33` its name; `>`, `<` or `~` as some banks write `?`),
 *   SEPA's `EREF+`/`SVWZ+` keywords in it; the Dutch banks' `/EREF/…/NAME/…/REMI/…`; else
 *   free text. Lines wrapped at 65 characters are joined as written.
 * - MT942: `:13D:` its time, `:90D:`/`:90C:` the count and sum of its debits and credits
 *   (checked); no balances. Its entries are booked, as SWIFT defines the message.
 * - What a file says against itself (opening and entries against closing, a page that does not
 *   follow on, a gap in statement numbers, MT942's sums) is said, never a reason to stop.
 */

export const looksLikeMt940 = (head: string) =>
  /^\s*\{1:F\d\d/.test(head) ||
  (/(^|\n)\s*:(20|25|28C?|60[FM]):/.test(head) &&
    /(^|\n):(60[FM]|61|62[FM]|13D?|34F|90[DC]):/.test(head));

interface Field {
  tag: string;
  lines: string[];
  line: number;
}

interface Message {
  fields: Field[];
  line: number;
}

/** The messages of a file: its fields, from `:20:` to `-` (or the next `:20:`). */
function messagesOf(text: string): Message[] {
  const messages: Message[] = [];
  let message: Message | undefined;
  let field: Field | undefined;
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    // SWIFT's blocks: `{1:…}{2:…}{4:` before the fields, `-}` or `-}{5:…}` after them.
    let line = raw.replace(/^\{1:[^}]*\}(\{2:[^}]*\})?(\{3:(\{[^}]*\})*\})?\{4:/, '');
    if (/^-\}/.test(line) || /^-\s*$/.test(line) || /^-XXX/.test(line)) {
      message = undefined;
      field = undefined;
      return;
    }
    line = line.replace(/^\{4:/, '');
    const tag = /^:(\d{2}[A-Z]?|NS):/.exec(line);
    if (tag) {
      if (tag[1] === '20' || message === undefined) {
        message = { fields: [], line: lineNumber };
        messages.push(message);
      }
      field = { tag: tag[1]!, lines: [line.slice(tag[0].length)], line: lineNumber };
      message.fields.push(field);
    } else if (field && message) {
      // The Sparkassen write `:` and `86:` on lines of their own: the tag is whole again.
      if (line === ':' && /^\d{2}[A-Z]?:/.test(lines[index + 1] ?? '')) return;
      const split = /^(\d{2}[A-Z]?):/.exec(line);
      if (split && lines[index - 1] === ':') {
        field = { tag: split[1]!, lines: [line.slice(split[0].length)], line: lineNumber - 1 };
        message.fields.push(field);
        return;
      }
      field.lines.push(line);
    }
  });
  return messages.filter((m) => m.fields.some((f) => f.tag !== '20'));
}

interface Balance {
  amount: Cents;
  day: CalendarDay;
  currency: string | null;
}

/**
 * A `YYMMDD` day. Banks that count interest in months of 30 days date its posting the 30th of
 * February: that is the month's last day, and said.
 */
function swiftDay(text: string, field: Field, checks: StatementCheck[]): CalendarDay | undefined {
  const day = dayOfYymmdd(text);
  if (day !== undefined) return day;
  const february = /^(\d{2})02(29|30)$/.exec(text);
  if (!february) return undefined;
  const last = dayOfYymmdd(`${february[1]}0229`) ?? dayOfYymmdd(`${february[1]}0228`)!;
  checks.push({
    line: field.line,
    message: `MT940: :${field.tag}: dates a posting ${february[2]} February, a day of 30-day interest months: read as ${last}`,
  });
  return last;
}

function balanceOf(field: Field, checks: StatementCheck[]): Balance {
  const text = field.lines.join('').trim();
  const match = /^([CD])(\d{6})([A-Z]{3})?([\d,.]+)$/.exec(text);
  const day = match ? swiftDay(match[2]!, field, checks) : undefined;
  if (!match || day === undefined)
    throw new UnreadableStatement(
      `:${field.tag}: "${text}" is not a balance (C or D, YYMMDD, currency, amount)`,
      field.line,
    );
  const cents = amountOf(match[4]!, field);
  return { amount: match[1] === 'D' ? negateCents(cents) : cents, day, currency: match[3] ?? null };
}

function amountOf(text: string, field: Field): Cents {
  try {
    return bankAmount(text.endsWith(',') ? `${text}00` : text, { decimalComma: true });
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    throw new UnreadableStatement(`:${field.tag}: ${error.message}`, field.line);
  }
}

const STATEMENT_LINE =
  /^(\d{6})(\d{4}|\s{4})?(RC|RD|EC|ED|C|D)([A-Z])?(\d[\d,]*)([A-Z][A-Z0-9]{3})?(.*)$/;

interface ParsedLine {
  valueDate: CalendarDay;
  bookingDate: CalendarDay;
  amount: Cents;
  ownerReference: string;
  bankReference: string;
  details: string;
}

/** The booking day `MMDD` in the year that puts it nearest its value day. */
function bookingDay(valueDate: CalendarDay, mmdd: string): CalendarDay | undefined {
  const year = Number(valueDate.slice(0, 4));
  const candidates = [year - 1, year, year + 1].map(
    (y) => `${y}-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`,
  );
  const distance = (day: string) => Math.abs(Date.parse(day) - Date.parse(valueDate));
  const valid = candidates.filter(
    (day) =>
      !Number.isNaN(Date.parse(day)) && day.slice(5) === `${mmdd.slice(0, 2)}-${mmdd.slice(2)}`,
  );
  return valid.sort((a, b) => distance(a) - distance(b))[0];
}

function statementLine(field: Field, checks: StatementCheck[]): ParsedLine {
  let [first = '', ...rest] = field.lines;
  let match = STATEMENT_LINE.exec(first.trim());
  // A bank that broke the line before its amount (`:61:1811261126CR` / `30,00N062NONREF`).
  if ((!match || match[5] === undefined) && rest.length > 0) {
    first = `${first.trim()}${rest[0]!.trim()}`;
    rest = rest.slice(1);
    match = STATEMENT_LINE.exec(first);
  }
  if (!match)
    throw new UnreadableStatement(`:61: "${field.lines[0]}" is not a statement line`, field.line);
  const valueDate = swiftDay(match[1]!, field, checks);
  if (valueDate === undefined)
    throw new UnreadableStatement(`:61: "${match[1]}" is not a day (YYMMDD)`, field.line);
  const mmdd = match[2]?.trim() ?? '';
  const bookingDate =
    mmdd === ''
      ? valueDate
      : (bookingDay(valueDate, mmdd) ??
        (/^02(29|30)$/.test(mmdd)
          ? swiftDay(`${valueDate.slice(2, 4)}${mmdd}`, field, checks)
          : undefined));
  if (bookingDate === undefined)
    throw new UnreadableStatement(`:61: "${mmdd}" is not a booking day (MMDD)`, field.line);
  const cents = amountOf(match[5]!, field);
  // C money in, D out; RC reverses a credit (money out), RD a debit (money in).
  const mark = match[3]!;
  const amount = mark === 'C' || mark === 'RD' || mark === 'ED' ? cents : negateCents(cents);
  const [owner = '', bank = ''] = (match[7] ?? '').split('//');
  return {
    valueDate,
    bookingDate,
    amount,
    ownerReference: owner.trim(),
    bankReference: bank.trim(),
    details: rest.join(' ').trim(),
  };
}

/** What `:86:` tells: the other party, the text, a reference. */
interface Information {
  counterparty: string | null;
  description: string;
  reference: string | null;
}

/** Continuation lines joined as the bank wrapped them: a full line of 65 goes on without a space. */
function joined(field: Field): string {
  const structured = /^\d{3}[?>~<]\d\d|^\//.test(field.lines[0]?.trim() ?? '');
  let text = '';
  field.lines.forEach((line, index) => {
    const full = (index === 0 ? line.length + field.tag.length + 2 : line.length) >= 65;
    if (index === 0) text = line;
    else text += structured || full ? line : ` ${line}`;
  });
  return text;
}

const SEPA_KEYWORDS = /(EREF|KREF|MREF|CRED|DEBT|COAM|OAMT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/g;

function germanInformation(text: string): Information {
  const separator = text.charAt(3);
  const parts = new Map<string, string[]>();
  const pattern = new RegExp(`\\${separator}(\\d\\d)`, 'g');
  const marks = [...text.matchAll(pattern)];
  marks.forEach((mark, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.index : text.length;
    const value = text.slice(mark.index + 3, end);
    const list = parts.get(mark[1]!) ?? [];
    list.push(value);
    parts.set(mark[1]!, list);
  });
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, '0'))
      .flatMap((key) => parts.get(key) ?? [])
      .join('');
  const purpose = `${range(20, 29)}${range(60, 63)}`;
  const keyed = new Map<string, string>();
  const keywords = [...purpose.matchAll(SEPA_KEYWORDS)];
  keywords.forEach((keyword, i) => {
    const end = i + 1 < keywords.length ? keywords[i + 1]!.index : purpose.length;
    keyed.set(keyword[1]!, purpose.slice(keyword.index + keyword[0].length, end).trim());
  });
  const name = `${range(32, 33)}`.trim();
  const postingText = (parts.get('00') ?? []).join('').trim();
  const description =
    keyed.get('SVWZ') ??
    (keywords.length > 0 ? purpose.slice(0, keywords[0]!.index).trim() : purpose.trim());
  const reference = keyed.get('EREF') ?? keyed.get('KREF') ?? null;
  return {
    counterparty: name || keyed.get('ABWA') || keyed.get('ABWE') || null,
    description: [postingText, description].filter(Boolean).join(': ') || purpose.trim(),
    reference: reference && !/^NOTPROVIDED$/i.test(reference) ? reference : null,
  };
}

const DUTCH_KEYS =
  /\/(EREF|MARF|CSID|CNTP|REMI|BENM|ORDP|NAME|IBAN|BIC|TRTP|RTRN|ISDT|PURP|ULTD|ULTC|ULTB|ADDR|PREF|RTYP|USTD|STRD|CUR|SVCL|CDTRREF|CDTRREFTP|CD|ISSR|ACCW|BIC|NRTX|TRCD|FX|EXCH|OCMT|CHGS)\//g;

function dutchInformation(text: string): Information {
  const values = new Map<string, string>();
  const marks = [...text.matchAll(DUTCH_KEYS)];
  marks.forEach((mark, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.index : text.length;
    if (!values.has(mark[1]!)) values.set(mark[1]!, text.slice(mark.index + mark[0].length, end));
  });
  const clean = (value: string | undefined) =>
    value
      ?.replace(/^\/+|\/+$/g, '')
      .replace(/\s+/g, ' ')
      .trim() || undefined;
  // ING writes the other party as `/CNTP/IBAN/BIC/NAME/CITY/`.
  const counterparty = clean(values.get('CNTP')?.split('/')[2]) ?? clean(values.get('NAME'));
  const remittance =
    clean(values.get('REMI')?.replace(/^(USTD|STRD\/CUR)\/\//, '')) ??
    clean(values.get('USTD')) ??
    clean(values.get('CDTRREF'));
  const reference = clean(values.get('EREF'));
  return {
    counterparty: counterparty ?? null,
    description: remittance ?? clean(values.get('TRTP')) ?? text.replace(/\s+/g, ' ').trim(),
    reference: reference && !/^NOTPROVIDED$/i.test(reference) ? reference : null,
  };
}

function informationOf(field: Field | undefined): Information {
  if (field === undefined) return { counterparty: null, description: '', reference: null };
  const text = joined(field).trim();
  if (/^\d{3}[?>~<]\d\d/.test(text)) return germanInformation(text);
  if (/^\/[A-Z]{2,}\//.test(text) && DUTCH_KEYS.test(text)) {
    DUTCH_KEYS.lastIndex = 0;
    return dutchInformation(text);
  }
  DUTCH_KEYS.lastIndex = 0;
  return { counterparty: null, description: text.replace(/\s+/g, ' '), reference: null };
}

interface Page {
  account: string | null;
  currency: string | null;
  number: string | null;
  opening: Balance | undefined;
  openingTag: string | undefined;
  closing: Balance | undefined;
  closingTag: string | undefined;
  entries: StatementEntry[];
  interim: {
    debits?: { count: number; sum: Cents };
    credits?: { count: number; sum: Cents };
    day?: CalendarDay;
  };
  line: number;
}

function pageOf(message: Message, checks: StatementCheck[]): Page {
  const page: Page = {
    account: null,
    currency: null,
    number: null,
    opening: undefined,
    openingTag: undefined,
    closing: undefined,
    closingTag: undefined,
    entries: [],
    interim: {},
    line: message.line,
  };
  const fields = message.fields;
  fields.forEach((field, index) => {
    const text = field.lines.join('').trim();
    switch (field.tag) {
      case '25': {
        const { account, currency } = ibanWithCurrency(text);
        page.account = account;
        page.currency ??= currency;
        break;
      }
      case '28':
      case '28C':
        page.number = text;
        break;
      case '60F':
      case '60M':
        page.opening = balanceOf(field, checks);
        page.openingTag = field.tag;
        page.currency ??= page.opening.currency;
        break;
      case '62F':
      case '62M':
        page.closing = balanceOf(field, checks);
        page.closingTag = field.tag;
        break;
      case '13':
      case '13D':
        page.interim.day = dayOfYymmdd(text.slice(0, 6));
        break;
      case '34F':
        if (/^[A-Z]{3}/.test(text)) page.currency ??= text.slice(0, 3);
        break;
      case '90D':
      case '90C': {
        const sum = /^(\d+)([A-Z]{3})([\d,]+)$/.exec(text);
        if (sum) {
          const figures = { count: Number(sum[1]), sum: amountOf(sum[3]!, field) };
          if (field.tag === '90D') page.interim.debits = figures;
          else page.interim.credits = figures;
          page.currency ??= sum[2]!;
        }
        break;
      }
      case '61': {
        const parsed = statementLine(field, checks);
        const next = fields[index + 1];
        const information = informationOf(next?.tag === '86' ? next : undefined);
        const reference = [parsed.bankReference, information.reference, parsed.ownerReference].find(
          (r) => r && !/^NONREF$/i.test(r),
        );
        page.entries.push({
          bookingDate: parsed.bookingDate,
          valueDate: parsed.valueDate,
          amount: parsed.amount,
          reference: reference ?? null,
          counterparty: information.counterparty,
          description: information.description || parsed.details,
          status: 'booked',
          line: field.line,
        });
        break;
      }
    }
  });
  const { debits, credits } = page.interim;
  for (const [figures, side] of [
    [debits, 'debits'],
    [credits, 'credits'],
  ] as const) {
    if (!figures) continue;
    const mine = page.entries.filter((e) => (side === 'debits' ? e.amount < 0 : e.amount > 0));
    let sum = ZERO_CENTS;
    for (const entry of mine)
      sum = addCents(sum, side === 'debits' ? negateCents(entry.amount) : entry.amount);
    if (mine.length !== figures.count || sum !== figures.sum)
      checks.push({
        line: page.line,
        message: `MT942: :90${side === 'debits' ? 'D' : 'C'}: states ${figures.count} ${side} of ${formatSum(figures.sum)}, the report holds ${mine.length} of ${formatSum(sum)}`,
      });
  }
  return page;
}

const formatSum = (cents: Cents) => formatCents(cents, { thousands: false });

export const mt940: StatementFormatDefinition = {
  name: 'mt940',
  title: 'SWIFT MT940/MT942',
  detect: looksLikeMt940,
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const text = await decodedText(file, options.encoding, checks, 'MT940');
    const messages = messagesOf(text);
    if (messages.length === 0)
      throw new UnreadableStatement('it holds no MT940 message (a :20: and the fields after it)');
    const statements: BankStatement[] = [];
    let open: { statement: BankStatement; page: Page } | undefined;
    let previousNumber: { account: string | null; number: number } | undefined;
    for (const message of messages) {
      const page = pageOf(message, checks);
      const continues =
        open !== undefined &&
        page.openingTag === '60M' &&
        open.page.closingTag === '62M' &&
        open.statement.account === page.account;
      if (continues) {
        const statement = open!.statement;
        if (page.opening && open!.page.closing && page.opening.amount !== open!.page.closing.amount)
          checks.push({
            line: page.line,
            message: `MT940: page ${page.number ?? ''} opens at ${formatSum(page.opening.amount)}, the page before closed at ${formatSum(open!.page.closing.amount)}`,
          });
        statement.entries.push(...page.entries);
        if (page.closing) {
          statement.closing = page.closing.amount;
          statement.to = page.closing.day;
        }
        open = { statement, page };
        continue;
      }
      if (open && open.page.closingTag === '62M')
        checks.push({
          line: page.line,
          message: `MT940: the statement of line ${open.statement.line} ends on an intermediate page (:62M:) and no page follows it`,
        });
      if (page.openingTag === '60M')
        checks.push({
          line: page.line,
          message: `MT940: a statement begins with an intermediate page (:60M:): its first pages are not in the file`,
        });
      const number = /^(\d+)/.exec(page.number ?? '')?.[1];
      if (number !== undefined && previousNumber && previousNumber.account === page.account) {
        const gap = Number(number) - previousNumber.number;
        if (gap > 1 && previousNumber.number > 0)
          checks.push({
            line: page.line,
            message: `MT940: statement ${Number(number)} of ${page.account ?? 'the account'} follows statement ${previousNumber.number}: ${gap - 1 === 1 ? 'one is' : `${gap - 1} are`} missing`,
          });
      }
      if (number !== undefined) previousNumber = { account: page.account, number: Number(number) };
      const ofEntries = entriesPeriod(page.entries);
      // The opening balance is stated as of a day: the day before the first entry (the last
      // statement's end), or that entry's own day where the bank dates it so.
      const from =
        page.opening === undefined
          ? (ofEntries.from ?? page.interim.day ?? null)
          : periodStart(page.opening.day, page.closing?.day, ofEntries.from);
      // Old Dutch account numbers carry the currency after them too (`1291.99.348EUR`).
      const account =
        page.account &&
        page.currency &&
        /\d[A-Z]{3}$/.test(page.account) &&
        page.account.endsWith(page.currency)
          ? page.account.slice(0, -3)
          : page.account;
      if (page.opening && page.closing && page.opening.day > page.closing.day)
        checks.push({
          line: page.line,
          message: `MT940: the closing balance is dated ${page.closing.day}, before the opening balance (${page.opening.day})`,
        });
      const statement: BankStatement = {
        account,
        currency: page.currency,
        from,
        to: page.closing?.day ?? ofEntries.to ?? page.interim.day ?? null,
        opening: page.opening?.amount ?? null,
        closing: page.closing?.amount ?? null,
        entries: page.entries,
        card: false,
        line: page.line,
      };
      statements.push(statement);
      open = { statement, page };
    }
    checkBalances(statements, checks, 'MT940: ');
    return { format: 'mt940', statements, checks };
  },
};
