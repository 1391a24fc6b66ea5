import { createReadStream, rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse';
import {
  CLASS_OF_TYPE,
  isProfitAndLoss,
  type Account,
  type AccountClass,
  type AccountType,
  type LedgerBasis,
} from '../../api/index.js';
import { unlessNotFound, type BooksApi } from '../../client/index.js';
import { addDays, type CalendarDay } from '../../core/calendar.js';
import {
  addCents,
  decimalToCents,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { fiscalYearOf, type FiscalYearStart } from '../../core/periods.js';
import { balancesOverRange, byCode, FIRST_DAY } from '../balances.js';
import { exportLedgerPostings, type ExportEvents, type ExportScope } from './bookExport.js';

/*
 * An entity's books over a range as the audit files write them (src/formats/audit/books.ts),
 * read through the API (so from any platform): the postings as `books export` reads them
 * (journal entries, and the bank transactions and opening balances only the general ledger
 * shows), each month checked against the trial balance, spooled to a file beside the one being
 * written and read back as the writer asks, never all held.
 */

import type {
  AuditAccount,
  AuditBooks,
  AuditEntry,
  RetainedEarningsAccount,
} from '../../formats/audit/books.js';

export interface AuditRequest {
  from: CalendarDay;
  to: CalendarDay;
  basis: LedgerBasis;
  fiscalYearStart: FiscalYearStart;
  /**
   * The entity's own account for the earlier years' results (`--retained-earnings`): an equity
   * account of its chart, as the caller found and checked it.
   */
  retainedEarnings?: RetainedEarningsAccount | undefined;
  /**
   * Else the format's usual account for them (`carried`, debit-positive: a loss may have its
   * own): used if the chart has an equity account of that code, added to the file's chart if
   * it has none.
   */
  usualRetainedEarnings: (carried: Cents) => RetainedEarningsAccount;
  concurrency: number;
  /** Where the postings are spooled while the file is written (beside it). */
  directory: string;
  /** The previous fiscal year's closing balances and results too (SIE's `#RAR -1`). */
  previousYear?: boolean;
}

/** The books hold nothing to write for the range: no balance and no posting. */
export class NothingToExport extends Error {
  override name = 'NothingToExport';
}

/** The format's usual retained-earnings code is held by an account that is not equity. */
export class UnusableAccount extends Error {
  override name = 'UnusableAccount';
}

export async function auditBooksOf(
  api: BooksApi,
  scope: ExportScope,
  request: AuditRequest,
  events: ExportEvents = {},
): Promise<AuditBooks> {
  const entityId = scope.entity.id;
  const { from, to, basis } = request;
  const [chart, balances, tax] = await Promise.all([
    api.accounts.all(entityId),
    balancesOverRange(api, entityId, {
      startDate: from,
      endDate: to,
      ledgerBasis: basis,
      groupBy: 'total',
    }),
    // The entity's VAT accounts, where it keeps tax codes: the writers tell a VAT line by them.
    unlessNotFound(api.sandbox.taxSetting(entityId)),
  ]);
  const chartByCode = new Map(chart.map((account) => [account.code, account]));
  // The entity's two and those of codes that keep their VAT apart (Germany's 7 % and 19 %).
  const vatAccountIds = new Set(
    tax
      ? [
          tax.taxSetting.outputAccountId,
          tax.taxSetting.inputAccountId,
          ...tax.taxCodes.flatMap((code) =>
            [code.outputAccountId, code.inputAccountId].filter((id) => id !== null),
          ),
        ]
      : [],
  );
  const vatAccountCodes = new Set(
    chart.filter((account) => vatAccountIds.has(account.id)).map((account) => account.code),
  );
  const codeOf = (id: string) => chart.find((account) => account.id === id)?.code;
  const vatAccounts = tax && {
    output: codeOf(tax.taxSetting.outputAccountId) ?? '',
    input: codeOf(tax.taxSetting.inputAccountId) ?? '',
  };
  const taxCodes = tax?.taxCodes.map(({ code, name, rates, outputAccountId, inputAccountId }) => ({
    code,
    name,
    rates,
    ...(outputAccountId && { outputAccount: codeOf(outputAccountId) }),
    ...(inputAccountId && { inputAccount: codeOf(inputAccountId) }),
  }));
  // Openings: balance-sheet accounts as they stand the day before; income and expenses at
  // zero, their earlier results on the retained-earnings account.
  let carried = ZERO_CENTS;
  const opening = new Map<string, Cents>();
  for (const [code, cents] of balances.opening) {
    const account = chartByCode.get(code);
    if (account === undefined || isProfitAndLoss(account.class)) carried = addCents(carried, cents);
    else opening.set(code, cents);
  }
  const retained =
    request.retainedEarnings ??
    (carried === 0
      ? request.usualRetainedEarnings(carried)
      : usualAccountInChart(request.usualRetainedEarnings(carried), chartByCode));
  if (carried !== 0)
    opening.set(retained.code, addCents(opening.get(retained.code) ?? ZERO_CENTS, carried));

  const spool = path.join(
    request.directory,
    `.books-postings-${process.pid}-${Date.now()}.partial`,
  );
  const removeSpool = () => rmSync(spool, { force: true });
  try {
    const exported = await exportLedgerPostings(
      api,
      scope,
      { from, to, concurrency: request.concurrency },
      basis,
      spool,
      events,
      { accounts: chart },
    );
    if (exported === undefined)
      throw new NothingToExport(`the ${basis} ledger is not open: there is nothing to export`);

    // The file's figures, and each account's movement, in one pass over the postings.
    const movement = new Map<string, { debit: Cents; credit: Cents }>();
    const totals = { entries: 0, lines: 0, debit: ZERO_CENTS, credit: ZERO_CENTS };
    const leftOut = { lines: 0, entries: 0 };
    const sources = new Map<string, number>();
    for await (const entry of readEntries(spool)) {
      let kept = 0;
      for (const line of entry.lines) {
        if (line.debit === 0 && line.credit === 0) {
          leftOut.lines += 1;
          continue;
        }
        kept += 1;
        const moved = movement.get(line.code) ?? { debit: ZERO_CENTS, credit: ZERO_CENTS };
        moved.debit = addCents(moved.debit, line.debit);
        moved.credit = addCents(moved.credit, line.credit);
        movement.set(line.code, moved);
        totals.debit = addCents(totals.debit, line.debit);
        totals.credit = addCents(totals.credit, line.credit);
      }
      if (kept === 0) leftOut.entries += 1;
      else {
        totals.entries += 1;
        totals.lines += kept;
        sources.set(entry.source, (sources.get(entry.source) ?? 0) + 1);
      }
    }

    const codes = new Set([...opening.keys(), ...movement.keys()]);
    if (codes.size === 0)
      throw new NothingToExport(
        `the ${basis} ledger has no balance and no posting from ${from} to ${to}: there is nothing to export`,
      );
    const accounts = [...codes].sort(byCode).map((code): AuditAccount => {
      const known = chartByCode.get(code);
      const added = known === undefined && code === retained.code;
      const type: AccountType = known?.type ?? 'Equity';
      const moved = movement.get(code) ?? { debit: ZERO_CENTS, credit: ZERO_CENTS };
      const start = opening.get(code) ?? ZERO_CENTS;
      return {
        code,
        name: known?.name ?? (added ? retained.name : code),
        type,
        class: CLASS_OF_TYPE[type],
        opening: start,
        closing: addCents(start, subtractCents(moved.debit, moved.credit)),
        debit: moved.debit,
        credit: moved.credit,
        added,
      };
    });
    const accountByCode = new Map(accounts.map((account) => [account.code, account]));
    const fiscalYear = fiscalYearOf(from, request.fiscalYearStart);
    return {
      entity: scope.entity,
      basis,
      from,
      to,
      fiscalYear,
      accounts,
      accountByCode,
      openings: [...opening]
        .filter(([, cents]) => cents !== 0)
        .sort(([a], [b]) => byCode(a, b))
        .map(([code, amount]) => ({ code, amount })),
      retainedEarnings: {
        ...retained,
        amount: carried,
        added: carried !== 0 && !chartByCode.has(retained.code),
      },
      totals,
      sources,
      leftOut,
      vatAccountCodes,
      ...(tax && { taxCodes, vatAccounts }),
      ...(tax?.taxSetting.vatNumber && { vatNumber: tax.taxSetting.vatNumber }),
      ...(request.previousYear && {
        previousYear: await previousYearOf(
          api,
          entityId,
          basis,
          fiscalYear.startDate,
          request,
          chartByCode,
        ),
      }),
      entries: () => numberedEntries(spool),
      dispose: removeSpool,
    };
  } catch (error) {
    removeSpool();
    throw error;
  }
}

/** The format's usual retained-earnings account, as the chart has it (or not at all). */
function usualAccountInChart(
  usual: RetainedEarningsAccount,
  chartByCode: Map<string, Account>,
): RetainedEarningsAccount {
  const known = chartByCode.get(usual.code);
  if (known === undefined) return usual;
  if (known.class !== 'Equity')
    throw new UnusableAccount(
      `account ${known.code} "${known.name}" (${known.type}) holds the code this format's chart gives the earlier years' results (${usual.code} ${usual.name}): name the equity account that carries them with --retained-earnings`,
    );
  return { code: known.code, name: known.name };
}

/** `a Cash`, `an Income`. */
export const withArticle = (word: string) => `${/^[AEIOU]/i.test(word) ? 'an' : 'a'} ${word}`;

/** The fiscal year before `yearStart`: each account's closing balance and each result. */
async function previousYearOf(
  api: BooksApi,
  entityId: string,
  basis: LedgerBasis,
  yearStart: CalendarDay,
  request: AuditRequest,
  byCodeInChart: Map<string, Account>,
): Promise<AuditBooks['previousYear']> {
  const endDate = addDays(yearStart, -1);
  if (endDate < FIRST_DAY) return undefined;
  const previous = fiscalYearOf(endDate, request.fiscalYearStart);
  const balances = await balancesOverRange(api, entityId, {
    ...previous,
    ledgerBasis: basis,
    groupBy: 'total',
  });
  const atEnd = balances.columns[0]!;
  if (atEnd.size === 0) return undefined;
  const closing = new Map<string, Cents>();
  const results = new Map<string, Cents>();
  let carried = ZERO_CENTS;
  for (const code of new Set([...atEnd.keys(), ...balances.opening.keys()])) {
    const end = atEnd.get(code) ?? ZERO_CENTS;
    const start = balances.opening.get(code) ?? ZERO_CENTS;
    const accountClass = byCodeInChart.get(code)?.class;
    if (accountClass !== undefined && isProfitAndLoss(accountClass)) {
      const moved = subtractCents(end, start);
      if (moved !== 0) results.set(code, moved);
      carried = addCents(carried, start);
    } else if (end !== 0) closing.set(code, end);
  }
  const accounts = new Map<string, { name: string; class: AccountClass }>();
  if (carried !== 0) {
    const retained = request.retainedEarnings ?? request.usualRetainedEarnings(carried);
    closing.set(retained.code, addCents(closing.get(retained.code) ?? ZERO_CENTS, carried));
    accounts.set(retained.code, { name: retained.name, class: 'Equity' });
  }
  for (const code of [...closing.keys(), ...results.keys()]) {
    const known = byCodeInChart.get(code);
    if (known) accounts.set(code, { name: known.name, class: known.class });
  }
  return { ...previous, closing, results, accounts };
}

/** The spooled postings (the books CSV `books export` writes), entry by entry. */
async function* readEntries(file: string): AsyncGenerator<Omit<AuditEntry, 'number'>> {
  const parser = createReadStream(file).pipe(parse({ relax_column_count: false }));
  let entry: Omit<AuditEntry, 'number'> | undefined;
  for await (const fields of parser as AsyncIterable<string[]>) {
    const [id, date, code, , debit, credit, description, memo, , source, taxCode] = fields;
    if (id === 'entry' && date === 'date') continue;
    if (entry === undefined || entry.reference !== id) {
      if (entry) yield entry;
      entry = { reference: id!, date: date!, source: source!, memo: memo ?? '', lines: [] };
    }
    entry.lines.push({
      code: code!,
      debit: debit ? decimalToCents(debit) : ZERO_CENTS,
      credit: credit ? decimalToCents(credit) : ZERO_CENTS,
      description: description ?? '',
      ...(taxCode ? { taxCode } : {}),
    });
  }
  if (entry) yield entry;
}

/** Entries with their zero lines left out (and those left with none), numbered 1, 2, … */
async function* numberedEntries(file: string): AsyncGenerator<AuditEntry> {
  let number = 0;
  for await (const entry of readEntries(file)) {
    const lines = entry.lines.filter((line) => line.debit !== 0 || line.credit !== 0);
    if (lines.length === 0) continue;
    number += 1;
    yield { ...entry, number, lines };
  }
}
