import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { boundedText, MAX_TEXT_CHARACTERS } from '../../formats/common/bounds.js';
import path from 'node:path';
import type { Account, Class, LedgerBasis } from '../../api/index.js';
import type { BooksApi } from '../../client/index.js';
import type {
  ExportedClass,
  ExportedGroup,
  ExportedRule,
  ExportManifest,
  TrialBalanceRow,
} from '../../migrate/export/bookExport.js';
import { argument, defineCommand, text, wholeNumber } from '../command.js';
import type { CommandContext } from '../context.js';
import { ExitCode, UserError } from '../exitCodes.js';
import { importWith } from '../ledgers/importing.js';
import { progressMode, progressOptions } from '../terminal/progress.js';
import { importChartFile } from './coa/import.js';
import { parseImport } from './je/import.js';
import { balanceRows, balancesOverRange } from '../../migrate/balances.js';

/**
 * `books import DIR`: what `books export` wrote, into the chosen entity (meant to be empty): the
 * account groups, the chart (`coa import`), the classes, each ledger's entries (`je import
 * --basis`, keyed and checkpointed: a rerun writes nothing twice), archived accounts archived,
 * the rules; then each ledger's trial balance compared with the one the export's entries make.
 * Groups, classes and rules already there by name are used, not made again.
 */
export const command = defineCommand({
  summary:
    'Import what books export wrote into an entity: chart, classes, entries of both ledgers, rules; then compare trial balances',
  arguments: { directory: argument('the directory books export wrote') },
  options: {
    concurrency: text('--concurrency <n>', 'batches in flight', { default: '4' }),
    rate: text('--rate <n>', "requests a second at most (the platform's rate limit; 0: no limit)", {
      default: '100',
    }),
    ...progressOptions,
  },
  examples: ['books import ./acme-books -w Acme -e "Acme (copy)"'],
  async run(ctx, flags) {
    const progress = progressMode(flags);
    ctx.paceRequests(wholeNumber(flags.rate, '--rate', 0, 100_000));
    const directory = path.resolve(flags.directory);
    const manifest = readManifest(directory, flags.directory);
    const scope = await ctx.chosenEntity();
    const api = await ctx.api();
    const entityId = scope.entity.id;
    const file = (name: string) => path.join(directory, name);
    const ledgers = await ledgersToImport(ctx, api, scope, manifest, file);

    const groups = readJson<ExportedGroup[]>(file(manifest.files.groups));
    const madeGroups = await importGroups(api, entityId, groups);
    // A copy into a standard chart takes the platform's codes (compared by name): said.
    const chart = await importChartFile(ctx, file(manifest.files.chart), { renumber: true });
    const classes = readJson<ExportedClass[]>(file(manifest.files.classes));
    const { aliases, made: madeClasses } = await importClasses(api, scope.workspace.id, classes);

    for (const basis of ledgers) {
      const journal = manifest.files.journals[basis]!;
      if (basis === 'accrual') await openAccrualLedger(ctx, api, entityId);
      const request = parseImport(file(journal), {
        basis,
        format: 'books',
        concurrency: flags.concurrency,
      });
      await importWith(ctx, { ...request, classAliases: aliases }, scope, {
        reconciliation: 'when-it-differs',
        progress,
      });
    }

    const accounts = await api.accounts.all(entityId);
    const archived = await archiveAccounts(api, entityId, file(manifest.files.chart), accounts);
    const rules = readJson<ExportedRule[]>(file(manifest.files.rules));
    const madeRules = await importRules(api, scope.workspace.id, entityId, rules, {
      accounts,
      classes: aliases,
    });

    const compared: { basis: LedgerBasis; differences: string[] }[] = [];
    for (const basis of exportedLedgers(manifest)) {
      compared.push({
        basis,
        differences: trialBalanceDifferences(
          manifest.entriesTrialBalance[basis]!,
          await trialBalanceAtEnd(api, entityId, manifest, basis),
        ),
      });
    }
    ctx.wrote(
      `imported ${flags.directory}: ${chart.created.length} accounts created (${chart.existing} there already), ${madeGroups} groups, ${madeClasses} classes, ${madeRules.created} rules${madeRules.skipped.length ? ` (${madeRules.skipped.length} left out)` : ''}, ${archived} accounts archived`,
    );
    for (const skipped of madeRules.skipped) ctx.output.note(`books: rule left out: ${skipped}`);
    const differing = compared.filter((c) => c.differences.length > 0);
    for (const { basis, differences } of differing) {
      for (const difference of differences.slice(0, 20)) {
        ctx.output.note(`  ${basis}: ${difference}`);
      }
    }
    ctx.output.record(
      compared.map(({ basis, differences }): [string, string] => [
        `Trial balance (${basis})`,
        differences.length === 0 ? 'the same as exported' : `${differences.length} accounts differ`,
      ]),
      {
        trialBalances: compared.map(({ basis, differences }) => ({
          ledgerBasis: basis,
          matches: differences.length === 0,
          differences,
        })),
        accountsCreated: chart.created.length,
        rulesCreated: madeRules.created,
        rulesLeftOut: madeRules.skipped,
      },
    );
    if (differing.length > 0) {
      throw new UserError(
        `the ${differing.map((d) => d.basis).join(' and ')} trial balance${differing.length > 1 ? 's differ' : ' differs'} from the export's: the differences are above`,
        ExitCode.Refused,
      );
    }
    return ExitCode.Success;
  },
});

const exportedLedgers = (manifest: ExportManifest) =>
  (['cash', 'accrual'] as const).filter(
    (basis) => manifest.files.journals[basis] && manifest.entriesTrialBalance[basis],
  );

/**
 * Each account's balance at the export's end, as the manifest's rows (income and expenses
 * summed over every fiscal year, as the export's entries sum them); none when not open.
 */
async function trialBalanceAtEnd(
  api: BooksApi,
  entityId: string,
  manifest: ExportManifest,
  basis: LedgerBasis,
): Promise<TrialBalanceRow[]> {
  const day = manifest.range.to ?? '9999-12-31';
  try {
    const [{ columns }, accounts] = await Promise.all([
      balancesOverRange(api, entityId, {
        startDate: day,
        endDate: day,
        ledgerBasis: basis,
        groupBy: 'total',
      }),
      api.accounts.all(entityId),
    ]);
    return balanceRows(columns[0]!, accounts);
  } catch (error) {
    const { ApiError } = await import('../../client/index.js');
    if (basis === 'accrual' && error instanceof ApiError && error.status < 500) return [];
    throw error;
  }
}

/**
 * The ledgers whose entries go in, decided before anything is written: a ledger whose trial
 * balance is the export's already is done (a rerun writes nothing, whatever became of its keys);
 * an empty one, or one this machine began importing the file into (a rerun after a failure),
 * goes in; a ledger holding other books is refused, nothing written.
 */
async function ledgersToImport(
  ctx: CommandContext,
  api: BooksApi,
  scope: { workspace: { id: string; name: string }; entity: { id: string; name: string } },
  manifest: ExportManifest,
  file: (name: string) => string,
): Promise<LedgerBasis[]> {
  const [{ importBegunHere }, { booksPaths }] = await Promise.all([
    import('../../migrate/import/index.js'),
    import('../config/paths.js'),
  ]);
  const ledgers: LedgerBasis[] = [];
  for (const basis of exportedLedgers(manifest)) {
    const here = await trialBalanceAtEnd(api, scope.entity.id, manifest, basis);
    if (trialBalanceDifferences(manifest.entriesTrialBalance[basis]!, here).length === 0) {
      ctx.output.note(
        `books: the ${basis} ledger holds the export's entries already: not sent again`,
      );
      continue;
    }
    const journal = file(manifest.files.journals[basis]!);
    if (
      here.length > 0 &&
      !(await importBegunHere(booksPaths(ctx.io.env).dataDir, scope, basis, journal))
    ) {
      throw new UserError(
        `entity "${scope.entity.name}" (${scope.entity.id}) holds other books on its ${basis} ledger: books import writes into an empty entity (create one with books sandbox entity create); nothing was written`,
        ExitCode.Refused,
      );
    }
    ledgers.push(basis);
  }
  return ledgers;
}

function readManifest(directory: string, given: string): ExportManifest {
  const file = path.join(directory, 'manifest.json');
  if (!existsSync(file)) {
    throw new UserError(
      `${given}: no manifest.json: not a directory books export wrote`,
      ExitCode.InvalidFile,
    );
  }
  const manifest = readJson<ExportManifest>(file);
  if (manifest.format !== 'books-export' || manifest.version !== 1) {
    throw new UserError(
      `${file}: not an export this books reads (format ${String(manifest.format)}, version ${String(manifest.version)})`,
      ExitCode.InvalidFile,
    );
  }
  return manifest;
}

function readJson<T>(file: string): T {
  try {
    return JSON.parse(boundedText(file)) as T;
  } catch (error) {
    throw new UserError(`${file}: ${(error as Error).message}`, ExitCode.InvalidFile);
  }
}

const key = (...parts: string[]) =>
  `books-import-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 40)}`;
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The export's account groups, parents first; a group of that name and type there is used. */
async function importGroups(
  api: BooksApi,
  entityId: string,
  groups: ExportedGroup[],
): Promise<number> {
  const live = await api.accountGroups.all(entityId);
  let made = 0;
  for (const group of groups) {
    if (live.some((g) => sameName(g.name, group.name) && g.type === group.type)) continue;
    const parent = group.parent ? live.find((g) => sameName(g.name, group.parent!)) : undefined;
    const created = await api.accountGroups.create(entityId, {
      name: group.name,
      type: group.type,
      ...(parent && { parentGroupId: parent.id }),
    });
    live.push(created.group);
    made += 1;
  }
  return made;
}

/**
 * The export's classes, parents first, each found by its label under the same parent or made;
 * their ids in the export mapped to the ids here (for the `classes` column and the rules).
 */
async function importClasses(api: BooksApi, workspaceId: string, classes: ExportedClass[]) {
  const live: Class[] = await api.classes.all(workspaceId);
  const aliases = new Map<string, string>();
  const byPath = new Map<string, string>();
  let made = 0;
  for (const exported of classes) {
    const parentPath = exported.path.join('\u0000');
    const parentId = exported.path.length === 0 ? null : byPath.get(parentPath);
    if (parentId === undefined) continue;
    let found = live.find((c) => c.parentClassId === parentId && sameName(c.label, exported.label));
    if (!found) {
      found = (
        await api.classes.create(workspaceId, {
          label: exported.label,
          ...(parentId && { parentClassId: parentId }),
        })
      ).class;
      live.push(found);
      made += 1;
    }
    aliases.set(exported.id, found.id);
    byPath.set([...exported.path, exported.label].join('\u0000'), found.id);
  }
  return { aliases, made };
}

/** An accrual ledger is opened (through the sandbox control plane) before its entries go in. */
async function openAccrualLedger(ctx: CommandContext, api: BooksApi, entityId: string) {
  const { unlessNotFound } = await import('../../client/index.js');
  const entity = (await unlessNotFound(api.sandbox.entity(entityId)))?.entity;
  if (entity === undefined || entity.accrualLedgerOpen) return;
  await api.sandbox.openAccrualLedger(entityId);
  ctx.wrote('opened the accrual ledger');
}

/** Accounts the chart file marks archived, archived now that their entries are in. */
async function archiveAccounts(
  api: BooksApi,
  entityId: string,
  chartFile: string,
  accounts: Account[],
): Promise<number> {
  const { parse } = await import('csv-parse/sync');
  const rows = parse(boundedText(chartFile), {
    columns: true,
    max_record_size: MAX_TEXT_CHARACTERS,
  }) as Record<string, string>[];
  let archived = 0;
  for (const row of rows.filter((r) => r.archived === 'yes')) {
    const account =
      accounts.find((a) => a.code === row.code && sameName(a.name, row.name!)) ??
      accounts.find((a) => sameName(a.name, row.name!));
    if (!account || account.isDisabled) continue;
    await api.accounts.disable(entityId, account.id);
    archived += 1;
  }
  return archived;
}

/**
 * The export's rules: accounts found by code and name (else name), classes by the ids made for
 * them; a rule naming a bank account of the exporting workspace (`financial_account_is`) or an
 * account the chart lacks is left out, said why. A rule there already (the same conditions and
 * actions) is not made again; each is keyed by what it is.
 */
async function importRules(
  api: BooksApi,
  workspaceId: string,
  entityId: string,
  rules: ExportedRule[],
  mapped: { accounts: Account[]; classes: Map<string, string> },
): Promise<{ created: number; skipped: string[] }> {
  const live = await api.transactionRules.all(workspaceId);
  const skipped: string[] = [];
  let created = 0;
  for (const rule of rules) {
    const said = rule.note ?? JSON.stringify(rule.conditions);
    if (rule.conditions.some((c) => c.conditionType === 'financial_account_is')) {
      skipped.push(`${said}: it names a bank account of the exporting workspace`);
      continue;
    }
    const actions = [];
    let missing: string | undefined;
    for (const action of rule.actions) {
      if (action.actionType === 'account_id') {
        const account =
          mapped.accounts.find(
            (a) => a.code === action.account?.code && sameName(a.name, action.account.name),
          ) ?? mapped.accounts.find((a) => action.account && sameName(a.name, action.account.name));
        if (!account) {
          missing = `account ${action.account ? `${action.account.code} "${action.account.name}"` : action.value} is not in the chart`;
          break;
        }
        actions.push({ actionType: 'account_id' as const, value: account.id });
      } else if (action.actionType === 'tax_code') {
        // A code by its name: each entity resolves it among its own.
        actions.push({ actionType: 'tax_code' as const, value: action.value });
      } else {
        const id = mapped.classes.get(action.value);
        if (!id) {
          missing = `class ${action.value} is not among the export's classes`;
          break;
        }
        actions.push({ actionType: 'class_id' as const, value: id });
      }
    }
    if (missing) {
      skipped.push(`${said}: ${missing}`);
      continue;
    }
    const body = { conditions: rule.conditions, actions, note: rule.note };
    const there = live.some(
      (r) =>
        JSON.stringify(r.conditions) === JSON.stringify(body.conditions) &&
        JSON.stringify(r.actions) === JSON.stringify(body.actions),
    );
    if (there) continue;
    const made = await api.transactionRules.create(
      workspaceId,
      body,
      key(entityId, JSON.stringify(body)),
    );
    if (rule.isDisabled)
      await api.transactionRules.update(workspaceId, made.rule.id, { isDisabled: true });
    created += 1;
  }
  return { created, skipped };
}

/**
 * How two trial balances differ, account by account: by code where both have it under one name,
 * else by name (a standard chart allocates its own codes).
 */
function trialBalanceDifferences(expected: TrialBalanceRow[], actual: TrialBalanceRow[]): string[] {
  const keyOf = (r: TrialBalanceRow) => r.accountName.trim().toLowerCase();
  const left = new Map(expected.map((r) => [keyOf(r), r]));
  const right = new Map(actual.map((r) => [keyOf(r), r]));
  const differences: string[] = [];
  for (const name of new Set([...left.keys(), ...right.keys()])) {
    const a = left.get(name);
    const b = right.get(name);
    if (a?.debit === b?.debit && a?.credit === b?.credit) continue;
    const side = (r: TrialBalanceRow | undefined) =>
      r === undefined
        ? 'nothing'
        : r.debit !== 0
          ? `debit ${r.debit.toFixed(2)}`
          : `credit ${r.credit.toFixed(2)}`;
    differences.push(`${(a ?? b)!.accountName}: ${side(a)} exported, ${side(b)} here`);
  }
  return differences;
}
