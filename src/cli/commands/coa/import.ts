import type { Account } from '../../../api/index.js';
import { argument, defineCommand, flag } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, unreadableFile, UserError } from '../../exitCodes.js';

/**
 * `coa import FILE.csv`: columns name and type (or account_type), optional code and group
 * (header names match case-insensitively, ignoring spaces and underscores). All or nothing: the
 * whole file is checked against the live chart first (src/migrate/chartImport.ts), every
 * problem listed with its line (exit 3, nothing sent); then bulk creates of up to 100, each keyed
 * by the entity and its accounts, so a retry replays it and a rerun after a failure finds what
 * was created and writes each account once.
 */
export const command = defineCommand({
  summary: 'Create accounts from a CSV file (columns name, type; optional code, group)',
  arguments: { file: argument('the chart, as CSV') },
  options: {
    renumber: flag(
      '--renumber',
      "on a workspace's standard chart, let the file's codes go: the platform allocates its own",
    ),
  },
  examples: ['books coa import chart.csv', 'books coa import chart.csv --renumber'],
  async run(ctx, { file, renumber }) {
    const { created } = await importChartFile(ctx, file, { renumber: Boolean(renumber) });
    await ctx.output.table(
      [
        { header: 'Code', value: (a) => a.code },
        { header: 'Name', value: (a) => a.name },
        { header: 'Type', value: (a) => a.type },
        { header: 'ID', value: (a) => a.id },
      ],
      created,
    );
  },
});

/**
 * A chart file into the chosen entity's chart, as `coa import` does it (checked whole first;
 * keyed bulk creates; accounts already there as the file has them are not created again).
 */
export async function importChartFile(
  ctx: CommandContext,
  file: string,
  /** `renumber`: a file's codes may go where the workspace's standard chart allocates its own. */
  options: { renumber: boolean },
): Promise<{ created: Account[]; existing: number }> {
  const [{ boundedText }, { parse }, { planChartImport }, { accountsKey }, { unlessNotFound }] =
    await Promise.all([
      import('../../../formats/common/bounds.js'),
      import('csv-parse/sync'),
      import('../../../migrate/import/chartImport.js'),
      import('../../../migrate/import/batches.js'),
      import('../../../client/index.js'),
    ]);
  let records: Record<string, string>[];
  try {
    records = parse(boundedText(file), {
      max_record_size: 1024 * 1024, // a line of a million characters is no chart's
      bom: true,
      columns: (header: string[]) => header.map((h) => h.toLowerCase().replace(/[\s_]/g, '')),
      skip_empty_lines: true,
      // A hand-made chart often leaves its trailing optional cells out.
      relax_column_count: true,
      trim: true,
    });
  } catch (error) {
    if (['ENOENT', 'EACCES', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? ''))
      throw unreadableFile(file, error);
    throw new UserError(`${file}: ${(error as Error).message}`, ExitCode.InvalidFile);
  }
  if (records.length === 0) {
    throw new UserError(
      `${file}: no accounts (a header row name,type and one row per account); nothing was sent`,
      ExitCode.InvalidFile,
    );
  }
  const { workspace, entity } = await ctx.chosenEntity();
  const api = await ctx.api();
  const [accounts, groups, settings] = await Promise.all([
    api.accounts.all(entity.id),
    api.accountGroups.all(entity.id),
    unlessNotFound(api.sandbox.workspace(workspace.id)),
  ]);
  const plan = planChartImport(
    records.map((record, index) => ({
      line: index + 2,
      name: record.name,
      type: record.type ?? record.accounttype,
      code: record.code,
      group: record.group,
    })),
    { accounts, groups, codesKept: settings?.workspace.customChartOfAccounts ?? false },
  );
  if (plan.problems.length > 0) {
    throw new UserError(
      `${plan.problems.map((p) => `${file}: ${p}`).join('\n')}\n${file}: ${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'}; nothing was sent`,
      ExitCode.InvalidFile,
    );
  }
  if (plan.codesNotKept.length > 0 && settings && !options.renumber) {
    const shown = plan.codesNotKept
      .slice(0, 3)
      .map((c) => `${c.code} "${c.name}"`)
      .join(', ');
    throw new UserError(
      `${file}: the file gives its accounts codes (${shown}${plan.codesNotKept.length > 3 ? `, and ${plan.codesNotKept.length - 3} more` : ''}), and workspace "${workspace.name}" keeps the standard chart, whose codes the platform allocates. To keep the file's codes, make the workspace's chart a custom one first (books sandbox workspace update "${workspace.name}" --custom-chart); to let them go, pass --renumber. Nothing was sent`,
      ExitCode.Usage,
    );
  }
  for (const note of plan.notes) ctx.output.note(`books: ${file}: ${note}`);
  if (plan.existing.length > 0) {
    ctx.output.note(
      `books: ${file}: ${plan.existing.length} of its ${records.length} accounts are in the chart already, as the file has them: not created again`,
    );
  }
  const created: Account[] = [];
  const bodies = plan.create.map((c) => c.body);
  for (let start = 0; start < bodies.length; start += 100) {
    const batch = bodies.slice(start, start + 100);
    const key = accountsKey({ workspaceId: workspace.id, entityId: entity.id }, batch);
    created.push(...(await api.accounts.bulkCreate(entity.id, batch, key)).data);
  }
  ctx.wrote(`imported ${created.length} account${created.length === 1 ? '' : 's'} from ${file}`);
  return { created, existing: plan.existing.length };
}
