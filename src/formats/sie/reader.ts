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
  tallyTyped,
  openingEntry,
  type AuditAccount,
  type AuditFacts,
} from '../common/auditFile.js';
import { firstMegabyte, isUtf8Start } from '../common/csvRecords.js';
import type { AccountKind, LedgerEntry, LedgerLine, Problem } from '../ledgerCsv.js';
import { readAuditFile, type LedgerFormatDefinition } from '../format.js';

/**
 * SIE 4 (the Swedish Standard Import and Export format, type 4: vouchers; 4E an export, 4I a file
 * for import), as the SIE 4B file format description has it: tagged lines of text, in PC8
 * (code page 437). Programs also write UTF-8 or ISO 8859-15 under `#FORMAT PC8`: the bytes tell
 * (see `sieEncoding`), unless `--encoding`.
 *
 * - The chart is `#KONTO code "name"`. Its type comes from what the file states first:
 *   `#KTYP code T|S|K|I` (asset, liability or equity, cost, income), refined by the BAS chart's
 *   classes of its number where they agree; else whether the file gives it balances (`#IB`,
 *   `#UB`: the balance sheet) or results (`#RES`: profit and loss), again refined by the BAS
 *   classes where they agree and otherwise typed by the side of its balance; else the BAS classes.
 * - An entry is a `#VER series number date "text"` and its `{ #TRANS account {objects} amount
 *   [date] ["text"] }` rows, amounts signed (positive a debit). `#BTRANS` rows (struck out) are
 *   left out; an `#RTRANS` (added later) is read and the `#TRANS` that repeats it for older
 *   readers is skipped.
 * - `#IB 0` (this year's opening balances) is one entry on the first day of `#RAR 0`. Other
 *   years (`#IB -1`…), budgets (`#BUDGET`, `#PBUDGET`) and period balances (`#PSALDO`) are
 *   left out and counted.
 * - The file checks the import: each account's `#UB 0` (balance sheet) or `#RES 0` (result)
 *   against its `#IB 0` and lines; one that differs is said, and the import goes on (a program
 *   writes `#UB` equal to `#IB` on every account; an excerpt states the whole year's balances).
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

/** The BAS classes of the balance sheet (1, 2) and of the result (3 to 8). */
const basKind = (code: string): AccountKind | undefined =>
  /^[12]\d{3}/.test(code)
    ? 'balance sheet'
    : /^[3-8]\d{3}/.test(code)
      ? 'profit and loss'
      : undefined;

/**
 * An account's type and what typed it: `#KTYP` (with the BAS classes within it); else the kind
 * its balances state (#IB/#UB balance sheet, #RES profit and loss), with the BAS type when its
 * class agrees and the side of its balance when not; else the BAS classes alone.
 */
export function sieType(
  code: string,
  ktyp: string | undefined,
  stated: AccountKind | undefined,
): { type?: AccountType; kind?: AccountKind; how: string } {
  if (ktyp !== undefined && KTYP[ktyp.toUpperCase()])
    return { type: basType(code, ktyp), how: '#KTYP' };
  if (stated !== undefined) {
    if (basKind(code) === stated)
      return { type: basType(code), how: "its balances' kind (#IB/#UB or #RES) and the BAS chart" };
    return {
      kind: stated,
      how: "its balances' kind (#IB/#UB or #RES) and the side of its balance",
    };
  }
  const type = basType(code);
  return type ? { type, how: "the BAS chart's classes" } : { how: 'nothing the file states' };
}

/**
 * The encoding of a SIE file's bytes (its first megabyte): PC8 (CP437) as the format says; UTF-8
 * when the bytes are UTF-8 and not all ASCII (CP437's Swedish letters never are); Windows-1252
 * (ISO 8859-15's letters) when letters sit where Latin-1 has them (0xC0–0xFF) more than where
 * PC8 has them (0x80–0x9F).
 */
export function sieEncoding(bytes: Buffer): 'cp437' | 'utf-8' | 'windows-1252' {
  let pc8 = 0;
  let latin = 0;
  for (const byte of bytes) {
    if (byte >= 0x80 && byte <= 0x9f) pc8 += 1;
    else if (byte >= 0xc0) latin += 1;
  }
  if (pc8 + latin === 0) return 'cp437';
  if (isUtf8Start(bytes)) return 'utf-8';
  return latin > pc8 ? 'windows-1252' : 'cp437';
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
  onEnd: (hash: string, facts: AuditFacts & { encoding?: ReturnType<typeof sieEncoding> }) => void,
): AsyncGenerator<LedgerEntry> {
  const facts: AuditFacts & { encoding?: ReturnType<typeof sieEncoding> } = {
    ...newAuditFacts(),
    ...(options.encoding === undefined && { encoding: sieEncoding(firstMegabyte(file)) }),
  };
  const accounts = new Map<string, AuditAccount>();
  const types = new Map<string, string>();
  /** What the file's balances state of each account: #IB/#UB balance sheet, #RES results. */
  const kinds = new Map<string, AccountKind>();
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
  /** Vouchers written without their series field. */
  let seriesless = 0;
  /** The `#RTRANS` just read, whose repeating `#TRANS` is to be skipped. */
  let repeated: string | undefined;

  const hash = createHash('sha256');
  const input = createReadStream(file);
  input.on('data', (bytes) => hash.update(bytes));
  const text = input.pipe(iconv.decodeStream(options.encoding ?? facts.encoding ?? 'cp437'));
  /** An account as described so far, typed by what the file has said of it. */
  const accountOf = (code: string): AuditAccount => {
    const { type, kind } = sieType(code, types.get(code), kinds.get(code));
    return {
      ...(accounts.get(code) ?? { code, name: code, fileLine: 0 }),
      type,
      ...(kind !== undefined && { kind }),
    };
  };

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
        if (fields[1] !== undefined && !kinds.has(fields[1]))
          kinds.set(
            fields[1],
            label.toUpperCase() === '#RES' ? 'profit and loss' : 'balance sheet',
          );
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
        // A series left out rather than written "" (`#VER  1 20170101 …`): the number then
        // stands where the series does, and the date where the number does.
        const verFields = !sieDate(fields[2]) && sieDate(fields[1]) ? ['', ...fields] : fields;
        if (verFields !== fields) seriesless += 1;
        const date = sieDate(verFields[2]);
        const entry =
          `${verFields[0] ?? ''} ${verFields[1] ?? ''}`.trim() || `voucher (line ${fileLine})`;
        facts.transactions += 1;
        if (!date) {
          report({
            fileLine,
            message: `voucher ${entry}: its date "${verFields[2] ?? ''}" is not a date (YYYYMMDD)`,
          });
          break;
        }
        series.add(verFields[0] ?? '');
        voucher = { entry, date, text: verFields[3] ?? '', fileLine };
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
        // The object list (`{}`) comes before the amount; some programs leave it out.
        const values = (fields[1] ?? '').startsWith('{') ? fields.slice(2) : fields.slice(1);
        const cents = auditAmount(values[0] ?? '', fileLine, `#TRANS ${code}`, report);
        if (cents === undefined) break;
        movements.set(code, addCents(movements.get(code) ?? ZERO_CENTS, cents));
        if (cents === 0) {
          facts.zeroLines += 1;
          break;
        }
        const rowText = values[2] ?? '';
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
      case '#OIB':
      case '#OUB':
        count(`${label.toUpperCase()} rows (balances per object)`);
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
      facts.contradictions.push({
        fileLine: stated.fileLine,
        message: `account ${code} ${account.name}: the file states ${stated.label} 0 ${formatCents(stated.cents)}, its ${stated.label === '#UB' ? '#IB 0 and lines make' : 'lines make'} ${formatCents(made)} (the file contradicts itself; its lines are imported)`,
      });
    }
  }
  for (const code of new Set([...accounts.keys(), ...movements.keys()])) {
    const { how } = sieType(code, types.get(code), kinds.get(code));
    tallyTyped(facts, how);
  }
  facts.accounts = accounts.size;
  facts.journals = series.size;
  facts.firstDay = firstDay;
  facts.leftOut = [...leftOut].map(([what, n]) => `${n} ${what} left out`);
  if (seriesless > 0)
    facts.leftOut.push(
      `${seriesless} #VER ${seriesless === 1 ? 'row' : 'rows'} without a series field (\`#VER  1 20170101\`) read with the series ""`,
    );
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

/** How each encoding a SIE file may be in is said. */
const ENCODING_SAID: Record<ReturnType<typeof sieEncoding>, string> = {
  cp437: 'encoding CP437 (PC8, as SIE files are written)',
  'utf-8':
    'encoding UTF-8: its bytes are, though SIE files are PC8 (CP437); --encoding cp437 reads it as PC8',
  'windows-1252':
    'encoding Windows-1252 (ISO 8859-15 letters): its bytes are not PC8 (CP437), which SIE files are; --encoding cp437 reads it as PC8',
};

/** SIE 4 (Sweden), types 4E and 4I. */
export const sie: LedgerFormatDefinition = {
  name: 'sie',
  title: 'SIE 4 (Sweden)',
  detect: (head) => looksLikeSie(head),
  toldBy: 'read as SIE 4: its first line is a SIE label (#FLAGGA)',
  encodingSaid: (_head, options) =>
    options.encoding === undefined ? undefined : `encoding ${options.encoding} (--encoding)`,
  read: readAuditFile<AuditFacts & { encoding?: ReturnType<typeof sieEncoding> }>(
    'SIE',
    readSie,
    (facts) => [facts.encoding !== undefined && ENCODING_SAID[facts.encoding]],
  ),
};
