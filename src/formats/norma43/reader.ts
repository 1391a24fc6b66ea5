import { addCents, formatCents, negateCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { currencyOfNumber } from '../common/currencyNumbers.js';
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
  ibanOf,
  UnreadableStatement,
  type BankStatement,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
} from '../statement.js';

/**
 * Norma 43 (the Spanish banks' Cuaderno 43, «Información normalizada de cuenta corriente», AEB,
 * CECA and UNACC, June 2012 with its SEPA annex): records of 80 characters.
 *
 * - `11` an account's header: bank, branch and account number (the IBAN is made of them, its
 *   control digits computed), the period's first and last day (`YYMMDD`), the opening balance's
 *   key (1 debit, 2 credit) and amount (two decimals), the currency by its ISO 4217 number, the
 *   modality (1, 2, 3) and the holder's short name.
 * - `22` a movement: the branch, the operation day (booked) and value day, the common concept
 *   (Annex 2: 01 cheques … 99 various) and the bank's own, the key (1 debit, 2 credit), the
 *   amount, the document number and two references.
 * - `23` up to five records of concept (`01` to `05`), two fields of 38 each, which banks run
 *   on from one into the other (read as one text); in the SEPA form
 *   (Annex 4, modality 3) a credit transfer's `01` names the payer in its first 66 characters
 *   and a direct debit's (`CORE`/`B2B`) the creditor after its scheme: that name is the
 *   counterparty. Their text is the movement's.
 * - `24` the movement's amount in the currency it was made in: said in its text.
 * - `33` the account's end: the number and sum of debits and of credits, and the closing
 *   balance (a balance whose key is neither 1 nor 2 is not taken, said), checked; `88` the file's end, its count of records checked.
 *
 * Several accounts follow each other, each its statement. A movement's references are the
 * client's, not unique to it: the bank gives none, so what is brought in is keyed by day, amount
 * and text.
 */

const FORMAT = 'Norma 43';

/** An account header (`11`): bank, branch and account digits, two days, key, amount, currency. */
export const looksLikeNorma43 = (head: string) =>
  /^(?:\xef\xbb\xbf)?11\d{30}[12]\d{14}\d{3}[123 ]/.test(head);

/** Annex 2's common concepts, the text of a movement that has no other. */
const COMMON_CONCEPTS: Readonly<Record<string, string>> = {
  '01': 'cheques, withdrawals',
  '02': 'deposits, payments in',
  '03': 'direct debits, bills, payments on your account',
  '04': 'transfers',
  '05': 'loan and credit repayments',
  '06': 'bill remittances',
  '07': 'subscriptions, dividends, exchanges',
  '08': 'dividends, coupons, repayments',
  '09': 'stock exchange, securities',
  '10': 'fuel cheques',
  '11': 'cash machine',
  '12': 'credit and debit cards',
  '13': 'foreign operations',
  '14': 'returns and unpaid items',
  '15': 'payroll, social security',
  '16': 'stamps, brokerage',
  '17': 'interest, fees, custody, charges and taxes',
  '98': 'cancellations, corrections',
  '99': 'various',
};

interface Movement {
  entry: StatementEntry;
  common: string;
  concepts: FixedRecord[];
  original?: string;
}

interface OpenAccount {
  statement: BankStatement;
  /** Bank, branch and account as the header writes them (positions 3 to 20). */
  written: string;
  modality: string;
  movement?: Movement | undefined;
  debits: { count: number; sum: Cents };
  credits: { count: number; sum: Cents };
}

/** The key of a balance or movement: 1 debit, 2 credit. */
function debitKey(record: FixedRecord, at: number): boolean {
  const key = field(record, at, at);
  if (key !== '1' && key !== '2')
    throw new UnreadableStatement(
      `${FORMAT}: the key at position ${at} is "${key}", not 1 (debit) or 2 (credit)`,
      record.line,
    );
  return key === '1';
}

/**
 * A balance: its key (1 debit, 2 credit) at `keyAt`, its amount after it. A key that is neither
 * leaves the balance untaken, said, rather than guessed: its sign is what a reconciliation
 * stands on, and the movements (whose keys are checked) are read all the same.
 */
function balanceAt(
  record: FixedRecord,
  keyAt: number,
  which: 'opening' | 'closing',
  say: (line: number, message: string) => void,
): Cents | null {
  const key = field(record, keyAt, keyAt);
  if (key === '1' || key === '2') return amount(record, keyAt + 1, key === '1');
  say(
    record.line,
    `the ${which} balance's key (position ${keyAt}) is "${key}", not 1 (debit) or 2 (credit): the balance is not taken`,
  );
  return null;
}

const amount = (record: FixedRecord, from: number, negative: boolean) =>
  unitsToCents(field(record, from, from + 13), 2, negative, FORMAT, record.line);

/**
 * The Spanish account code's control digits (CCC: bank, branch, two digits, account): each of
 * `00`+bank+branch and the account weighted 1, 2, 4, 8, 5, 10, 9, 7, 3, 6; 11 less the sum's
 * remainder by 11 (11 is 0, 10 is 1).
 */
function cccDigit(digits: string): string {
  const weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
  const sum = [...digits].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0);
  const digit = 11 - (sum % 11);
  return String(digit === 11 ? 0 : digit === 10 ? 1 : digit);
}

/** The account's IBAN, from the bank, branch and account of its header. */
function ibanOfAccount(bank: string, branch: string, account: string): string | null {
  if (!/^\d{4}$/.test(bank) || !/^\d{4}$/.test(branch) || !/^\d{10}$/.test(account)) return null;
  const control = `${cccDigit(`00${bank}${branch}`)}${cccDigit(account)}`;
  return ibanOf('ES', `${bank}${branch}${control}${account}`);
}

/** A movement's counterparty in the SEPA form of its first concept record (Annex 4). */
function sepaParty(movement: Movement, modality: string): string | null {
  const first = movement.concepts.find((record) => field(record, 3, 4) === '01');
  if (!first || modality !== '3') return null;
  const scheme = field(first, 5, 8);
  if (scheme === 'CORE' || scheme === 'B2B ') return textOf(field(first, 9, 78));
  return movement.common === '04' ? textOf(field(first, 5, 70)) : null;
}

export const norma43: StatementFormatDefinition = {
  name: 'norma43',
  title: 'Norma 43',
  detect: looksLikeNorma43,
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const say = (line: number, message: string) =>
      checks.push({ line, message: `${FORMAT}: ${message}` });
    const records = fixedRecords(
      await decodedText(file, options.encoding, checks, FORMAT, true),
      80,
      FORMAT,
      (text) => /^(11|22|23|24|33|88)/.test(text),
    );
    const statements: BankStatement[] = [];
    let open: OpenAccount | undefined;
    let ended = false;

    const finishMovement = () => {
      const movement = open?.movement;
      if (!open || !movement) return;
      // Banks run a text on from the first field into the second: the two are read as one.
      const text = textOf(movement.concepts.map((record) => field(record, 5, 80)).join(' '));
      movement.entry.counterparty = sepaParty(movement, open.modality);
      movement.entry.description = [
        text ?? COMMON_CONCEPTS[movement.common] ?? `concept ${movement.common}`,
        movement.original,
      ]
        .filter(Boolean)
        .join(' ');
      open.statement.entries.push(movement.entry);
      open.movement = undefined;
    };

    for (const [index, record] of records.entries()) {
      const code = field(record, 1, 2);
      if (ended)
        throw new UnreadableStatement(
          `${FORMAT}: a record ${code} after the file's end (88)`,
          record.line,
        );
      if (code === '11') {
        if (open)
          throw new UnreadableStatement(
            `${FORMAT}: an account header (11) before the end (33) of the account at line ${open.statement.line}: the file is cut short`,
            record.line,
          );
        const number = field(record, 48, 50);
        const currency = currencyOfNumber(number) ?? null;
        if (currency === null)
          say(record.line, `the currency number ${number} is not an ISO 4217 currency books knows`);
        const bank = field(record, 3, 6);
        const branch = field(record, 7, 10);
        const account = field(record, 11, 20);
        open = {
          statement: {
            account: ibanOfAccount(bank, branch, account) ?? textOf(`${bank}${branch}${account}`),
            currency,
            from: recordDay(field(record, 21, 26), 'YMD', 'first day', FORMAT, record.line),
            to: recordDay(field(record, 27, 32), 'YMD', 'last day', FORMAT, record.line),
            opening: balanceAt(record, 33, 'opening', say),
            closing: null,
            entries: [],
            card: false,
            line: record.line,
          },
          written: field(record, 3, 20),
          modality: field(record, 51, 51),
          debits: { count: 0, sum: ZERO_CENTS },
          credits: { count: 0, sum: ZERO_CENTS },
        };
        continue;
      }
      if (code === '88') {
        if (open)
          throw new UnreadableStatement(
            `${FORMAT}: the file's end (88) before the end (33) of the account at line ${open.statement.line}: the file is cut short`,
            record.line,
          );
        const count = Number(field(record, 21, 26));
        if (count !== index)
          say(
            record.line,
            `the file's end counts ${count} records, and the file has ${index} before it`,
          );
        ended = true;
        continue;
      }
      if (!open)
        throw new UnreadableStatement(
          code === '22' || code === '23' || code === '24' || code === '33'
            ? `${FORMAT}: a record ${code} outside an account (before its header, 11, or after its end, 33)`
            : `${FORMAT}: "${code}" is not a Norma 43 record (11, 22, 23, 24, 33, 88)`,
          record.line,
        );
      if (code === '22') {
        finishMovement();
        const debit = debitKey(record, 28);
        const cents = amount(record, 29, debit);
        const tally = debit ? open.debits : open.credits;
        tally.count += 1;
        tally.sum = addCents(tally.sum, debit ? negateCents(cents) : cents);
        open.movement = {
          common: field(record, 23, 24),
          concepts: [],
          entry: {
            bookingDate: recordDay(
              field(record, 11, 16),
              'YMD',
              'operation day',
              FORMAT,
              record.line,
            ),
            valueDate: recordDay(field(record, 17, 22), 'YMD', 'value day', FORMAT, record.line),
            amount: cents,
            reference: null,
            counterparty: null,
            description: '',
            status: 'booked',
            line: record.line,
          },
        };
      } else if (code === '23' || code === '24') {
        const movement = open.movement;
        if (!movement)
          throw new UnreadableStatement(
            `${FORMAT}: a record ${code} that follows no movement (22)`,
            record.line,
          );
        if (code === '23') movement.concepts.push(record);
        else {
          const currency = currencyOfNumber(field(record, 5, 7)) ?? field(record, 5, 7);
          movement.original = `(${formatCents(amount(record, 8, false))} ${currency})`;
        }
      } else if (code === '33') {
        finishMovement();
        const { statement, debits, credits } = open;
        statement.closing = balanceAt(record, 59, 'closing', say);
        const stated = {
          debits: Number(field(record, 21, 25)),
          debitSum: amount(record, 26, false),
          credits: Number(field(record, 40, 44)),
          creditSum: amount(record, 45, false),
        };
        if (
          stated.debits !== debits.count ||
          stated.debitSum !== debits.sum ||
          stated.credits !== credits.count ||
          stated.creditSum !== credits.sum
        )
          say(
            record.line,
            `the account's end (33) states ${stated.debits} debits of ${formatCents(stated.debitSum)} and ${stated.credits} credits of ${formatCents(stated.creditSum)}; its movements are ${debits.count} debits of ${formatCents(debits.sum)} and ${credits.count} credits of ${formatCents(credits.sum)}`,
          );
        if (field(record, 3, 20) !== open.written)
          say(
            record.line,
            `the account's end (33) names the account ${field(record, 3, 20)}, its header (11) ${open.written}`,
          );
        statements.push(statement);
        open = undefined;
      } else
        throw new UnreadableStatement(
          `${FORMAT}: "${code}" is not a Norma 43 record (11, 22, 23, 24, 33, 88)`,
          record.line,
        );
    }
    if (open)
      throw new UnreadableStatement(
        `${FORMAT}: the account at line ${open.statement.line} has no end (33): the file is cut short`,
        open.statement.line,
      );
    if (!ended)
      say(
        records.at(-1)?.line ?? 1,
        "the file has no end (88): its records' count was not checked",
      );
    checkBalances(statements, checks, `${FORMAT}: `);
    return { format: 'norma43', statements, checks };
  },
};
