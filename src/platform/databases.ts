import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { checkStoredBooks, type CheckReport } from './store/check.js';
import { DEFAULT_ENGINE_OPTIONS, Engine } from './engine/index.js';
import {
  copySqliteToPostgres,
  tableCounts,
  TargetNotEmpty,
  type CopiedCounts,
} from './store/copy.js';
import { isPostgresUrl, Store } from './store/index.js';
import {
  asOneFile,
  copySqliteDatabase,
  DatabaseInUse,
  replaceSqliteDatabase,
  sqliteDatabaseInUse,
} from './store/sqlite/backup.js';
import { DatabaseUnavailable } from './store/schema.js';

/** What `books db copy` reports: the rows of each table, and the trial balances compared. */
export interface CopyReport {
  tables: CopiedCounts[];
  /** Each entity's ledgers whose trial balances were compared on both sides. */
  trialBalances: { entityId: string; ledgerBasis: 'cash' | 'accrual' }[];
  target: string;
}

/** The copy is done but the two sides disagree: said with what differs. */
export class CopyDisagrees extends Error {
  override name = 'CopyDisagrees';
}

/**
 * Moves a firm from a SQLite file to PostgreSQL: every organization's books copied into an
 * empty database (refused, untouched, when it is not), then checked before it is called done:
 * each table's row count, and every entity's trial balance on each of its ledgers, computed by
 * the engine on both sides.
 */
export async function copyBooks(
  from: string,
  to: string,
  progress: (done: CopiedCounts) => void = () => {},
): Promise<CopyReport> {
  if (!isPostgresUrl(to)) {
    throw new DatabaseUnavailable(to, 'the target is a PostgreSQL URL (postgres://…)');
  }
  if (from === ':memory:' || isPostgresUrl(from) || !existsSync(from)) {
    throw new DatabaseUnavailable(from, 'no such SQLite file');
  }
  const source = await Store.open(from);
  try {
    const target = await Store.open(to);
    try {
      await copySqliteToPostgres(source, target, progress);
      const tables = await tableCounts(source);
      const copied = await tableCounts(target);
      const differing = tables.filter((t, i) => copied[i]!.rows !== t.rows);
      if (differing.length > 0) {
        throw new CopyDisagrees(
          `the copy disagrees in its row counts: ${differing
            .map(
              (t) =>
                `${t.table} ${t.rows} here, ${copied.find((c) => c.table === t.table)!.rows} there`,
            )
            .join('; ')}`,
        );
      }
      return {
        tables,
        trialBalances: await compareTrialBalances(source, target),
        target: target.database.location,
      };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/**
 * Every entity's trial balance over all its days, and each account's own balance, on each open
 * ledger, on both sides.
 */
async function compareTrialBalances(
  source: Store,
  target: Store,
): Promise<CopyReport['trialBalances']> {
  const entities = await source.database.sql.all<{
    id: string;
    organization_id: string;
    accrual_ledger_open: number;
  }>(
    `SELECT e.id, w.organization_id, e.accrual_ledger_open
     FROM entities e JOIN workspaces w ON w.id = e.workspace_id ORDER BY e.seq`,
  );
  const engines: [Engine, Engine] = [
    new Engine(source, DEFAULT_ENGINE_OPTIONS),
    new Engine(target, DEFAULT_ENGINE_OPTIONS),
  ];
  const compared: CopyReport['trialBalances'] = [];
  for (const entity of entities) {
    for (const ledgerBasis of entity.accrual_ledger_open
      ? (['cash', 'accrual'] as const)
      : (['cash'] as const)) {
      const [here, there] = await Promise.all(
        engines.map((engine) =>
          engine.reports.trialBalance(entity.organization_id, entity.id, {
            startDate: '0001-01-01',
            endDate: '9999-12-31',
            ledgerBasis,
          }),
        ),
      );
      if (JSON.stringify(here) !== JSON.stringify(there)) {
        throw new CopyDisagrees(
          `the copy disagrees in the ${ledgerBasis} trial balance of entity ${entity.id}`,
        );
      }
      // The trial balance folds earlier fiscal years' income and expenses into one Retained
      // Earnings row: each account's own balance over all its days is compared as well.
      const balancesOf = (engine: Engine) =>
        engine.reports.balancesThrough(
          entity.organization_id,
          entity.id,
          ledgerBasis,
          '9999-12-31',
        );
      const [ours, theirs] = await Promise.all([balancesOf(engines[0]), balancesOf(engines[1])]);
      const differing = [...new Set([...ours.keys(), ...theirs.keys()])].filter(
        (code) => (ours.get(code) ?? 0) !== (theirs.get(code) ?? 0),
      );
      if (differing.length > 0) {
        throw new CopyDisagrees(
          `the copy disagrees in the ${ledgerBasis} balances of entity ${entity.id}, accounts ${differing.slice(0, 5).join(', ')}`,
        );
      }
      compared.push({ entityId: entity.id, ledgerBasis });
    }
  }
  return compared;
}

export { DatabaseInUse, TargetNotEmpty };
export type { CheckReport };

/**
 * `books db check`: the database's own integrity check, then the ledger's invariants (see
 * StoredBooksCheck), on a SQLite file or a PostgreSQL database read as it is: nothing migrated,
 * nothing written.
 */
export async function checkBooks(
  location: string,
  onStep?: (step: number, steps: number, what: string) => void,
): Promise<CheckReport> {
  if (!isPostgresUrl(location) && !existsSync(location)) {
    throw new DatabaseUnavailable(location, 'no such file');
  }
  const database = isPostgresUrl(location)
    ? await (await import('./store/postgres/open.js')).openPostgresForChecking(location)
    : (await import('./store/sqlite/open.js')).openSqliteForChecking(location);
  try {
    return await checkStoredBooks(database, onStep);
  } finally {
    await database.close();
  }
}

/** How far a backup or a restore is: pages copied, then each step of the copy's check. */
export interface CopyProgress {
  copied?(copied: number, total: number): void;
  checking?(step: number, steps: number, what: string): void;
}

/** What a backup or a restore did, and what the copy's check found. */
export interface CopiedBooks {
  file: string;
  bytes: number;
  check: CheckReport;
}

/** A backup or a restore that its own check refused: nothing was kept or replaced. */
export class CopyRefused extends Error {
  override name = 'CopyRefused';
  constructor(
    message: string,
    readonly check: CheckReport,
  ) {
    super(message);
  }
}

const problemsIn = (report: CheckReport) => report.problems.length + report.unlisted;

function refusePostgres(location: string, role: string): void {
  if (isPostgresUrl(location)) {
    throw new DatabaseUnavailable(
      location,
      `a PostgreSQL database is backed up with pg_dump and restored with pg_restore (see the README); ${role} is a SQLite file`,
    );
  }
}

function existingSqliteFile(location: string, role: string): void {
  refusePostgres(location, role);
  if (location === ':memory:' || !existsSync(location)) {
    throw new DatabaseUnavailable(location, 'no such SQLite file');
  }
}

/**
 * `books db backup`: SQLite's online backup of a live file (another process may go on writing),
 * as it was when the backup began, written beside `destination` and checked (the database's own
 * check and the ledger's invariants) before it is put there. A copy that does not check clean is
 * removed and refused.
 */
export async function backupBooks(
  source: string,
  destination: string,
  progress: CopyProgress = {},
): Promise<CopiedBooks> {
  existingSqliteFile(source, 'the database backed up');
  if (existsSync(destination)) {
    throw new DatabaseUnavailable(destination, 'it exists already: a backup replaces nothing');
  }
  const partial = `${destination}.partial`;
  rmSync(partial, { force: true });
  try {
    await copySqliteDatabase(source, partial, progress.copied);
    const check = await checkBooks(partial, progress.checking);
    if (problemsIn(check) > 0) {
      throw new CopyRefused(
        `the copy of ${source} does not check clean, so it was not kept: run books db check --db ${source}`,
        check,
      );
    }
    renameSync(partial, destination);
    return { file: destination, bytes: statSync(destination).size, check };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * `books db restore`: a backup put in place of `target`, when no process has the target open.
 * The backup is copied beside the target, brought up to this books' schema when it is older, and
 * checked; only a clean copy replaces the target, and the replaced file is kept as `keptAs`.
 */
export async function restoreBooks(
  backup: string,
  target: string,
  keptAs: string,
  confirm: () => Promise<void> = async () => {},
  progress: CopyProgress = {},
): Promise<CopiedBooks & { kept: string | undefined }> {
  existingSqliteFile(backup, 'the backup');
  refusePostgres(target, 'the database restored');
  // Said before the copy is made; the swap asks again, holding the lock it swaps under.
  if (sqliteDatabaseInUse(target)) throw new DatabaseInUse(target);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    await copySqliteDatabase(backup, partial, progress.copied);
    // A backup taken by an older books is brought up to date, as opening it would.
    await (await Store.open(partial)).close();
    asOneFile(partial);
    const check = await checkBooks(partial, progress.checking);
    if (problemsIn(check) > 0) {
      throw new CopyRefused(
        `the backup ${backup} does not check clean: nothing was replaced (books db check --db ${backup} lists why)`,
        check,
      );
    }
    await confirm();
    const kept = existsSync(target) ? keptAs : undefined;
    replaceSqliteDatabase(target, partial, keptAs);
    return { file: target, bytes: statSync(target).size, check, kept };
  } finally {
    rmSync(partial, { force: true });
  }
}
