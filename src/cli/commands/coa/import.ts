import type { CreateAccountBody } from '../../../api/index.js';
import { argument, defineCommand } from '../../command.js';
import { ExitCode, UserError } from '../../exitCodes.js';
import { parseCreate } from './shared.js';

/**
 * `coa import FILE.csv`: columns name and type (or account_type), optional code and group
 * (header names match case-insensitively, ignoring spaces and underscores). Every row is checked
 * before anything is sent; then bulk creates of up to 100, each all-or-nothing.
 */
export const command = defineCommand({
  summary: 'Create accounts from a CSV file (columns name, type; optional code, group)',
  arguments: { file: argument('the chart, as CSV') },
  examples: ['books coa import chart.csv'],
  async run(ctx, { file }) {
    const { readFileSync } = await import('node:fs');
    const { parse } = await import('csv-parse/sync');
    let records: Record<string, string>[];
    try {
      records = parse(readFileSync(file, 'utf8'), {
        bom: true,
        columns: (header: string[]) => header.map((h) => h.toLowerCase().replace(/[\s_]/g, '')),
        skip_empty_lines: true,
        trim: true,
      });
    } catch (error) {
      throw new UserError(`${file}: ${(error as Error).message}`, ExitCode.InvalidFile);
    }
    const problems: string[] = [];
    const bodies = records.map((record, index) => {
      const line = index + 2;
      try {
        return parseCreate({
          name: record.name,
          type: record.type ?? record.accounttype,
          code: record.code,
          group: record.group,
        });
      } catch (error) {
        problems.push(`${file}:${line}: ${(error as Error).message.replace(/^--(\w+)/, '$1')}`);
        return undefined;
      }
    });
    if (records.length === 0)
      problems.push(`${file}: no accounts (a header row name,type and one row per account)`);
    if (problems.length > 0)
      throw new UserError(`${problems.join('\n')}\nnothing was sent`, ExitCode.InvalidFile);
    const entityId = await ctx.entityId();
    const api = await ctx.api();
    const created = [];
    const valid = bodies as CreateAccountBody[];
    for (let start = 0; start < valid.length; start += 100) {
      created.push(
        ...(await api.accounts.bulkCreate(entityId, valid.slice(start, start + 100))).data,
      );
    }
    ctx.wrote(`imported ${created.length} accounts from ${file}`);
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
