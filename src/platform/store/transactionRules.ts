import type { RuleAction, RuleCondition, TransactionRule } from '../../api/index.js';
import { countOf, isStoredId, type Sql } from './sql.js';

interface RuleRow {
  id: string;
  conditions: string;
  actions: string;
  note: string | null;
  is_disabled: number | boolean;
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
  isDisabled: Boolean(row.is_disabled),
  updatedAt: row.updated_at,
});

export class TransactionRuleStore {
  constructor(private readonly sql: Sql) {}

  async insert(
    workspaceId: string,
    rule: TransactionRule,
    options: { ruleGroup?: RuleGroup; entityId?: string | null } = {},
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO transaction_rules (id, workspace_id, rule_group, entity_id, conditions, actions, note, is_disabled, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        rule.id,
        workspaceId,
        options.ruleGroup ?? 'default',
        options.entityId ?? null,
        JSON.stringify(rule.conditions),
        JSON.stringify(rule.actions),
        rule.note,
        rule.isDisabled,
        rule.updatedAt,
        rule.updatedAt,
      ],
    );
  }

  async find(
    workspaceId: string,
    id: string,
    ruleGroup: RuleGroup = 'default',
  ): Promise<TransactionRule | undefined> {
    if (!isStoredId(id)) return undefined;
    const row = await this.sql.get<RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules WHERE id = ? AND workspace_id = ? AND rule_group = ?`,
      [id, workspaceId, ruleGroup],
    );
    return row && toRule(row);
  }

  /** Rules of a group in application order (creation order). */
  async list(workspaceId: string, limit: number, offset: number, ruleGroup: RuleGroup = 'default') {
    const rows = await this.sql.all<RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules WHERE workspace_id = ? AND rule_group = ?
       ORDER BY rowid LIMIT ? OFFSET ?`,
      [workspaceId, ruleGroup, limit, offset],
    );
    return {
      rows: rows.map(toRule),
      total: await countOf(
        this.sql,
        'SELECT COUNT(*) AS n FROM transaction_rules WHERE workspace_id = ? AND rule_group = ?',
        [workspaceId, ruleGroup],
      ),
    };
  }

  /** The rules that apply to an entity's transactions, in application order: user rules first. */
  async forCategorization(workspaceId: string, entityId: string): Promise<TransactionRule[]> {
    const rows = await this.sql.all<RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules
       WHERE workspace_id = ? AND (rule_group = 'default' OR (rule_group = 'migration' AND entity_id = ?))
       ORDER BY CASE rule_group WHEN 'default' THEN 0 ELSE 1 END, rowid`,
      [workspaceId, entityId],
    );
    return rows.map(toRule);
  }

  /**
   * Rules of any group with an action of this type and value. The actions are JSON text; they
   * are matched here rather than by each backend's JSON functions (a workspace has few rules).
   */
  async withAction(
    workspaceId: string,
    actionType: RuleAction['actionType'],
    value: string,
  ): Promise<TransactionRule[]> {
    const rows = await this.sql.all<RuleRow>(
      `SELECT ${COLUMNS} FROM transaction_rules WHERE workspace_id = ? ORDER BY rowid`,
      [workspaceId],
    );
    return rows
      .map(toRule)
      .filter((rule) =>
        rule.actions.some((action) => action.actionType === actionType && action.value === value),
      );
  }

  async update(rule: TransactionRule): Promise<void> {
    await this.sql.run(
      `UPDATE transaction_rules SET conditions = ?, actions = ?, note = ?, is_disabled = ?,
         updated_at = ? WHERE id = ?`,
      [
        JSON.stringify(rule.conditions),
        JSON.stringify(rule.actions),
        rule.note,
        rule.isDisabled,
        rule.updatedAt,
        rule.id,
      ],
    );
  }

  async delete(id: string): Promise<void> {
    await this.sql.run('DELETE FROM transaction_rules WHERE id = ?', [id]);
  }
}
