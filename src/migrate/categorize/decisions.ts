/**
 * Deciding bank transactions over the API: what a decision is sent as (keyed, so that a retry
 * replays and never decides twice), in batches of a hundred, each decided or refused on its
 * own; the decisions a CSV file holds, checked whole before anything is sent; the suggestions
 * `--auto` takes; the rule one decision implies.
 */
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { csvMessage, MAX_RECORD_CHARACTERS } from '../../formats/common/csvRecords.js';
import type {
  Account,
  BankTransaction,
  Class,
  CreateTransactionRuleBody,
  DecisionBody,
  DecisionOutcome,
} from '../../api/index.js';
import { MAX_BULK_ITEMS } from '../../api/index.js';
import type { BooksApi } from '../../client/index.js';
import { resolveReference } from '../../client/references.js';
import {
  absCents,
  answeredAmountToCents,
  centsToAmount,
  decimalToCents,
  formatCents,
  InvalidAmountError,
  subtractCents,
  sumCents,
  type Cents,
} from '../../core/money.js';
import { ruleTextOf } from '../../core/ruleLearning.js';
import { didYouMean } from '../../core/names.js';

/** One decision on one transaction, as it will be sent. */
export interface Decision {
  transaction: BankTransaction;
  body: DecisionBody;
}

/**
 * The key a decision is sent under: the transaction, the version it was made on, and what was
 * decided. The same decision retried replays; a new one (or one on a later version) is new.
 */
export function decisionKey(transactionId: string, body: DecisionBody): string {
  return `decision-${createHash('sha256')
    .update(JSON.stringify([transactionId, body]))
    .digest('hex')
    .slice(0, 40)}`;
}

/**
 * Sends decisions of one entity, a hundred per request (each request keyed by its content),
 * and answers each one's outcome in order: decided (200, with the transaction and what else
 * changed) or refused (its status and message).
 */
export async function sendDecisions(
  api: BooksApi,
  entityId: string,
  decisions: readonly Decision[],
  onBatch?: (outcomes: readonly DecisionOutcome[]) => void,
): Promise<DecisionOutcome[]> {
  const outcomes: DecisionOutcome[] = [];
  for (let start = 0; start < decisions.length; start += MAX_BULK_ITEMS) {
    const batch = decisions.slice(start, start + MAX_BULK_ITEMS).map((d) => ({
      transactionId: d.transaction.id,
      ...d.body,
    }));
    const key = `decisions-${createHash('sha256')
      .update(JSON.stringify([entityId, batch]))
      .digest('hex')
      .slice(0, 40)}`;
    const { data } = await api.sandbox.decideMany(entityId, { decisions: batch }, key);
    outcomes.push(...data);
    onBatch?.(data);
  }
  return outcomes;
}

/** A decision's body from a suggestion: what `--auto` (and accepting one) sends. */
export function acceptSuggestion(transaction: BankTransaction): DecisionBody | undefined {
  const suggestion = transaction.suggestion;
  if (!suggestion) return undefined;
  const version = transaction.version;
  switch (suggestion.kind) {
    case 'match':
      return { kind: 'match', version, entryId: suggestion.entryId! };
    case 'transfer':
      return suggestion.transactionId
        ? { kind: 'transfer', version, otherTransactionId: suggestion.transactionId }
        : { kind: 'transfer', version, accountId: suggestion.accountId };
    case 'account':
      return {
        kind: 'account',
        version,
        accountId: suggestion.accountId,
        decidedBy: 'suggestion',
        ...(suggestion.taxCode && { taxCode: suggestion.taxCode }),
      };
  }
}

/**
 * The suggestions at or above `minConfidence`, as decisions: a transfer's other side is left
 * out (deciding one side decides both).
 */
export function confidentDecisions(
  queue: readonly BankTransaction[],
  minConfidence: number,
): Decision[] {
  const taken = new Set<string>();
  const decisions: Decision[] = [];
  for (const transaction of queue) {
    if (taken.has(transaction.id)) continue;
    if (!transaction.suggestion || transaction.suggestion.confidence < minConfidence) continue;
    const body = acceptSuggestion(transaction);
    if (!body) continue;
    if (body.kind === 'transfer' && body.otherTransactionId) taken.add(body.otherTransactionId);
    taken.add(transaction.id);
    decisions.push({ transaction, body });
  }
  return decisions;
}

/**
 * The rule a decision to an account implies: the payee's text as the bank wrote it, in the
 * transaction's direction, to the account (and class). Undefined when the text names no payee
 * a rule could look for.
 */
export function impliedRule(
  transaction: BankTransaction,
  accountId: string,
  classIds: readonly string[] = [],
): CreateTransactionRuleBody | undefined {
  const text = ruleTextOf(transaction.description);
  if (text === '') return undefined;
  return {
    conditions: [
      { conditionType: 'description_contains', value: [text] },
      { conditionType: 'direction_is', value: [transaction.amount > 0 ? 'inflow' : 'outflow'] },
    ],
    actions: [
      { actionType: 'account_id', value: accountId },
      ...classIds.map((value) => ({ actionType: 'class_id' as const, value })),
    ],
    note: `made from the decision on "${transaction.description}"`,
  };
}

/** A problem of a decisions file, by its line. */
export interface FileProblem {
  line: number;
  message: string;
}

/** What resolving a decisions file needs: the entity's chart, classes and transactions. */
export interface DecisionResolvers {
  accounts: readonly Account[];
  classes: readonly Class[];
  /** The transaction a cell names (its id, or the bank's reference), or why none. */
  transaction(given: string): BankTransaction | string;
}

const accountText = (a: Account) => `${a.code} "${a.name}"`;

/** An account by id, code or name; why not, when none or several. */
export function accountNamed(accounts: readonly Account[], given: string): Account | string {
  const resolution = resolveReference(accounts, given, (a) => ({
    id: a.id,
    code: a.code,
    name: a.name,
  }));
  if (resolution.found) {
    if (resolution.found.isDisabled) return `account ${accountText(resolution.found)} is archived`;
    return resolution.found;
  }
  if (resolution.ambiguous)
    return `"${given}" names ${resolution.ambiguous.length} accounts (${resolution.ambiguous.map(accountText).join(', ')}): use the code or id`;
  return `no account "${given}" (by id, code or name)${didYouMean(
    accounts.map((a) => a.name),
    given,
  )}`;
}

/**
 * The decisions a CSV file holds — columns `id` or `reference`, `account`, and optionally
 * `class`, `memo`, `amount` (several rows of one transaction with amounts are its split) and
 * `tax_code` (the platform checks it is a code of the entity) —
 * checked whole: every row that cannot be decided is named with its line, and none is sent
 * unless all can be.
 */
export function decisionsFromCsv(
  text: string,
  resolvers: DecisionResolvers,
): { decisions: Decision[]; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      skip_empty_lines: true,
      delimiter: [',', ';', '\t'],
      max_record_size: MAX_RECORD_CHARACTERS,
    }) as string[][];
  } catch (error) {
    const failure = error as Error & { code?: string; lines?: number };
    return {
      decisions: [],
      problems: [{ line: failure.lines ?? 1, message: csvMessage(failure) }],
    };
  }
  const [header, ...rows] = records;
  if (!header) return { decisions: [], problems: [{ line: 1, message: 'the file is empty' }] };
  const column = (...names: string[]) =>
    header.findIndex((h) =>
      names.includes(
        h
          .trim()
          .toLowerCase()
          .replace(/[\s_-]/g, ''),
      ),
    );
  const idColumn = column('id', 'transactionid', 'transaction');
  const referenceColumn = column('reference', 'ref', 'externalid');
  const accountColumn = column('account', 'category');
  const classColumn = column('class');
  const memoColumn = column('memo', 'note');
  const amountColumn = column('amount');
  const taxCodeColumn = column('taxcode', 'vatcode');
  if (idColumn < 0 && referenceColumn < 0)
    problems.push({ line: 1, message: 'the header has no "id" or "reference" column' });
  if (accountColumn < 0) problems.push({ line: 1, message: 'the header has no "account" column' });
  if (problems.length > 0) return { decisions: [], problems };

  interface Row {
    line: number;
    transaction: BankTransaction;
    accountId: string;
    classIds: string[];
    memo: string | null;
    taxCode: string | null;
    /** In the transaction's direction. */
    cents: Cents | null;
  }
  const byTransaction = new Map<string, Row[]>();
  rows.forEach((cells, index) => {
    const line = index + 2;
    const cell = (at: number) => (at >= 0 ? (cells[at] ?? '').trim() : '');
    const given = cell(idColumn) || cell(referenceColumn);
    if (given === '') {
      problems.push({ line, message: 'no id or reference' });
      return;
    }
    const transaction = resolvers.transaction(given);
    if (typeof transaction === 'string') {
      problems.push({ line, message: transaction });
      return;
    }
    const account = accountNamed(resolvers.accounts, cell(accountColumn));
    if (cell(accountColumn) === '') {
      problems.push({ line, message: 'no account' });
      return;
    }
    if (typeof account === 'string') {
      problems.push({ line, message: account });
      return;
    }
    const classIds: string[] = [];
    if (cell(classColumn) !== '') {
      const found = resolveReference(resolvers.classes, cell(classColumn), (c) => ({
        id: c.id,
        name: c.label,
      }));
      if (!found.found) {
        problems.push({
          line,
          message: found.ambiguous
            ? `"${cell(classColumn)}" names ${found.ambiguous.length} classes: use the id`
            : `no class "${cell(classColumn)}" (by id or label)`,
        });
        return;
      }
      classIds.push(found.found.id);
    }
    let cents: Cents | null = null;
    if (cell(amountColumn) !== '') {
      try {
        cents = decimalToCents(cell(amountColumn), { allowNegative: true });
      } catch (error) {
        if (!(error instanceof InvalidAmountError)) throw error;
        problems.push({ line, message: `amount "${cell(amountColumn)}" ${error.message}` });
        return;
      }
    }
    const list = byTransaction.get(transaction.id) ?? [];
    list.push({
      line,
      transaction,
      accountId: account.id,
      classIds,
      memo: cell(memoColumn) || null,
      taxCode: cell(taxCodeColumn) || null,
      cents,
    });
    byTransaction.set(transaction.id, list);
  });

  const decisions: Decision[] = [];
  for (const list of byTransaction.values()) {
    const [first] = list as [Row, ...Row[]];
    const { transaction } = first;
    if (list.length === 1) {
      const whole = absCents(answeredAmountToCents(transaction.amount));
      if (first.cents !== null && absCents(first.cents) !== whole) {
        problems.push({
          line: first.line,
          message: `amount ${formatCents(first.cents)} is not the transaction's ${formatCents(whole)}: a split takes several rows`,
        });
        continue;
      }
      decisions.push({
        transaction,
        body: {
          kind: 'account',
          version: transaction.version,
          accountId: first.accountId,
          ...(first.classIds.length > 0 && { classIds: first.classIds }),
          ...(first.memo !== null && { memo: first.memo }),
          ...(first.taxCode !== null && { taxCode: first.taxCode }),
        },
      });
      continue;
    }
    const missing = list.find((row) => row.cents === null);
    if (missing) {
      problems.push({
        line: missing.line,
        message: `transaction ${transaction.id} has ${list.length} rows: each part of a split needs its amount`,
      });
      continue;
    }
    const cents = sumCents(list.map((row) => row.cents!));
    const expected = absCents(answeredAmountToCents(transaction.amount));
    if (cents !== expected) {
      problems.push({
        line: list.at(-1)!.line,
        message: `the parts of transaction ${transaction.id} (lines ${list.map((r) => r.line).join(', ')}) add up to ${formatCents(cents)}, not its ${formatCents(expected)}: a difference of ${formatCents(subtractCents(expected, cents))}`,
      });
      continue;
    }
    decisions.push({
      transaction,
      body: {
        kind: 'split',
        version: transaction.version,
        splits: list.map((row) => ({
          accountId: row.accountId,
          amount: centsToAmount(row.cents!),
          ...(row.classIds.length > 0 && { classIds: row.classIds }),
          ...(row.memo !== null && { memo: row.memo }),
          ...(row.taxCode !== null && { taxCode: row.taxCode }),
        })),
      },
    });
  }
  return { decisions, problems: problems.sort((a, b) => a.line - b.line) };
}
