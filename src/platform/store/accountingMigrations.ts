import type { SqliteDatabase } from './database.js';

/** `open` → `generating` (rules being made) → `finalized`. */
export type MigrationState = 'open' | 'generating' | 'finalized';

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

export class AccountingMigrationStore {
  private readonly insertStatement;
  private readonly byEntityStatement;
  private readonly updateStatement;
  private readonly generatingStatement;
  private readonly learningStatement;
  private readonly deleteGeneratedStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      'INSERT INTO accounting_migrations (id, entity_id, state, enrichment_rules_seeded_at, created_at) VALUES (@id, @entityId, @state, @enrichmentRulesSeededAt, @createdAt)',
    );
    this.byEntityStatement = db.prepare<[string], MigrationRow>(
      'SELECT id, entity_id, state, enrichment_rules_seeded_at, created_at FROM accounting_migrations WHERE entity_id = ?',
    );
    this.updateStatement = db.prepare(
      'UPDATE accounting_migrations SET state = ?, enrichment_rules_seeded_at = ? WHERE id = ?',
    );
    this.generatingStatement = db.prepare<[], MigrationRow>(
      "SELECT id, entity_id, state, enrichment_rules_seeded_at, created_at FROM accounting_migrations WHERE state = 'generating'",
    );
    // The Procedure's step 4: cash ledger; Income or Expenses accounts not named Uncategorized...;
    // dated in the window; the line's description, or the entry's memo (checked by the caller).
    this.learningStatement = db.prepare<
      [number, string, string],
      { description: string; memo: string | null; account_id: string }
    >(
      `SELECT p.description, je.memo, a.id AS account_id
       FROM postings p
       JOIN accounts a ON a.seq = p.account_seq
       LEFT JOIN journal_entries je ON p.source_kind = 0 AND je.seq = p.source_seq
       WHERE p.entity_seq = ? AND p.basis = 0 AND p.day >= ? AND p.day < ?
         AND a.type IN ('Income', 'Other Income', 'COGS', 'Operating Expenses', 'Other Expenses', 'Tax Expenses')
         AND lower(a.name) NOT LIKE 'uncategorized%'
       ORDER BY p.id`,
    );
    this.deleteGeneratedStatement = db.prepare(
      "DELETE FROM transaction_rules WHERE rule_group = 'migration' AND entity_id = ?",
    );
  }

  insert(record: MigrationRecord): void {
    this.insertStatement.run(record);
  }

  forEntity(entityId: string): MigrationRecord | undefined {
    const row = this.byEntityStatement.get(entityId);
    return row && toRecord(row);
  }

  update(record: MigrationRecord): void {
    this.updateStatement.run(record.state, record.enrichmentRulesSeededAt, record.id);
  }

  /** Migrations whose rule generation had started when the process stopped. */
  generating(): MigrationRecord[] {
    return this.generatingStatement.all().map(toRecord);
  }

  /** The lines, one at a time: on a million-line ledger, a year of them is a lot to hold. */
  *learningLines(entitySeq: number, from: string, before: string): Generator<LearningRow> {
    for (const row of this.learningStatement.iterate(entitySeq, from, before))
      yield { description: row.description, memo: row.memo, accountId: row.account_id };
  }

  deleteGeneratedRules(entityId: string): void {
    this.deleteGeneratedStatement.run(entityId);
  }
}
