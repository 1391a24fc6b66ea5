import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Account } from '../../api/index.js';
import type { BankStatement, StatementFile } from '../../formats/statement.js';
import { sameAccount } from '../../formats/statement.js';
import { flag, text } from '../command.js';
import { changeProfileInUse, profileInUse } from '../config/profileInUse.js';
import { readConfig, type ReconciledStatement, type StatementLink } from '../config/profiles.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exitCodes.js';

/*
 * Which chart account a bank account's statements belong to, remembered per entity in the
 * profile in use (`local` for the embedded platform; `default` for a base URL given without
 * one) the first time they are imported (`transactions import`, `feed push`) or reconciled,
 * so that a statement of another account, or in another currency, is refused rather than
 * brought into or reconciled against the wrong books. `--link-account` links them anew.
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

/** `--link-account`: the statements' bank account is this chart account's from now on (a new number). */
export const linkAccountOption = {
  linkAccount: flag(
    '--link-account',
    "the statements' bank account (IBAN or number) is this account's from now on: a new account number, or statements remembered as another account's",
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
        `the statements are of ${bankAccount}, whose statements are ${accountName(known[1].accountId)}'s, not ${label(account)}'s: name that account, or pass --link-account to link them to ${label(account)}`,
      );
    if (!known && theirs)
      throw new UsageError(
        `the statements are of ${bankAccount}, and ${label(account)}'s statements are of ${theirs[0]}: name the account they are of, or pass --link-account if ${label(account)} has a new number`,
      );
    const stated = known?.[1].currency;
    if (known && stated && currency && stated !== currency)
      throw new UsageError(
        `the statements are in ${currency}, and ${label(account)}'s statements of ${bankAccount} are in ${stated}: pass --link-account if the account changed currency`,
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
    `books: the statements of ${bankAccount}${currency ? ` (${currency})` : ''} are ${label(account)}'s from now on (profile "${name}"; --link-account changes it)`,
  );
}

/** A statement file's fingerprint: the SHA-256 of its bytes (how a reconciled file is known again). */
export function fileFingerprint(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The statement files reconciled for an entity, by fingerprint (see `Profile.reconciledStatements`). */
export async function reconciledStatementsOf(
  ctx: CommandContext,
  entityId: string,
): Promise<Record<string, ReconciledStatement>> {
  const name = await profileInUse(ctx);
  return readConfig(ctx.io.env).profiles[name]?.reconciledStatements?.[entityId] ?? {};
}

/** Remembers statement files reconciled (what `reconcile` proved), by fingerprint. */
export async function rememberReconciled(
  ctx: CommandContext,
  entityId: string,
  reconciled: Record<string, ReconciledStatement>,
): Promise<void> {
  await changeProfileInUse(ctx, (profile) => ({
    ...profile,
    reconciledStatements: {
      ...profile.reconciledStatements,
      [entityId]: { ...profile.reconciledStatements?.[entityId], ...reconciled },
    },
  }));
}

/**
 * The closing balance an account's statements last reconciled before `day` closed at: the
 * opening of a statement after them that states none.
 */
export function closingBefore(
  reconciled: Record<string, ReconciledStatement>,
  accountId: string,
  day: string,
  except: ReadonlySet<string> = new Set(),
): ReconciledStatement | undefined {
  let last: ReconciledStatement | undefined;
  for (const [fingerprint, record] of Object.entries(reconciled))
    if (
      record.accountId === accountId &&
      record.to < day &&
      !except.has(fingerprint) &&
      (last === undefined || record.to > last.to)
    )
      last = record;
  return last;
}
