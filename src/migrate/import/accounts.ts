import {
  ACCOUNT_TYPES,
  CLASS_OF_TYPE,
  isProfitAndLoss,
  type Account,
  type AccountClass,
  type AccountType,
  type CreateAccountBody,
} from '../../api/index.js';
import { resolveReference } from '../../client/references.js';
import { addCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { didYouMean, listed, nameKey } from '../../core/names.js';
import type { AccountKind, FileAccount, Problem } from '../../formats/ledgerCsv.js';
import { accountTypeOf } from '../../formats/options.js';

export type { FileAccount } from '../../formats/ledgerCsv.js';

export { accountTypeOf, TYPE_OF_CLASS } from '../../formats/options.js';

const ACCEPTED_TYPES = `one of ${ACCOUNT_TYPES.join(', ')}; or a class: asset, liability, equity, income (revenue), expense`;

/** The longest account name the platform takes. */
const NAME_MAX_LENGTH = 255;

export interface AccountPlanOptions {
  /**
   * The workspace is on a custom chart of accounts: the file's codes are kept (matched and
   * given to new accounts). Otherwise the platform allocates codes, and accounts are matched and
   * created by name.
   */
  codesKept: boolean;
  createMissing: boolean;
  /**
   * The accounts earlier runs of this import posted each identity to (the checkpoint's), which
   * hold on the standard chart even when renamed since.
   */
  remembered: ReadonlyMap<string, string>;
  /**
   * Debits less credits of each file key over the whole file (pass one's totals): the side of
   * the balance that types an account the file states only as balance sheet or profit and loss.
   */
  netOfKey?: ReadonlyMap<string, Cents>;
}

/** An account to create, and the file's keys that name it. */
export interface MissingAccount {
  body: CreateAccountBody;
  keys: string[];
  identities: string[];
  firstLine: number;
}

export interface AccountPlan {
  /** File key → account id, for the accounts the chart has. */
  resolved: Map<string, string>;
  /** Identity (see `identityOf`) → account id: what the checkpoint keeps for reruns. */
  identities: Map<string, string>;
  /** File key → what the file calls that account, put together from all its lines. */
  identityOfKey: Map<string, FileIdentity>;
  missing: MissingAccount[];
  problems: Problem[];
  /** Said once, when the file's codes cannot be kept. */
  notes: string[];
}

/** What the file calls one of its accounts, put together from all its lines. */
export interface FileIdentity {
  /** How it is known across runs (see `identityOf`). */
  id: string;
  code: string | undefined;
  name: string | undefined;
  text: string | undefined;
}

interface Identity extends FileIdentity {
  keys: string[];
  firstLine: number;
  lines: number;
  /** The first `account_type` given for it, and its line. */
  accountType: { text: string; line: number } | undefined;
  kind: { kind: AccountKind; line: number } | undefined;
  /** The name as the file writes it, when `name` is it named apart as `Name (code)`. */
  sharedName?: string;
}

const quoted = (code: string | undefined, name: string | undefined) =>
  [code, name === undefined ? undefined : `"${name}"`].filter(Boolean).join(' ');

const linesOf = (identity: { lines: number }) =>
  identity.lines === 1 ? '1 line' : `${identity.lines} lines`;

/** An account of the chart as messages show it: `6100 "Rent"`. */
export const chartLabel = (account: Pick<Account, 'code' | 'name'>) =>
  quoted(account.code, account.name);

/** An account of the file as messages and the reconciliation show it. */
export const fileLabel = (account: {
  code?: string | undefined;
  name?: string | undefined;
  text?: string | undefined;
}) =>
  account.text === undefined
    ? quoted(account.code, account.name)
    : /^\d+$/.test(account.text)
      ? account.text
      : `"${account.text}"`;

/**
 * The one rule for the accounts a file names, pure: the file's names put together (a code with
 * one name and a name with one code, throughout the file), then each resolved in the chart, or
 * planned for creation. Every disagreement is a problem with its first line: a code whose name
 * differs from the chart's, a name the chart gives another code, an archived account, an
 * ambiguous or untyped one.
 */
export function planAccounts(
  fileAccounts: Iterable<FileAccount>,
  chart: readonly Account[],
  options: AccountPlanOptions,
): AccountPlan {
  const plan: AccountPlan = {
    resolved: new Map(),
    identities: new Map(),
    identityOfKey: new Map(),
    missing: [],
    problems: [],
    notes: [],
  };
  const identities = identify([...fileAccounts], plan.problems, plan.notes);
  if (!options.codesKept && identities.some((i) => i.code !== undefined && i.text === undefined)) {
    plan.notes.push(
      "the workspace's chart of accounts is the standard one, whose codes the platform allocates: the file's account codes cannot be kept. Accounts are matched and created by name, and each code keeps to the account it first went to, on every rerun",
    );
  }
  const byId = new Map(chart.map((a) => [a.id, a]));
  const byCode = new Map(chart.map((a) => [a.code, a]));
  const byName = new Map(chart.map((a) => [nameKey(a.name), a]));
  const missing = new Map<string, MissingAccount>();
  const typedBySide: string[] = [];

  for (const identity of identities) {
    const told: FileIdentity = {
      id: identity.id,
      code: identity.code,
      name: identity.name,
      text: identity.text,
    };
    for (const key of identity.keys) plan.identityOfKey.set(key, told);
    const problem = (message: string) =>
      plan.problems.push({
        fileLine: identity.firstLine,
        message: `${message} (${linesOf(identity)})`,
      });
    const typeProblem = (message: string) =>
      plan.problems.push({
        fileLine: identity.accountType!.line,
        message: `account ${fileLabel(identity)}: ${message}`,
      });
    // On the standard chart a code is matched by its name, which may change: an earlier run's
    // account for it holds. (On a custom chart the code itself is the match.)
    let account = options.codesKept
      ? undefined
      : byId.get(options.remembered.get(identity.id) ?? '');
    if (!account) {
      const found = find(identity, chart, byCode, byName, options.codesKept);
      if ('problem' in found) {
        problem(found.problem);
        continue;
      }
      account = found.account;
    }
    if (account) {
      if (account.isDisabled) {
        problem(
          `account ${chartLabel(account)} is archived: the platform refuses new lines on it (books coa enable ${account.code})`,
        );
        continue;
      }
      // A file that types an account as another class than the chart's has the wrong account.
      const given = identity.accountType;
      const type = given === undefined ? null : accountTypeOf(given.text);
      if (type === undefined) {
        typeProblem(`"${given!.text}" is not an account type (${ACCEPTED_TYPES})`);
        continue;
      }
      if (type && CLASS_OF_TYPE[type] !== account.class) {
        plan.problems.push({
          fileLine: given!.line,
          message: `the file types account ${fileLabel(identity)} as ${type} (${CLASS_OF_TYPE[type]}), but the chart's ${chartLabel(account)} is ${account.type} (${account.class})`,
        });
        continue;
      }
      if (!type && identity.kind && kindOfClass(account.class) !== identity.kind.kind) {
        plan.problems.push({
          fileLine: identity.kind.line,
          message: `the file states account ${fileLabel(identity)} is a ${identity.kind.kind} account, but the chart's ${chartLabel(account)} is ${account.type} (${account.class}): a different account`,
        });
        continue;
      }
      for (const key of identity.keys) plan.resolved.set(key, account.id);
      plan.identities.set(identity.id, account.id);
      continue;
    }
    // Not in the chart.
    const label = fileLabel(identity);
    if (!options.createMissing) {
      problem(
        `no account ${label} in the chart (add it, or pass --create-missing-accounts with an account_type column)${didYouMean(
          chart.map((a) => a.name),
          identity.name ?? identity.text ?? '',
        )}`,
      );
      continue;
    }
    const name =
      identity.name ??
      (identity.text !== undefined && !/^\d+$/.test(identity.text) ? identity.text : undefined);
    if (name === undefined) {
      problem(
        `no account ${label} in the chart, and the file gives no name to create it with (an account_name column)`,
      );
      continue;
    }
    if (name.length > NAME_MAX_LENGTH) {
      problem(`account ${label}: a name is at most ${NAME_MAX_LENGTH} characters`);
      continue;
    }
    const code = options.codesKept ? identity.code : undefined;
    if (code !== undefined && !/^\d+$/.test(code)) {
      problem(`account ${label}: a code of a custom chart of accounts is digits only`);
      continue;
    }
    // Two ways of naming one new account (`Rent` and `rent`) create it once.
    const sameAccount = code ?? `name ${nameKey(name)}`;
    const planned = missing.get(sameAccount);
    const type = identity.accountType && accountTypeOf(identity.accountType.text);
    if (identity.accountType && !type) {
      typeProblem(`"${identity.accountType.text}" is not an account type (${ACCEPTED_TYPES})`);
      continue;
    }
    if (planned) {
      if (type && planned.body.type !== type) {
        typeProblem(`typed ${type} here and ${planned.body.type} on line ${planned.firstLine}`);
        continue;
      }
      planned.keys.push(...identity.keys);
      planned.identities.push(identity.id);
      continue;
    }
    const sided =
      type ?? (identity.kind && typeBySide(identity.kind.kind, netOf(identity, options.netOfKey)));
    if (!sided) {
      problem(
        `account ${label} is not in the chart, and neither the file nor a flag types it: give its type in an account_type column, or pass --chart FILE (code,name,type) or --code-ranges PREFIX=TYPE`,
      );
      continue;
    }
    if (!type) typedBySide.push(`${label} ${sided}`);
    missing.set(sameAccount, {
      body: { name: name.trim(), type: sided, ...(code !== undefined && { code }) },
      keys: [...identity.keys],
      identities: [identity.id],
      firstLine: identity.firstLine,
    });
  }
  plan.missing = [...missing.values()];
  if (typedBySide.length > 0) {
    plan.notes.push(
      `${typedBySide.length === 1 ? '1 account' : `${typedBySide.length} accounts`} typed by the side of ${typedBySide.length === 1 ? 'its' : 'their'} balance, the file stating only balance sheet or profit and loss (a debit balance an asset or an expense, a credit one a liability or income): ${listed(typedBySide)}; --chart FILE types them exactly`,
    );
  }
  return plan;
}

/** The balance sheet holds assets, liabilities and equity; the rest is profit and loss. */
const kindOfClass = (accountClass: AccountClass): AccountKind =>
  isProfitAndLoss(accountClass) ? 'profit and loss' : 'balance sheet';

/**
 * The type of an account the file states only as balance sheet or profit and loss, by the side
 * of its balance: debit an asset or an expense, credit a liability or income (zero: debit).
 */
export function typeBySide(kind: AccountKind, net: Cents): AccountType {
  if (kind === 'balance sheet')
    return net < 0 ? 'Other Current Liabilities' : 'Other Current Assets';
  return net < 0 ? 'Income' : 'Operating Expenses';
}

/** Debits less credits of an account over the file, all its keys together. */
function netOf(identity: Identity, netOfKey: ReadonlyMap<string, Cents> | undefined): Cents {
  let net = ZERO_CENTS;
  for (const key of identity.keys) net = addCents(net, netOfKey?.get(key) ?? ZERO_CENTS);
  return net;
}

/** The account an identity names in the chart; undefined when it has none; or why not. */
function find(
  identity: Identity,
  chart: readonly Account[],
  byCode: ReadonlyMap<string, Account>,
  byName: ReadonlyMap<string, Account>,
  codesKept: boolean,
): { account: Account | undefined } | { problem: string } {
  const label = fileLabel(identity);
  if (identity.text !== undefined) {
    const resolution = resolveReference(chart, identity.text, (a) => ({
      id: a.id,
      code: a.code,
      name: a.name,
    }));
    if (resolution.ambiguous) {
      return {
        problem: `account "${identity.text}" names ${resolution.ambiguous.length} accounts of the chart: ${resolution.ambiguous.map(chartLabel).join(', ')}; use the code`,
      };
    }
    return { account: resolution.found };
  }
  const byItsName = identity.name === undefined ? undefined : byName.get(nameKey(identity.name));
  if (identity.code !== undefined && (codesKept || identity.name === undefined)) {
    const byItsCode = byCode.get(identity.code);
    const other = byItsCode ?? byItsName;
    if (
      other &&
      (other.code !== identity.code ||
        (identity.name !== undefined &&
          nameKey(other.name) !== nameKey(identity.name) &&
          // A name the file uses under two codes is named apart; the chart may hold it plain.
          (identity.sharedName === undefined ||
            nameKey(other.name) !== nameKey(identity.sharedName))))
    ) {
      return {
        problem: `the file's account ${label} does not match the chart's ${chartLabel(other)}: rename one of them so that they agree`,
      };
    }
    if (!other && identity.name === undefined && !codesKept) {
      return {
        problem: `account code ${identity.code} is not in the chart, and the file gives it no name to match or create it by`,
      };
    }
    return { account: other };
  }
  return { account: byItsName };
}

/**
 * The file's accounts put together, by code where it has codes: lines naming a code alone, a
 * name alone, or both, are one account when they agree. A name the file gives several codes
 * (real charts do: "Kundfordringar" at 1510 and 1511) names that many accounts, each called
 * `Name (code)`, and said once. A code given two names is a problem, and so is a name alone that
 * could be any of the codes it has.
 */
function identify(accounts: FileAccount[], problems: Problem[], notes: string[]): Identity[] {
  const codes = new Map<string, FileAccount>();
  const codesOfName = new Map<string, string[]>();
  for (const account of accounts) {
    if (account.code === undefined || account.name === undefined) continue;
    const sameCode = codes.get(account.code);
    if (sameCode && nameKey(sameCode.name!) !== nameKey(account.name)) {
      problems.push({
        fileLine: account.firstLine,
        message: `account code ${account.code} is "${account.name}" here and "${sameCode.name}" on line ${sameCode.firstLine}`,
      });
    }
    if (sameCode) continue;
    codes.set(account.code, account);
    const named = codesOfName.get(nameKey(account.name));
    if (named) named.push(account.code);
    else codesOfName.set(nameKey(account.name), [account.code]);
  }
  const shared = [...codesOfName].filter(([, of]) => of.length > 1);
  if (shared.length > 0) {
    const said = shared.map(
      ([name, of]) =>
        `"${accounts.find((a) => nameKey(a.name ?? '') === name)!.name}" (${of.join(', ')})`,
    );
    notes.push(
      `${shared.length === 1 ? '1 name is' : `${shared.length} names are`} used by more than one account code in the file, each such account named "Name (code)": ${listed(said)}`,
    );
  }
  const identities = new Map<string, Identity>();
  for (const account of accounts) {
    const ofName = account.name === undefined ? undefined : codesOfName.get(nameKey(account.name));
    if (account.code === undefined && ofName !== undefined && ofName.length > 1) {
      problems.push({
        fileLine: account.firstLine,
        message: `account "${account.name}" is the name of ${ofName.length} accounts of the file (codes ${ofName.join(', ')}), and these lines give no code to choose by`,
      });
      continue;
    }
    const code = account.code ?? ofName?.[0];
    const name =
      account.name ?? (account.code === undefined ? undefined : codes.get(account.code)?.name);
    const sharedName =
      name !== undefined && code !== undefined && (codesOfName.get(nameKey(name))?.length ?? 0) > 1
        ? name
        : undefined;
    const shown = sharedName === undefined ? name : `${sharedName} (${code})`;
    const id = identityOf({ code, name: shown, text: account.text });
    const identity = identities.get(id);
    if (!identity) {
      identities.set(id, {
        id,
        code,
        name: shown,
        text: account.text,
        keys: [account.key],
        firstLine: account.firstLine,
        lines: account.lines,
        accountType: account.accountType,
        kind: account.kind,
        ...(sharedName !== undefined && { sharedName }),
      });
      continue;
    }
    identity.keys.push(account.key);
    identity.lines += account.lines;
    identity.firstLine = Math.min(identity.firstLine, account.firstLine);
    if (
      account.accountType &&
      identity.accountType &&
      nameKey(account.accountType.text) !== nameKey(identity.accountType.text)
    ) {
      problems.push({
        fileLine: account.accountType.line,
        message: `account_type is "${account.accountType.text}" here and "${identity.accountType.text}" on line ${identity.accountType.line} for the same account`,
      });
    }
    identity.accountType ??= account.accountType;
    identity.kind ??= account.kind;
  }
  return [...identities.values()];
}

/**
 * What an account of the file is called across runs: its code when it has one, else its name
 * (case-insensitively), else the `account` column's text.
 */
export function identityOf(account: {
  code: string | undefined;
  name: string | undefined;
  text: string | undefined;
}): string {
  if (account.text !== undefined) return `account ${account.text}`;
  if (account.code !== undefined) return `code ${account.code}`;
  return `name ${nameKey(account.name ?? '')}`;
}
