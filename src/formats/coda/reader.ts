import { absCents, addCents, formatCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import type { CalendarDay } from '../../core/calendar.js';
import {
  field,
  fixedRecords,
  recordDay,
  sixDigitDay,
  textOf,
  unitsToCents,
  type FixedRecord,
} from '../common/fixedWidth.js';
import { decodedText } from '../common/statementText.js';
import {
  checkBalances,
  entriesPeriod,
  ibanOf,
  periodStart,
  UnreadableStatement,
  type BankStatement,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
} from '../statement.js';

/**
 * CODA, Febelfin's coded statement of account (version 2: the standard's 2.1 to 2.6), which
 * every Belgian bank hands out: records of 128 characters, positions as the standard gives them.
 *
 * - `0` the file's header: its day, the bank, `D` for a duplicate of a file sent before, the
 *   version (`2`) at 128. CODA 1 is refused, saying so.
 * - `1` an account's old balance: the account's structure (0 a Belgian number, 1 a foreign one,
 *   2 a Belgian IBAN, 3 a foreign IBAN) and currency, the sign (0 credit, 1 debit), 15 digits of
 *   which 3 decimals, its day (the end of the day before the statement's first).
 * - `21` a movement: its continuous sequence number and detail number, the bank's reference, the
 *   sign, the amount, the value day, the transaction code (type, family, transaction, category),
 *   the communication — structured (`101`/`102`: the Belgian `+++123/4567/89012+++`) or free,
 *   going on in `22` and `23` —, the entry day (the booking day). `22` adds the customer's
 *   reference and the counterparty's BIC; `23` the counterparty's account and name.
 * - `31`/`32`/`33` information on a movement, not booked: its text where the movement has none.
 * - `4` a free message; `8` the new balance (its sign, amount and day); `9` the trailer: the
 *   number of records (1, 2x, 3x and 8) and the sums of debit and credit movements, checked.
 *   A balance some banks date `000000` is taken as of the day the movements give (the last for
 *   the new balance, the first for the old), else the header's, said; a movement's entry day
 *   written so is its value day.
 *
 * A collective movement — a batch the bank books as one amount (type 1 or 2: totalled by the
 * customer or the bank; type 3 with its charges) — is its record of detail number 0000; its
 * details (detail numbers 0001 on, types 5 to 9) tell what it is made of and are not booked
 * again: the bank booked the batch once, and the old balance and the booked movements make the
 * new one. Several statements (a `1` … `8` each) and several files (`0` … `9`) may follow each
 * other. Where a movement has no communication, its information records' text, else its family
 * (`CODA 35: closing (interest, costs)`), is its text; the counterparty is the `23` record's name,
 * else a card payment's terminal (the shop, the cash machine).
 */

const FORMAT = 'CODA';

/** A header record (0) of 128 characters: five zeros, a day, the bank, application code 05. */
export const looksLikeCoda = (head: string) =>
  /^(?:\xef\xbb\xbf)?0{5}\d{9}05[ D][^\r\n]{111}/.test(head);

/** CODA's transaction families, for a movement that says nothing else of itself. */
const FAMILIES: Readonly<Record<string, string>> = {
  '01': 'domestic or SEPA credit transfer',
  '03': 'cheque',
  '04': 'card',
  '05': 'direct debit',
  '07': 'domestic commercial paper',
  '09': 'counter transaction',
  '11': 'securities',
  '13': 'credit',
  '30': 'various transactions',
  '35': 'closing (interest, costs)',
  '41': 'international credit transfer',
  '43': 'foreign cheque',
  '47': 'foreign commercial paper',
  '49': 'foreign counter transaction',
  '80': 'costs charged separately',
};

interface Movement {
  entry: StatementEntry;
  /** Sequence and detail number (positions 3 to 10), which its 22 and 23 records repeat. */
  key: string;
  booked: boolean;
  /** A structured communication's type (`101`), null for a free one. */
  structure: string | null;
  communication: string;
  information: string[];
  family: string;
}

interface OpenStatement {
  statement: BankStatement;
  /** Null where the bank wrote 000000. */
  openingDay: CalendarDay | null;
  /** The account as record 1 writes it (positions 6 to 42), which record 8 repeats. */
  written: string;
  movement?: Movement | undefined;
}

/** What the trailer (9) counts since the header (0). */
interface Since {
  line: number;
  /** The day the file was made (the header's), where it is one. */
  created: CalendarDay | null;
  records: number;
  debit: Cents;
  credit: Cents;
}

const record2 = (record: FixedRecord) => field(record, 1, 2);

function signOf(record: FixedRecord, at: number): boolean {
  const sign = field(record, at, at);
  if (sign !== '0' && sign !== '1')
    throw new UnreadableStatement(
      `${FORMAT}: the sign at position ${at} is "${sign}", not 0 (credit) or 1 (debit)`,
      record.line,
    );
  return sign === '1';
}

const amountAt = (record: FixedRecord, signAt: number) =>
  unitsToCents(
    field(record, signAt + 1, signAt + 15),
    3,
    signOf(record, signAt),
    FORMAT,
    record.line,
  );

/** Record 1's account: an IBAN (a Belgian number made one), else the bank's number. */
function accountOf(record: FixedRecord): { account: string | null; currency: string | null } {
  const structure = field(record, 2, 2);
  const currency = textOf(structure === '0' ? field(record, 19, 21) : field(record, 40, 42));
  if (structure === '0') {
    const number = field(record, 6, 17);
    const country = textOf(field(record, 23, 24)) ?? 'BE';
    return {
      account: /^\d{12}$/.test(number) && country === 'BE' ? ibanOf('BE', number) : textOf(number),
      currency,
    };
  }
  if (structure === '1' || structure === '3')
    return { account: textOf(field(record, 6, 39))?.replace(/\s+/g, '') ?? null, currency };
  if (structure === '2')
    return { account: textOf(field(record, 6, 21))?.replace(/\s+/g, '') ?? null, currency };
  throw new UnreadableStatement(
    `${FORMAT}: the account structure is "${structure}", not 0, 1, 2 or 3`,
    record.line,
  );
}

/** A movement's communication as its 21 record begins it (positions 62 to 115). */
function communicationOf(record: FixedRecord): { structure: string | null; text: string } {
  return field(record, 62, 62) === '1'
    ? { structure: field(record, 63, 65), text: field(record, 66, 115) }
    : { structure: null, text: field(record, 63, 115) };
}

/**
 * A structured communication in words, as the standard lays out its types: the Belgian
 * reference (101, 102), a card's terminal and place (111, 113, 114), a direct debit's own text
 * (107, 127); other types by the words in them.
 */
function structuredText(structure: string, text: string): string | null {
  const at = (from: number, to: number) => textOf(text.slice(from, to));
  const place = (name: string | null, city: string | null) =>
    name && city ? `${name}, ${city}` : (name ?? city);
  const digits = text.slice(0, 12);
  switch (structure) {
    case '101':
    case '102':
      return /^\d{12}$/.test(digits)
        ? `+++${digits.slice(0, 3)}/${digits.slice(3, 7)}/${digits.slice(7)}+++`
        : textOf(text);
    case '107':
      return at(18, 48);
    case '111':
    case '113':
    case '114': {
      const terminal = place(terminalOf(structure, text), at(...TERMINALS[structure]!.city));
      return terminal && structure === '113' && text[39] === '1'
        ? `cash withdrawal ${terminal}`
        : terminal;
    }
    case '127':
      return at(79, 141) ?? (at(44, 79) && `SEPA direct debit, mandate ${at(44, 79)}`);
    default: {
      const words = /[A-Za-z\u00c0-\u024f].*/s.exec(text);
      return words ? textOf(words[0].replace(/\d{6,}/g, ' ')) : null;
    }
  }
}

/** Where a card payment's communication (111, 113, 114) names its terminal, and the place. */
const TERMINALS: Readonly<Record<string, { name: [number, number]; city: [number, number] }>> = {
  '111': { name: [35, 51], city: [51, 61] },
  '113': { name: [40, 56], city: [56, 66] },
  '114': { name: [27, 43], city: [43, 53] },
};

/** The terminal a card paid at (the shop, the cash machine): a card payment's other party. */
function terminalOf(structure: string | null, text: string): string | null {
  const at = structure === null ? undefined : TERMINALS[structure]?.name;
  return at ? textOf(text.slice(...at)) : null;
}

/** An information record's text (31, 32, 33), without a structured communication's type. */
function informationOf(record: FixedRecord): string {
  if (record2(record) === '31')
    return field(record, 40, 40) === '1' ? field(record, 44, 113) : field(record, 41, 113);
  return record2(record) === '32' ? field(record, 11, 115) : field(record, 11, 100);
}

export const coda: StatementFormatDefinition = {
  name: 'coda',
  title: 'CODA',
  detect: looksLikeCoda,
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const say = (line: number, message: string) =>
      checks.push({ line, message: `${FORMAT}: ${message}` });
    const records = fixedRecords(
      await decodedText(file, options.encoding, checks, FORMAT, true),
      128,
      FORMAT,
      (text) => /^(0|1[0-3]|2[123]|3[123]|4|8|9)/.test(text),
    );
    const statements: BankStatement[] = [];
    let since: Since | undefined;
    let open: OpenStatement | undefined;

    const finishMovement = () => {
      const movement = open?.movement;
      if (!open || !movement) return;
      const communication =
        movement.structure === null
          ? textOf(movement.communication)
          : structuredText(movement.structure, movement.communication);
      const information = textOf(movement.information.join(' '));
      // A card payment names no party (23) but its terminal: the shop it was paid at.
      movement.entry.counterparty ??= terminalOf(movement.structure, movement.communication);
      movement.entry.description =
        communication ??
        information ??
        `CODA ${movement.family}: ${FAMILIES[movement.family] ?? 'transaction'}`;
      if (movement.booked) {
        open.statement.entries.push(movement.entry);
        if (since) {
          if (movement.entry.amount < 0)
            since.debit = addCents(since.debit, absCents(movement.entry.amount));
          else since.credit = addCents(since.credit, movement.entry.amount);
        }
      }
      open.movement = undefined;
    };
    const movementOf = (record: FixedRecord): Movement => {
      const movement = open?.movement;
      if (!movement || movement.key !== field(record, 3, 10))
        throw new UnreadableStatement(
          `${FORMAT}: a record ${record2(record)} of movement ${field(record, 3, 6)}/${field(record, 7, 10)} that does not follow its record 21`,
          record.line,
        );
      return movement;
    };

    for (const record of records) {
      const code = record.text[0]!;
      if (code !== '0' && code !== '4' && code !== '9' && since) since.records += 1;
      if (code === '0') {
        if (open)
          throw new UnreadableStatement(
            `${FORMAT}: a new header (record 0) before the new balance (record 8) of the statement at line ${open.statement.line}: the file is cut short`,
            record.line,
          );
        const version = field(record, 128, 128);
        if (version !== '2')
          throw new UnreadableStatement(
            `${FORMAT}: version ${version.trim() || '(none)'} (position 128 of the header): books reads CODA 2 (the standard's 2.1 to 2.6)`,
            record.line,
          );
        if (field(record, 17, 17) === 'D')
          say(record.line, 'the file is marked a duplicate (D) of one the bank sent before');
        since = {
          line: record.line,
          created: sixDigitDay(field(record, 6, 11), 'DMY') ?? null,
          records: 0,
          debit: ZERO_CENTS,
          credit: ZERO_CENTS,
        };
        continue;
      }
      if (!since)
        throw new UnreadableStatement(
          `${FORMAT}: a record ${code} before the file's header (record 0)`,
          record.line,
        );
      if (code === '1') {
        if (open)
          throw new UnreadableStatement(
            `${FORMAT}: an old balance (record 1) before the new balance (record 8) of the statement at line ${open.statement.line}: the file is cut short`,
            record.line,
          );
        const { account, currency } = accountOf(record);
        open = {
          statement: {
            account,
            currency,
            from: null,
            to: null,
            opening: amountAt(record, 43),
            closing: null,
            entries: [],
            card: false,
            line: record.line,
          },
          openingDay:
            field(record, 59, 64) === '000000'
              ? null
              : recordDay(field(record, 59, 64), 'DMY', 'old balance day', FORMAT, record.line),
          written: field(record, 6, 42),
        };
        continue;
      }
      if (code === '9') {
        if (open)
          throw new UnreadableStatement(
            `${FORMAT}: the trailer (record 9) before the new balance (record 8) of the statement at line ${open.statement.line}: the file is cut short`,
            record.line,
          );
        const count = Number(field(record, 17, 22));
        const debit = unitsToCents(field(record, 23, 37), 3, false, FORMAT, record.line);
        const credit = unitsToCents(field(record, 38, 52), 3, false, FORMAT, record.line);
        if (count !== since.records)
          say(
            record.line,
            `the trailer counts ${count} records, and the file has ${since.records} (records 1, 2x, 3x and 8)`,
          );
        if (debit !== since.debit || credit !== since.credit)
          say(
            record.line,
            `the trailer's sums (debit ${formatCents(debit)}, credit ${formatCents(credit)}) are not the movements' (debit ${formatCents(since.debit)}, credit ${formatCents(since.credit)})`,
          );
        since = undefined;
        continue;
      }
      if (code === '4') continue;
      if (!open)
        throw new UnreadableStatement(
          `${FORMAT}: a record ${record2(record).trim()} outside a statement (after its new balance, or before its old balance)`,
          record.line,
        );
      const kind = record2(record);
      if (kind === '21') {
        finishMovement();
        const detail = field(record, 7, 10);
        const { structure, text } = communicationOf(record);
        const valueText = field(record, 48, 53);
        const entryText = field(record, 116, 121);
        const valueDate =
          valueText === '000000'
            ? null
            : recordDay(valueText, 'DMY', 'value day', FORMAT, record.line);
        const bookingDate =
          entryText === '000000' && valueDate !== null
            ? valueDate
            : recordDay(entryText, 'DMY', 'entry day', FORMAT, record.line);
        open.movement = {
          key: field(record, 3, 10),
          booked: detail === '0000',
          structure,
          communication: text,
          information: [],
          family: field(record, 55, 56),
          entry: {
            bookingDate,
            valueDate,
            amount: amountAt(record, 32),
            reference: textOf(field(record, 11, 31)),
            counterparty: null,
            counterpartyAccount: null,
            description: '',
            status: 'booked',
            line: record.line,
          },
        };
      } else if (kind === '22') {
        movementOf(record).communication += field(record, 11, 63);
      } else if (kind === '23') {
        const movement = movementOf(record);
        movement.entry.counterparty = textOf(field(record, 48, 82));
        // Its account (an IBAN, a Belgian or a foreign number); zeros where the bank has none.
        const account = textOf(field(record, 11, 44))?.replace(/\s+/g, '') ?? null;
        movement.entry.counterpartyAccount = account && /[1-9A-Z]/.test(account) ? account : null;
        movement.communication += field(record, 83, 125);
      } else if (kind === '31' || kind === '32' || kind === '33') {
        // Information on the movement of its sequence number (its detail number is its own).
        const movement = open.movement;
        if (movement && movement.key.slice(0, 4) === field(record, 3, 6))
          movement.information.push(informationOf(record));
      } else if (code === '8') {
        finishMovement();
        const { statement, openingDay } = open;
        statement.closing = amountAt(record, 42);
        // Some banks date a balance 000000: the day the movements give, else the file's, said.
        const ofEntries = entriesPeriod(statement.entries);
        const known = ofEntries.to ?? since.created;
        let closingDay: CalendarDay;
        if (field(record, 58, 63) === '000000' && known !== null) {
          closingDay = known;
          say(
            record.line,
            `the new balance (record 8) is dated 000000: taken as of ${closingDay}, ${ofEntries.to ? "the day of the statement's last movement" : "the day the file was made (its header's)"}`,
          );
        } else
          closingDay = recordDay(
            field(record, 58, 63),
            'DMY',
            'new balance day',
            FORMAT,
            record.line,
          );
        if (openingDay === null) {
          statement.from = ofEntries.from ?? closingDay;
          say(
            statement.line,
            `the old balance (record 1) is dated 000000: the statement taken to begin on ${statement.from}, ${ofEntries.from ? 'the day of its first movement' : 'the day of its new balance'}`,
          );
        } else statement.from = periodStart(openingDay, closingDay, ofEntries.from);
        statement.to = closingDay;
        if (textOf(field(record, 5, 41)) !== textOf(open.written))
          say(
            record.line,
            `the new balance (record 8) names the account "${textOf(field(record, 5, 41))}", the old balance (record 1) "${textOf(open.written)}"`,
          );
        statements.push(statement);
        open = undefined;
      } else
        throw new UnreadableStatement(
          `${FORMAT}: "${record.text.slice(0, 2).trim()}" is not a CODA record (0, 1, 21–23, 31–33, 4, 8, 9)`,
          record.line,
        );
    }
    if (open)
      throw new UnreadableStatement(
        `${FORMAT}: the statement at line ${open.statement.line} has no new balance (record 8): the file is cut short`,
        open.statement.line,
      );
    if (since) say(since.line, 'the file has no trailer (record 9): its sums were not checked');
    if (statements.length === 0)
      throw new UnreadableStatement(`${FORMAT}: the file holds no statement (record 1)`, 1);
    checkBalances(statements, checks, `${FORMAT}: `);
    return { format: 'coda', statements, checks };
  },
};
