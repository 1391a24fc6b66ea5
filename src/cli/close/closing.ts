import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Entity, Workspace } from '../../api/index.js';
import { unlessNotFound } from '../../client/errors.js';
import type { Named } from '../../client/references.js';
import { decimalToCents, InvalidAmountError, type Cents } from '../../core/money.js';
import { namedPeriod, type Period } from '../../core/periods.js';
import type { BankStatement } from '../../formats/statement.js';
import type { Check, ReviewSettings } from '../../migrate/close/review.js';
import { flag, text } from '../command.js';
import { readConfig } from '../config/profiles.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exitCodes.js';
import { FLUX_AMOUNT_DEFAULT, FLUX_PERCENT_DEFAULT } from '../config/settings.js';
import { fileFingerprint, reconciledStatementsOf, statementLinksOf } from '../statements/links.js';
import { usualDateFormat } from '../config/profileInUse.js';

/*
 * What `close review` and `close` share: the period, the firm's review settings, the entities
 * reviewed, the statements of a directory, and each entity's review.
 */

export const closeOptions = {
  allEntities: flag('--all-entities', 'every entity of the workspace (-w)'),
  statements: text(
    '--statements <dir>',
    'a directory of bank statements: each bank and card account reconciled to its own',
    { names: 'directory' },
  ),
  days: text('--days <n>', 'how many days apart a statement entry and its posting may be', {
    default: '3',
  }),
} as const;

/** `YYYY-MM` as the month's first and last days. */
export function monthPeriod(text: string): Period {
  const period = /^\d{4}-\d{2}$/.test(text) ? namedPeriod(text) : undefined;
  if (period === undefined)
    throw new UsageError(`the period is a month, YYYY-MM (2026-10), not "${text}"`);
  return period;
}

/** The review settings in effect: the config file's (`books config set`), else the defaults. */
export async function reviewSettings(env: NodeJS.ProcessEnv): Promise<ReviewSettings> {
  const { DEFAULT_SUSPENSE_ACCOUNTS } = await import('../../migrate/close/review.js');
  const config = readConfig(env);
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const percent = Number(text(config.fluxPercent, FLUX_PERCENT_DEFAULT));
  let amount: Cents;
  try {
    amount = decimalToCents(text(config.fluxAmount, FLUX_AMOUNT_DEFAULT));
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    throw new UsageError(
      `the config file's flux-amount ${error.message}: books config set flux-amount 1000`,
    );
  }
  return {
    suspenseAccounts: [
      ...DEFAULT_SUSPENSE_ACCOUNTS,
      ...text(config.suspenseAccounts, '')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    ],
    fluxPercent: Number.isInteger(percent) && percent > 0 ? percent : Number(FLUX_PERCENT_DEFAULT),
    fluxAmount: amount,
  };
}

export interface ReviewedEntity {
  workspace: Named;
  entity: Named;
  ready: boolean;
  checks: Check[];
}

/** The entities a close works on: the chosen one, or every one of the workspace. */
export async function entitiesToClose(
  ctx: CommandContext,
  allEntities: boolean,
): Promise<{
  workspace: Workspace;
  entities: (Entity | (Named & { bookkeepingStartDate: null; lockDate: null }))[];
}> {
  const api = await ctx.api();
  if (allEntities) {
    const workspaceId = await ctx.workspaceId();
    const { workspace } = await api.workspaces.get(workspaceId);
    const entities = await unlessNotFound(api.sandbox.entities(workspaceId));
    if (entities === undefined)
      throw new UsageError(
        'the platform does not list the entities of a workspace (no sandbox control plane): name one with --entity',
      );
    return { workspace, entities };
  }
  const chosen = await ctx.chosenEntity();
  const { workspace } = await api.workspaces.get(chosen.workspace.id);
  const entity = (await unlessNotFound(api.sandbox.entity(chosen.entity.id)))?.entity;
  return {
    workspace,
    entities: [entity ?? { ...chosen.entity, bookkeepingStartDate: null, lockDate: null }],
  };
}

/**
 * Every statement in a directory (and the directories in it), each file read in the format its
 * first bytes show; a file that is not a statement is said and passed over.
 */
export async function statementsIn(
  ctx: CommandContext,
  directory: string,
): Promise<{ all: BankStatement[]; fingerprints: Map<BankStatement, string> }> {
  const { readStatementFile } = await import('../../formats/statements.js');
  let files: string[];
  try {
    if (!statSync(directory).isDirectory())
      throw new UsageError(`--statements ${directory} is not a directory`);
    files = (readdirSync(directory, { recursive: true }) as string[])
      .map((name) => path.join(directory, name))
      .filter((file) => statSync(file).isFile())
      .sort();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read --statements ${directory}: ${code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : code}`,
    );
  }
  const statements: BankStatement[] = [];
  const fingerprints = new Map<BankStatement, string>();
  const usual = await usualDateFormat(ctx);
  for (const file of files) {
    try {
      const read = await readStatementFile(file, usual ? { usualDateFormat: usual } : {});
      statements.push(...read.statements);
      const fingerprint = fileFingerprint(file);
      for (const statement of read.statements) fingerprints.set(statement, fingerprint);
    } catch (error) {
      const line = (error as { line?: number }).line;
      ctx.output.note(
        `books: ${file}${line !== undefined ? `:${line}` : ''}: not read as a statement: ${(error as Error).message}`,
      );
    }
  }
  return { all: statements, fingerprints };
}

/** Reviews each entity, four at a time; one that cannot be reviewed stops the review. */
export async function reviewEntities(
  ctx: CommandContext,
  input: { allEntities?: boolean | undefined; statements?: string | undefined; days: string },
  period: Period,
  days: number,
  /** The entities to review, where the caller has them (the demo); else the flags'. */
  given?: Awaited<ReturnType<typeof entitiesToClose>>,
): Promise<ReviewedEntity[]> {
  const [{ readReviewData }, { reviewChecks, isReady }] = await Promise.all([
    import('../../migrate/close/reviewData.js'),
    import('../../migrate/close/review.js'),
  ]);
  const settings = await reviewSettings(ctx.io.env);
  const api = await ctx.api();
  const { workspace, entities } = given ?? (await entitiesToClose(ctx, Boolean(input.allEntities)));
  const statements =
    input.statements !== undefined ? await statementsIn(ctx, input.statements) : undefined;
  const reviewed: ReviewedEntity[] = new Array(entities.length);
  let next = 0;
  const worker = async () => {
    while (next < entities.length) {
      const index = next++;
      const entity = entities[index]!;
      const links = new Map(
        Object.entries((await statementLinksOf(ctx, entity.id)).links).map(([id, link]) => [
          id,
          link.accountId,
        ]),
      );
      const reconciled = await reconciledStatementsOf(ctx, entity.id);
      if (statements) {
        const unknown = statements.all.filter(
          (s) => s.account === null && !reconciled[statements.fingerprints.get(s) ?? ''],
        ).length;
        if (unknown > 0)
          ctx.output.note(
            `books: ${entity.name}: ${unknown} statement${unknown === 1 ? '' : 's'} in ${input.statements} ${unknown === 1 ? 'names' : 'name'} no bank account and ${unknown === 1 ? 'was' : 'were'} never reconciled: whose ${unknown === 1 ? 'it is' : 'they are'} cannot be told (books reconcile ACCOUNT FILE links one)`,
          );
      }
      const data = await readReviewData(api, {
        entity: { id: entity.id, bookkeepingStartDate: entity.bookkeepingStartDate },
        workspace: { id: workspace.id, timezone: workspace.timezone },
        period,
        today: ctx.today(),
        basis: 'cash',
        ...(statements && { statements: { ...statements, links, reconciled } }),
        days,
      });
      const checks = reviewChecks(data, settings);
      reviewed[index] = {
        workspace: { id: workspace.id, name: workspace.name },
        entity: { id: entity.id, name: entity.name },
        ready: isReady(checks),
        checks,
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, entities.length) }, worker));
  return reviewed;
}

/** `uncategorized (3), reconciled (1)`: the checks of a status with their counts. */
export const checksWith = (checks: readonly Check[], status: Check['status']) =>
  checks
    .filter((c) => c.status === status)
    .map((c) => `${c.id} (${c.count})`)
    .join(', ');

/** A review as JSON: one object per entity. */
export const reviewJson = (reviewed: readonly ReviewedEntity[]) =>
  reviewed.map((r) => ({
    workspace: r.workspace,
    entity: r.entity,
    ready: r.ready,
    checks: r.checks,
  }));

/** Says on stderr, for each entity not ready, what fails and what to do. */
export function sayFailures(ctx: CommandContext, reviewed: readonly ReviewedEntity[]): void {
  for (const r of reviewed) {
    for (const check of r.checks) {
      if (check.status !== 'fail') continue;
      const shown = check.items.slice(0, 3).join('; ');
      ctx.output.note(
        `books: ${r.entity.name}: ${check.id}: ${shown}${check.count > 3 ? `; and ${check.count - 3} more` : ''} — ${check.hint}`,
      );
    }
  }
}
