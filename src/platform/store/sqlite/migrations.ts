import type { Migration } from '../schema.js';

/**
 * SQLite's schema migrations (see ../schema.ts). Creation order of rows is their rowid.
 */

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
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
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
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
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
  {
    version: 2,
    name: 'account groups, journal entries, postings, opening balances',
    sql: `
      CREATE UNIQUE INDEX accounts_name_per_entity ON accounts(entity_id, name_key);
      CREATE UNIQUE INDEX accounts_code_per_entity ON accounts(entity_id, code);
      CREATE TABLE account_groups (
        id TEXT PRIMARY KEY,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        type TEXT NOT NULL,
        parent_group_id TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX account_groups_by_entity ON account_groups(entity_id);
      CREATE TABLE journal_entries (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        ledger_basis TEXT NOT NULL,
        date_only TEXT NOT NULL,
        memo TEXT,
        source_type TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX journal_entries_by_day ON journal_entries(entity_id, ledger_basis, date_only);
      CREATE TABLE opening_balances (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      -- One row per line of every posting source (journal entries, bank transactions, opening
      -- balances), per ledger. Keys are integers (entities.seq, accounts.seq, the source's seq)
      -- so that rows and indexes stay small on million-line ledgers; basis 0 is cash, 1 accrual;
      -- source_kind 0 a journal entry, 1 a bank transaction, 2 an opening balance. Amounts are
      -- integer cents. Indexed by day (the general ledger reads a period) and by source.
      CREATE TABLE postings (
        id INTEGER PRIMARY KEY,
        entity_seq INTEGER NOT NULL REFERENCES entities(seq) ON DELETE CASCADE,
        basis INTEGER NOT NULL,
        account_seq INTEGER NOT NULL REFERENCES accounts(seq),
        day TEXT NOT NULL,
        debit_cents INTEGER NOT NULL,
        credit_cents INTEGER NOT NULL,
        source_kind INTEGER NOT NULL,
        source_seq INTEGER NOT NULL,
        source_type TEXT NOT NULL,
        line_no INTEGER NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        counterparty_name TEXT
      );
      CREATE INDEX postings_by_day ON postings(entity_seq, basis, day);
      CREATE INDEX postings_by_source ON postings(source_kind, source_seq);
      -- Per account and calendar day, the sums of its postings: what the summary reports and
      -- the per-account checks read (accounts × days rows instead of one per posting). Kept in
      -- step with postings by the posting store, in the same transactions.
      CREATE TABLE daily_balances (
        entity_seq INTEGER NOT NULL REFERENCES entities(seq) ON DELETE CASCADE,
        basis INTEGER NOT NULL,
        account_seq INTEGER NOT NULL REFERENCES accounts(seq),
        day TEXT NOT NULL,
        debit_cents INTEGER NOT NULL,
        credit_cents INTEGER NOT NULL,
        postings INTEGER NOT NULL,
        opening_postings INTEGER NOT NULL,
        PRIMARY KEY (entity_seq, basis, account_seq, day)
      ) WITHOUT ROWID;
      CREATE TABLE posting_classes (
        posting_id INTEGER NOT NULL REFERENCES postings(id) ON DELETE CASCADE,
        class_id TEXT NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
        UNIQUE (posting_id, class_id)
      );
      CREATE INDEX posting_classes_by_class ON posting_classes(class_id);
    `,
  },
  {
    version: 3,
    name: 'bank-feed connections',
    sql: `
      ALTER TABLE financial_accounts ADD COLUMN chart_account_id TEXT REFERENCES accounts(id);
      CREATE TABLE bank_feed_connections (
        id TEXT PRIMARY KEY,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        bank_name TEXT NOT NULL,
        status TEXT NOT NULL,
        error_code TEXT,
        direct INTEGER NOT NULL,
        created_by_integration INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX bank_feed_connections_by_entity ON bank_feed_connections(entity_id);
      CREATE TABLE connection_financial_accounts (
        connection_id TEXT NOT NULL REFERENCES bank_feed_connections(id) ON DELETE CASCADE,
        financial_account_id TEXT NOT NULL REFERENCES financial_accounts(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        PRIMARY KEY (connection_id, financial_account_id)
      );
      CREATE INDEX connection_financial_accounts_by_account
        ON connection_financial_accounts(financial_account_id);
    `,
  },
  {
    version: 4,
    name: 'bank transactions and connection events',
    sql: `
      CREATE TABLE bank_transactions (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        financial_account_id TEXT NOT NULL REFERENCES financial_accounts(id) ON DELETE CASCADE,
        date TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        description TEXT NOT NULL,
        external_id TEXT,
        account_id TEXT,
        rule_id TEXT,
        created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX bank_transactions_external
        ON bank_transactions(financial_account_id, external_id) WHERE external_id IS NOT NULL;
      CREATE INDEX bank_transactions_by_entity ON bank_transactions(entity_id, date);
      CREATE INDEX bank_transactions_by_category ON bank_transactions(account_id);
      -- Transitions of connections into the broken state: the webhook worker's outbox.
      CREATE TABLE connection_events (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        connection_id TEXT NOT NULL REFERENCES bank_feed_connections(id) ON DELETE CASCADE,
        event TEXT NOT NULL,
        error_code TEXT NOT NULL,
        occurred_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'accounting migrations',
    sql: `
      CREATE TABLE accounting_migrations (
        id TEXT PRIMARY KEY,
        entity_id TEXT NOT NULL UNIQUE REFERENCES entities(id) ON DELETE CASCADE,
        state TEXT NOT NULL,
        enrichment_rules_seeded_at TEXT,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'webhooks',
    sql: `
      CREATE TABLE webhook_endpoints (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        event_types TEXT NOT NULL, -- JSON array; empty: every event type
        disabled INTEGER NOT NULL DEFAULT 0,
        failing_since_ms INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE INDEX webhook_endpoints_by_organization ON webhook_endpoints(organization_id, seq);
      CREATE TABLE webhook_secrets (
        seq INTEGER PRIMARY KEY,
        endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        secret TEXT NOT NULL,
        expires_at_ms INTEGER -- null for the current secret
      );
      CREATE INDEX webhook_secrets_by_endpoint ON webhook_secrets(endpoint_id);
      -- The outbox: a message is its body, signed afresh at each attempt.
      CREATE TABLE webhook_messages (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        event_type TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        message_id TEXT NOT NULL REFERENCES webhook_messages(id) ON DELETE CASCADE,
        endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        status TEXT NOT NULL, -- pending, succeeded, failed
        attempts INTEGER NOT NULL DEFAULT 0,
        schedule_position INTEGER NOT NULL DEFAULT 0,
        next_attempt_at_ms INTEGER,
        finished_at_ms INTEGER,
        PRIMARY KEY (message_id, endpoint_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at_ms)
        WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, status);
      CREATE TABLE webhook_attempts (
        seq INTEGER PRIMARY KEY,
        message_id TEXT NOT NULL,
        endpoint_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        status TEXT NOT NULL,
        response_status INTEGER,
        at TEXT NOT NULL,
        FOREIGN KEY (message_id, endpoint_id)
          REFERENCES webhook_deliveries(message_id, endpoint_id) ON DELETE CASCADE
      );
      CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts(endpoint_id, seq);
    `,
  },
  {
    version: 7,
    name: 'postings by account, for the general ledger written account by account',
    sql: `
      CREATE INDEX postings_by_account ON postings(entity_seq, basis, account_seq, day);
    `,
  },
  {
    version: 8,
    name: 'rate limits shared by the processes on one database',
    sql: `
      CREATE TABLE rate_buckets (
        organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        tokens REAL NOT NULL,
        at_ms INTEGER NOT NULL
      );
      CREATE TABLE auth_failures (
        address TEXT PRIMARY KEY,
        start_ms INTEGER NOT NULL,
        failures INTEGER NOT NULL
      );
      CREATE INDEX auth_failures_by_start ON auth_failures(start_ms);
    `,
  },
  {
    version: 9,
    name: "an entity's fiscal year start (MM-DD)",
    sql: `
      ALTER TABLE entities ADD COLUMN fiscal_year_start TEXT NOT NULL DEFAULT '01-01';
    `,
  },
  {
    version: 10,
    name: 'bank transactions decided: status, who decided and when, splits, transfers, matches',
    sql: `
      ALTER TABLE bank_transactions ADD COLUMN status TEXT NOT NULL DEFAULT 'uncategorized';
      ALTER TABLE bank_transactions ADD COLUMN decided_by TEXT;
      ALTER TABLE bank_transactions ADD COLUMN decided_at TEXT;
      ALTER TABLE bank_transactions ADD COLUMN memo TEXT;
      ALTER TABLE bank_transactions ADD COLUMN transfer_id TEXT;
      ALTER TABLE bank_transactions ADD COLUMN matched_entry_id TEXT;
      ALTER TABLE bank_transactions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
      UPDATE bank_transactions SET status = 'categorized', decided_by = 'rule', decided_at = created_at
        WHERE account_id IS NOT NULL;
      CREATE INDEX bank_transactions_by_status ON bank_transactions(entity_id, status, date);
      CREATE UNIQUE INDEX bank_transactions_matched
        ON bank_transactions(matched_entry_id) WHERE matched_entry_id IS NOT NULL;
      CREATE TABLE bank_transaction_splits (
        transaction_seq INTEGER NOT NULL REFERENCES bank_transactions(seq) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        account_id TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        memo TEXT,
        PRIMARY KEY (transaction_seq, position)
      );
      CREATE INDEX bank_transaction_splits_by_account ON bank_transaction_splits(account_id);
    `,
  },
  {
    version: 11,
    name: 'bank transactions held as possible duplicates, and the days the file that brought each covered',
    sql: `
      ALTER TABLE bank_transactions ADD COLUMN duplicate_of TEXT;
      ALTER TABLE bank_transactions ADD COLUMN arrived_from TEXT;
      ALTER TABLE bank_transactions ADD COLUMN arrived_to TEXT;
      ALTER TABLE bank_transactions ADD COLUMN import_id TEXT;
      CREATE INDEX bank_transactions_by_account ON bank_transactions(financial_account_id, date);
    `,
  },
  {
    version: 12,
    name: 'bank and card accounts reconciled to statements, and the entries each cleared',
    sql: `
      CREATE TABLE reconciliations (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        account_id TEXT NOT NULL,
        start_date TEXT NOT NULL,
        end_date TEXT NOT NULL,
        opening_cents INTEGER NOT NULL,
        closing_cents INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX reconciliations_by_account ON reconciliations(entity_id, account_id, end_date);
      CREATE TABLE reconciled_entries (
        reconciliation_seq INTEGER NOT NULL REFERENCES reconciliations(seq) ON DELETE CASCADE,
        entry_id TEXT NOT NULL,
        PRIMARY KEY (reconciliation_seq, entry_id)
      );
      CREATE INDEX reconciled_entries_by_entry ON reconciled_entries(entry_id);
    `,
  },
  {
    version: 13,
    name: "tax codes on postings, and each entity's VAT registration and codes",
    sql: `
      ALTER TABLE postings ADD COLUMN tax_code TEXT;
      CREATE TABLE tax_settings (
        entity_id TEXT PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
        country TEXT NOT NULL,
        scheme TEXT NOT NULL,
        period TEXT NOT NULL,
        vat_number TEXT,
        output_account_id TEXT NOT NULL,
        input_account_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tax_codes (
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        definition TEXT NOT NULL,
        archived INTEGER NOT NULL DEFAULT 0,
        position INTEGER NOT NULL,
        PRIMARY KEY (entity_id, code)
      );
    `,
  },
  {
    version: 14,
    name: 'VAT returns filed: their period, figures and the fingerprint of the postings behind them',
    sql: `
      CREATE TABLE tax_returns (
        id TEXT PRIMARY KEY,
        entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        country TEXT NOT NULL,
        start_date TEXT NOT NULL,
        end_date TEXT NOT NULL,
        basis TEXT NOT NULL,
        net_cents INTEGER NOT NULL,
        boxes TEXT NOT NULL,
        postings_hash TEXT NOT NULL,
        filed_at TEXT NOT NULL
      );
      CREATE INDEX tax_returns_by_entity ON tax_returns(entity_id, start_date);
    `,
  },
];
