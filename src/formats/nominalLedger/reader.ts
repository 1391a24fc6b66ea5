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
  type ReportReadOptions,
} from '../common/reportRows.js';
import {
  accountKey,
  type DateFormat,
  type LedgerEntry,
  type LedgerLine,
  type Problem,
} from '../ledgerCsv.js';
import { count, datesSaid, readExport, type LedgerFormatDefinition } from '../format.js';
import { reportOptions } from '../common/reportRows.js';

/**
 * A "Nominal Ledger Transaction History" (General Ledger) report saved as CSV, as Sage-style
 * ERPs print it: a title block, then one section per account — a row `Account: CODE - NAME`,
 * a column header row (`Reference, Details, Doc Date, Post Date, Debit, Credit, Balance`…), an
 * `Opening Balance as at :DATE` row, the account's rows with a running balance — and a footer
 * (`Printed on…`, `Page N of M`).
 *
 * - Each row is one side of a transaction, whose other sides are in other sections. They are
 *   paired by Reference and date: the rows of a reference on a day are one entry, which must
 *   balance. A report that is single-sided (an excerpt, or one account's report) is read with
 *   `--offset-account A`: each row becomes an entry against A.
 * - Rows are held until the whole report is read (their sides are in later sections): a report
 *   of a few hundred thousand rows fits; larger ledgers should come as a journal export.
 * - Each section's running balance is checked against its rows: a report whose rows do not
 *   make its balances (an edited or cut report) is refused, section by section.
 * - An opening balance that is not zero becomes a line dated that day, against the offset
 *   account (without one it is refused: it has no other side in the report).
 * - Dates are DD/MM/YYYY or MM/DD/YYYY (told over the file, `--date-format` when both read),
 *   two-digit years read as 20YY.
 */

export interface NominalLedgerFacts {
  sections: number;
  rows: number;
  zeroRows: number;
  dateFormat: DateFormat;
  /** Names used by more than one code, each account then named with its code. */
  sharedNames: number;
}

/** True when a report's first lines show a nominal ledger: its title, or `Account: X - Y` rows. */
export function looksLikeNominalLedger(head: string): boolean {
  return /nominal ledger/i.test(head) || /^[,;\t"]*Account: *[^,;\t]+ - /m.test(head);
}

interface Row {
  fileLine: number;
  account: string;
  accountCode: string;
  accountName: string;
  date: string;
  reference: string;
  details: string;
  cents: Cents;
}

const SECTION = /^\s*Account:\s*(\S+)\s+-\s+(.+?)\s*$/;

/** The entries of a nominal ledger report; problems go to `report`. */
export async function* readNominalLedger(
  file: string,
  options: ReportReadOptions,
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: NominalLedgerFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const rows: Row[] = [];
  let hash = '';
  let section:
    | {
        code: string;
        name: string;
        line: number;
        opening: Cents;
        sum: Cents;
        balance: Cents | undefined;
      }
    | undefined;
  let columns: NamedColumns | undefined;
  let sections = 0;
  let zeroRows = 0;
  const amount = reportAmounts(report, options.decimalComma);
  const closeSection = () => {
    if (!section || section.balance === undefined) return;
    const made = addCents(section.opening, section.sum);
    if (made !== section.balance) {
      report({
        fileLine: section.line,
        message: `account ${section.code} - ${section.name}: its rows make ${formatCents(made)}, its running balance ends at ${formatCents(section.balance)} (an edited or cut report)`,
      });
    }
  };

  /** A side of a transaction in the current section. */
  const rowOf = (
    fileLine: number,
    date: string,
    reference: string,
    details: string,
    cents: Cents,
  ): Row => ({
    fileLine,
    account: accountKey(section!.code, section!.name),
    accountCode: section!.code,
    accountName: section!.name,
    date,
    reference,
    details,
    cents,
  });

  for await (const { record, fileLine } of eachRecord(
    file,
    { encoding: options.encoding },
    onLine,
    (digest) => (hash = digest),
  )) {
    const cells = record.map((cell) => cell.trim());
    const heading = cells.find((cell) => SECTION.test(cell));
    if (heading) {
      closeSection();
      const [, code, name] = SECTION.exec(heading)!;
      section = {
        code: code!,
        name: name!,
        line: fileLine,
        opening: ZERO_CENTS,
        sum: ZERO_CENTS,
        balance: undefined,
      };
      sections += 1;
      columns = undefined;
      continue;
    }
    if (!section) continue; // the title block
    if (!columns) {
      const header = namedColumns(cells, lettersOf);
      if (header.has('debit') && header.has('credit')) columns = header;
      continue;
    }
    if (cells.every((cell) => cell === '')) continue;
    const opening = cells.find((cell) => /opening balance as at/i.test(cell));
    const balance = amount(columns.cell(cells, 'balance'), fileLine, 'the balance');
    if (opening) {
      if (balance !== undefined) section.opening = balance;
      section.balance = balance;
      if (balance !== undefined && balance !== 0) {
        const date = /(\d{1,2}\/\d{1,2}\/\d{2,4})/.exec(opening)?.[1] ?? '';
        rows.push(rowOf(fileLine, date, '', 'Opening balance', balance));
      }
      continue;
    }
    const debit = amount(columns.cell(cells, 'debit'), fileLine, 'the debit');
    const credit = amount(columns.cell(cells, 'credit'), fileLine, 'the credit');
    if (debit === undefined || credit === undefined) continue;
    const date =
      columns.cell(cells, 'postdate') ||
      columns.cell(cells, 'date') ||
      columns.cell(cells, 'docdate');
    if (date === '' && debit === 0 && credit === 0) continue; // a footer or a blank total row
    const cents = subtractCents(debit, credit);
    section.sum = addCents(section.sum, cents);
    if (balance !== undefined) section.balance = balance;
    if (cents === 0) {
      zeroRows += 1;
      continue;
    }
    rows.push(
      rowOf(
        fileLine,
        date,
        columns.cell(cells, 'reference'),
        columns.cell(cells, 'details'),
        cents,
      ),
    );
  }
  closeSection();
  if (sections === 0) {
    report({
      fileLine: 1,
      message: 'not a nominal ledger report: no "Account: CODE - NAME" section',
    });
    return;
  }

  // Without any a/b/year date the order does not matter; Sage-style ERPs write day first.
  const order = reportDateOrder(
    options.dateFormat,
    rows.map((row) => row.date),
    'DD/MM/YYYY',
    report,
    options.usualDateFormat,
  );
  if (!order) return;

  // Two codes under one name: each is named with its code, and said.
  const shared = namesOfSeveralCodes(
    rows.map((r) => ({ code: r.accountCode, name: r.accountName })),
  );
  for (const row of rows) {
    if (shared.has(row.accountName.toLowerCase())) {
      row.accountName = `${row.accountName} (${row.accountCode})`;
      row.account = accountKey(row.accountCode, row.accountName);
    }
  }
  const line = (row: Row, day: string, entry: string): LedgerLine =>
    sideLine({
      fileLine: row.fileLine,
      date: day,
      code: row.accountCode,
      name: row.accountName,
      cents: row.cents,
      memo: row.details,
      entry,
    });
  const offset = (row: Row, day: string, entry: string): LedgerLine =>
    offsetSide(line(row, day, entry), options.offsetAccount!);

  // Pairing: by reference and day (or, with an offset account, every row on its own).
  const entries = new Map<string, LedgerLine[]>();
  for (const row of rows) {
    const day = reportDate(row.date, order);
    if (!day) {
      report({ fileLine: row.fileLine, message: `date "${row.date}" is not a date (${order})` });
      continue;
    }
    if (options.offsetAccount !== undefined) {
      const entry = `${row.reference || 'row'} at line ${row.fileLine}`;
      entries.set(entry, [line(row, day, entry), offset(row, day, entry)]);
      continue;
    }
    if (row.reference === '') {
      report({
        fileLine: row.fileLine,
        message: `a row without a Reference cannot be paired with its other side: pass --offset-account`,
      });
      continue;
    }
    const entry = `${row.reference} of ${day}`;
    const lines = entries.get(entry) ?? [];
    lines.push(line(row, day, entry));
    entries.set(entry, lines);
  }
  for (const [entry, lines] of entries) {
    const sum = sumCents(lines.map((l) => subtractCents(l.debitCents, l.creditCents)));
    if (sum !== 0) {
      report({
        fileLine: lines[0]!.fileLine,
        message: `reference ${entry}: its ${lines.length === 1 ? 'row (line' : 'rows (lines'} ${lines.map((l) => l.fileLine).join(', ')}) ${lines.length === 1 ? 'does' : 'do'} not balance: ${formatCents(sum)} left over; a single-sided report needs --offset-account`,
      });
      continue;
    }
    yield {
      fileLine: lines[0]!.fileLine,
      entry,
      date: lines[0]!.date,
      memo: lines[0]!.memo,
      lines,
    };
  }
  onEnd(hash, {
    sections,
    rows: rows.length,
    zeroRows,
    dateFormat: order,
    sharedNames: shared.size,
  });
}

/** An ERP's "Nominal Ledger Transaction History": one section per account. */
export const nominalLedger: LedgerFormatDefinition = {
  name: 'nominal-ledger',
  title: 'nominal ledger report',
  detect: (head) => looksLikeNominalLedger(head),
  toldBy: 'read as a nominal ledger report: its title, or sections headed "Account: CODE - NAME"',
  fromSheet: true,
  read: (file, _head, options, result) =>
    readExport<NominalLedgerFacts>(
      result,
      (...hooks) => readNominalLedger(file, reportOptions(options), ...hooks),
      (facts) => [
        `nominal ledger: ${count(facts.sections, 'account section', 'account sections')}, ${count(facts.rows, 'row', 'rows')}, dates ${datesSaid(facts.dateFormat)}; ${options.offsetAccount === undefined ? 'rows paired by reference and date' : `each row against ${options.offsetAccount}`}`,
        facts.zeroRows > 0 &&
          `nominal ledger: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
        facts.sharedNames > 0 &&
          `nominal ledger: ${count(facts.sharedNames, 'name is', 'names are')} used by more than one account code: those accounts are named "Name (code)"`,
      ],
    ),
};
