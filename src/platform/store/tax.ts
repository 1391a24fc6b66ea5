import type { TaxCode, TaxSetting } from '../../api/index.js';
import type { Cents } from '../../core/money.js';
import type { CodeUse } from '../domain/tax/learnedCodes.js';
import { type Sql } from './sql.js';

/** A coded or VAT-account posting of a period, as the return reads it. */
/**
 * A posting a return reads, as its columns come (an array, not an object: a year of a big
 * client's postings is a million rows): the journal entry or bank transaction it belongs to, its
 * day, its account, its debit and credit, its tax code and its description.
 */
export type TaxPostingRow = readonly [
  entryId: string,
  day: string,
  accountId: string,
  debitCents: Cents,
  creditCents: Cents,
  taxCode: string | null,
  description: string,
];

interface SettingRow {
  entity_id: string;
  country: TaxSetting['country'];
  scheme: TaxSetting['scheme'];
  period: TaxSetting['period'];
  vat_number: string | null;
  output_account_id: string;
  input_account_id: string;
  created_at: string;
}

/** An entity's VAT registration and tax codes, and the postings a return reads. */
export class TaxStore {
  constructor(private readonly sql: Sql) {}

  async setting(entityId: string): Promise<TaxSetting | undefined> {
    const row = await this.sql.get<SettingRow>('SELECT * FROM tax_settings WHERE entity_id = ?', [
      entityId,
    ]);
    return (
      row && {
        entityId: String(row.entity_id),
        country: row.country,
        scheme: row.scheme,
        period: row.period,
        vatNumber: row.vat_number,
        outputAccountId: String(row.output_account_id),
        inputAccountId: String(row.input_account_id),
        createdAt: row.created_at,
      }
    );
  }

  async saveSetting(setting: TaxSetting): Promise<void> {
    await this.sql.run('DELETE FROM tax_settings WHERE entity_id = ?', [setting.entityId]);
    await this.sql.run(
      `INSERT INTO tax_settings (entity_id, country, scheme, period, vat_number, output_account_id, input_account_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        setting.entityId,
        setting.country,
        setting.scheme,
        setting.period,
        setting.vatNumber,
        setting.outputAccountId,
        setting.inputAccountId,
        setting.createdAt,
      ],
    );
  }

  /** The entity's codes in the order they were made. */
  async codes(entityId: string): Promise<TaxCode[]> {
    const rows = await this.sql.all<{ definition: string | object; archived: number | boolean }>(
      'SELECT definition, archived FROM tax_codes WHERE entity_id = ? ORDER BY position',
      [entityId],
    );
    return rows.map((row) => {
      const definition = (
        typeof row.definition === 'string' ? JSON.parse(row.definition) : row.definition
      ) as Omit<TaxCode, 'archived'>;
      return {
        ...definition,
        // Codes kept before a code could name its own VAT accounts keep the entity's.
        outputAccountId: definition.outputAccountId ?? null,
        inputAccountId: definition.inputAccountId ?? null,
        archived: Boolean(row.archived),
      };
    });
  }

  /** Writes a code (a new one last; a known one in its place). */
  async saveCode(entityId: string, taxCode: TaxCode): Promise<void> {
    const { archived, ...definition } = taxCode;
    const json = JSON.stringify(definition);
    const changed = await this.sql.run(
      'UPDATE tax_codes SET definition = ?, archived = ? WHERE entity_id = ? AND code = ?',
      [json, archived, entityId, taxCode.code],
    );
    if (changed > 0) return;
    await this.sql.run(
      `INSERT INTO tax_codes (entity_id, code, definition, archived, position)
       VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM tax_codes WHERE entity_id = ?))`,
      [entityId, taxCode.code, json, archived, entityId],
    );
  }

  /**
   * The postings of a period on one ledger that carry a tax code or sit on a VAT account, with
   * the id of the journal entry or bank transaction they belong to, handed to `visit` as they are
   * read (ordered by day, then entry; an entry's together).
   */
  eachPosting(
    entityId: string,
    basis: number,
    startDate: string,
    endDate: string,
    vatAccountIds: readonly string[],
    visit: (row: TaxPostingRow) => void,
  ): Promise<number> {
    return this.sql.eachRow<TaxPostingRow>(
      `SELECT COALESCE(j.id, b.id, o.id) AS entry_id, p.day, a.id AS account_id,
              p.debit_cents, p.credit_cents, p.tax_code, p.description
       FROM postings p
       JOIN entities e ON e.seq = p.entity_seq
       JOIN accounts a ON a.seq = p.account_seq
       LEFT JOIN journal_entries j ON p.source_kind = 0 AND j.seq = p.source_seq
       LEFT JOIN bank_transactions b ON p.source_kind = 1 AND b.seq = p.source_seq
       LEFT JOIN opening_balances o ON p.source_kind = 2 AND o.seq = p.source_seq
       WHERE e.id = ? AND p.basis = ? AND p.day BETWEEN ? AND ?
         AND (p.tax_code IS NOT NULL OR a.id IN (${vatAccountIds.map(() => '?').join(', ')}) OR a.type IN ('Income', 'Other Income', 'COGS', 'Operating Expenses', 'Other Expenses'))
       ORDER BY p.day, p.source_kind, p.source_seq, p.line_no`,
      [entityId, basis, startDate, endDate, ...vatAccountIds],
      visit,
    );
  }

  /** How many of each account's lines carry each code (null: none), on the cash ledger. */
  async codeUse(entityId: string): Promise<CodeUse[]> {
    const rows = await this.sql.all<{ account_id: string; tax_code: string | null; lines: number }>(
      `SELECT a.id AS account_id, p.tax_code, COUNT(*) AS lines
       FROM postings p
       JOIN entities e ON e.seq = p.entity_seq
       JOIN accounts a ON a.seq = p.account_seq
       WHERE e.id = ? AND p.basis = 0
       GROUP BY a.id, p.tax_code`,
      [entityId],
    );
    return rows.map((row) => ({
      accountId: String(row.account_id),
      taxCode: row.tax_code,
      lines: Number(row.lines),
    }));
  }

  async fileReturn(filed: FiledReturnRecord): Promise<void> {
    await this.sql.run(
      `INSERT INTO tax_returns (id, entity_id, country, start_date, end_date, basis, net_cents, boxes, postings_hash, filed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        filed.id,
        filed.entityId,
        filed.country,
        filed.startDate,
        filed.endDate,
        filed.basis,
        filed.netCents,
        JSON.stringify(filed.boxes),
        filed.postingsHash,
        filed.filedAt,
      ],
    );
  }

  /** The returns filed for an entity, earliest period first. */
  async filedReturns(entityId: string): Promise<FiledReturnRecord[]> {
    const rows = await this.sql.all<{
      id: string;
      entity_id: string;
      country: TaxSetting['country'];
      start_date: string;
      end_date: string;
      basis: 'accrual' | 'cash';
      net_cents: number;
      boxes: string | object;
      postings_hash: string;
      filed_at: string;
    }>('SELECT * FROM tax_returns WHERE entity_id = ? ORDER BY start_date, filed_at', [entityId]);
    return rows.map((row) => ({
      id: String(row.id),
      entityId: String(row.entity_id),
      country: row.country,
      startDate: row.start_date,
      endDate: row.end_date,
      basis: row.basis,
      netCents: Number(row.net_cents),
      boxes: (typeof row.boxes === 'string'
        ? JSON.parse(row.boxes)
        : row.boxes) as FiledReturnRecord['boxes'],
      postingsHash: row.postings_hash,
      filedAt: row.filed_at,
    }));
  }
}

/** A filed return as stored (amounts in cents). */
export interface FiledReturnRecord {
  id: string;
  entityId: string;
  country: TaxSetting['country'];
  startDate: string;
  endDate: string;
  basis: 'accrual' | 'cash';
  netCents: number;
  boxes: { box: string; formCents: number }[];
  postingsHash: string;
  filedAt: string;
}
