import {
  addCents,
  formatCents,
  subtractCents,
  sumCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { eachRecord, lettersOf, namedColumns, type NamedColumns } from '../common/csvRecords.js';
import {
  namesOfSeveralCodes,
  offsetSide,
  reportAmounts,
  reportDate,
  reportDateOrder,
  sideLine,
  TAX_CODE_HEADINGS,
  type ReportReadOptions,
} from '../common/reportRows.js';
import {
  parseLedgerDate,
  type DateFormat,
  type LedgerEntry,
  type LedgerLine,
  type Problem,
  slashedPair,
} from '../ledgerCsv.js';
import {
  count,
  datesSaid,
  readExport,
  type LedgerFormatDefinition,
  type ReadOptions,
  type ReadResult,
} from '../format.js';
import { reportOptions } from '../common/reportRows.js';

/**
 * A General Ledger (or Account Transactions) *report* saved as CSV, as QuickBooks Online and
 * Desktop and Xero print it: a title block, then one section per account, each headed by a row
 * holding only the account (`Checking`, `1000 · Checking`, `Business Bank Account (090)`), its
 * rows, and a `Total for Checking` / `Total 1000 · Checking` row; sub-accounts nest (QuickBooks);
 * `Beginning Balance` / `Opening Balance` and `Closing Balance` rows; footers (`TOTAL`, the
 * basis and the time it ran).
 *
 * - Amounts come as Debit and Credit columns (QuickBooks Desktop, Xero), or as one Amount column
 *   (QuickBooks Online), which QuickBooks writes in each account's own sense: an invoice is
 *   positive in Accounts Receivable and in Sales. Such signs are told from the report itself: the
 *   two sides of a transaction must cancel, which fixes each account's sense relative to the
 *   others, and the first section (QuickBooks lists the chart from the bank accounts) is in the
 *   debit sense. An account the pairing cannot place is said, and refused.
 * - Each row is one side of a transaction, whose other sides are in other sections: rows are
 *   paired by date, transaction type and number (Num, Reference) and name. A group must balance.
 *   A single-sided report is read with `--offset-account A`: each row against A.
 * - Each section's Total row is checked against its rows (with its sub-accounts' rows where the
 *   report sums them): a report whose rows do not make its totals is refused.
 * - Opening balances that are not zero are one entry on the first day of the report, when they
 *   balance (or against the offset account); else refused, listed.
 * - QuickBooks Online's current layout heads its columns `Distribution account, Transaction date,
 *   …, Split account, Amount, Balance`: each row repeats its account, the section's heading is
 *   its first cell (`1000 Checking - Umpqua 5658`), the `Beginning Balance` sits under the
 *   Distribution account with the balance in the Balance column, and `Total for …` carries the
 *   section's sum (`"-$53,277.15"`) — accepted as the rows' sum or as where they end from the
 *   beginning balance. Accounts QuickBooks deleted keep their sections, `Old Savings (deleted)`:
 *   their books are real, so they are read as any other, under that name, and said.
 * - Dates: MM/DD/YYYY or DD/MM/YYYY (told over the whole file; `--date-format` when both read),
 *   `31 Jan 2023`, YYYY-MM-DD.
 * - Rows are held until the whole report is read (their sides are in later sections).
 */

export interface GlReportFacts {
  sections: number;
  rows: number;
  zeroRows: number;
  dateFormat: DateFormat;
  /** Amounts came in one signed column, each account's sense told from the pairing. */
  signedAmounts: boolean;
  /** Accounts whose sense the pairing turned (credit-sense accounts of a signed report). */
  creditSense: number;
  openingBalances: number;
  /** Accounts whose sense only the opening balances told (no pair names it). */
  senseFromOpenings: string[];
  /** Sections of accounts QuickBooks marks `(deleted)`: read as any other, under that name. */
  deletedAccounts: string[];
}

/** QuickBooks Online's current layout: its header names the Distribution and Split accounts. */
export const looksLikeQboLedger = (head: string) =>
  /^[,;\t"]*distribution account\b.*\btransaction date\b/im.test(head);

/** A report's first 4 kB show a QuickBooks or Xero ledger report: its title and its Total rows. */
export function looksLikeGlReport(head: string): boolean {
  return (
    looksLikeQboLedger(head) ||
    (/general ledger|account transactions|transaction detail by account/i.test(head) &&
      /^[,;\t"]*total\b/im.test(head))
  );
}

interface Section {
  name: string;
  code: string | undefined;
  line: number;
  parent: Section | undefined;
  /** This section's own rows, and with its sub-sections'. */
  own: Cents;
  all: Cents;
  /** Its Beginning (Opening) Balance, in its own sense. */
  opening: Cents;
}

interface Row {
  fileLine: number;
  section: Section;
  date: string;
  key: string;
  memo: string;
  cents: Cents;
  taxCode: string;
}

/** Headings that name a column another layout names otherwise (QuickBooks Online's current one). */
const SAME_COLUMN: Readonly<Record<string, string>> = {
  transactiondate: 'date',
  splitaccount: 'split',
};

const norm = (text: string) => {
  const key = lettersOf(text);
  return SAME_COLUMN[key] ?? key;
};

/** QuickBooks keeps a deleted account's books under its name and `(deleted)`. */
const isDeleted = (section: Section) => /\(deleted\)$/i.test(section.name);

/** A report's account cell: `1000 · Checking`, `1000 Checking`, `Business Bank Account (090)`, `Checking`. */
export function accountOf(label: string): { code: string | undefined; name: string } {
  const text = label.trim();
  const dotted = /^(\d[\w.-]*)\s+·\s+(.+)$/.exec(text);
  if (dotted) return { code: dotted[1], name: dotted[2]!.trim() };
  const parenthesized = /^(.+?)\s*\((\d[\w.-]*)\)$/.exec(text);
  if (parenthesized) return { code: parenthesized[2], name: parenthesized[1]!.trim() };
  const numbered = /^(\d{3,})\s+(.+)$/.exec(text);
  if (numbered) return { code: numbered[1], name: numbered[2]!.trim() };
  return { code: undefined, name: text };
}

/** Whether a cell holds a date of some shape (a/b/year whatever the order). */
const looksLikeDate = (text: string) =>
  slashedPair(text) !== undefined || parseLedgerDate(text.trim(), 'YYYY-MM-DD') !== undefined;

/** The entries of a QuickBooks or Xero ledger report; problems go to `report`. */
export async function* readGlReport(
  file: string,
  options: ReportReadOptions,
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: GlReportFacts) => void,
): AsyncGenerator<LedgerEntry> {
  let hash = '';
  let columns: NamedColumns | undefined;
  let signed = false;
  let section: Section | undefined;
  const sections: Section[] = [];
  const rows: Row[] = [];
  const openings: Row[] = [];
  let zeroRows = 0;
  const amount = reportAmounts(report, options.decimalComma);
  const label = (s: Section) => (s.code ? `${s.code} ${s.name}` : s.name);

  for await (const { record, fileLine } of eachRecord(
    file,
    { encoding: options.encoding },
    onLine,
    (digest) => (hash = digest),
  )) {
    const cells = record.map((cell) => cell.trim());
    if (!columns) {
      const header = namedColumns(cells, norm);
      if (
        header.has('date') &&
        (header.has('amount') || (header.has('debit') && header.has('credit')))
      ) {
        columns = header;
        signed = !header.has('debit');
      }
      continue;
    }
    const filled = cells.filter((cell) => cell !== '');
    if (filled.length === 0) continue;
    const date = columns.cell(cells, 'date');
    const dated = looksLikeDate(date);
    // The cells besides the running balance (a heading may show the balance it starts from).
    const balanceColumns = new Set(
      ['balance', 'runningbalance']
        .filter((n) => columns!.has(n))
        .map((n) => columns!.cell(cells, n)),
    );
    const money = signed
      ? columns.cell(cells, 'amount')
      : `${columns.cell(cells, 'debit')}${columns.cell(cells, 'credit')}`;
    const first = filled[0]!;
    if (/^total\b/i.test(first) && !dated) {
      // `Total for X`, `Total X`; `TOTAL` (the report's) closes nothing.
      const named = first.replace(/^total\s*(for\s+)?/i, '').trim();
      const closing = named === '' ? undefined : section;
      if (closing) {
        const total = signed
          ? amount(columns.cell(cells, 'amount'), fileLine, 'the total')
          : (() => {
              const debit = amount(columns!.cell(cells, 'debit'), fileLine, 'the total debit');
              const credit = amount(columns!.cell(cells, 'credit'), fileLine, 'the total credit');
              return debit === undefined || credit === undefined
                ? undefined
                : subtractCents(debit, credit);
            })();
        // The rows' sum, with the sub-accounts' or without; or where they end, from the balance
        // the section began with (QuickBooks Online prints either, by layout).
        const made = [closing.own, closing.all, addCents(closing.opening, closing.all)];
        if (total !== undefined && money !== '' && !made.includes(total)) {
          report({
            fileLine,
            message: `account ${label(closing)}: its rows make ${formatCents(closing.all)}, its total row says ${formatCents(total)} (an edited or cut report)`,
          });
        }
        if (closing.parent) closing.parent.all = addCents(closing.parent.all, closing.all);
        section = closing.parent;
      }
      continue;
    }
    const balanceRow = filled.find((cell) => /^(beginning|opening|closing) balance/i.test(cell));
    if (balanceRow) {
      if (section && /^(beginning|opening)/i.test(balanceRow)) {
        const balance = signed
          ? amount(
              columns.cell(cells, 'balance') || columns.cell(cells, 'amount'),
              fileLine,
              'the opening balance',
            )
          : (() => {
              const given =
                columns!.cell(cells, 'balance') || columns!.cell(cells, 'runningbalance');
              if (given !== '') return amount(given, fileLine, 'the opening balance');
              const debit = amount(columns!.cell(cells, 'debit'), fileLine, 'the debit');
              const credit = amount(columns!.cell(cells, 'credit'), fileLine, 'the credit');
              return debit === undefined || credit === undefined
                ? undefined
                : subtractCents(debit, credit);
            })();
        if (balance) {
          section.opening = addCents(section.opening, balance);
          openings.push({
            fileLine,
            section,
            date,
            key: 'opening',
            memo: 'Opening balance',
            cents: balance,
            taxCode: '',
          });
        }
      }
      continue;
    }
    if (!dated && money === '') {
      // A section's heading: the account alone on its row (beside its balance, at times). A row
      // after the last section with no date (the basis, the time it ran) is a footer.
      const words = filled.filter((cell, i) => i === 0 || !balanceColumns.has(cell));
      if (words.length === 1 && !/basis|\d{1,2}:\d{2}/i.test(first)) {
        const { code, name } = accountOf(first);
        section = {
          name,
          code,
          line: fileLine,
          parent: section,
          own: ZERO_CENTS,
          all: ZERO_CENTS,
          opening: ZERO_CENTS,
        };
        sections.push(section);
      }
      continue;
    }
    if (!section) {
      report({ fileLine, message: 'a row before any account section' });
      continue;
    }
    let cents: Cents | undefined;
    if (signed) {
      cents = amount(columns.cell(cells, 'amount'), fileLine, 'the amount');
    } else {
      const debit = amount(columns.cell(cells, 'debit'), fileLine, 'the debit');
      const credit = amount(columns.cell(cells, 'credit'), fileLine, 'the credit');
      cents =
        debit === undefined || credit === undefined ? undefined : subtractCents(debit, credit);
    }
    if (cents === undefined) continue;
    section.own = addCents(section.own, cents);
    section.all = addCents(section.all, cents);
    if (cents === 0) {
      zeroRows += 1;
      continue;
    }
    const field = (...names: string[]) =>
      names.map((n) => columns!.cell(cells, n)).find(Boolean) ?? '';
    const kind = field('transactiontype', 'type', 'source');
    const number = field('num', 'no', 'number', 'reference', 'ref');
    const name = field('name', 'contact');
    rows.push({
      fileLine,
      section,
      date,
      key: [kind, number, name].join('\u0000'),
      memo: [kind, number, name, field('memodescription', 'memo', 'description', 'details')]
        .filter(Boolean)
        .join(' '),
      cents,
      taxCode: field(...TAX_CODE_HEADINGS),
    });
  }
  if (!columns || sections.length === 0) {
    report({
      fileLine: 1,
      message: columns
        ? 'not a ledger report: no account sections (a row holding only the account)'
        : 'not a ledger report: no header row with Date and Amount, or Debit and Credit',
    });
    return;
  }

  const order = reportDateOrder(
    options.dateFormat,
    [...rows, ...openings].map((row) => row.date),
    'YYYY-MM-DD',
    report,
    options.usualDateFormat,
  );
  if (!order) return;

  // Group the rows: by date and transaction (type, number, name), or each on its own against the
  // offset account.
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const day = reportDate(row.date, order);
    if (!day) {
      report({ fileLine: row.fileLine, message: `date "${row.date}" is not a date (${order})` });
      continue;
    }
    row.date = day;
    const key =
      options.offsetAccount !== undefined ? `line ${row.fileLine}` : `${day}\u0000${row.key}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }

  // A signed report: each account's sense, from the transactions that must balance. Starting
  // from the first section (debit sense), a group whose rows leave one, two or three accounts'
  // senses open, and balances with one choice of them alone, settles them; and so on from each
  // account settled. A part of the report no group links to the first is taken in the debit
  // sense from its own first section.
  const sense = new Map<Section, 1 | -1>();
  if (signed && options.offsetAccount === undefined) {
    const groupsOf = new Map<Section, Row[][]>();
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      for (const section of new Set(group.map((row) => row.section))) {
        const named = groupsOf.get(section);
        if (named) named.push(group);
        else groupsOf.set(section, [group]);
      }
    }
    for (const start of sections) {
      if (sense.has(start) || !groupsOf.has(start)) continue;
      sense.set(start, 1);
      const queue = [start];
      while (queue.length > 0) {
        for (const group of groupsOf.get(queue.shift()!) ?? []) {
          for (const settled of settleSenses(group, sense)) {
            sense.set(settled.section, settled.way);
            queue.push(settled.section);
          }
        }
      }
    }
  }
  // An account no pair places (a balance with no activity in the period, say) whose opening
  // balance alone leaves the opening entry unbalanced in the debit sense and balanced in the
  // credit sense: the opening balances must balance, so its sense is told by them. One such
  // account at most; with more, which one is credit would be a guess.
  const senseFromOpenings: Section[] = [];
  const unplacedOpenings = [...new Set(openings.map((row) => row.section))].filter(
    (section) => !sense.has(section) && section.opening !== 0,
  );
  if (
    signed &&
    sense.size > 0 &&
    options.offsetAccount === undefined &&
    unplacedOpenings.length === 1
  ) {
    const [alone] = unplacedOpenings as [Section];
    const left = sumCents(
      openings.map((row) => ((sense.get(row.section) ?? 1) * row.cents) as Cents),
    );
    if (left !== 0 && left === addCents(alone.opening, alone.opening)) {
      sense.set(alone, -1);
      senseFromOpenings.push(alone);
    }
  }
  const signOf = (s: Section): 1 | -1 => sense.get(s) ?? 1;

  // Names several codes share are named apart.
  const shared = namesOfSeveralCodes(sections);
  const line = (row: Row, entry: string, cents: Cents): LedgerLine =>
    sideLine({
      fileLine: row.fileLine,
      date: row.date,
      code: row.section.code,
      name:
        shared.has(row.section.name.toLowerCase()) && row.section.code
          ? `${row.section.name} (${row.section.code})`
          : row.section.name,
      cents,
      memo: row.memo,
      entry,
      taxCode: row.taxCode,
    });
  const offsetLine = (row: Row, entry: string, cents: Cents): LedgerLine =>
    offsetSide(line(row, entry, cents), options.offsetAccount!);

  const firstDay = [...groups.values()]
    .flat()
    .reduce<string | undefined>(
      (min, row) => (min === undefined || row.date < min ? row.date : min),
      undefined,
    );
  if (openings.length > 0) {
    const day = firstDay ?? reportDate(openings[0]!.date, order) ?? '';
    const lines = openings.map((row) => {
      row.date = day;
      return line(row, 'opening balances', (signOf(row.section) * row.cents) as Cents);
    });
    const left = sumCents(lines.map((l) => subtractCents(l.debitCents, l.creditCents)));
    if (left !== 0 && options.offsetAccount !== undefined) {
      lines.push(offsetLine({ ...openings[0]!, date: day }, 'opening balances', left));
    }
    if (left !== 0 && options.offsetAccount === undefined) {
      report({
        fileLine: openings[0]!.fileLine,
        message: `the opening balances (lines ${openings.map((o) => o.fileLine).join(', ')}) leave ${formatCents(left)} over: their other side is not in the report; pass --offset-account`,
      });
    } else {
      yield {
        fileLine: openings[0]!.fileLine,
        entry: 'opening balances',
        date: day,
        memo: 'Opening balances',
        lines,
      };
    }
  }

  for (const [key, group] of groups) {
    const entry = options.offsetAccount !== undefined ? key : `${group[0]!.date} ${group[0]!.memo}`;
    if (options.offsetAccount !== undefined) {
      const row = group[0]!;
      yield {
        fileLine: row.fileLine,
        entry,
        date: row.date,
        memo: row.memo,
        lines: [line(row, entry, row.cents), offsetLine(row, entry, row.cents)],
      };
      continue;
    }
    const unplaced = signed ? group.filter((row) => !sense.has(row.section)) : [];
    const lines = group.map((row) => line(row, entry, (signOf(row.section) * row.cents) as Cents));
    const sum = sumCents(lines.map((l) => subtractCents(l.debitCents, l.creditCents)));
    if (sum !== 0) {
      report({
        fileLine: group[0]!.fileLine,
        message:
          unplaced.length > 0 && sense.size > 0
            ? `lines ${group.map((r) => r.fileLine).join(', ')}: the sense of ${[...new Set(unplaced.map((r) => label(r.section)))].join(', ')} (debit or credit) cannot be told from the report's pairs, and the rows do not balance: ${formatCents(sum)} left over`
            : `lines ${group.map((r) => r.fileLine).join(', ')} (${group[0]!.memo}, ${group[0]!.date}) do not balance: ${formatCents(sum)} left over; a single-sided report needs --offset-account`,
      });
      continue;
    }
    yield {
      fileLine: group[0]!.fileLine,
      entry,
      date: group[0]!.date,
      memo: group[0]!.memo,
      lines,
    };
  }
  onEnd(hash, {
    sections: sections.length,
    rows: rows.length,
    zeroRows,
    dateFormat: order,
    signedAmounts: signed,
    creditSense: [...sense].filter(([s, way]) => way === -1 && !senseFromOpenings.includes(s))
      .length,
    openingBalances: openings.length,
    senseFromOpenings: senseFromOpenings.map(label),
    deletedAccounts: sections.filter(isDeleted).map(label),
  });
}

/** At most this many accounts of open sense are settled by one group (2^n choices tried). */
const OPEN_SENSES_SETTLED = 3;

/**
 * The senses of a group's accounts not yet known, when exactly one choice of them makes the
 * group balance; else none.
 */
function settleSenses(
  group: readonly Row[],
  sense: ReadonlyMap<Section, 1 | -1>,
): { section: Section; way: 1 | -1 }[] {
  const open = new Map<Section, Cents>();
  let known = ZERO_CENTS;
  for (const row of group) {
    const way = sense.get(row.section);
    if (way === undefined)
      open.set(row.section, addCents(open.get(row.section) ?? ZERO_CENTS, row.cents));
    else known = addCents(known, (way * row.cents) as Cents);
  }
  const sums = [...open];
  if (sums.length === 0 || sums.length > OPEN_SENSES_SETTLED || sums.some(([, c]) => c === 0))
    return [];
  const fits: number[] = [];
  for (let choice = 0; choice < 1 << sums.length; choice += 1) {
    const left = sums.reduce(
      (sum, [, cents], i) => sum + (choice & (1 << i) ? -cents : cents),
      known as number,
    );
    if (left === 0) fits.push(choice);
  }
  if (fits.length !== 1) return [];
  return sums.map(([section], i) => ({ section, way: fits[0]! & (1 << i) ? -1 : 1 }));
}

/** What a ledger report's reading found, said. */
function readLedgerReport(file: string, options: ReadOptions, result: ReadResult) {
  return readExport<GlReportFacts>(
    result,
    (...hooks) => readGlReport(file, reportOptions(options), ...hooks),
    (facts) => [
      `ledger report: ${count(facts.sections, 'account section', 'account sections')}, ${count(facts.rows, 'row', 'rows')}, dates ${datesSaid(facts.dateFormat)}; ${options.offsetAccount === undefined ? 'rows paired by date, type, number and name' : `each row against ${options.offsetAccount}`}`,
      facts.signedAmounts &&
        options.offsetAccount === undefined &&
        `ledger report: one Amount column in each account's own sense; ${count(facts.creditSense, 'account is', 'accounts are')} in the credit sense, told from the pairs`,
      facts.openingBalances > 0 &&
        `ledger report: ${count(facts.openingBalances, 'opening balance', 'opening balances')} posted as one entry on the report's first day`,
      facts.senseFromOpenings.length > 0 &&
        `ledger report: ${facts.senseFromOpenings.join(', ')} in the credit sense, told by the opening balances (no pair names it; they must balance)`,
      facts.deletedAccounts.length > 0 &&
        `ledger report: ${count(facts.deletedAccounts.length, 'deleted account', 'deleted accounts')} kept, named as QuickBooks names them: ${facts.deletedAccounts.join(', ')}`,
      facts.zeroRows > 0 &&
        `ledger report: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
    ],
  );
}

/** Xero's Account Transactions report: an account's code written after its name, `(090)`. */
const xeroLike = (head: string) => /account transactions|\(\d+\)\s*["]?\s*(,|$)/im.test(head);

/** A QuickBooks General Ledger report (Online, either layout, or Desktop). */
export const qbReport: LedgerFormatDefinition = {
  name: 'qb-report',
  title: 'QuickBooks General Ledger report',
  detect: (head) => looksLikeQboLedger(head) || (looksLikeGlReport(head) && !xeroLike(head)),
  toldBy: 'read as a QuickBooks ledger report: its title, and a Total row per account section',
  fromSheet: true,
  read: (file, _head, options, result) => readLedgerReport(file, options, result),
};

/** Xero's Account Transactions (General Ledger) report. */
export const xeroReport: LedgerFormatDefinition = {
  name: 'xero-report',
  title: 'Xero Account Transactions report',
  detect: (head) => !looksLikeQboLedger(head) && looksLikeGlReport(head) && xeroLike(head),
  toldBy: 'read as a Xero ledger report: its title, and a Total row per account section',
  fromSheet: true,
  read: (file, _head, options, result) => readLedgerReport(file, options, result),
};
