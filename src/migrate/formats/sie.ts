import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import iconv from 'iconv-lite';
import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { addCents, formatCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import {
  auditAmount,
  auditLine,
  balancedEntry,
  newAuditFacts,
  openingEntry,
  type AuditAccount,
  type AuditFacts,
} from './auditFile.js';
import type { LedgerEntry, LedgerLine, Problem } from './ledgerCsv.js';

/**
 * SIE 4 (the Swedish Standard Import and Export format, type 4: vouchers), as the SIE 4B file
 * format description has it: tagged lines of text, in PC8 (code page 437) unless `--encoding`.
 *
 * - The chart is `#KONTO code "name"`, typed by `#KTYP code T|S|K|I` (asset, liability or
 *   equity, cost, income) and, within that, by the BAS chart's classes of its number; without a
 *   `#KTYP`, by the BAS classes alone.
 * - An entry is a `#VER series number date "text"` and its `{ #TRANS account {objects} amount
 *   [date] ["text"] }` rows, amounts signed (positive a debit). `#BTRANS` rows (struck out) are
 *   left out; an `#RTRANS` (added later) is read and the `#TRANS` that repeats it for older
 *   readers is skipped.
 * - `#IB 0` (this year's opening balances) is one entry on the first day of `#RAR 0`. Other
 *   years (`#IB -1`…), budgets (`#BUDGET`, `#PBUDGET`) and period balances (`#PSALDO`) are
 *   left out and counted.
 * - The file checks the import: each account's `#UB 0` (balance sheet) or `#RES 0` (result)
 *   against its `#IB 0` and lines.
 * - Fields are separated by spaces or tabs; a field in quotes keeps its spaces, and `\"` is a
 *   quote in it; other backslashes are kept as written (`"1110\1002 Hus"`).
 */

/** The BAS chart's classes: the type of each prefix; the longest that fits wins. */
const BAS_TYPES: [string, AccountType][] = [
  ['1', 'Other Current Assets'],
  ['10', 'Intangible Assets'],
  ['11', 'Fixed Assets'],
  ['12', 'Fixed Assets'],
  ['13', 'Investments'],
  ['14', 'Inventory'],
  ['15', 'Accounts Receivable'],
  ['17', 'Prepaid Expenses'],
  ['18', 'Investments'],
  ['19', 'Cash'],
  ['2', 'Other Current Liabilities'],
  ['20', 'Equity'],
  ['21', 'Equity'],
  ['22', 'Other Liabilities'],
  ['23', 'Long-Term Loans'],
  ['244', 'Accounts Payable'],
  ['27', 'Payroll Liabilities'],
  ['3', 'Income'],
  ['39', 'Other Income'],
  ['4', 'COGS'],
  ['5', 'Operating Expenses'],
  ['6', 'Operating Expenses'],
  ['7', 'Operating Expenses'],
  ['8', 'Other Expenses'],
  ['80', 'Other Income'],
  ['81', 'Other Income'],
  ['82', 'Other Income'],
  ['83', 'Other Income'],
  ['89', 'Tax Expenses'],
];
const BAS_BY_LENGTH = [...BAS_TYPES].sort((a, b) => b[0].length - a[0].length);

/** `#KTYP`: the classes of account it names, and the type standing for each. */
const KTYP: Record<string, { classes: string[]; type: AccountType }> = {
  T: { classes: ['1'], type: 'Other Current Assets' },
  S: { classes: ['2'], type: 'Other Current Liabilities' },
  K: { classes: ['4', '5', '6', '7', '8'], type: 'Operating Expenses' },
  I: { classes: ['3', '8'], type: 'Income' },
};

/** An account's type: by its BAS number, unless `#KTYP` says it is of another class. */
export function basType(code: string, ktyp?: string): AccountType | undefined {
  const bas = /^\d{4}/.test(code)
    ? BAS_BY_LENGTH.find(([prefix]) => code.startsWith(prefix))?.[1]
    : undefined;
  const kind = ktyp === undefined ? undefined : KTYP[ktyp.toUpperCase()];
  if (kind === undefined) return bas;
  return bas !== undefined && kind.classes.includes(code.charAt(0)) ? bas : kind.type;
}

/** The first bytes show a SIE file: its first line is a `#FLAGGA` or another SIE label. */
export const looksLikeSie = (head: string) =>
  /^(\xef\xbb\xbf)?#(FLAGGA|PROGRAM|FORMAT|SIETYP|GEN)\b/.test(head);

/** A SIE line's fields: quoted ones unquoted (`\"` a quote), `{…}` lists kept whole. */
export function sieFields(line: string): string[] {
  const fields: string[] = [];
  let at = 0;
  while (at < line.length) {
    const c = line[at]!;
    if (c === ' ' || c === '\t') {
      at += 1;
    } else if (c === '"') {
      let text = '';
      at += 1;
      while (at < line.length && line[at] !== '"') {
        if (line[at] === '\\' && line[at + 1] === '"') at += 1;
        text += line[at];
        at += 1;
      }
      fields.push(text);
      at += 1;
    } else if (c === '{') {
      const end = line.indexOf('}', at);
      const stop = end < 0 ? line.length : end + 1;
      fields.push(line.slice(at, stop));
      at = stop;
    } else {
      let end = at;
      while (end < line.length && line[end] !== ' ' && line[end] !== '\t') end += 1;
      fields.push(line.slice(at, end));
      at = end;
    }
  }
  return fields;
}

/** `YYYYMMDD` as a calendar day, or undefined. */
const sieDate = (text: string | undefined) => {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text ?? '');
  const day = match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
  return day && isCalendarDay(day) ? day : undefined;
};

/** The entries of a SIE 4 file; problems go to `report`. */
export async function* readSie(
  file: string,
  options: { encoding?: string; offsetAccount?: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: AuditFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const facts = newAuditFacts();
  const accounts = new Map<string, AuditAccount>();
  const types = new Map<string, string>();
  const movements = new Map<string, Cents>();
  const closing = new Map<string, { cents: Cents; fileLine: number; label: string }>();
  const leftOut = new Map<string, number>();
  const count = (what: string) => leftOut.set(what, (leftOut.get(what) ?? 0) + 1);
  let firstDay: string | undefined;
  /** The voucher series (A, B…): a SIE file's journals. */
  const series = new Set<string>();
  let openingSent = false;
  let voucher: { entry: string; date: string; text: string; fileLine: number } | undefined;
  let lines: LedgerLine[] = [];
  let inBlock = false;
  /** The `#RTRANS` just read, whose repeating `#TRANS` is to be skipped. */
  let repeated: string | undefined;

  const hash = createHash('sha256');
  const input = createReadStream(file);
  input.on('data', (bytes) => hash.update(bytes));
  const text = input.pipe(iconv.decodeStream(options.encoding ?? 'cp437'));
  /** An account as described so far, typed by what the file has said of it. */
  const accountOf = (code: string): AuditAccount => ({
    ...(accounts.get(code) ?? { code, name: code, fileLine: 0 }),
    type: basType(code, types.get(code)),
  });

  let fileLine = 0;
  for await (const raw of createInterface({ input: text, crlfDelay: Infinity })) {
    fileLine += 1;
    onLine(fileLine);
    const row = raw.replace(/^\uFEFF/, '').trim();
    if (row === '') continue;
    if (row === '{') {
      inBlock = true;
      continue;
    }
    if (row === '}') {
      inBlock = false;
      if (voucher) {
        const done = voucher;
        voucher = undefined;
        const balanced = balancedEntry(
          { fileLine: done.fileLine, entry: done.entry, date: done.date, memo: done.text },
          lines,
          fileLine,
          report,
          { what: 'voucher', dateField: 'its date' },
        );
        if (balanced) {
          if (!openingSent) yield* sendOpening();
          yield balanced;
        }
        lines = [];
      }
      continue;
    }
    const [label = '', ...fields] = sieFields(row);
    switch (label.toUpperCase()) {
      case '#KONTO':
        accounts.set(fields[0] ?? '', {
          code: fields[0] ?? '',
          name: fields[1] || fields[0] || '',
          type: undefined,
          fileLine,
        });
        break;
      case '#KTYP':
        types.set(fields[0] ?? '', fields[1] ?? '');
        break;
      case '#RAR':
        if (fields[0] === '0') firstDay = sieDate(fields[1]);
        break;
      case '#IB':
      case '#UB':
      case '#RES': {
        if (fields[0] !== '0') {
          count(`${label.toUpperCase()} of other years than this one (0)`);
          break;
        }
        const cents = auditAmount(fields[2] ?? '', fileLine, `${label} ${fields[1]}`, report);
        if (cents === undefined) break;
        const code = fields[1] ?? '';
        if (label.toUpperCase() === '#IB') {
          const account = accountOf(code);
          accounts.set(code, {
            ...account,
            fileLine: account.fileLine || fileLine,
            opening: addCents(account.opening ?? ZERO_CENTS, cents),
          });
        } else {
          closing.set(code, { cents, fileLine, label: label.toUpperCase() });
          facts.closingBalances.set(code, cents);
        }
        break;
      }
      case '#VER': {
        const date = sieDate(fields[2]);
        const entry = `${fields[0] ?? ''} ${fields[1] ?? ''}`.trim();
        facts.transactions += 1;
        if (!date) {
          report({
            fileLine,
            message: `voucher ${entry}: its date "${fields[2] ?? ''}" is not a date (YYYYMMDD)`,
          });
          break;
        }
        series.add(fields[0] ?? '');
        voucher = { entry, date, text: fields[3] ?? '', fileLine };
        lines = [];
        break;
      }
      case '#TRANS':
      case '#RTRANS':
      case '#BTRANS': {
        const kind = label.toUpperCase();
        if (!inBlock || !voucher) {
          if (kind === '#TRANS' && !inBlock)
            report({ fileLine, message: '#TRANS outside a voucher' });
          break;
        }
        if (kind === '#BTRANS') {
          count('#BTRANS rows (struck out)');
          break;
        }
        if (kind === '#TRANS' && repeated !== undefined && repeated === fields.join(' ')) {
          repeated = undefined;
          break;
        }
        repeated = kind === '#RTRANS' ? fields.join(' ') : undefined;
        facts.lines += 1;
        const code = fields[0] ?? '';
        const cents = auditAmount(fields[2] ?? '', fileLine, `#TRANS ${code}`, report);
        if (cents === undefined) break;
        movements.set(code, addCents(movements.get(code) ?? ZERO_CENTS, cents));
        if (cents === 0) {
          facts.zeroLines += 1;
          break;
        }
        const rowText = fields[4] ?? '';
        lines.push(
          auditLine(
            {
              fileLine,
              date: voucher.date,
              entry: voucher.entry,
              description: rowText || voucher.text,
              memo: [voucher.text, rowText].filter(Boolean).join(' — ').slice(0, 1000),
            },
            accountOf(code),
            cents,
          ),
        );
        break;
      }
      case '#BUDGET':
      case '#PBUDGET':
        count(`${label.toUpperCase()} rows (budgets)`);
        break;
      case '#PSALDO':
        count('#PSALDO rows (period balances)');
        break;
      default:
        break;
    }
  }
  if (!openingSent) yield* sendOpening();

  for (const [code, stated] of closing) {
    const account = accountOf(code);
    const made =
      stated.label === '#UB'
        ? addCents(account.opening ?? ZERO_CENTS, movements.get(code) ?? ZERO_CENTS)
        : (movements.get(code) ?? ZERO_CENTS);
    if (made !== stated.cents) {
      report({
        fileLine: stated.fileLine,
        message: `account ${code} ${account.name}: the file states ${stated.label} 0 ${formatCents(stated.cents)}, its ${stated.label === '#UB' ? '#IB 0 and lines make' : 'lines make'} ${formatCents(made)}: the file is cut or was changed`,
      });
    }
  }
  facts.accounts = accounts.size;
  facts.journals = series.size;
  facts.firstDay = firstDay;
  facts.leftOut = [...leftOut].map(([what, n]) => `${n} ${what} left out`);
  onEnd(hash.digest('hex'), facts);

  function* sendOpening(): Generator<LedgerEntry> {
    openingSent = true;
    if (firstDay === undefined) {
      if ([...accounts.values()].some((a) => a.opening))
        report({
          fileLine: 1,
          message: 'the file states opening balances (#IB 0) but not its year (#RAR 0)',
        });
      return;
    }
    const opening = openingEntry(
      facts,
      [...accounts.keys()].map(accountOf),
      firstDay,
      options.offsetAccount,
      report,
    );
    if (opening) yield opening;
  }
}
