import { addCents, centsToAmount, formatCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import type { AccountReconciliation } from '../../migrate/close/reconcile.js';
import type { Statement, StatementRow } from './statements.js';

/*
 * A reconciliation as the firm files it, modelled on QuickBooks' reconciliation report: the
 * statement's beginning balance, what cleared (checks and payments, deposits and other
 * credits), its ending balance; what has not cleared yet; the register (books) balance; what is
 * missing in the books; the difference; then each item. A `Statement` of the packs (one amount
 * column), so the pack's PDF and workbook draw it.
 */

/** The reconciliation as JSON (`books reconcile --json`): amounts as numbers. */
export function reconciliationJson(result: AccountReconciliation) {
  return {
    account: { id: result.account.id, code: result.account.code, name: result.account.name },
    from: result.from,
    to: result.to,
    bank: {
      opening: centsToAmount(result.bank.opening),
      closing: centsToAmount(result.bank.closing),
    },
    books: {
      opening: centsToAmount(result.books.opening),
      closing: centsToAmount(result.books.closing),
    },
    matched: result.matched,
    missingInBooks: result.missingInBooks.map((entry) => ({
      bookingDate: entry.bookingDate,
      amount: centsToAmount(entry.amount),
      description: entry.description,
      reference: entry.reference,
    })),
    notOnStatement: result.notOnStatement.map((posting) => ({
      date: posting.date,
      amount: centsToAmount(posting.amount),
      description: posting.description || posting.memo,
      entryId: posting.entryId,
    })),
    sentNotOnStatement: result.sentNotOnStatement.map((posting) => ({
      date: posting.date,
      amount: centsToAmount(posting.amount),
      description: posting.description || posting.memo,
      entryId: posting.entryId,
    })),
    unproven: result.unproven,
    difference: centsToAmount(result.difference),
    reconciled: result.reconciled,
    statements: result.statements,
    pending: result.pending.length,
    notes: result.notes,
  };
}

const sum = (amounts: Iterable<Cents>) => {
  let total = ZERO_CENTS;
  for (const amount of amounts) total = addCents(total, amount);
  return total;
};

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The report: a summary, then the items cleared, not cleared, and missing in the books. */
export function reconciliationStatement(
  result: AccountReconciliation,
  reconciledBy: string,
): Statement {
  const cleared = result.matches.flatMap((m) => m.entries);
  const payments = cleared.filter((e) => e.amount < 0);
  const deposits = cleared.filter((e) => e.amount > 0);
  const unclearedPayments = result.notOnStatement.filter((p) => p.amount < 0);
  const unclearedDeposits = result.notOnStatement.filter((p) => p.amount > 0);
  const rows: StatementRow[] = [];
  const row = (
    label: string,
    value: Cents | null,
    kind: StatementRow['kind'] = 'line',
    depth = 1,
    section = 'summary',
  ) =>
    rows.push({
      label,
      depth,
      kind,
      values: [value === null ? null : centsToAmount(value)],
      section,
    });
  row('Summary', null, 'heading', 0);
  row(`Statement beginning balance (${result.from})`, result.bank.opening);
  row(
    `Cleared checks and payments (${count(payments.length, 'item')})`,
    sum(payments.map((e) => e.amount)),
    'line',
    2,
  );
  row(
    `Cleared deposits and other credits (${count(deposits.length, 'item')})`,
    sum(deposits.map((e) => e.amount)),
    'line',
    2,
  );
  row(`Statement ending balance (${result.to})`, result.bank.closing, 'total');
  row(
    `Uncleared checks and payments (${count(unclearedPayments.length, 'item')})`,
    sum(unclearedPayments.map((p) => p.amount)),
    'line',
    2,
  );
  row(
    `Uncleared deposits and other credits (${count(unclearedDeposits.length, 'item')})`,
    sum(unclearedDeposits.map((p) => p.amount)),
    'line',
    2,
  );
  if (result.sentNotOnStatement.length > 0)
    row(
      `Sent by the bank, not on the statement (${count(result.sentNotOnStatement.length, 'item')})`,
      sum(result.sentNotOnStatement.map((p) => p.amount)),
      'line',
      2,
    );
  row(`Register balance (${result.to})`, result.books.closing, 'total');
  row(
    `Missing in the books (${count(result.missingInBooks.length, 'item')})`,
    sum(result.missingInBooks.map((e) => e.amount)),
  );
  row('Difference', result.difference, 'total');
  row(result.reconciled ? 'Reconciled' : 'Not reconciled', null, 'heading', 0);
  row(`Reconciled by ${reconciledBy}`, null, 'line', 1);
  const items = (
    title: string,
    list: { date: string; text: string; amount: Cents }[],
    section: string,
  ) => {
    if (list.length === 0) return;
    row(`${title} (${count(list.length, 'item')})`, null, 'heading', 0, section);
    for (const item of list) row(`${item.date}  ${item.text}`, item.amount, 'line', 1, section);
    row(`Total ${title.toLowerCase()}`, sum(list.map((i) => i.amount)), 'total', 0, section);
  };
  const entryText = (e: {
    description: string;
    counterparty: string | null;
    reference: string | null;
  }) =>
    [e.counterparty, e.description, e.reference ? `ref ${e.reference}` : '']
      .filter(Boolean)
      .join(' · ');
  items(
    'Cleared transactions',
    cleared.map((e) => ({ date: e.bookingDate, text: entryText(e), amount: e.amount })),
    'cleared',
  );
  items(
    'Uncleared transactions',
    result.notOnStatement.map((p) => ({
      date: p.date,
      text: p.description || p.memo,
      amount: p.amount,
    })),
    'uncleared',
  );
  items(
    'Sent by the bank, not on the statement',
    result.sentNotOnStatement.map((p) => ({
      date: p.date,
      text: `${p.description || p.memo} (a duplicate, or another statement's)`,
      amount: p.amount,
    })),
    'sent',
  );
  items(
    'Missing in the books',
    result.missingInBooks.map((e) => ({
      date: e.bookingDate,
      text: entryText(e),
      amount: e.amount,
    })),
    'missing',
  );
  for (const note of result.notes) row(note, null, 'line', 0, 'notes');
  return {
    title: `Reconciliation: ${result.account.code} ${result.account.name}`,
    subtitle: `${result.from} to ${result.to}`,
    columns: ['Amount'],
    rows,
    tidy: {
      periods: [{ startDate: result.from, endDate: result.to }],
      rows: rows.map((r) => ({ section: r.section, code: '', name: r.label, values: r.values })),
    },
  };
}

/** The summary as a terminal shows it: `label  bank  books` lines. */
export function reconciliationSummary(result: AccountReconciliation): [string, string][] {
  const outstanding = sum(result.notOnStatement.map((p) => p.amount));
  return [
    ['Account', `${result.account.code} ${result.account.name}`],
    ['Period', `${result.from} to ${result.to} (${count(result.statements, 'statement')})`],
    ['Bank opening', formatCents(result.bank.opening)],
    ['Books opening', formatCents(result.books.opening)],
    ['Bank closing', formatCents(result.bank.closing)],
    ['Books closing', formatCents(result.books.closing)],
    ['Matched', count(result.matched, 'statement entry', 'statement entries')],
    [
      'Missing in the books',
      `${result.missingInBooks.length} (${formatCents(sum(result.missingInBooks.map((e) => e.amount)))})`,
    ],
    ['Not on the statement', `${result.notOnStatement.length} (${formatCents(outstanding)})`],
    ...(result.sentNotOnStatement.length > 0
      ? [
          [
            'Sent by the bank, not on it',
            `${result.sentNotOnStatement.length} (${formatCents(sum(result.sentNotOnStatement.map((p) => p.amount)))})`,
          ] as [string, string],
        ]
      : []),
    ['Difference', formatCents(result.difference)],
    ['Reconciled', result.reconciled ? 'yes' : 'no'],
  ];
}

/**
 * A close review as a page of the pack: ready or not, then each check with its status, what it
 * found and what to do.
 */
export function reviewStatement(
  review: {
    ready: boolean;
    checks: readonly {
      id: string;
      status: string;
      count: number;
      items: readonly string[];
      hint: string;
    }[];
  },
  period: { startDate: string; endDate: string },
): Statement {
  const rows: StatementRow[] = [];
  const row = (label: string, depth: number, kind: StatementRow['kind'], section: string) =>
    rows.push({ label, depth, kind, values: [null], section });
  row(
    review.ready ? 'Ready to close: no check fails' : 'Not ready to close: a check fails',
    0,
    'heading',
    'review',
  );
  for (const check of review.checks) {
    row(
      `${check.id}: ${check.status}${check.count > 0 ? ` (${check.count})` : ''}`,
      0,
      check.status === 'fail' ? 'total' : 'line',
      check.id,
    );
    for (const item of check.items) row(item, 2, 'line', check.id);
    if (check.status !== 'pass') row(check.hint, 2, 'line', check.id);
  }
  return {
    title: 'Close Review',
    subtitle: `${period.startDate} to ${period.endDate}`,
    columns: [''],
    rows,
    tidy: {
      periods: [period],
      rows: rows.map((r) => ({ section: r.section, code: '', name: r.label, values: r.values })),
    },
  };
}
