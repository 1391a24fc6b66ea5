import type { Account } from '../../api/index.js';
import type { BankStatement, StatementFile } from '../../formats/statement.js';
import { sameAccount } from '../../formats/statement.js';
import { text } from '../command.js';
import { changeProfileInUse, profileInUse } from '../config/profileInUse.js';
import { readConfig, type StatementLink } from '../config/profiles.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exitCodes.js';

/*
 * Which chart account a bank account's statements belong to, remembered per entity in the
 * profile in use (`local` for the embedded platform; `default` for a base URL given without
 * one) the first time they are reconciled, so that a statement of another account, or in
 * another currency, is refused rather than reconciled against the wrong books. `--link`
 * links them anew.
 */

/**
 * The profile that keeps the links (`local` for the embedded platform; `default` for a base URL
 * given without one, as `books use` keeps its choices), and its links for the entity.
 */
export async function statementLinksOf(
  ctx: CommandContext,
  entityId: string,
): Promise<{ name: string; links: Record<string, StatementLink> }> {
  const name = await profileInUse(ctx);
  const links = readConfig(ctx.io.env).profiles[name]?.statementAccounts?.[entityId] ?? {};
  return { name, links };
}

/** `--bank-account`: which bank account's statements to take from files that hold several. */
export const bankAccountOption = {
  bankAccount: text(
    '--bank-account <number>',
    "the bank account (its IBAN or number) whose statements to take from files that hold several accounts' (a bank's CODA, Norma 43 or CFONB file)",
  ),
} as const;

/**
 * The statements of one bank account, from files that may hold several (a bank's CODA, Norma 43
 * or CFONB file holds every account of the client): the one `--bank-account` names; else, where
 * they are of several, the one remembered as `account`'s (`mine`), said; else refused, naming
 * them, rather than one account's movements brought into another's books.
 */
export function statementsOfOneAccount(
  ctx: CommandContext,
  files: readonly StatementFile[],
  given: string | undefined,
  mine: (bankAccount: string) => boolean = () => false,
): StatementFile[] {
  const accounts = unique(files.flatMap((f) => f.statements.map((s) => s.account)));
  let chosen: string | undefined;
  if (given !== undefined) {
    chosen = accounts.find((a) => sameAccount(a, given));
    if (chosen === undefined)
      throw new UsageError(
        `--bank-account ${given}: the files hold no statement of it${accounts.length > 0 ? ` (they are of ${accounts.join(', ')})` : ''}`,
      );
  } else if (accounts.length > 1) {
    const remembered = accounts.filter(mine);
    if (remembered.length !== 1)
      throw new UsageError(
        `the files hold the statements of ${accounts.length} bank accounts (${accounts.join(', ')}): name the one to take with --bank-account ${accounts[0]}`,
      );
    chosen = remembered[0];
  }
  if (chosen === undefined) return [...files];
  const others = accounts.filter((a) => a !== chosen);
  if (others.length > 0)
    ctx.output.note(
      `books: the statements of ${chosen} taken; those of ${others.join(', ')} left out`,
    );
  return files.map((f) => ({
    ...f,
    statements: f.statements.filter((s) => s.account !== null && sameAccount(s.account, chosen)),
  }));
}

/**
 * The bank account and currency a set of statements is of: of one account (`statementsOfOneAccount`
 * chose it), refused when they are in several currencies.
 */
export function statementIdentity(statements: readonly BankStatement[]): {
  account: string | null;
  currency: string | null;
} {
  const accounts = unique(statements.map((s) => s.account));
  const currencies = unique(statements.map((s) => s.currency?.toUpperCase() ?? null));
  if (currencies.length > 1)
    throw new UsageError(
      `the statements are in ${currencies.length} currencies (${currencies.join(', ')}): reconcile one currency at a time`,
    );
  return { account: accounts[0] ?? null, currency: currencies[0] ?? null };
}

function unique(values: readonly (string | null)[]): string[] {
  const found: string[] = [];
  for (const value of values)
    if (value !== null && !found.some((f) => sameAccount(f, value))) found.push(value);
  return found;
}

const label = (account: Account) => `${account.code} "${account.name}"`;

/**
 * Checks the statements belong to `account` by what was remembered, remembering them the first
 * time (or anew with `link`); says what it did. A statement that names no account (a QIF, a CSV
 * without one) cannot be checked, and is said so.
 */
export async function checkStatementLink(
  ctx: CommandContext,
  entityId: string,
  account: Account,
  chart: readonly Account[],
  statements: readonly BankStatement[],
  link: boolean,
): Promise<void> {
  const { account: bankAccount, currency } = statementIdentity(statements);
  if (bankAccount === null) {
    ctx.output.note(
      `books: the statements name no bank account: they cannot be checked against ${label(account)}'s`,
    );
    return;
  }
  const { name, links } = await statementLinksOf(ctx, entityId);
  const known = Object.entries(links).find(([id]) => sameAccount(id, bankAccount));
  const theirs = Object.entries(links).find(([, l]) => l.accountId === account.id);
  const accountName = (id: string) => {
    const found = chart.find((a) => a.id === id);
    return found ? label(found) : `an account no longer in the chart (${id})`;
  };
  if (!link) {
    if (known && known[1].accountId !== account.id)
      throw new UsageError(
        `the statements are of ${bankAccount}, whose statements are ${accountName(known[1].accountId)}'s, not ${label(account)}'s: name that account, or pass --link to link them to ${label(account)}`,
      );
    if (!known && theirs)
      throw new UsageError(
        `${label(account)} is reconciled to the statements of ${theirs[0]}, and these are of ${bankAccount}: name the account they are of, or pass --link`,
      );
    const stated = known?.[1].currency;
    if (known && stated && currency && stated !== currency)
      throw new UsageError(
        `the statements are in ${currency}, and ${label(account)}'s statements of ${bankAccount} are in ${stated}: pass --link if the account changed currency`,
      );
    if (known) return;
  }
  const saved: StatementLink = { accountId: account.id, currency };
  await changeProfileInUse(ctx, (profile) => {
    const forEntity = Object.fromEntries(
      Object.entries(profile.statementAccounts?.[entityId] ?? {}).filter(
        ([id, l]) => !sameAccount(id, bankAccount) && l.accountId !== account.id,
      ),
    );
    return {
      ...profile,
      statementAccounts: {
        ...profile.statementAccounts,
        [entityId]: { ...forEntity, [bankAccount]: saved },
      },
    };
  });
  ctx.output.note(
    `books: the statements of ${bankAccount}${currency ? ` (${currency})` : ''} are ${label(account)}'s from now on (profile "${name}"; --link changes it)`,
  );
}
