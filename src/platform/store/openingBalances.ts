import type { Sql } from './sql.js';

export class OpeningBalanceStore {
  constructor(private readonly sql: Sql) {}

  /** Inserts the opening balance and answers its seq. */
  async insert(record: {
    id: string;
    entityId: string;
    date: string;
    createdAt: string;
  }): Promise<number> {
    const row = await this.sql.get<{ seq: number }>(
      'INSERT INTO opening_balances (id, entity_id, date, created_at) VALUES (?, ?, ?, ?) RETURNING seq',
      [record.id, record.entityId, record.date, record.createdAt],
    );
    return Number(row!.seq);
  }

  /** Whether the entity has any opening balance (it then cannot start a migration). */
  async exists(entityId: string): Promise<boolean> {
    return (
      (await this.sql.get('SELECT 1 AS found FROM opening_balances WHERE entity_id = ? LIMIT 1', [
        entityId,
      ])) !== undefined
    );
  }
}
