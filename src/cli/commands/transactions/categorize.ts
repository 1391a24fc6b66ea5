import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { BankTransaction, DecisionBody, DecisionOutcome } from '../../../api/index.js';
import { centsToAmount, decimalToCents, InvalidAmountError } from '../../../core/money.js';
import { oversize } from '../../../formats/common/bounds.js';
import {
  accountNamed,
  confidentDecisions,
  decisionsFromCsv,
  impliedRule,
  sendDecisions,
  type Decision,
} from '../../../migrate/categorize/decisions.js';
import { argument, defineCommand, flag, repeatable, text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, unreadableFile, UsageError, UserError } from '../../exitCodes.js';
import { categoryText } from '../../../migrate/categorize/texts.js';
import { printTransactions } from './listing.js';
import { reportOutcomes, transactionNamed, UUID } from './shared.js';

const MODES = [
  'not-duplicate',
  'account',
  'split',
  'transfer',
  'match',
  'exclude',
  'uncategorize',
  'from',
  'auto',
] as const;

/**
 * `transactions categorize`: deciding bank transactions from a script — to an account (and
 * the rule that decision implies), split, a transfer between two of the entity's accounts, a
 * match to a journal entry already in the books, left out, back to the queue; a CSV file of
 * decisions checked whole first; or every suggestion confident enough. Each decision is sent
 * keyed and made whole or not at all; exit 0 when all were decided, 1 when some were refused.
 */
export const command = defineCommand({
  summary:
    'Decide bank transactions: an account, a split, a transfer, a match, exclude, back to the queue; --from FILE.csv; --auto',
  arguments: {
    ids: argument('transactions: their ids or the bank’s references', {
      optional: true,
      variadic: true,
    }),
  },
  options: {
    account: text('--account <account>', 'post to this account (name, code or id)', {
      names: 'account',
    }),
    class: text('--class <class>', 'with this class (label or id)', { names: 'class' }),
    memo: text('--memo <text>', 'a memo on the decision'),
    taxCode: text(
      '--tax-code <code>',
      "the line's tax code: it posts as net on the account and VAT on the VAT account (books tax codes)",
    ),
    vat: text(
      '--vat <amount>',
      'the VAT the receipt states, where it is not the rate of the amount',
    ),
    rule: flag('--rule', 'also make the rule this decision implies and run it on what waits'),
    split: repeatable(
      '--split <account=amount[:code]>',
      'one part of a split, with its tax code after a colon (repeat; parts add up to it)',
    ),
    transfer: text(
      '--transfer [other]',
      "a transfer to another of the entity's bank or card accounts: the other side's transaction, or its account (found when left out)",
    ),
    match: text('--match <entry>', 'a journal entry already in the books posts it (its id)'),
    exclude: flag('--exclude', 'leave it out of the books'),
    notDuplicate: flag(
      '--not-duplicate',
      'a line held as a possible duplicate is not one: it comes in (the rules take it, or it waits); with --account, --split, --transfer or --match, decided so at once',
    ),
    uncategorize: flag('--uncategorize', 'back to the queue'),
    from: text(
      '--from <file>',
      'decisions from a CSV: id or reference, account[, class, memo, amount]',
      {
        names: 'file',
      },
    ),
    auto: flag('--auto', 'take every suggestion at or above --min-confidence'),
    minConfidence: text('--min-confidence <p>', 'what --auto takes (default 0.95)', {
      default: '0.95',
    }),
    dryRun: flag('--dry-run', 'say what would be decided, decide nothing (with --auto or --from)'),
  },
  examples: [
    'books transactions categorize 0192f3c4-… --account "6120 Telephone" --rule',
    'books transactions categorize REF-20260105-1 --split Office=110 --split Meals=40',
    'books transactions categorize 0192f3c4-… --transfer',
    'books transactions categorize 0192f3c4-… --match 0192f3c5-…',
    'books transactions categorize 0192f3c4 --not-duplicate --account Rent',
    'books transactions categorize --from decisions.csv',
    'books transactions categorize --auto --dry-run',
  ],
  async run(ctx, input) {
    const ids = input.ids ?? [];
    const modes: (typeof MODES)[number][] = MODES.filter((mode) =>
      mode === 'not-duplicate'
        ? false
        : mode === 'split'
          ? input.split.length > 0
          : input[mode] !== undefined && input[mode] !== false,
    );
    if (modes.length === 0 && input.notDuplicate) modes.push('not-duplicate');
    if (modes.length !== 1)
      throw new UsageError(
        modes.length === 0
          ? 'say what to decide: --account, --split, --transfer, --match, --exclude, --uncategorize, --not-duplicate, --from FILE or --auto'
          : `one decision at a time: ${modes.map((m) => `--${m}`).join(' and ')} were given`,
      );
    const [mode] = modes as [(typeof MODES)[number]];
    if (
      input.notDuplicate &&
      !['account', 'split', 'transfer', 'match', 'not-duplicate'].includes(mode)
    )
      throw new UsageError(
        `--not-duplicate lets a held line in; --${mode} ${mode === 'exclude' ? 'leaves it out (give it alone)' : 'is not a decision to make with it'}`,
      );
    if ((mode === 'from' || mode === 'auto') && ids.length > 0)
      throw new UsageError(`--${mode} decides the transactions it names itself: give no ids`);
    if (mode !== 'from' && mode !== 'auto' && ids.length === 0)
      throw new UsageError('name the transactions to decide (their ids or references)');
    if (['split', 'transfer', 'match'].includes(mode) && ids.length !== 1)
      throw new UsageError(`--${mode} decides one transaction, not ${ids.length}`);
    if (input.rule && mode !== 'account') throw new UsageError('--rule goes with --account');
    if ((input.class !== undefined || input.memo !== undefined) && mode !== 'account')
      throw new UsageError('--class and --memo go with --account');
    if ((input.taxCode !== undefined || input.vat !== undefined) && mode !== 'account')
      throw new UsageError(
        "--tax-code and --vat go with --account (a split takes its parts' codes: --split A=AMOUNT:CODE)",
      );
    if (input.vat !== undefined && input.taxCode === undefined)
      throw new UsageError('--vat goes with --tax-code');
    const vatAmount = input.vat === undefined ? undefined : vatOf(input.vat);
    if (input.dryRun && mode !== 'auto' && mode !== 'from')
      throw new UsageError('--dry-run goes with --auto or --from');
    const minConfidence = Number(input.minConfidence);
    if (!(minConfidence >= 0 && minConfidence <= 1))
      throw new UsageError(
        `--min-confidence must be a number from 0 to 1, not "${input.minConfidence}"`,
      );

    const splitParts = input.split.map(splitPart);
    const workspaceId = await ctx.workspaceId();
    const api = await ctx.api();
    if (mode === 'auto') return auto(ctx, minConfidence, Boolean(input.dryRun));
    if (mode === 'from') return fromFile(ctx, workspaceId, input.from!, Boolean(input.dryRun));

    const entityId = await ctx.entityId();
    const transactions: BankTransaction[] = [];
    for (const given of ids)
      transactions.push(await transactionNamed(ctx, workspaceId, entityId, given));
    const chart = await api.accounts.all(entityId);
    const account = (given: string) => {
      const found = accountNamed(chart, given);
      if (typeof found === 'string') throw new UserError(found, ExitCode.Usage);
      return found;
    };
    const classIds = input.class === undefined ? [] : [await ctx.classId(workspaceId, input.class)];
    const bodyFor = async (transaction: BankTransaction): Promise<DecisionBody> => {
      const version = transaction.version;
      switch (mode) {
        case 'account':
          return {
            kind: 'account',
            version,
            accountId: account(input.account!).id,
            ...(classIds.length > 0 && { classIds }),
            ...(input.memo !== undefined && { memo: input.memo }),
            ...(input.taxCode !== undefined && { taxCode: input.taxCode }),
            ...(vatAmount !== undefined && { vatAmount }),
          };
        case 'split':
          return {
            kind: 'split',
            version,
            splits: splitParts.map((part) => ({
              accountId: account(part.account).id,
              amount: part.amount,
              ...(part.taxCode !== undefined && { taxCode: part.taxCode }),
            })),
          };
        case 'transfer': {
          const other = input.transfer;
          if (typeof other !== 'string') return { kind: 'transfer', version };
          const byAccount = accountNamed(chart, other);
          if (typeof byAccount !== 'string' && !UUID.test(other))
            return { kind: 'transfer', version, accountId: byAccount.id };
          if (typeof byAccount !== 'string' && byAccount.id === other)
            return { kind: 'transfer', version, accountId: byAccount.id };
          const partner = await transactionNamed(ctx, workspaceId, entityId, other);
          return { kind: 'transfer', version, otherTransactionId: partner.id };
        }
        case 'match':
          return { kind: 'match', version, entryId: input.match! };
        case 'exclude':
          return { kind: 'exclude', version };
        case 'not-duplicate':
          return { kind: 'not-duplicate', version };
        default:
          return { kind: 'uncategorize', version };
      }
    };
    if (input.notDuplicate && mode !== 'not-duplicate') {
      // Let the held lines in first, then decide them as asked (on the version that made).
      const released = await sendDecisions(
        api,
        entityId,
        transactions.map((transaction) => ({
          transaction,
          body: { kind: 'not-duplicate', version: transaction.version },
        })),
      );
      const refused = released.filter((o) => o.status !== 200);
      if (refused.length > 0) return reportOutcomes(ctx, released, decidedText);
      transactions.splice(0, transactions.length, ...released.map((o) => o.transaction!));
    }
    const decisions: Decision[] = [];
    for (const transaction of transactions)
      decisions.push({ transaction, body: await bodyFor(transaction) });
    const outcomes = await sendDecisions(api, entityId, decisions);
    const code = await reportOutcomes(ctx, outcomes, decidedText);
    if (input.rule) await makeRules(ctx, workspaceId, entityId, outcomes, classIds);
    return code;
  },
});

/** `--vat AMOUNT`: the VAT a receipt states, not negative. */
function vatOf(text: string): number {
  try {
    return centsToAmount(decimalToCents(text.trim()));
  } catch (error) {
    if (error instanceof InvalidAmountError)
      throw new UsageError(`--vat ${text}: the amount ${error.message}`);
    throw error;
  }
}

/** `ACCOUNT=AMOUNT[:CODE]` (the last `=` splits: an account's name may hold one). */
function splitPart(text: string) {
  const at = text.lastIndexOf('=');
  if (at <= 0)
    throw new UsageError(`--split takes ACCOUNT=AMOUNT or ACCOUNT=AMOUNT:CODE, not "${text}"`);
  const [amountText = '', taxCode] = text
    .slice(at + 1)
    .split(':')
    .map((part) => part.trim());
  try {
    const cents = decimalToCents(amountText, { allowNegative: true });
    return {
      account: text.slice(0, at).trim(),
      amount: centsToAmount(cents),
      ...(taxCode ? { taxCode } : {}),
    };
  } catch (error) {
    if (error instanceof InvalidAmountError)
      throw new UsageError(`--split ${text}: the amount ${error.message}`);
    throw error;
  }
}

const decidedText = (outcome: DecisionOutcome) => {
  const t = outcome.transaction!;
  const also = (outcome.related ?? [])
    .map((r) => `; ${r.id} ${r.status === 'uncategorized' ? 'waits again' : 'is its other side'}`)
    .join('');
  const decided =
    t.status === 'uncategorized'
      ? 'back to the queue'
      : t.status === 'excluded'
        ? 'excluded from the books'
        : t.status === 'possible-duplicate'
          ? `held: ${categoryText(t)}`
          : categoryText(t);
  return `transaction ${t.id} (${t.date} ${t.amount.toFixed(2)} ${t.description}): ${decided}${also}`;
};

/** `--auto`: every suggestion at or above the threshold, decided (or, dry, said). */
async function auto(ctx: CommandContext, minConfidence: number, dryRun: boolean) {
  const entityId = await ctx.entityId();
  const api = await ctx.api();
  const queue = (await api.sandbox.forReview(entityId, { suggest: true })).data;
  const decisions = confidentDecisions(queue, minConfidence);
  ctx.output.note(
    `books: ${decisions.length} of ${queue.length} waiting ${queue.length === 1 ? 'transaction has' : 'transactions have'} a suggestion at or above ${minConfidence}${dryRun ? ' (dry run: nothing is decided)' : ''}`,
  );
  if (dryRun) {
    await printTransactions(
      ctx,
      { items: decisions.map((d) => d.transaction), total: decisions.length },
      { suggestions: true },
    );
    return ExitCode.Success;
  }
  const outcomes = await sendDecisions(api, entityId, decisions);
  return reportOutcomes(ctx, outcomes, decidedText);
}

/** `--from FILE.csv`: the file's decisions, checked whole, then sent. */
async function fromFile(ctx: CommandContext, workspaceId: string, file: string, dryRun: boolean) {
  let text: string;
  try {
    // A file of decisions is a line a transaction: one too large to read whole is not one.
    const size = oversize(file);
    if (size)
      throw new UserError(
        `${file}: the file is ${size}, more than a file of decisions holds: refused`,
        ExitCode.InvalidFile,
      );
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw unreadableFile(file, error);
  }
  const entityId = await ctx.entityId();
  const api = await ctx.api();
  const [accounts, classes] = await Promise.all([
    api.accounts.all(entityId),
    api.classes.all(workspaceId),
  ]);
  // Each transaction the file names, looked up once: a first reading collects them.
  const named = new Map<string, BankTransaction | string>();
  const lookups = new Set<string>();
  decisionsFromCsv(text, {
    accounts,
    classes,
    transaction: (given) => {
      lookups.add(given);
      return 'not looked up yet';
    },
  });
  const plain = await transactionsPlainlyNamed(api, workspaceId, entityId, lookups.size);
  for (const given of lookups) {
    const found = plain.get(given);
    if (found) {
      named.set(given, found);
      continue;
    }
    try {
      named.set(given, await transactionNamed(ctx, workspaceId, entityId, given));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      named.set(given, error.message);
    }
  }
  const { decisions, problems } = decisionsFromCsv(text, {
    accounts,
    classes,
    transaction: (given) => named.get(given) ?? `no bank transaction "${given}"`,
  });
  if (problems.length > 0)
    throw new UserError(
      `${problems.map((p) => `${file}:${p.line}: ${p.message}`).join('\n')}\nnothing was decided: the file is checked whole first`,
      ExitCode.InvalidFile,
    );
  ctx.output.note(
    `books: ${file}: ${decisions.length} ${decisions.length === 1 ? 'decision' : 'decisions'}${dryRun ? ' (dry run: nothing is decided)' : ''}`,
  );
  if (dryRun) {
    await printTransactions(ctx, {
      items: decisions.map((d) => d.transaction),
      total: decisions.length,
    });
    return ExitCode.Success;
  }
  const outcomes = await sendDecisions(api, entityId, decisions);
  return reportOutcomes(ctx, outcomes, decidedText);
}

/** From this many transactions named, the entity's may be read whole rather than one by one. */
const MANY_LOOKUPS = 20;
/** Transactions read among the entity's for what one looked up alone costs (a request). */
const READ_FOR_A_LOOKUP = 100;

/**
 * The transactions a file of many decisions plainly names, read once: looked up one request
 * each, 1,500 decisions took 14 s. Where the entity holds no more than READ_FOR_A_LOOKUP times
 * as many as the file names, its transactions are read whole, each known by its id and by a
 * reference it alone has. Anything else (the start of an id or a reference, a reference several
 * have, none) is looked up as one decision's is, and said alike.
 */
async function transactionsPlainlyNamed(
  api: Awaited<ReturnType<CommandContext['api']>>,
  workspaceId: string,
  entityId: string,
  lookups: number,
): Promise<Map<string, BankTransaction>> {
  const known = new Map<string, BankTransaction>();
  if (lookups < MANY_LOOKUPS) return known;
  const { total } = await api.sandbox.transactionsUpTo(workspaceId, 1, { entityId });
  if (total > lookups * READ_FOR_A_LOOKUP) return known;
  const { items } = await api.sandbox.transactionsUpTo(workspaceId, Number.POSITIVE_INFINITY, {
    entityId,
  });
  const holders = new Map<string, number>();
  for (const transaction of items)
    if (transaction.reference !== null)
      holders.set(transaction.reference, (holders.get(transaction.reference) ?? 0) + 1);
  for (const transaction of items)
    if (transaction.reference !== null && holders.get(transaction.reference) === 1)
      known.set(transaction.reference, transaction);
  // An id before a reference, as one decision's lookup takes it.
  for (const transaction of items) known.set(transaction.id, transaction);
  return known;
}

/** `--rule`: the rule each decision implies, made (once per text and account) and run. */
async function makeRules(
  ctx: CommandContext,
  workspaceId: string,
  entityId: string,
  outcomes: readonly DecisionOutcome[],
  classIds: readonly string[],
) {
  const api = await ctx.api();
  const made = new Map<string, string>();
  for (const outcome of outcomes) {
    const t = outcome.transaction;
    if (outcome.status !== 200 || !t || t.category?.kind !== 'account') continue;
    const body = impliedRule(t, t.category.account.id, classIds);
    if (!body) {
      ctx.output.note(
        `books: transaction ${t.id}: "${t.description}" names no payee a rule could look for; no rule made`,
      );
      continue;
    }
    const key = JSON.stringify(body.conditions) + t.category.account.id;
    if (made.has(key)) continue;
    const { rule } = await api.transactionRules.create(
      workspaceId,
      body,
      `rule-${createHash('sha256').update(`${entityId}|${key}`).digest('hex').slice(0, 40)}`,
    );
    made.set(key, rule.id);
    ctx.wrote(
      `rule ${rule.id}: description contains "${body.conditions[0]!.value[0]}", ${body.conditions[1]!.value[0]} → ${t.category.account.code} ${t.category.account.name}`,
    );
  }
  if (made.size === 0) return;
  const applied = await api.sandbox.applyRules(workspaceId, {
    entityId,
    ruleIds: [...made.values()],
  });
  ctx.wrote(
    `the new ${made.size === 1 ? 'rule' : 'rules'} took ${applied.categorized} more of the ${applied.waiting} waiting`,
  );
}
