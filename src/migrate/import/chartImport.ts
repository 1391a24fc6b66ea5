import type { Account, AccountGroup, CreateAccountBody } from '../../api/index.js';
import { ACCOUNT_TYPES } from '../../api/index.js';
import { nameKey } from '../../core/names.js';
import { accountTypeOf } from '../../formats/options.js';

/** One row of a chart file (`books coa import`): its file line and cells as written. */
export interface ChartRow {
  line: number;
  name?: string | undefined;
  type?: string | undefined;
  code?: string | undefined;
  group?: string | undefined;
}

/** What the entity's chart holds now, and whether its workspace keeps the codes given. */
export interface LiveChart {
  accounts: readonly Account[];
  groups: readonly AccountGroup[];
  codesKept: boolean;
}

/** What importing a chart file would do: create, find already there, or refuse (all of it). */
export interface ChartImportPlan {
  create: { line: number; body: CreateAccountBody }[];
  /** Rows the chart already holds as the file says (an earlier run's, or the user's). */
  existing: { line: number; account: Account }[];
  /** Every problem, with its line; any one of them and nothing is sent. */
  problems: string[];
  notes: string[];
  /** Rows whose code the platform would not keep (a standard chart allocates codes). */
  codesNotKept: { line: number; code: string; name: string }[];
}

const NAME_MAX_LENGTH = 255;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a whole chart file against the live chart before anything is sent, with the platform's
 * rules and the CLI's: names present, at most 255 characters and unique in any case (in the file,
 * and against the chart); types the API's or a class's (asset, liability, …); on a custom chart,
 * codes numeric and unique; groups named by id or name, of the account's type. A row the chart
 * already holds with the same type (and code, where codes are kept) is already there — an
 * earlier run's — and is not created again: a rerun after a failure writes each account once.
 */
export function planChartImport(rows: readonly ChartRow[], live: LiveChart): ChartImportPlan {
  const plan: ChartImportPlan = {
    create: [],
    existing: [],
    problems: [],
    notes: [],
    codesNotKept: [],
  };
  const problem = (line: number, text: string) => plan.problems.push(`line ${line}: ${text}`);
  const chartByName = new Map(live.accounts.map((a) => [nameKey(a.name), a]));
  const chartByCode = new Map(live.accounts.map((a) => [a.code, a]));
  const fileNames = new Map<string, number>();
  const fileCodes = new Map<string, number>();
  let codesIgnored = 0;
  for (const row of rows) {
    const name = row.name?.trim() ?? '';
    const code = row.code?.trim() || undefined;
    if (name === '') {
      problem(row.line, 'no name');
      continue;
    }
    if (name.length > NAME_MAX_LENGTH) {
      problem(row.line, `the name is ${name.length} characters; at most ${NAME_MAX_LENGTH}`);
      continue;
    }
    const type = row.type?.trim() ? accountTypeOf(row.type) : undefined;
    if (!type) {
      problem(
        row.line,
        row.type?.trim()
          ? `type "${row.type.trim()}" is not one of ${ACCOUNT_TYPES.join(', ')} (or asset, liability, equity, income, expense)`
          : `"${name}" has no type`,
      );
      continue;
    }
    const key = nameKey(name);
    const earlier = fileNames.get(key);
    if (earlier !== undefined) {
      problem(row.line, `"${name}" is named again (line ${earlier}); names are unique in any case`);
      continue;
    }
    fileNames.set(key, row.line);

    const inChart = chartByName.get(key);
    if (inChart) {
      const sameCode = !live.codesKept || code === undefined || code === inChart.code;
      if (inChart.type === type && sameCode) {
        plan.existing.push({ line: row.line, account: inChart });
      } else {
        problem(
          row.line,
          `"${name}" (${live.codesKept && code ? `${code}, ` : ''}${type}) is in the chart as ${inChart.code} "${inChart.name}" (${inChart.type})`,
        );
      }
      continue;
    }

    if (code !== undefined && live.codesKept) {
      const codeProblem = !/^\d{1,18}$/.test(code)
        ? `code "${code}" is not a number of at most 18 digits`
        : chartByCode.has(code)
          ? `code ${code} is taken in the chart by "${chartByCode.get(code)!.name}"`
          : fileCodes.has(code)
            ? `code ${code} is given again (line ${fileCodes.get(code)})`
            : undefined;
      if (codeProblem) {
        problem(row.line, codeProblem);
        continue;
      }
      fileCodes.set(code, row.line);
    } else if (code !== undefined) {
      codesIgnored += 1;
      plan.codesNotKept.push({ line: row.line, code, name });
    }

    let groupId: string | undefined;
    const group = row.group?.trim();
    if (group) {
      const matches = UUID.test(group)
        ? live.groups.filter((g) => g.id === group)
        : live.groups.filter((g) => nameKey(g.name) === nameKey(group));
      if (matches.length !== 1) {
        problem(
          row.line,
          matches.length === 0
            ? `no account group "${group}" (books group list shows them)`
            : `${matches.length} account groups are named "${group}": give its id`,
        );
        continue;
      }
      if (matches[0]!.type !== type) {
        problem(
          row.line,
          `group "${matches[0]!.name}" holds ${matches[0]!.type} accounts, not ${type}`,
        );
        continue;
      }
      groupId = matches[0]!.id;
    }
    plan.create.push({
      line: row.line,
      body: {
        name,
        type,
        ...(code !== undefined && live.codesKept && { code }),
        ...(groupId && { groupId }),
      },
    });
  }
  if (codesIgnored > 0) {
    plan.notes.push(
      `the workspace's chart is the standard one, so the platform allocates codes: the file's ${codesIgnored} code${codesIgnored === 1 ? ' is' : 's are'} not kept`,
    );
  }
  return plan;
}
