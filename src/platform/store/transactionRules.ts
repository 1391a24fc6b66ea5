import type { RuleAction, RuleCondition, TransactionRule } from '../../api/index.js';
import type { SqliteDatabase } from './database.js';

interface RuleRow {
  id: string;
  conditions: string;
  actions: string;
  note: string | null;
  is_disabled: number;
  updated_at: string;
}

/** `default`: rules made through the API; `migration`: rules the accounting migration made. */
export type RuleGroup = 'default' | 'migration';

const COLUMNS = 'id, conditions, actions, note, is_disabled, updated_at';

const toRule = (row: RuleRow): TransactionRule => ({
  id: row.id,
  conditions: JSON.parse(row.conditions) as RuleCondition[],
  actions: JSON.parse(row.actions) as RuleAction[],
  note: row.note,
  isDisabled: row.is_disabled === 1,
  updatedAt: row.updated_at,
});

export class TransactionRuleStore {
  private readonly insertStatement;
  private readonly findStatement;
  private readonly listStatement;
  private readonly countStatement;
  private readonly updateStatement;
  private readonly deleteStatement;
  private readonly withActionStatement;
  private readonly forCategorizationStatement;

  constructor(db: SqliteDatabase) {
    this.insertStatement = db.prepare(
      `INSERT INTO transaction_rules (id, workspace_id, rule_group, entity_id, conditions, actions, note, is_disabled, created_at, updated_at)
       VALUES (@id, @workspaceId, @ruleGroup, @entityId, @conditions, @actions, @note, @isDisabled, @updatedAt, @updatedAt)`,
    );
    this.findStatement = db.prepare<[string, string, string], RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules WHERE id = ? AND workspace_id = ? AND rule_group = ?`,
    );
    this.listStatement = db.prepare<[string, string, number, number], RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules WHERE workspace_id = ? AND rule_group = ?
       ORDER BY rowid LIMIT ? OFFSET ?`,
    );
    this.countStatement = db
      .prepare('SELECT COUNT(*) FROM transaction_rules WHERE workspace_id = ? AND rule_group = ?')
      .pluck();
    this.updateStatement = db.prepare(
      `UPDATE transaction_rules SET conditions = @conditions, actions = @actions, note = @note,
         is_disabled = @isDisabled, updated_at = @updatedAt WHERE id = @id`,
    );
    this.deleteStatement = db.prepare('DELETE FROM transaction_rules WHERE id = ?');
    this.forCategorizationStatement = db.prepare<[string, string], RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules
       WHERE workspace_id = ? AND (rule_group = 'default' OR (rule_group = 'migration' AND entity_id = ?))
       ORDER BY CASE rule_group WHEN 'default' THEN 0 ELSE 1 END, rowid`,
    );
    this.withActionStatement = db.prepare<[string, string, string], RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules r WHERE workspace_id = ? AND EXISTS (
         SELECT 1 FROM json_each(r.actions) a
         WHERE json_extract(a.value, '$.actionType') = ? AND json_extract(a.value, '$.value') = ?)`,
    );
  }

  private params(rule: TransactionRule) {
    return {
      id: rule.id,
      conditions: JSON.stringify(rule.conditions),
      actions: JSON.stringify(rule.actions),
      note: rule.note,
      isDisabled: rule.isDisabled ? 1 : 0,
      updatedAt: rule.updatedAt,
    };
  }

  insert(
    workspaceId: string,
    rule: TransactionRule,
    options: { ruleGroup?: RuleGroup; entityId?: string | null } = {},
  ): void {
    this.insertStatement.run({
      ...this.params(rule),
      workspaceId,
      ruleGroup: options.ruleGroup ?? 'default',
      entityId: options.entityId ?? null,
    });
  }

  find(workspaceId: string, id: string, ruleGroup: RuleGroup = 'default') {
    const row = this.findStatement.get(id, workspaceId, ruleGroup);
    return row && toRule(row);
  }

  /** Rules of a group in application order (creation order). */
  list(workspaceId: string, limit: number, offset: number, ruleGroup: RuleGroup = 'default') {
    return {
      rows: this.listStatement.all(workspaceId, ruleGroup, limit, offset).map(toRule),
      total: Number(this.countStatement.get(workspaceId, ruleGroup)),
    };
  }

  /** The rules that apply to an entity's transactions, in application order: user rules first. */
  forCategorization(workspaceId: string, entityId: string): TransactionRule[] {
    return this.forCategorizationStatement.all(workspaceId, entityId).map(toRule);
  }

  /** Rules of any group with an action of this type and value. */
  withAction(
    workspaceId: string,
    actionType: RuleAction['actionType'],
    value: string,
  ): TransactionRule[] {
    return this.withActionStatement.all(workspaceId, actionType, value).map(toRule);
  }

  update(rule: TransactionRule): void {
    this.updateStatement.run(this.params(rule));
  }

  delete(id: string): void {
    this.deleteStatement.run(id);
  }
}
