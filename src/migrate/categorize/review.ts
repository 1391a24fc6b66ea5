/**
 * The for-review queue walked one transaction at a time, in the manner of `git add -p`: each
 * shown with what books suggests and why, then one key decides it. Every decision is sent when
 * it is made (keyed), so that quitting, or a crash, loses nothing; `undo` sends the last one
 * back to the queue. The terminal is the caller's: this takes a prompter and a writer, so that
 * it runs the same under a test's script.
 */
import type {
  Account,
  BankTransaction,
  DecisionBody,
  DecisionResponse,
  CreateTransactionRuleBody,
} from '../../api/index.js';
import {
  absCents,
  addCents,
  answeredAmountToCents,
  centsToAmount,
  decimalToCents,
  formatCents,
  InvalidAmountError,
  subtractCents,
  ZERO_CENTS,
} from '../../core/money.js';
import { acceptSuggestion, accountNamed, decisionKey, impliedRule } from './decisions.js';
import { categoryText, confidenceText, money } from './texts.js';

export const REVIEW_KEYS = [
  { key: 'a', name: 'accept the suggestion', value: 'accept' },
  { key: 'c', name: 'choose another account (type to search by name or code)', value: 'choose' },
  { key: 's', name: 'split over several accounts', value: 'split' },
  { key: 't', name: "transfer between two of the client's own accounts", value: 'transfer' },
  { key: 'm', name: 'match a journal entry already in the books', value: 'match' },
  { key: 'r', name: 'accept and make a rule of it (run on what waits)', value: 'rule' },
  { key: 'x', name: 'exclude it from the books', value: 'exclude' },
  { key: 'n', name: 'skip it for now', value: 'skip' },
  { key: 'u', name: 'undo the last decision', value: 'undo' },
  { key: 'q', name: 'quit (every decision made is kept)', value: 'quit' },
] as const;
export type ReviewAction = (typeof REVIEW_KEYS)[number]['value'];

/** What the session asks the person. */
export interface ReviewPrompter {
  /** One key of REVIEW_KEYS (the default: accept when there is a suggestion). */
  action(message: string, hasSuggestion: boolean): Promise<ReviewAction>;
  /** An account among these, typed ahead by name or code. */
  account(message: string, accounts: readonly Account[]): Promise<Account>;
  /** A line of text, checked: `check` answers why not, or undefined. */
  text(message: string, check: (answer: string) => string | undefined): Promise<string>;
}

/** What the session asks of the platform. */
export interface ReviewApi {
  decide(transactionId: string, body: DecisionBody, key: string): Promise<DecisionResponse>;
  transaction(id: string): Promise<BankTransaction>;
  createRule(body: CreateTransactionRuleBody): Promise<string>;
  /** Runs one rule on what waits: the ids it took. */
  applyRule(ruleId: string): Promise<string[]>;
}

export interface ReviewResult {
  decided: number;
  skipped: number;
  left: number;
  quit: boolean;
}

/** A transaction as the review shows it. */
export function reviewCard(t: BankTransaction, position: number, count: number): string {
  const lines = [
    `${position} of ${count}  ${t.date}  ${t.bankAccount.code} ${t.bankAccount.name}  ${money(t.amount)}`,
    `  ${t.description}${t.reference && !t.reference.startsWith('books:') ? `  (ref ${t.reference})` : ''}`,
  ];
  const s = t.suggestion;
  lines.push(
    s
      ? `  suggests ${s.kind === 'account' ? '' : `${s.kind}: `}${s.accountCode} ${s.account} (confidence ${confidenceText(s.confidence)}): ${s.reason}`
      : '  no suggestion: nothing like it in the books yet',
  );
  return lines.join('\n');
}

/** Something the person did, kept for undo. */
type Step =
  | { kind: 'decided'; index: number; transactionId: string; version: number }
  | { kind: 'skipped'; index: number };

/**
 * Walks the queue from its oldest, one transaction at a time, until it is done or the person
 * quits. A decision refused (another decided it meanwhile, the books are locked) is said, and
 * the transaction shown again as it now is.
 */
export async function reviewQueue(input: {
  queue: BankTransaction[];
  accounts: readonly Account[];
  prompter: ReviewPrompter;
  api: ReviewApi;
  write: (text: string) => void;
  /** Errors a decision may meet that are the person's to hear (the API's refusals). */
  refusal: (error: unknown) => string | undefined;
}): Promise<ReviewResult> {
  const { queue, prompter, api, write } = input;
  const active = input.accounts.filter((a) => !a.isDisabled);
  const bankAccounts = active.filter((a) => a.type === 'Cash' || a.type === 'Credit Cards');
  const done = new Set<string>();
  const steps: Step[] = [];
  let decided = 0;
  let skipped = 0;
  let index = 0;

  const send = async (position: number, body: DecisionBody): Promise<boolean> => {
    const transaction = queue[position]!;
    try {
      const answer = await api.decide(transaction.id, body, decisionKey(transaction.id, body));
      done.add(transaction.id);
      for (const related of answer.related)
        if (related.status !== 'uncategorized') done.add(related.id);
        else done.delete(related.id);
      steps.push({
        kind: 'decided',
        index: position,
        transactionId: transaction.id,
        version: answer.transaction.version,
      });
      decided += 1;
      write(`  → ${categoryText(answer.transaction) || 'waits'}\n`);
      return true;
    } catch (error) {
      const message = input.refusal(error);
      if (message === undefined) throw error;
      write(`  refused: ${message}\n`);
      queue[position] = {
        ...(await api.transaction(transaction.id)),
        suggestion: transaction.suggestion ?? null,
      };
      if (queue[position]!.status !== 'uncategorized') done.add(transaction.id);
      return false;
    }
  };

  while (index < queue.length) {
    const transaction = queue[index]!;
    if (done.has(transaction.id)) {
      index += 1;
      continue;
    }
    const waiting = queue.filter((t) => !done.has(t.id));
    write(
      `\n${reviewCard(transaction, waiting.indexOf(transaction) + 1 + decided, waiting.length + decided)}\n`,
    );
    const action = await prompter.action('What is it?', Boolean(transaction.suggestion));
    const version = transaction.version;
    switch (action) {
      case 'quit':
        return { decided, skipped, left: queue.filter((t) => !done.has(t.id)).length, quit: true };
      case 'skip':
        steps.push({ kind: 'skipped', index });
        skipped += 1;
        index += 1;
        break;
      case 'undo': {
        const last = steps.pop();
        if (!last) {
          write('  nothing to undo\n');
          break;
        }
        if (last.kind === 'skipped') {
          skipped -= 1;
          index = last.index;
          break;
        }
        try {
          const answer = await api.decide(
            last.transactionId,
            { kind: 'uncategorize', version: last.version },
            decisionKey(last.transactionId, { kind: 'uncategorize', version: last.version }),
          );
          decided -= 1;
          for (const t of [answer.transaction, ...answer.related]) done.delete(t.id);
          const back = queue[last.index]!;
          queue[last.index] = { ...answer.transaction, suggestion: back.suggestion ?? null };
          for (const related of answer.related) {
            const at = queue.findIndex((t) => t.id === related.id);
            if (at >= 0) queue[at] = { ...related, suggestion: queue[at]!.suggestion ?? null };
          }
          index = last.index;
          write(`  undone: ${back.description} waits again\n`);
        } catch (error) {
          const message = input.refusal(error);
          if (message === undefined) throw error;
          write(`  cannot undo: ${message}\n`);
        }
        break;
      }
      case 'accept':
      case 'rule': {
        let body = acceptSuggestion(transaction);
        if (action === 'rule' && (!body || body.kind !== 'account')) {
          const account = await prompter.account('Account for the rule', active);
          body = { kind: 'account', version, accountId: account.id };
        }
        if (!body) {
          write('  no suggestion to accept: choose an account (c), or another key (h for help)\n');
          break;
        }
        if (!(await send(index, body))) break;
        if (action === 'rule' && body.kind === 'account') {
          const rule = impliedRule(transaction, body.accountId!);
          if (!rule) {
            write(
              `  "${transaction.description}" names no payee a rule could look for: no rule made\n`,
            );
            break;
          }
          const ruleId = await input.api.createRule(rule);
          const taken = await input.api.applyRule(ruleId);
          for (const id of taken) done.add(id);
          write(
            `  rule: description contains "${rule.conditions[0]!.value[0]}" → it took ${taken.length} more waiting\n`,
          );
        }
        break;
      }
      case 'choose': {
        const account = await prompter.account('Account', active);
        await send(index, { kind: 'account', version, accountId: account.id });
        break;
      }
      case 'split': {
        const total = Math.abs(transaction.amount);
        const answer = await prompter.text(
          `Parts as ACCOUNT=AMOUNT, separated by ";" (adding up to ${money(total)})`,
          (text) => splitProblem(text, active, total),
        );
        const splits = parseSplit(answer, active);
        await send(index, { kind: 'split', version, splits });
        break;
      }
      case 'transfer': {
        const suggestion = transaction.suggestion;
        if (suggestion?.kind === 'transfer' && suggestion.transactionId) {
          await send(index, {
            kind: 'transfer',
            version,
            otherTransactionId: suggestion.transactionId,
          });
          break;
        }
        const account = await prompter.account(
          'The other bank or card account',
          bankAccounts.filter((a) => a.id !== transaction.bankAccount.id),
        );
        await send(index, { kind: 'transfer', version, accountId: account.id });
        break;
      }
      case 'match': {
        const suggested =
          transaction.suggestion?.kind === 'match' ? transaction.suggestion.entryId : undefined;
        const entryId =
          suggested ??
          (await prompter.text('The journal entry (its id)', (text) =>
            /^[0-9a-f-]{36}$/i.test(text.trim()) ? undefined : 'a journal entry id',
          ));
        await send(index, { kind: 'match', version, entryId: entryId.trim() });
        break;
      }
      case 'exclude':
        await send(index, { kind: 'exclude', version });
        break;
    }
    if (done.has(transaction.id)) index += 1;
  }
  return { decided, skipped, left: queue.filter((t) => !done.has(t.id)).length, quit: false };
}

function parseSplit(text: string, accounts: readonly Account[]) {
  return text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.lastIndexOf('=');
      const account = accountNamed(accounts, part.slice(0, at).trim()) as Account;
      const cents = decimalToCents(part.slice(at + 1).trim(), { allowNegative: true });
      return { accountId: account.id, amount: centsToAmount(cents) };
    });
}

/** Why a split's answer cannot be sent, or undefined. */
function splitProblem(
  text: string,
  accounts: readonly Account[],
  total: number,
): string | undefined {
  const parts = text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length < 2) return 'at least two parts, as ACCOUNT=AMOUNT; ACCOUNT=AMOUNT';
  let cents = ZERO_CENTS;
  for (const part of parts) {
    const at = part.lastIndexOf('=');
    if (at <= 0) return `"${part}" is not ACCOUNT=AMOUNT`;
    const account = accountNamed(accounts, part.slice(0, at).trim());
    if (typeof account === 'string') return account;
    try {
      cents = addCents(cents, decimalToCents(part.slice(at + 1).trim(), { allowNegative: true }));
    } catch (error) {
      if (error instanceof InvalidAmountError) return `"${part}": the amount ${error.message}`;
      throw error;
    }
  }
  const expected = absCents(answeredAmountToCents(total));
  if (cents !== expected)
    return `the parts add up to ${formatCents(cents)}, not ${formatCents(expected)}: a difference of ${formatCents(subtractCents(expected, cents))}`;
  return undefined;
}
