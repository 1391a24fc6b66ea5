import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { namedPeriod } from '../../core/periods.js';
import { addCents, formatCents, subtractCents, ZERO_CENTS, type Cents } from '../../core/money.js';
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
import { boundedLines, overlongText } from '../common/bounds.js';
import { CsvReadError, firstMegabyte, isUtf8Start } from '../common/csvRecords.js';
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
 *   readers is skipped — the same account, objects, amount and date (SIE 4B: "en exakt likadan
 *   rad"; the text, the quantity and the signer, which programs write on the #RTRANS only, apart).
 *   A `#VER` whose `{` its producer left out is read to its `}`, said.
 * - `#IB 0` (this year's opening balances) is one entry on the first day of `#RAR 0`. Other
 *   years (`#IB -1`…), budgets (`#BUDGET`, `#PBUDGET`) and period balances (`#PSALDO`) are
 *   left out and counted — except in a file of balances only (SIE types 1 to 3: no `#VER`),
 *   whose year is read as entries that make its balances: one per period of `#PSALDO` where
 *   they make each account's year, else one on the year's last day (`#UB 0` less `#IB 0` of a
 *   balance sheet account, `#RES 0` of a result account); said.
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
  let yearEnd: string | undefined;
  /** The voucher series (A, B…): a SIE file's journals. */
  const series = new Set<string>();
  let openingSent = false;
  let voucher: { entry: string; date: string; text: string; fileLine: number } | undefined;
  let lines: LedgerLine[] = [];
  let inBlock = false;
  /** Vouchers written without their series field. */
  let seriesless = 0;
  /**
   * The `#RTRANS` just read, whose repeating `#TRANS` is to be skipped: the same account,
   * objects, amount and date (the signature and the text apart, as SIE 4B §11 defines it).
   */
  let repeated: string | undefined;
  /** Vouchers whose `{` their producer left out, read to their `}`. */
  let unopened = 0;
  /** `#SIETYP`, and the period balances (`#PSALDO 0`, without objects) by period. */
  let fileType: string | undefined;
  /** How a file of balances only was read, as said. */
  let balancesOnly: string | undefined;
  const periods = new Map<string, Map<string, { cents: Cents; fileLine: number }>>();

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
  // A line of more than a million characters is refused before readline would hold it whole.
  const bounded = Readable.from(
    boundedLines(
      text as AsyncIterable<string>,
      (line) => new CsvReadError('csv', overlongText('the line'), line),
    ),
  );
  for await (const raw of createInterface({ input: bounded, crlfDelay: Infinity })) {
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
        if (fields[0] === '0') {
          firstDay = sieDate(fields[1]);
          yearEnd = sieDate(fields[2]);
        }
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
        // A voucher whose `{` was left out: its rows stand between it and its `}`.
        if (!inBlock && voucher && lines.length === 0) {
          inBlock = true;
          unopened += 1;
        }
        if (!inBlock || !voucher) {
          if (kind === '#TRANS' && !inBlock)
            report({ fileLine, message: '#TRANS outside a voucher' });
          break;
        }
        if (kind === '#BTRANS') {
          count('#BTRANS rows (struck out)');
          break;
        }
        const same = transKey(fields, voucher.date);
        if (kind === '#TRANS' && repeated !== undefined && repeated === same) {
          repeated = undefined;
          break;
        }
        repeated = kind === '#RTRANS' ? same : undefined;
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
      case '#SIETYP':
        fileType = fields[0];
        break;
      case '#PSALDO': {
        // The period's change on the account (SIE 4B: "periodens förändring"), kept for a file
        // without vouchers; one per object (type 3) repeats the account's own.
        const objects = (fields[3] ?? '').startsWith('{') ? fields[3]! : '{}';
        if (fields[0] !== '0' || objects.replace(/[{}\s]/g, '') !== '') {
          count('#PSALDO rows (period balances)');
          break;
        }
        const cents = auditAmount(
          fields[4] ?? fields[3] ?? '',
          fileLine,
          `#PSALDO ${fields[2]}`,
          report,
        );
        if (cents === undefined) break;
        const period = periods.get(fields[1] ?? '') ?? new Map();
        period.set(fields[2] ?? '', { cents, fileLine });
        periods.set(fields[1] ?? '', period);
        break;
      }
      case '#OIB':
      case '#OUB':
        count(`${label.toUpperCase()} rows (balances per object)`);
        break;
      default:
        break;
    }
  }
  if (!openingSent) yield* sendOpening();
  if (facts.transactions === 0 && (closing.size > 0 || periods.size > 0))
    for (const entry of yearOfBalances()) {
      for (const line of entry.lines) {
        const code = line.accountCode ?? '';
        movements.set(
          code,
          addCents(
            movements.get(code) ?? ZERO_CENTS,
            (line.debitCents - line.creditCents) as Cents,
          ),
        );
      }
      yield entry;
    }
  else if (periods.size > 0) count('#PSALDO rows (period balances)');

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
  if (balancesOnly !== undefined) facts.leftOut.push(balancesOnly);
  if (unopened > 0)
    facts.leftOut.push(
      `${unopened} #VER ${unopened === 1 ? 'row' : 'rows'} without its { (the producer left it out): ${unopened === 1 ? 'its' : 'their'} #TRANS rows read to the }`,
    );
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

  /**
   * A file of balances only (SIE types 1 to 3: `#IB`, `#UB`, `#RES`, and `#PSALDO` in 2 and 3;
   * no vouchers): after its opening balances, its year as entries that make its balances —
   * one per period of `#PSALDO` where they make each account's year, else one on the year's
   * last day of each balance sheet account's `#UB 0` less its `#IB 0` and each result
   * account's `#RES 0`. Said.
   */
  function yearOfBalances(): LedgerEntry[] {
    const lastDay = yearEnd;
    if (lastDay === undefined) {
      report({
        fileLine: 1,
        message: 'the file has balances but no vouchers and no year (#RAR 0): nothing dates them',
      });
      return [];
    }
    const changes = new Map<string, { cents: Cents; fileLine: number }>();
    for (const [code, stated] of closing) {
      const opening = accounts.get(code)?.opening ?? ZERO_CENTS;
      const cents = stated.label === '#UB' ? subtractCents(stated.cents, opening) : stated.cents;
      if (cents !== 0) changes.set(code, { cents, fileLine: stated.fileLine });
    }
    const line = (
      code: string,
      cents: Cents,
      fileLine: number,
      date: string,
      entry: string,
      text: string,
    ) =>
      auditLine({ fileLine, date, entry, description: text, memo: text }, accountOf(code), cents);
    const byPeriod = [...periods].sort(([a], [b]) => a.localeCompare(b));
    const summed = new Map<string, Cents>();
    for (const [, period] of byPeriod)
      for (const [code, { cents }] of period)
        summed.set(code, addCents(summed.get(code) ?? ZERO_CENTS, cents));
    const periodsMake =
      byPeriod.length > 0 &&
      [...new Set([...summed.keys(), ...changes.keys()])].every(
        (code) => (summed.get(code) ?? ZERO_CENTS) === (changes.get(code)?.cents ?? ZERO_CENTS),
      ) &&
      byPeriod.every(([, period]) => [...period.values()].reduce((n, p) => n + p.cents, 0) === 0);
    const entries: LedgerEntry[] = [];
    if (periodsMake) {
      for (const [period, changed] of byPeriod) {
        const day = lastDayOfPeriod(period);
        if (day === undefined) continue;
        const entry = `period ${period}`;
        const text = `The changes of ${period.slice(0, 4)}-${period.slice(4)} (#PSALDO)`;
        const lines = [...changed]
          .filter(([, p]) => p.cents !== 0)
          .map(([code, p]) => line(code, p.cents, p.fileLine, day, entry, text));
        if (lines.length > 0)
          entries.push({ fileLine: lines[0]!.fileLine, entry, date: day, memo: text, lines });
      }
      balancesOnly = `SIE type ${fileType ?? '?'}: balances only, no vouchers: read as the opening balances (#IB 0) and an entry of each period's changes (#PSALDO), ${entries.length} in all`;
      return entries;
    }
    const text = `The year's changes (#UB 0 less #IB 0, #RES 0)`;
    const lines = [...changes].map(([code, c]) =>
      line(code, c.cents, c.fileLine, lastDay, "the year's balances", text),
    );
    if (lines.length === 0) return [];
    const entry = balancedEntry(
      { fileLine: lines[0]!.fileLine, entry: "the year's balances", date: lastDay, memo: text },
      lines,
      fileLine,
      report,
      { what: 'the entry of', dateField: 'its date' },
    );
    if (!entry) return [];
    balancesOnly = `SIE type ${fileType ?? '?'}: balances only, no vouchers: read as the opening balances (#IB 0) and one entry of the year's changes on ${lastDay} (#UB 0 less #IB 0, #RES 0)`;
    return [entry];
  }
}

/** The last day of a SIE period (`YYYYMM`): the month's. */
const lastDayOfPeriod = (period: string) =>
  namedPeriod(`${period.slice(0, 4)}-${period.slice(4)}`)?.endDate;

/**
 * What makes a `#TRANS` the repetition of the `#RTRANS` before it: its account, its objects
 * (their pairs, however spaced), its amount (`200` is `200.00`) and its date (the voucher's
 * when it has none). The text, the quantity and the signature are left aside.
 */
function transKey(fields: readonly string[], voucherDate: string): string {
  const code = fields[0] ?? '';
  const hasObjects = (fields[1] ?? '').startsWith('{');
  const objects = hasObjects ? fields[1]!.replace(/[{}"]/g, ' ').trim().split(/\s+/).join(' ') : '';
  const values = hasObjects ? fields.slice(2) : fields.slice(1);
  const amount = Number(values[0] ?? '');
  const date = sieDate(values[1]) ?? voucherDate;
  return [code, objects, Number.isFinite(amount) ? amount.toFixed(2) : values[0], date].join(
    '\u0000',
  );
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
