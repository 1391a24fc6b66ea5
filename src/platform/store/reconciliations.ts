import type { Cents } from '../../core/money.js';
import { type Sql } from './sql.js';

/** A reconciliation as stored. */
export interface ReconciliationRecord {
  id: string;
  entityId: string;
  accountId: string;
  startDate: string;
  endDate: string;
  openingCents: Cents;
  closingCents: Cents;
  entries: number;
  createdAt: string;
}

interface ReconciliationRow {
  id: string;
  entity_id: string;
  account_id: string;
  start_date: string;
  end_date: string;
  opening_cents: Cents;
  closing_cents: Cents;
  entries: number;
  created_at: string;
}

const toRecord = (row: ReconciliationRow): ReconciliationRecord => ({
  id: row.id,
  entityId: row.entity_id,
  accountId: row.account_id,
  startDate: row.start_date,
  endDate: row.end_date,
  openingCents: Number(row.opening_cents) as Cents,
  closingCents: Number(row.closing_cents) as Cents,
  entries: Number(row.entries),
  createdAt: row.created_at,
});

/** Bank and card accounts reconciled to statements, and the entries each cleared. */
export class ReconciliationStore {
  constructor(private readonly sql: Sql) {}

  async insert(record: ReconciliationRecord, entryIds: readonly string[]): Promise<void> {
    const row = await this.sql.get<{ seq: number }>(
      `INSERT INTO reconciliations (id, entity_id, account_id, start_date, end_date, opening_cents, closing_cents, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
      [
        record.id,
        record.entityId,
        record.accountId,
        record.startDate,
        record.endDate,
        record.openingCents,
        record.closingCents,
        record.createdAt,
      ],
    );
    const seq = Number(row!.seq);
    const unique = [...new Set(entryIds)];
    for (let start = 0; start < unique.length; start += 500) {
      const chunk = unique.slice(start, start + 500);
      await this.sql.run(
        `INSERT INTO reconciled_entries (reconciliation_seq, entry_id) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
        chunk.flatMap((id) => [seq, id]),
      );
    }
  }

  /** An entity's reconciliations (of one account, where named), latest end first. */
  async list(entityId: string, accountId?: string): Promise<ReconciliationRecord[]> {
    const rows = await this.sql.all<ReconciliationRow>(
      `SELECT r.id, r.entity_id, r.account_id, r.start_date, r.end_date, r.opening_cents, r.closing_cents,
              r.created_at, (SELECT COUNT(*) FROM reconciled_entries e WHERE e.reconciliation_seq = r.seq) AS entries
       FROM reconciliations r
       WHERE r.entity_id = ?${accountId === undefined ? '' : ' AND r.account_id = ?'}
       ORDER BY r.end_date DESC, r.seq DESC`,
      accountId === undefined ? [entityId] : [entityId, accountId],
    );
    return rows.map(toRecord);
  }

  /** Each account's last reconciled day: the latest end of its reconciliations. */
  async lastReconciledDays(entityId: string): Promise<Map<string, string>> {
    const rows = await this.sql.all<{ account_id: string; end_date: string }>(
      'SELECT account_id, MAX(end_date) AS end_date FROM reconciliations WHERE entity_id = ? GROUP BY account_id',
      [entityId],
    );
    return new Map(rows.map((row) => [String(row.account_id), row.end_date]));
  }

  /** The entries of an entity some statement cleared. */
  async reconciledEntries(entityId: string): Promise<Set<string>> {
    const rows = await this.sql.all<{ entry_id: string }>(
      `SELECT DISTINCT e.entry_id FROM reconciled_entries e
       JOIN reconciliations r ON r.seq = e.reconciliation_seq WHERE r.entity_id = ?`,
      [entityId],
    );
    return new Set(rows.map((row) => String(row.entry_id)));
  }
}
