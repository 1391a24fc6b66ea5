import type { CalendarDay } from '../../core/calendar.js';
import type { Cents } from '../../core/money.js';
import {
  field,
  fixedRecords,
  recordDay,
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
 * CFONB 120, the French banks' account statement of 120 characters (the CFONB's «relevé de
 * compte», with its 2010 enrichment for SEPA transfers and direct debits).
 *
 * - `01` the old balance and `07` the new one: bank, branch, currency, the number of decimals of
 *   the amounts, the account number, the balance's day (`DDMMYY`) and amount. Each `01` … `07`
 *   is a statement (a bank writes one a day, and one file holds several days and accounts).
 * - `04` a movement: the interbank operation code, the booking day, a reject's reason, the value
 *   day, its label (31 characters), the entry number, the amount, a reference.
 * - `05` complements of the movement before it, joined to it: since 2010 a qualifier and 70
 *   characters — `LIB`, `LCC` text (`LC2` running `LCC` on; a text said twice said once);
 *   `NPY` the payer and `NBE` the beneficiary (the counterparty: the payer of money in, the
 *   beneficiary of money out; `CPY` and `CBE` their accounts); `REF` the remittance's and the
 *   transaction's references; `RCN` the end-to-end reference; `MMO` the original amount;
 *   identifiers and other references are not the text; a complement of another qualifier, or
 *   without one (text from position 41, as before 2010), is text.
 *
 * Amounts are 13 digits and a last character that carries the last digit and the sign: `{` and
 * `A`–`I` are 0 to 9 positive, `}` and `J`–`R` 0 to 9 negative (money out). The account is made
 * an IBAN (FR, its RIB key computed from bank, branch and account). A transaction's reference
 * (`REF`) or the movement's is the entry's where no other entry has it.
 */

const FORMAT = 'CFONB 120';

/** A record (`01` an old balance, most often): bank, four, branch, a currency, its decimals. */
export const looksLikeCfonb120 = (head: string) =>
  /^(?:\xef\xbb\xbf)?(?:[ \t]*\r?\n)*0[1457]\d{5}.{4}\d{5}[A-Z]{3}[0-3 ]/.test(head);

/** Qualifiers of identifiers, references and amounts: not the movement's text. */
const CODED = new Set(['IPY', 'IBE', 'NPO', 'IPO', 'NBU', 'IBU', 'LCS', 'RCN', 'MMO', 'RUM']);

const POSITIVE = '{ABCDEFGHI';
const NEGATIVE = '}JKLMNOPQR';

/** An amount of positions 91 to 104, with the decimals its record gives (position 20). */
function amountOf(record: FixedRecord): Cents {
  const text = field(record, 91, 104);
  const last = text[13]!;
  const positive = POSITIVE.indexOf(last);
  const negative = NEGATIVE.indexOf(last);
  if (positive < 0 && negative < 0)
    throw new UnreadableStatement(
      `${FORMAT}: the amount "${text.trim()}" does not end in its sign (${POSITIVE} for money in, ${NEGATIVE} for money out)`,
      record.line,
    );
  const decimals = field(record, 20, 20);
  if (!/^[0-3]$/.test(decimals))
    throw new UnreadableStatement(
      `${FORMAT}: the number of decimals (position 20) is "${decimals}", not 0 to 3`,
      record.line,
    );
  const digit = positive >= 0 ? positive : negative;
  return unitsToCents(
    `${text.slice(0, 13).replace(/ /g, '0')}${digit}`,
    Number(decimals),
    negative >= 0,
    FORMAT,
    record.line,
  );
}

/** A letter of a French account number as the RIB key counts it (A and J 1, B, K and S 2, …). */
const ribDigit = (character: string) =>
  /\d/.test(character)
    ? character
    : String(
        (('ABCDEFGHIJKLMNOPQRSTUVWXYZ'.indexOf(character) + (character >= 'S' ? 1 : 0)) % 9) + 1,
      );

/** The account's IBAN: bank, branch, account and the RIB key (97 less 89·b + 15·g + 3·a mod 97). */
function ibanOfRib(bank: string, branch: string, account: string): string | null {
  if (!/^\d{5}$/.test(bank) || !/^\d{5}$/.test(branch) || !/^[0-9A-Z]{11}$/.test(account))
    return null;
  const digits = [...account].map(ribDigit).join('');
  const key = 97 - ((89 * Number(bank) + 15 * Number(branch) + 3 * Number(digits)) % 97);
  return ibanOf('FR', `${bank}${branch}${account}${String(key).padStart(2, '0')}`);
}

/**
 * The account a record is of (positions 22 to 32): its movements' bank code may be another
 * bank's (the one the operation came through), and banks write their own in a new balance.
 */
const accountKey = (record: FixedRecord) => field(record, 22, 32);

interface Movement {
  entry: StatementEntry;
  text: string[];
  /** Where in `text` the last `LCC` is, which an `LC2` runs on. */
  clientText?: number | undefined;
  payer: string | null;
  beneficiary: string | null;
  /** The payer's account (`CPY`) and the beneficiary's (`CBE`). */
  payerAccount: string | null;
  beneficiaryAccount: string | null;
  transactionReference: string | null;
}

/**
 * A movement's texts, each once: banks write the client's text in `LIB` and again in `LCC` (and
 * `LIB` cut at its 70 characters where `LCC` runs on in `LC2`), so a text another holds from its
 * start — whole words, or all of a full field — is left out.
 */
function distinctTexts(texts: readonly string[]): string[] {
  const written = texts.map((text) => textOf(text)).filter((text): text is string => !!text);
  const within = (text: string, other: string) =>
    other.startsWith(text) &&
    other.length > text.length &&
    (other[text.length] === ' ' || text.length >= 70);
  return written.filter(
    (text, index) =>
      !written.some((other, at) => within(text, other) || (other === text && at < index)),
  );
}

interface OpenStatement {
  statement: BankStatement;
  openingDay: CalendarDay;
  account: string;
  movement?: Movement | undefined;
}

export const cfonb120: StatementFormatDefinition = {
  name: 'cfonb120',
  title: 'CFONB 120',
  detect: looksLikeCfonb120,
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const say = (line: number, message: string) =>
      checks.push({ line, message: `${FORMAT}: ${message}` });
    const records = fixedRecords(
      await decodedText(file, options.encoding, checks, FORMAT, true),
      120,
      FORMAT,
      (text) => /^0[1457]/.test(text),
    );
    const statements: BankStatement[] = [];
    let open: OpenStatement | undefined;

    const finishMovement = () => {
      const movement = open?.movement;
      if (!open || !movement) return;
      const { entry } = movement;
      entry.counterparty = entry.amount < 0 ? movement.beneficiary : movement.payer;
      entry.counterpartyAccount =
        entry.amount < 0 ? movement.beneficiaryAccount : movement.payerAccount;
      entry.reference = movement.transactionReference ?? entry.reference;
      entry.description = textOf(distinctTexts(movement.text).join(' ')) ?? '';
      open.statement.entries.push(entry);
      open.movement = undefined;
    };

    for (const record of records) {
      const code = field(record, 1, 2);
      if (code === '01') {
        if (open)
          throw new UnreadableStatement(
            `${FORMAT}: an old balance (01) before the new balance (07) of the statement at line ${open.statement.line}: the file is cut short`,
            record.line,
          );
        open = {
          statement: {
            account:
              ibanOfRib(field(record, 3, 7), field(record, 12, 16), field(record, 22, 32)) ??
              textOf(`${field(record, 3, 7)} ${field(record, 12, 16)} ${accountKey(record)}`),
            currency: textOf(field(record, 17, 19)),
            from: null,
            to: null,
            opening: amountOf(record),
            closing: null,
            entries: [],
            card: false,
            line: record.line,
          },
          openingDay: recordDay(
            field(record, 35, 40),
            'DMY',
            'old balance day',
            FORMAT,
            record.line,
          ),
          account: accountKey(record),
        };
        continue;
      }
      if (!open)
        throw new UnreadableStatement(
          code === '04' || code === '05' || code === '07'
            ? `${FORMAT}: a record ${code} outside a statement (before its old balance, 01, or after its new balance, 07)`
            : `${FORMAT}: "${code}" is not a CFONB 120 statement record (01, 04, 05, 07)`,
          record.line,
        );
      if (accountKey(record) !== open.account)
        throw new UnreadableStatement(
          `${FORMAT}: a record ${code} of the account ${accountKey(record)} inside the statement of ${open.account} (line ${open.statement.line})`,
          record.line,
        );
      if (code === '04') {
        finishMovement();
        const valueText = field(record, 43, 48);
        open.movement = {
          text: [field(record, 49, 79)],
          payer: null,
          beneficiary: null,
          payerAccount: null,
          beneficiaryAccount: null,
          transactionReference: null,
          entry: {
            bookingDate: recordDay(
              field(record, 35, 40),
              'DMY',
              'booking day',
              FORMAT,
              record.line,
            ),
            valueDate:
              valueText.trim() === '' || valueText === '000000'
                ? null
                : recordDay(valueText, 'DMY', 'value day', FORMAT, record.line),
            amount: amountOf(record),
            reference: textOf(field(record, 105, 120)),
            counterparty: null,
            description: '',
            status: 'booked',
            line: record.line,
          },
        };
      } else if (code === '05') {
        const movement = open.movement;
        if (!movement)
          throw new UnreadableStatement(
            `${FORMAT}: a complement (05) that follows no movement (04)`,
            record.line,
          );
        const qualifier = field(record, 46, 48);
        const information = field(record, 49, 118);
        // Before 2010 a complement was text from position 41, where a qualifier now follows
        // five blanks.
        if (field(record, 41, 45).trim() !== '' || !/^[A-Z0-9]{3}$/.test(qualifier))
          movement.text.push(field(record, 41, 118));
        else if (qualifier === 'NPY') movement.payer = textOf(information);
        else if (qualifier === 'NBE') movement.beneficiary = textOf(information);
        else if (qualifier === 'CPY') movement.payerAccount = textOf(field(record, 49, 83));
        else if (qualifier === 'CBE') movement.beneficiaryAccount = textOf(field(record, 49, 83));
        else if (qualifier === 'REF')
          movement.transactionReference = textOf(field(record, 84, 118));
        else if (qualifier === 'LC2' && movement.clientText !== undefined)
          movement.text[movement.clientText] += information;
        else if (qualifier === 'LCC') movement.clientText = movement.text.push(information) - 1;
        else if (!CODED.has(qualifier)) movement.text.push(information);
      } else if (code === '07') {
        finishMovement();
        const { statement, openingDay } = open;
        statement.closing = amountOf(record);
        const closingDay = recordDay(
          field(record, 35, 40),
          'DMY',
          'new balance day',
          FORMAT,
          record.line,
        );
        statement.from = periodStart(openingDay, closingDay, entriesPeriod(statement.entries).from);
        statement.to = closingDay;
        if (textOf(field(record, 17, 19)) !== statement.currency)
          say(
            record.line,
            `the new balance is in ${field(record, 17, 19)}, the old one in ${statement.currency ?? '(none)'}`,
          );
        statements.push(statement);
        open = undefined;
      } else
        throw new UnreadableStatement(
          `${FORMAT}: "${code}" is not a CFONB 120 statement record (01, 04, 05, 07)`,
          record.line,
        );
    }
    if (open)
      throw new UnreadableStatement(
        `${FORMAT}: the statement at line ${open.statement.line} has no new balance (07): the file is cut short`,
        open.statement.line,
      );
    checkBalances(statements, checks, `${FORMAT}: `);
    return { format: 'cfonb120', statements, checks };
  },
};
