import type { SqliteDatabase } from './database.js';

export class OpeningBalanceStore {
  private readonly insertStatement;
  private readonly existsStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      'INSERT INTO opening_balances (id, entity_id, date, created_at) VALUES (?, ?, ?, ?)',
    );
    this.existsStatement = db
      .prepare('SELECT 1 FROM opening_balances WHERE entity_id = ? LIMIT 1')
      .pluck();
  }

  /** Inserts the opening balance and answers its seq. */
  insert(record: { id: string; entityId: string; date: string; createdAt: string }): number {
    return Number(
      this.insertStatement.run(record.id, record.entityId, record.date, record.createdAt)
        .lastInsertRowid,
    );
  }

  /** Whether the entity has any opening balance (it then cannot start a migration). */
  exists(entityId: string): boolean {
    return this.existsStatement.get(entityId) !== undefined;
  }
}
