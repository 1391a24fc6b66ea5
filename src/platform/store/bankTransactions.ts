import type { Decider, TransactionStatus } from '../../api/index.js';
import type { Cents } from '../../core/money.js';
import { textPool } from '../../core/names.js';
import { countOf, isStoredId, type Sql, type SqlValue } from './sql.js';
import { BASIS_CODE, SOURCE_KIND } from './postings.js';

/** A bank transaction as stored. */
export interface BankTransactionRecord {
  seq: number;
  id: string;
  entityId: string;
  financialAccountId: string;
  date: string;
  /** Signed: positive money in, negative money out (as the bank states it). */
  amountCents: Cents;
  description: string;
  externalId: string | null;
  /** The one account it posts to; for a transfer, the other side's bank or card account. */
  accountId: string | null;
  ruleId: string | null;
  createdAt: string;
  status: TransactionStatus;
  decidedBy: Decider | null;
  decidedAt: string | null;
  memo: string | null;
  /** A transfer: the other side's transaction, when it has arrived. */
  transferId: string | null;
  /** A match: the journal entry that already posts it. */
  matchedEntryId: string | null;
  version: number;
  /** Held as a possible duplicate: the transaction it may repeat. */
  duplicateOf: string | null;
  /** The days the file that brought it covered. */
  arrivedFrom: string | null;
  arrivedTo: string | null;
  /** The import that brought it (its lines are never duplicates of each other). */
  importId: string | null;
}

/** A transaction with what is shown of it: its bank account, its category's account, its entry. */
export interface BankTransactionView extends BankTransactionRecord {
  bankAccountId: string;
  bankAccountCode: string;
  bankAccountName: string;
  accountCode: string | null;
  accountName: string | null;
  entryDate: string | null;
  entryMemo: string | null;
  /** The transaction a possible duplicate may repeat, as it stands. */
  duplicate: { id: string; date: string; amountCents: Cents; description: string } | null;
}

/** One part of a split, as stored. */
export interface SplitRecord {
  accountId: string;
  amountCents: Cents;
  memo: string | null;
}

/** A split part with its account's code and name, for display. */
export interface SplitView extends SplitRecord {
  accountCode: string;
  accountName: string;
}

interface TransactionRow {
  seq: number;
  id: string;
  entity_id: string;
  financial_account_id: string;
  date: string;
  amount_cents: Cents;
  description: string;
  external_id: string | null;
  account_id: string | null;
  rule_id: string | null;
  created_at: string;
  status: string;
  decided_by: string | null;
  decided_at: string | null;
  memo: string | null;
  transfer_id: string | null;
  matched_entry_id: string | null;
  version: number;
  duplicate_of: string | null;
  arrived_from: string | null;
  arrived_to: string | null;
  import_id: string | null;
}

interface ViewRow extends TransactionRow {
  bank_account_id: string;
  bank_account_code: string;
  bank_account_name: string;
  account_code: string | null;
  account_name: string | null;
  entry_date: string | null;
  entry_memo: string | null;
  duplicate_date: string | null;
  duplicate_amount_cents: Cents | null;
  duplicate_description: string | null;
}

const toRecord = (row: TransactionRow): BankTransactionRecord => ({
  seq: Number(row.seq),
  id: row.id,
  entityId: row.entity_id,
  financialAccountId: row.financial_account_id,
  date: row.date,
  amountCents: row.amount_cents,
  description: row.description,
  externalId: row.external_id,
  accountId: row.account_id,
  ruleId: row.rule_id,
  createdAt: row.created_at,
  status: row.status as TransactionStatus,
  decidedBy: row.decided_by as Decider | null,
  decidedAt: row.decided_at,
  memo: row.memo,
  transferId: row.transfer_id,
  matchedEntryId: row.matched_entry_id,
  version: Number(row.version),
  duplicateOf: row.duplicate_of,
  arrivedFrom: row.arrived_from,
  arrivedTo: row.arrived_to,
  importId: row.import_id,
});

// The record's own object, added to: as a spread copy of it, a queue of 10,000 waiting lines
// took 60 MB of the heap to make (5 MB now).
const toView = (row: ViewRow): BankTransactionView =>
  Object.assign(toRecord(row), {
    bankAccountId: row.bank_account_id,
    bankAccountCode: row.bank_account_code,
    bankAccountName: row.bank_account_name,
    accountCode: row.account_code,
    accountName: row.account_name,
    entryDate: row.entry_date,
    entryMemo: row.entry_memo,
    duplicate:
      row.duplicate_of === null || row.duplicate_date === null
        ? null
        : {
            id: row.duplicate_of,
            date: row.duplicate_date,
            amountCents: row.duplicate_amount_cents!,
            description: row.duplicate_description!,
          },
  });

const COLUMNS =
  't.seq, t.id, t.entity_id, t.financial_account_id, t.date, t.amount_cents, t.description, t.external_id, t.account_id, t.rule_id, t.created_at, t.status, t.decided_by, t.decided_at, t.memo, t.transfer_id, t.matched_entry_id, t.version, t.duplicate_of, t.arrived_from, t.arrived_to, t.import_id';

const VIEW_COLUMNS = `${COLUMNS}, f.chart_account_id AS bank_account_id, ba.code AS bank_account_code, ba.name AS bank_account_name,
  ca.code AS account_code, ca.name AS account_name, je.date_only AS entry_date, je.memo AS entry_memo,
  dup.date AS duplicate_date, dup.amount_cents AS duplicate_amount_cents, dup.description AS duplicate_description`;

const VIEW_FROM = `FROM bank_transactions t
  JOIN financial_accounts f ON f.id = t.financial_account_id
  JOIN accounts ba ON ba.id = f.chart_account_id
  LEFT JOIN accounts ca ON ca.id = t.account_id
  LEFT JOIN journal_entries je ON je.id = t.matched_entry_id
  LEFT JOIN bank_transactions dup ON dup.id = t.duplicate_of`;

/** What a list of transactions is narrowed to. */
export interface TransactionFilter {
  entityId?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  status?: TransactionStatus | undefined;
  /** The financial account, or the chart account its bank posts to. */
  accountId?: string | undefined;
  /** Text the description or the reference contains, in any case. */
  search?: string | undefined;
  reference?: string | undefined;
  /** The start of the id (any case) or of the reference. */
  prefix?: string | undefined;
}

/** A decision as written: what the transaction becomes. */
export interface DecisionWrite {
  status: TransactionStatus;
  accountId: string | null;
  ruleId: string | null;
  decidedBy: Decider | null;
  decidedAt: string | null;
  memo: string | null;
  transferId: string | null;
  matchedEntryId: string | null;
}

/** A line of a client's history the learner reads: a categorized bank transaction. */
export interface CategorizedTransactionRow {
  description: string;
  amountCents: Cents;
  date: string;
  bankAccountId: string;
  accountId: string;
}

/** A journal entry's line on a bank or card account, with the entry's other lines. */
export interface EntryBankLine {
  entryId: string;
  date: string;
  memo: string | null;
  bankAccountId: string;
  /** Debits less credits on the bank account: as the bank states it. */
  amountCents: Cents;
  description: string;
  /** The entry's other lines: account and debits less credits. */
  others: { accountId: string; cents: Cents; description: string }[];
}

/** What a client of the firm decided of one text, as the firm's suggestions read it. */
export interface FirmDecisionRow {
  description: string;
  inflow: boolean;
  accountName: string;
  accountCode: string;
  uses: number;
  entityId: string;
  /** The client's workspace keeps its codes (a custom chart): its codes mean the firm's accounts. */
  codesKept: boolean;
}

interface FirmRow {
  description: string;
  inflow: number | boolean;
  account_name: string;
  account_code: string;
  uses: number;
  entity_id: string;
  codes_kept: number | boolean;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern (with ESCAPE '\'). */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The bank transactions of entities: their arrival, their decisions, what they teach. */
export class BankTransactionStore {
  constructor(private readonly sql: Sql) {}

  async hasExternalId(financialAccountId: string, externalId: string): Promise<boolean> {
    const row = await this.sql.get(
      'SELECT 1 AS found FROM bank_transactions WHERE financial_account_id = ? AND external_id = ?',
      [financialAccountId, externalId],
    );
    return row !== undefined;
  }

  /**
   * The lines of a financial account dated from `from` to `to`, whatever they stand at (what a
   * duplicate check compares arriving lines with).
   */
  async onAccountBetween(
    financialAccountId: string,
    from: string,
    to: string,
  ): Promise<BankTransactionRecord[]> {
    const rows = await this.sql.all<TransactionRow>(
      `SELECT ${COLUMNS} FROM bank_transactions t
       WHERE t.financial_account_id = ? AND t.date >= ? AND t.date <= ? ORDER BY t.date, t.seq`,
      [financialAccountId, from, to],
    );
    return rows.map(toRecord);
  }

  /** Inserts a transaction and answers its seq. */
  async insert(record: Omit<BankTransactionRecord, 'seq'>): Promise<number> {
    const row = await this.sql.get<{ seq: number }>(
      `INSERT INTO bank_transactions (id, entity_id, financial_account_id, date, amount_cents, description, external_id,
         account_id, rule_id, created_at, status, decided_by, decided_at, memo, transfer_id, matched_entry_id, version,
         duplicate_of, arrived_from, arrived_to, import_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
      [
        record.id,
        record.entityId,
        record.financialAccountId,
        record.date,
        record.amountCents,
        record.description,
        record.externalId,
        record.accountId,
        record.ruleId,
        record.createdAt,
        record.status,
        record.decidedBy,
        record.decidedAt,
        record.memo,
        record.transferId,
        record.matchedEntryId,
        record.version,
        record.duplicateOf,
        record.arrivedFrom,
        record.arrivedTo,
        record.importId,
      ],
    );
    return Number(row!.seq);
  }

  /** A transaction of the organization's book of business. */
  async find(organizationId: string, id: string): Promise<BankTransactionView | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<ViewRow>(
      `SELECT ${VIEW_COLUMNS} ${VIEW_FROM}
       JOIN entities e ON e.id = t.entity_id JOIN workspaces w ON w.id = e.workspace_id
       WHERE t.id = ? AND w.organization_id = ?`,
      [id, organizationId],
    );
    return row && toView(row);
  }

  /** Transactions of an entity by id, as they are now, in the order they arrived. */
  async byIds(entityId: string, ids: readonly string[]): Promise<BankTransactionView[]> {
    const stored = ids.filter(isStoredId);
    if (stored.length === 0) return [];
    const rows = await this.sql.all<ViewRow>(
      `SELECT ${VIEW_COLUMNS} ${VIEW_FROM} WHERE t.entity_id = ? AND t.id IN (${stored.map(() => '?').join(', ')}) ORDER BY t.seq`,
      [entityId, ...stored],
    );
    return rows.map(toView);
  }

  private where(filter: TransactionFilter, where: string[], values: SqlValue[]): void {
    if (filter.entityId !== undefined) {
      where.push('t.entity_id = ?');
      values.push(filter.entityId);
    }
    if (filter.startDate !== undefined) {
      where.push('t.date >= ?');
      values.push(filter.startDate);
    }
    if (filter.endDate !== undefined) {
      where.push('t.date <= ?');
      values.push(filter.endDate);
    }
    if (filter.status !== undefined) {
      where.push('t.status = ?');
      values.push(filter.status);
    }
    if (filter.accountId !== undefined) {
      where.push('(t.financial_account_id = ? OR f.chart_account_id = ?)');
      values.push(filter.accountId, filter.accountId);
    }
    if (filter.search !== undefined) {
      where.push(
        "(LOWER(t.description) LIKE ? ESCAPE '\\' OR LOWER(COALESCE(t.external_id, '')) LIKE ? ESCAPE '\\')",
      );
      values.push(likePattern(filter.search), likePattern(filter.search));
    }
    if (filter.reference !== undefined) {
      where.push('t.external_id = ?');
      values.push(filter.reference);
    }
    if (filter.prefix !== undefined) {
      const start = `${filter.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push("(CAST(t.id AS TEXT) LIKE ? ESCAPE '\\' OR t.external_id LIKE ? ESCAPE '\\')");
      values.push(start.toLowerCase(), start);
    }
  }

  /** A workspace's transactions, most recent first, with the count of all matches. */
  async list(workspaceId: string, limit: number, offset: number, filter: TransactionFilter = {}) {
    const where = ['e.workspace_id = ?'];
    const values: SqlValue[] = [workspaceId];
    this.where(filter, where, values);
    const from = `${VIEW_FROM} JOIN entities e ON e.id = t.entity_id WHERE ${where.join(' AND ')}`;
    const rows = await this.sql.all<ViewRow>(
      `SELECT ${VIEW_COLUMNS} ${from} ORDER BY t.date DESC, t.seq DESC LIMIT ? OFFSET ?`,
      [...values, limit, offset],
    );
    return {
      rows: rows.map(toView),
      total: await countOf(this.sql, `SELECT COUNT(*) AS n ${from}`, values),
    };
  }

  /** An entity's waiting transactions, oldest first (narrowed as a list is). */
  async waiting(entityId: string, filter: TransactionFilter = {}): Promise<BankTransactionView[]> {
    const where = ["t.entity_id = ? AND t.status = 'uncategorized'"];
    const values: SqlValue[] = [entityId];
    this.where({ ...filter, entityId: undefined, status: undefined }, where, values);
    const rows = await this.sql.all<ViewRow>(
      `SELECT ${VIEW_COLUMNS} ${VIEW_FROM} WHERE ${where.join(' AND ')} ORDER BY t.date, t.seq`,
      values,
    );
    return rows.map(toView);
  }

  /** The splits of some transactions, by seq, in order, with their accounts. */
  async splitsOf(seqs: readonly number[]): Promise<Map<number, SplitView[]>> {
    const result = new Map<number, SplitView[]>();
    for (let start = 0; start < seqs.length; start += 500) {
      const chunk = seqs.slice(start, start + 500);
      const rows = await this.sql.all<{
        transaction_seq: number;
        account_id: string;
        amount_cents: Cents;
        memo: string | null;
        code: string;
        name: string;
      }>(
        `SELECT s.transaction_seq, s.account_id, s.amount_cents, s.memo, a.code, a.name
         FROM bank_transaction_splits s JOIN accounts a ON a.id = s.account_id
         WHERE s.transaction_seq IN (${chunk.map(() => '?').join(', ')})
         ORDER BY s.transaction_seq, s.position`,
        chunk,
      );
      for (const row of rows) {
        const seq = Number(row.transaction_seq);
        const parts = result.get(seq) ?? [];
        parts.push({
          accountId: row.account_id,
          amountCents: row.amount_cents,
          memo: row.memo,
          accountCode: row.code,
          accountName: row.name,
        });
        result.set(seq, parts);
      }
    }
    return result;
  }

  /** Writes a decision and raises the version; a split's parts replace any it had. */
  async decide(seq: number, decision: DecisionWrite, splits: readonly SplitRecord[] = []) {
    await this.sql.run(
      `UPDATE bank_transactions SET status = ?, account_id = ?, rule_id = ?, decided_by = ?, decided_at = ?,
         memo = ?, transfer_id = ?, matched_entry_id = ?, version = version + 1 WHERE seq = ?`,
      [
        decision.status,
        decision.accountId,
        decision.ruleId,
        decision.decidedBy,
        decision.decidedAt,
        decision.memo,
        decision.transferId,
        decision.matchedEntryId,
        seq,
      ],
    );
    await this.sql.run('DELETE FROM bank_transaction_splits WHERE transaction_seq = ?', [seq]);
    for (const [position, part] of splits.entries()) {
      await this.sql.run(
        'INSERT INTO bank_transaction_splits (transaction_seq, position, account_id, amount_cents, memo) VALUES (?, ?, ?, ?, ?)',
        [seq, position, part.accountId, part.amountCents, part.memo],
      );
    }
  }

  /** A merge moves categories, split parts and transfers' other sides from one account to another. */
  async moveCategory(entityId: string, fromAccountId: string, toAccountId: string): Promise<void> {
    await this.sql.run(
      'UPDATE bank_transactions SET account_id = ? WHERE entity_id = ? AND account_id = ?',
      [toAccountId, entityId, fromAccountId],
    );
    await this.sql.run(
      `UPDATE bank_transaction_splits SET account_id = ? WHERE account_id = ?
         AND transaction_seq IN (SELECT seq FROM bank_transactions WHERE entity_id = ?)`,
      [toAccountId, fromAccountId, entityId],
    );
  }

  /** Transactions waiting for a decision that no rule has seen take, oldest first. */
  async uncategorized(entityId: string): Promise<BankTransactionRecord[]> {
    const rows = await this.sql.all<TransactionRow>(
      `SELECT ${COLUMNS} FROM bank_transactions t WHERE t.entity_id = ? AND t.status = 'uncategorized' ORDER BY t.seq`,
      [entityId],
    );
    return rows.map(toRecord);
  }

  /** The transaction a journal entry is matched by, if any. */
  async matchedBy(entryId: string): Promise<BankTransactionRecord | undefined> {
    const row = await this.sql.get<TransactionRow>(
      `SELECT ${COLUMNS} FROM bank_transactions t WHERE t.matched_entry_id = ?`,
      [entryId],
    );
    return row && toRecord(row);
  }

  /**
   * Where each bank or card account's statements begin in the books: the first day the files
   * that brought its lines covered (their own first day where that is not known), by the chart
   * account the feed posts to.
   */
  async firstStatementDays(entityId: string): Promise<Map<string, string>> {
    const rows = await this.sql.all<{ account_id: string; first_day: string }>(
      `SELECT f.chart_account_id AS account_id, MIN(COALESCE(t.arrived_from, t.date)) AS first_day
       FROM bank_transactions t JOIN financial_accounts f ON f.id = t.financial_account_id
       WHERE t.entity_id = ? GROUP BY f.chart_account_id`,
      [entityId],
    );
    return new Map(rows.map((row) => [String(row.account_id), String(row.first_day).slice(0, 10)]));
  }

  /** The journal entries of an entity that bank transactions are matched to. */
  async matchedEntries(entityId: string): Promise<Set<string>> {
    const rows = await this.sql.all<{ matched_entry_id: string }>(
      'SELECT matched_entry_id FROM bank_transactions WHERE entity_id = ? AND matched_entry_id IS NOT NULL',
      [entityId],
    );
    return new Set(rows.map((r) => String(r.matched_entry_id)));
  }

  /**
   * A transfer decided on another account whose other side has not arrived: one to this bank
   * account of the opposite amount within `days` of the day.
   */
  async openTransfer(
    entityId: string,
    bankAccountId: string,
    amountCents: Cents,
    from: string,
    to: string,
  ): Promise<BankTransactionRecord | undefined> {
    const row = await this.sql.get<TransactionRow>(
      `SELECT ${COLUMNS} FROM bank_transactions t
       WHERE t.entity_id = ? AND t.status = 'categorized' AND t.decided_by = 'transfer' AND t.transfer_id IS NULL
         AND t.account_id = ? AND t.amount_cents = ? AND t.date >= ? AND t.date <= ?
       ORDER BY t.date, t.seq LIMIT 1`,
      [entityId, bankAccountId, -amountCents, from, to],
    );
    return row && toRecord(row);
  }

  /**
   * What an entity has decided of its bank transactions, oldest first: each categorized one
   * with the account it went to (a split's largest part; a transfer's other bank account).
   */
  async categorizedHistory(entityId: string): Promise<CategorizedTransactionRow[]> {
    const history: CategorizedTransactionRow[] = [];
    const kept = textPool();
    // Row by row: a big history is a hundred thousand rows, held once, as the learner reads them.
    await this.sql.eachRow<
      [
        description: string,
        amountCents: Cents,
        date: string,
        bankAccountId: string,
        accountId: string | null,
      ]
    >(
      `SELECT t.description, t.amount_cents, t.date, f.chart_account_id AS bank_account_id,
              COALESCE(t.account_id, (SELECT s.account_id FROM bank_transaction_splits s
                                      WHERE s.transaction_seq = t.seq
                                      ORDER BY ABS(s.amount_cents) DESC, s.position LIMIT 1)) AS account_id
       FROM bank_transactions t JOIN financial_accounts f ON f.id = t.financial_account_id
       WHERE t.entity_id = ? AND t.status = 'categorized' AND t.matched_entry_id IS NULL
       ORDER BY t.date, t.seq`,
      [entityId],
      ([description, amountCents, date, bankAccountId, accountId]) => {
        if (accountId === null) return;
        history.push({
          description,
          amountCents,
          date: kept(date),
          bankAccountId: kept(bankAccountId),
          accountId: kept(accountId),
        });
      },
    );
    return history;
  }

  /**
   * The entity's journal entries on the cash ledger that touch a bank or card account (type
   * Cash or Credit Cards): one item per such line, with the entry's other lines. Oldest first.
   */
  async entryBankLines(entitySeq: number): Promise<EntryBankLine[]> {
    const cash = BASIS_CODE.cash;
    const kind = SOURCE_KIND.journalEntry;
    const rows = await this.sql.all<{
      source_seq: number;
      entry_id: string;
      day: string;
      memo: string | null;
      account_id: string;
      type: string;
      debit_cents: Cents;
      credit_cents: Cents;
      description: string;
    }>(
      `SELECT p.source_seq, j.id AS entry_id, p.day, j.memo, a.id AS account_id, a.type,
              p.debit_cents, p.credit_cents, p.description
       FROM postings p JOIN accounts a ON a.seq = p.account_seq JOIN journal_entries j ON j.seq = p.source_seq
       WHERE p.entity_seq = ? AND p.basis = ${cash} AND p.source_kind = ${kind}
         AND p.source_seq IN (SELECT b.source_seq FROM postings b JOIN accounts ba ON ba.seq = b.account_seq
                              WHERE b.entity_seq = ? AND b.basis = ${cash} AND b.source_kind = ${kind}
                                AND ba.type IN ('Cash', 'Credit Cards'))
       ORDER BY p.day, p.source_seq, p.line_no`,
      [entitySeq, entitySeq],
    );
    const lines: EntryBankLine[] = [];
    const kept = textPool();
    let start = 0;
    while (start < rows.length) {
      let end = start;
      while (end < rows.length && rows[end]!.source_seq === rows[start]!.source_seq) end += 1;
      const entry = rows.slice(start, end);
      for (const line of entry) {
        if (line.type !== 'Cash' && line.type !== 'Credit Cards') continue;
        lines.push({
          entryId: line.entry_id,
          date: kept(line.day),
          memo: line.memo,
          bankAccountId: kept(line.account_id),
          amountCents: (line.debit_cents - line.credit_cents) as Cents,
          description: line.description,
          others: entry
            .filter((other) => other !== line)
            .map((other) => ({
              accountId: kept(other.account_id),
              cents: (other.debit_cents - other.credit_cents) as Cents,
              description: other.description,
            })),
        });
      }
      start = end;
    }
    return lines;
  }

  /**
   * What the organization's entities decided, grouped by text and direction: each description
   * with the account it went to (name and code), how often, in which entity, and whether that
   * entity's workspace keeps its codes (a custom chart). Their categorized bank transactions,
   * and their journal entries on a bank or card account (a migrated ledger: years of a client's
   * decisions), each line by its text (else its entry's memo) against the entry's largest other
   * line, on the cash ledger.
   */
  async firmHistory(organizationId: string): Promise<FirmDecisionRow[]> {
    const banks = "('Cash', 'Credit Cards')";
    const fromBank = await this.sql.all<FirmRow>(
      `SELECT t.description, CASE WHEN t.amount_cents > 0 THEN 1 ELSE 0 END AS inflow,
              a.name AS account_name, a.code AS account_code, COUNT(*) AS uses, t.entity_id,
              w.custom_chart_of_accounts AS codes_kept
       FROM bank_transactions t JOIN accounts a ON a.id = t.account_id
       JOIN entities e ON e.id = t.entity_id JOIN workspaces w ON w.id = e.workspace_id
       WHERE w.organization_id = ? AND t.status = 'categorized'
       GROUP BY t.description, CASE WHEN t.amount_cents > 0 THEN 1 ELSE 0 END, a.name, a.code,
                t.entity_id, w.custom_chart_of_accounts`,
      [organizationId],
    );
    // Each bank or card line of a journal entry, with the account of the entry's largest other
    // line (found by the entry's own postings: one index lookup per line).
    const fromLedgers = await this.sql.all<FirmRow>(
      `SELECT b.text AS description, b.inflow, a.name AS account_name, a.code AS account_code,
              COUNT(*) AS uses, e.id AS entity_id, w.custom_chart_of_accounts AS codes_kept
       FROM (
         SELECT p.entity_seq,
                CASE WHEN p.debit_cents > p.credit_cents THEN 1 ELSE 0 END AS inflow,
                CASE WHEN p.description <> '' THEN p.description ELSE COALESCE(j.memo, '') END
                  AS text,
                (SELECT o.account_seq FROM postings o JOIN accounts oa ON oa.seq = o.account_seq
                 WHERE o.source_kind = p.source_kind AND o.source_seq = p.source_seq
                   AND o.basis = p.basis AND oa.type NOT IN ${banks}
                 ORDER BY o.debit_cents + o.credit_cents DESC, o.line_no LIMIT 1) AS other_seq
         FROM entities e0 JOIN workspaces w0 ON w0.id = e0.workspace_id
         JOIN accounts ba ON ba.entity_id = e0.id AND ba.type IN ${banks}
         JOIN postings p ON p.entity_seq = e0.seq AND p.basis = ${BASIS_CODE.cash}
                        AND p.account_seq = ba.seq
         JOIN journal_entries j ON j.seq = p.source_seq
         WHERE w0.organization_id = ? AND p.source_kind = ${SOURCE_KIND.journalEntry}
           AND p.debit_cents <> p.credit_cents
       ) b
       JOIN accounts a ON a.seq = b.other_seq
       JOIN entities e ON e.seq = b.entity_seq JOIN workspaces w ON w.id = e.workspace_id
       WHERE b.text <> ''
       GROUP BY b.text, b.inflow, a.name, a.code, e.id, w.custom_chart_of_accounts`,
      [organizationId],
    );
    return [...fromBank, ...fromLedgers].map((row) => ({
      description: row.description,
      inflow: Boolean(Number(row.inflow)),
      accountName: row.account_name,
      accountCode: row.account_code,
      uses: Number(row.uses),
      entityId: String(row.entity_id),
      codesKept: Boolean(Number(row.codes_kept)),
    }));
  }

  /** Per entity of a workspace: how many wait, the oldest, money in and out. */
  async waitingByEntity(workspaceId: string) {
    const rows = await this.sql.all<{
      entity_id: string;
      waiting: number;
      oldest: string | null;
      money_in: number | null;
      money_out: number | null;
    }>(
      `SELECT t.entity_id, COUNT(*) AS waiting, MIN(t.date) AS oldest,
              SUM(CASE WHEN t.amount_cents > 0 THEN t.amount_cents ELSE 0 END) AS money_in,
              SUM(CASE WHEN t.amount_cents < 0 THEN -t.amount_cents ELSE 0 END) AS money_out
       FROM bank_transactions t JOIN entities e ON e.id = t.entity_id
       WHERE e.workspace_id = ? AND t.status = 'uncategorized'
       GROUP BY t.entity_id`,
      [workspaceId],
    );
    return new Map(
      rows.map((row) => [
        String(row.entity_id),
        {
          waiting: Number(row.waiting),
          oldest: row.oldest,
          moneyInCents: Number(row.money_in ?? 0) as Cents,
          moneyOutCents: Number(row.money_out ?? 0) as Cents,
        },
      ]),
    );
  }

  /** How many transactions an entity has (the learner's history is read only where any are). */
  async count(entityId: string): Promise<number> {
    return countOf(this.sql, 'SELECT COUNT(*) AS n FROM bank_transactions WHERE entity_id = ?', [
      entityId,
    ]);
  }
}
