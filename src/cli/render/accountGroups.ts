import type { Account, AccountGroup } from '../../api/index.js';
import { addCents, answeredAmountToCents, centsToAmount, type Cents } from '../../core/money.js';
import type { Statement, StatementRow } from './statements.js';

/**
 * A statement's accounts nested under their account groups, as a pack shows them: the platform's
 * reports flatten groups into account lines (platform-api.md), so the tree comes from the chart.
 * Within a section each group stands where its first account stood, under a heading of its
 * name, its accounts (and child groups) indented one level deeper, and closes with a
 * `Total <group>` line, the sum of what it holds, column by column (comparisons too). Accounts
 * outside any group, and lines that are no account (a balance sheet's net income), stay where
 * they were. Totals of sections are untouched: a group total is an extra line, never a figure
 * the report does not already hold in its accounts.
 */
export function nestUnderGroups(
  statement: Statement,
  accounts: readonly Pick<Account, 'code' | 'name' | 'groupId'>[],
  groups: readonly Pick<AccountGroup, 'id' | 'name' | 'parentGroupId'>[],
): Statement {
  const groupOf = new Map<string, string>();
  for (const account of accounts) {
    if (account.groupId !== null)
      groupOf.set(accountKey(account.code, account.name), account.groupId);
  }
  if (groupOf.size === 0) return statement;
  const byId = new Map(groups.map((group) => [group.id, group]));
  /** A group's ancestry, root first. */
  const chain = (groupId: string): string[] => {
    const path: string[] = [];
    for (let id: string | null = groupId; id !== null && byId.has(id);) {
      if (path.includes(id)) break;
      path.unshift(id);
      id = byId.get(id)!.parentGroupId;
    }
    return path;
  };

  const rows: StatementRow[] = [];
  let section: Node | undefined;
  const flush = () => {
    if (section) rows.push(...emit(section, 0, statement));
    section = undefined;
  };
  for (const row of statement.rows) {
    const groupId =
      row.kind === 'line' && row.account
        ? groupOf.get(accountKey(row.account.code, row.account.name))
        : undefined;
    if (row.kind !== 'line') {
      flush();
      rows.push(row);
      continue;
    }
    section ??= { children: [] };
    let node = section;
    for (const id of groupId === undefined ? [] : chain(groupId)) {
      let child = node.children.find(
        (c): c is Node & { group: string } => 'group' in c && c.group === id,
      );
      if (!child) {
        child = { group: id, name: byId.get(id)!.name, section: row.section, children: [] };
        node.children.push(child);
      }
      node = child;
    }
    node.children.push(row);
  }
  flush();
  return { ...statement, rows };
}

interface Node {
  group?: string;
  name?: string;
  section?: string;
  children: (Node | StatementRow)[];
}

const accountKey = (code: string, name: string) => (code ? `code:${code}` : `name:${name}`);

const isRow = (child: Node | StatementRow): child is StatementRow => 'kind' in child;

/** A node's rows at `depth` (its accounts one deeper than the section's own lines). */
function emit(node: Node, depth: number, statement: Statement): StatementRow[] {
  const rows: StatementRow[] = [];
  for (const child of node.children) {
    if (isRow(child)) {
      rows.push({ ...child, depth: depth + 1 });
      continue;
    }
    const inner = emit(child, depth + 1, statement);
    const members = inner.filter((row) => row.kind === 'line');
    const sum = (pick: (row: StatementRow) => (number | null)[] | undefined) =>
      statement.columns.map((_, i) => {
        const present = members.map((row) => pick(row)?.[i]).filter((v) => typeof v === 'number');
        return present.length === 0
          ? null
          : centsToAmount(
              present.reduce<Cents>(
                (total, v) => addCents(total, answeredAmountToCents(v)),
                0 as Cents,
              ),
            );
      });
    const section = child.section ?? '';
    rows.push({ label: child.name!, depth: depth + 1, kind: 'heading', values: [], section });
    rows.push(...inner);
    rows.push({
      label: `Total ${child.name!}`,
      depth: depth + 1,
      kind: 'total',
      values: sum((row) => row.values),
      section,
      ...(statement.comparison && { comparisons: sum((row) => row.comparisons) }),
    });
  }
  return rows;
}
