import type { Account } from '../../api/index.js';
import { nameKey } from '../../core/names.js';
import { addCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { chartLabel, fileLabel, type FileAccount } from './accounts.js';

export interface ReconciliationRow {
  /** The account as the file names it (its names joined, when several), or '' when it does not. */
  file: string;
  /** The account the lines went to, as the platform holds it: `6100 "Rent"`. */
  platform: string;
  fileCents: Cents;
  platformCents: Cents;
  /** The platform's account carries the file's name, and its code when codes are kept. */
  agrees: boolean;
}

/** Whether `account` is what the file calls it. */
function agrees(
  file: Pick<FileAccount, 'code' | 'name' | 'text'>,
  account: Account,
  codesKept: boolean,
): boolean {
  if (file.text !== undefined) {
    return (
      file.text === account.id ||
      file.text === account.code ||
      nameKey(file.text) === nameKey(account.name)
    );
  }
  if (file.name !== undefined && nameKey(file.name) !== nameKey(account.name)) return false;
  if (file.code !== undefined && (codesKept || file.name === undefined))
    return file.code === account.code;
  return true;
}

/**
 * The file's per-account totals beside the platform's movement over the same days, per account
 * the file's lines went to, and each account's code and name beside the file's: a file posted
 * to the wrong account never reconciles, even when every total matches.
 */
export function reconcile(input: {
  /** The file's accounts, with what the file calls them (their identity, once known). */
  fileAccounts: Iterable<FileAccount & { id?: string }>;
  totals: ReadonlyMap<string, Cents>;
  accountOfKey: ReadonlyMap<string, string>;
  /** The chart after the import. */
  chart: readonly Account[];
  /** The platform's debits minus credits per account code over the file's days. */
  movement: ReadonlyMap<string, Cents>;
  codesKept: boolean;
  /** Identity → the account earlier runs of this import posted it to (see planAccounts). */
  remembered?: ReadonlyMap<string, string>;
}): { rows: ReconciliationRow[]; matches: boolean } {
  const byId = new Map(input.chart.map((a) => [a.id, a]));
  const perAccount = new Map<string, { labels: Set<string>; cents: Cents; agrees: boolean }>();
  for (const file of input.fileAccounts) {
    const id = input.accountOfKey.get(file.key) ?? '';
    const account = byId.get(id);
    const row = perAccount.get(id) ?? {
      labels: new Set<string>(),
      cents: ZERO_CENTS,
      agrees: true,
    };
    row.labels.add(fileLabel(file));
    row.cents = addCents(row.cents, input.totals.get(file.key) ?? ZERO_CENTS);
    const kept = !input.codesKept && file.id !== undefined && input.remembered?.get(file.id) === id;
    row.agrees &&= account !== undefined && (kept || agrees(file, account, input.codesKept));
    perAccount.set(id, row);
  }
  const rows: (ReconciliationRow & { order: Account | undefined })[] = [];
  for (const [id, row] of perAccount) {
    const account = byId.get(id);
    rows.push({
      file: [...row.labels].join(' + '),
      platform: account ? chartLabel(account) : '(no such account)',
      fileCents: row.cents,
      platformCents: account ? (input.movement.get(account.code) ?? ZERO_CENTS) : ZERO_CENTS,
      agrees: row.agrees,
      order: account,
    });
  }
  for (const account of input.chart) {
    const cents = input.movement.get(account.code) ?? ZERO_CENTS;
    if (cents === 0 || perAccount.has(account.id)) continue;
    rows.push({
      file: '',
      platform: chartLabel(account),
      fileCents: ZERO_CENTS,
      platformCents: cents,
      agrees: true,
      order: account,
    });
  }
  rows.sort(
    (a, b) =>
      Number(a.order?.code ?? Infinity) - Number(b.order?.code ?? Infinity) ||
      a.platform.localeCompare(b.platform),
  );
  const result = rows.map(({ order: _order, ...row }) => row);
  return {
    rows: result,
    matches: result.every((r) => r.agrees && r.fileCents === r.platformCents),
  };
}
