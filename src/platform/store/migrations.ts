/**
 * Numbered schema migrations, applied in order at start-up. Never edit one that has shipped:
 * add the next number. Creation order of rows is their rowid.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'organizations, workspaces, entities, classes, accounts, transaction rules, idempotency',
    sql: `
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        is_default INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE TABLE organization_tokens (
        token_hash TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        timezone TEXT NOT NULL,
        custom_chart_of_accounts INTEGER NOT NULL DEFAULT 0,
        billing_owner TEXT NOT NULL DEFAULT 'organization',
        external_users INTEGER NOT NULL DEFAULT 0,
        rule_generation_eligible INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
      );
      CREATE INDEX workspaces_by_organization ON workspaces(organization_id);
      CREATE TABLE entities (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        bookkeeping_start_date TEXT,
        lock_date TEXT,
        accrual_ledger_open INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE INDEX entities_by_workspace ON entities(workspace_id);
      CREATE TABLE classes (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        parent_class_id TEXT REFERENCES classes(id) ON DELETE CASCADE,
        root_class_id TEXT NOT NULL,
        label TEXT NOT NULL,
        label_key TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX classes_by_workspace ON classes(workspace_id);
      CREATE INDEX classes_by_parent ON classes(parent_class_id);
      CREATE UNIQUE INDEX classes_sibling_label
        ON classes(workspace_id, COALESCE(parent_class_id, ''), label_key);
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        code TEXT NOT NULL,
        type TEXT NOT NULL,
        group_id TEXT,
        financial_account_id TEXT,
        is_disabled INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE INDEX accounts_by_entity ON accounts(entity_id);
      CREATE TABLE financial_accounts (
        id TEXT PRIMARY KEY,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX financial_accounts_by_entity ON financial_accounts(entity_id);
      CREATE TABLE transaction_rules (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        rule_group TEXT NOT NULL DEFAULT 'default',
        entity_id TEXT REFERENCES entities(id) ON DELETE CASCADE,
        conditions TEXT NOT NULL,
        actions TEXT NOT NULL,
        note TEXT,
        is_disabled INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX transaction_rules_by_workspace ON transaction_rules(workspace_id, rule_group);
      CREATE TABLE idempotency_keys (
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        status INTEGER,
        headers TEXT,
        body TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (organization_id, key)
      );
      CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);
    `,
  },
];
