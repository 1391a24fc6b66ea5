import type { Sql } from './sql.js';

/** `open` → `generating` (rules being made) → `finalized`. */
export type MigrationState = 'open' | 'generating' | 'finalized';

/** Whether entries written now belong to the migration (and categorization waits). */
export function migrationIsOpen(state: MigrationState | null | undefined): boolean {
  return state === 'open' || state === 'generating';
}

export interface MigrationRecord {
  id: string;
  entityId: string;
  state: MigrationState;
  enrichmentRulesSeededAt: string | null;
  createdAt: string;
}

interface MigrationRow {
  id: string;
  entity_id: string;
  state: string;
  enrichment_rules_seeded_at: string | null;
  created_at: string;
}

const COLUMNS = 'id, entity_id, state, enrichment_rules_seeded_at, created_at';

const toRecord = (row: MigrationRow): MigrationRecord => ({
  id: row.id,
  entityId: row.entity_id,
  state: row.state as MigrationState,
  enrichmentRulesSeededAt: row.enrichment_rules_seeded_at,
  createdAt: row.created_at,
});

export interface LearningRow {
  description: string;
  memo: string | null;
  accountId: string;
}

/** How many learning lines are read at a time. */
const LEARNING_CHUNK = 5000;

export class AccountingMigrationStore {
  constructor(private readonly sql: Sql) {}

  async insert(record: MigrationRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO accounting_migrations (id, entity_id, state, enrichment_rules_seeded_at, created_at)
       VALUES (?, ?, ?, ?, ?)`,
      [record.id, record.entityId, record.state, record.enrichmentRulesSeededAt, record.createdAt],
    );
  }

  async forEntity(entityId: string): Promise<MigrationRecord | undefined> {
    const row = await this.sql.get<MigrationRow>(
      `SELECT ${COLUMNS} FROM accounting_migrations WHERE entity_id = ?`,
      [entityId],
    );
    return row && toRecord(row);
  }

  async update(record: MigrationRecord): Promise<void> {
    await this.sql.run(
      'UPDATE accounting_migrations SET state = ?, enrichment_rules_seeded_at = ? WHERE id = ?',
      [record.state, record.enrichmentRulesSeededAt, record.id],
    );
  }

  /**
   * Moves a migration from one state to another, only if it is in the first: false when
   * another process moved it first (so that a job runs once, wherever it was started).
   */
  async transition(
    record: MigrationRecord,
    from: MigrationState,
    to: Partial<MigrationRecord> & { state: MigrationState },
  ): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE accounting_migrations SET state = ?, enrichment_rules_seeded_at = ?
       WHERE id = ? AND state = ?`,
      [to.state, to.enrichmentRulesSeededAt ?? record.enrichmentRulesSeededAt, record.id, from],
    );
    return changed === 1;
  }

  /** Migrations whose rule generation had started and not ended. */
  async generating(): Promise<MigrationRecord[]> {
    const rows = await this.sql.all<MigrationRow>(
      `SELECT ${COLUMNS} FROM accounting_migrations WHERE state = 'generating'`,
    );
    return rows.map(toRecord);
  }

  /**
   * The Procedure's step 4: cash ledger; Income or Expenses accounts not named Uncategorized...;
   * dated in the window; the line's description, or the entry's memo (checked by the caller).
   * Read a chunk at a time: on a million-line ledger, a year of them is a lot to hold.
   */
  async *learningLines(
    entitySeq: number,
    from: string,
    before: string,
  ): AsyncGenerator<LearningRow> {
    let afterId = 0;
    for (;;) {
      const rows = await this.sql.all<{
        id: number;
        description: string;
        memo: string | null;
        account_id: string;
      }>(
        `SELECT p.id, p.description, je.memo, a.id AS account_id
         FROM postings p
         JOIN accounts a ON a.seq = p.account_seq
         LEFT JOIN journal_entries je ON p.source_kind = 0 AND je.seq = p.source_seq
         WHERE p.entity_seq = ? AND p.basis = 0 AND p.day >= ? AND p.day < ? AND p.id > ?
           AND a.type IN ('Income', 'Other Income', 'COGS', 'Operating Expenses', 'Other Expenses', 'Tax Expenses')
           AND lower(a.name) NOT LIKE 'uncategorized%'
         ORDER BY p.id LIMIT ?`,
        [entitySeq, from, before, afterId, LEARNING_CHUNK],
      );
      for (const row of rows) {
        yield { description: row.description, memo: row.memo, accountId: row.account_id };
      }
      if (rows.length < LEARNING_CHUNK) return;
      afterId = Number(rows[rows.length - 1]!.id);
    }
  }

  async deleteGeneratedRules(entityId: string): Promise<void> {
    await this.sql.run(
      "DELETE FROM transaction_rules WHERE rule_group = 'migration' AND entity_id = ?",
      [entityId],
    );
  }
}
