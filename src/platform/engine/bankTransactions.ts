import { newId } from './ids.js';
import type {
  ApplyRulesBody,
  ApplyRulesResponse,
  BankTransaction,
  BulkDecisionBody,
  DecisionBody,
  DecisionOutcome,
  DecisionResponse,
  ForReviewQuery,
  ForReviewSummary,
  ForReviewSummaryQuery,
  LedgerBasis,
  ListTransactionsQuery,
  PushTransactionsBody,
  Suggestion,
  TaxCode,
  TransactionCategory,
} from '../../api/index.js';
import { isDerivedReference, LEDGER_BASES } from '../../api/index.js';
import {
  absCents,
  amountToCents,
  asCents,
  centsToAmount,
  formatCents,
  InvalidAmountError,
  negateCents,
  sumCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import { isInClosedPeriod } from '../domain/accounts.js';
import { categorize, UNCATEGORIZED, type Categorization } from '../domain/categorization.js';
import { learnCategories, payeeWords, type LabeledLine } from '../domain/categoryLearning.js';
import { conflict, DomainError, invalid, notFound } from '../domain/errors.js';
import {
  knownWindow,
  sortArrivals,
  type Arrival,
  type ArrivingLine,
  type KnownLine,
} from '../../core/duplicates.js';
import {
  firmDecisionsOf,
  firmKey,
  suggestForQueue,
  TRANSFER_DAYS,
  type AccountInfo,
  type EntryOnBank,
  type FirmDecisions,
  type SuggestionOut,
  type WaitingLine,
} from '../domain/forReview.js';
import type { AccountRecord } from '../store/accounts.js';
import { vatParts } from '../domain/tax/vatPosting.js';
import { usualCodeReason, usualCodes, type UsualCode } from '../domain/tax/learnedCodes.js';
import { filedMessage, filedReturnCovering } from './tax.js';
import type {
  BankTransactionRecord,
  BankTransactionView,
  DecisionWrite,
  FirmDecisionRow,
  SplitRecord,
  SplitView,
} from '../store/bankTransactions.js';
import type { Store } from '../store/index.js';
import { SOURCE_KIND, type PostingInput } from '../store/postings.js';
import type { AccountService } from './accounts.js';
import type { EntityScope, EntityService } from './entities.js';
import { listOf, pageOf } from './pagination.js';
import type { WorkspaceService } from './workspaces.js';

export const UNCATEGORIZED_INCOME = 'Uncategorized Income';
export const UNCATEGORIZED_EXPENSE = 'Uncategorized Expense';

/** Bank and card accounts: what a transfer's other side, and a match's line, is on. */
const BANK_TYPES: ReadonlySet<string> = new Set(['Cash', 'Credit Cards']);

/** What a decision posts against the transaction's bank account. */
/** A part's tax code, resolved: it posts as net on its account and VAT on a VAT account. */
interface PartTax {
  code: TaxCode;
  output: AccountRecord;
  input: AccountRecord;
  /** Where the receipt states the VAT. */
  vatCents?: Cents;
}

type Posting =
  | {
      kind: 'category';
      accountId: string | null;
      classIds: string[];
      /** The ledgers it posts on (default both). */
      ledgers?: readonly LedgerBasis[];
      tax?: PartTax;
    }
  | { kind: 'split'; parts: (SplitRecord & { classIds: string[]; tax?: PartTax })[] }
  | { kind: 'none' };

/** A decision checked against the books, ready to write. */
interface PreparedDecision {
  write: DecisionWrite;
  posting: Posting;
  splits: SplitRecord[];
  /** A transfer's other side, set to point back at this one. */
  partner?: BankTransactionView;
}

const shiftDay = (calendarDay: string, days: number) =>
  new Date(Date.parse(`${calendarDay}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * An entity's bank transactions (sandbox control plane): their arrival (categorized by the
 * rules), the for-review queue with suggestions learned from the entity's own books, and each
 * decision — an account, a split, a transfer between two of its accounts, a match to a journal
 * entry, left out, or back to the queue — posted on both ledgers whole or not at all.
 */
export class BankTransactionService {
  /** Whether categorization waits for the entity (its accounting migration is open). */
  categorizationPaused: (entityId: string) => Promise<boolean> = async () => false;

  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
    private readonly accounts: AccountService,
    private readonly workspaces: WorkspaceService,
  ) {}

  // --- arrival -----------------------------------------------------------------------------

  /**
   * Transactions arrive on a financial account: a repeated `externalId` is skipped; each new one
   * that is the other side of a transfer already decided on another account joins it (and posts
   * nothing more); the others are categorized by the rules in force now and posted on both
   * ledgers between the feed's chart account and its category (or Uncategorized Income /
   * Expense). All or nothing.
   */
  async push(
    organizationId: string,
    financialAccountId: string,
    body: PushTransactionsBody,
  ): Promise<BankTransaction[]> {
    const found = await this.store.bankFeeds.financialAccountOf(organizationId, financialAccountId);
    if (!found) throw notFound('financial account');
    const ids = await this.store.transaction(async () => {
      // Exclusive: a push may add Uncategorized Income or Expense to the chart.
      await this.entities.lockExclusively(found.entityId);
      return this.pushLocked(organizationId, financialAccountId, body);
    });
    return this.present(await this.store.bankTransactions.byIds(found.entityId, ids));
  }

  private async pushLocked(
    organizationId: string,
    financialAccountId: string,
    body: PushTransactionsBody,
  ): Promise<string[]> {
    const financialAccount = (await this.store.bankFeeds.financialAccountOf(
      organizationId,
      financialAccountId,
    ))!;
    const scope = await this.entities.scope(organizationId, financialAccount.entityId);
    const checked: ArrivingLine[] = [];
    for (const [index, transaction] of body.transactions.entries()) {
      const at = `transactions[${index}]`;
      let cents;
      try {
        cents = amountToCents(Math.abs(transaction.amount));
      } catch (error) {
        if (error instanceof InvalidAmountError) throw invalid(`${at}.amount ${error.message}`);
        throw error;
      }
      if (cents === 0) throw invalid(`${at}.amount must not be zero`);
      const description = transaction.description.trim();
      if (description === '') throw invalid(`${at}.description must not be empty`);
      if (isInClosedPeriod(transaction.date, scope.entity.lockDate)) {
        throw conflict(
          `${at}.date ${transaction.date} is on or before the lock date ${scope.entity.lockDate}`,
        );
      }
      checked.push({
        date: transaction.date,
        amountCents: transaction.amount < 0 ? negateCents(cents) : cents,
        description,
        reference: transaction.externalId ?? null,
      });
    }
    const arrivals = await this.sortArrivals(
      financialAccountId,
      checked,
      body.period,
      body.importId,
    );
    const arriving = checked.flatMap((line, index) => {
      const arrival = arrivals.lines[index]!;
      if (arrival.kind === 'already') return [];
      return [
        {
          date: line.date,
          amountCents: line.amountCents as Cents,
          description: line.description,
          externalId: line.reference,
          duplicateOf: arrival.kind === 'possible' ? arrival.of : null,
          arrivedFrom: arrivals.covering.from,
          arrivedTo: arrivals.covering.to,
          importId: body.importId ?? null,
        },
      ];
    });
    const categorizer = await this.categorizer(scope.entity.workspaceId, scope.entity.id);
    const createdAt = new Date().toISOString();
    const ids: string[] = [];
    for (const transaction of arriving) {
      const base = {
        id: newId(),
        entityId: scope.entity.id,
        financialAccountId,
        ...transaction,
        createdAt,
        memo: null,
        matchedEntryId: null,
        version: 0,
      };
      ids.push(base.id);
      // Held for a person to say whether it is the line the books hold: posted by no one.
      if (transaction.duplicateOf !== null) {
        await this.store.bankTransactions.insert({
          ...base,
          accountId: null,
          ruleId: null,
          status: 'possible-duplicate',
          decidedBy: null,
          decidedAt: null,
          transferId: null,
        });
        continue;
      }
      // The other side of a transfer decided on another account, arriving now.
      const transfer = await this.store.bankTransactions.openTransfer(
        scope.entity.id,
        financialAccount.chartAccountId,
        transaction.amountCents,
        shiftDay(transaction.date, -TRANSFER_DAYS),
        shiftDay(transaction.date, TRANSFER_DAYS),
      );
      if (transfer) {
        const otherFeed = await this.chartAccountOfFinancial(
          organizationId,
          transfer.financialAccountId,
        );
        await this.store.bankTransactions.insert({
          ...base,
          accountId: otherFeed,
          ruleId: null,
          status: 'categorized',
          decidedBy: 'transfer',
          decidedAt: createdAt,
          transferId: transfer.id,
        });
        await this.store.bankTransactions.decide(transfer.seq, {
          ...writeOf(transfer),
          transferId: base.id,
        });
        continue;
      }
      const outcome = categorizer({ ...transaction, financialAccountId });
      const categorized = outcome.accountId !== null;
      const record: Omit<BankTransactionRecord, 'seq'> = {
        ...base,
        accountId: outcome.accountId,
        ruleId: outcome.ruleId,
        status: categorized ? 'categorized' : 'uncategorized',
        decidedBy: categorized ? 'rule' : null,
        decidedAt: categorized ? createdAt : null,
        transferId: null,
      };
      const seq = await this.store.bankTransactions.insert(record);
      await this.post(
        scope.entitySeq,
        financialAccount.chartAccountId,
        { ...record, seq },
        outcome.posting,
      );
    }
    return ids;
  }

  /**
   * What each line arriving on a financial account is (already there, a possible duplicate, or
   * new: core/duplicates.ts), against the account's lines of the days around, and the days the
   * file covers (as it says, else its lines' first to last).
   */
  private async sortArrivals(
    financialAccountId: string,
    lines: readonly ArrivingLine[],
    period: PushTransactionsBody['period'],
    importId: string | undefined,
  ): Promise<{ lines: Arrival[]; covering: { from: string; to: string } }> {
    const days = lines.map((l) => l.date).sort();
    const covering = {
      from: period && period.startDate < days[0]! ? period.startDate : days[0]!,
      to: period && period.endDate > days.at(-1)! ? period.endDate : days.at(-1)!,
    };
    // The books' lines a few days either side of these lines' own days: no other can be theirs.
    const window = knownWindow({ from: days[0]!, to: days.at(-1)! });
    const around = await this.store.bankTransactions.onAccountBetween(
      financialAccountId,
      window.from,
      window.to,
    );
    // Lines of this same import (sent earlier in requests of their own) are not its duplicates.
    const known: KnownLine[] = around
      .filter((t) => importId === undefined || t.importId !== importId)
      .map((t) => ({
        id: t.id,
        date: t.date,
        amountCents: t.amountCents,
        description: t.description,
        reference: isDerivedReference(t.externalId) ? null : t.externalId,
        arrivedFrom: t.arrivedFrom,
        arrivedTo: t.arrivedTo,
      }));
    // An external id the account holds from any day (a bank's reference, or books' own key of
    // a line it gave none, as books before 0.1 sent) is that line, already there.
    const held = new Set(around.flatMap((t) => (t.externalId === null ? [] : [t.externalId])));
    for (const line of lines)
      if (
        line.reference !== null &&
        !held.has(line.reference) &&
        (await this.store.bankTransactions.hasExternalId(financialAccountId, line.reference))
      )
        held.add(line.reference);
    const sorted = sortArrivals(
      lines.map((l) => ({
        ...l,
        reference: l.reference !== null && isDerivedReference(l.reference) ? null : l.reference,
      })),
      known,
      covering,
    ).map((arrival, index): Arrival =>
      arrival.kind !== 'already' && held.has(lines[index]!.reference ?? '')
        ? { kind: 'already', of: null, by: 'reference' }
        : arrival,
    );
    return { lines: sorted, covering };
  }

  private async chartAccountOfFinancial(organizationId: string, financialAccountId: string) {
    return (await this.store.bankFeeds.financialAccountOf(organizationId, financialAccountId))!
      .chartAccountId;
  }

  // --- reading -----------------------------------------------------------------------------

  async list(organizationId: string, workspaceId: string, query: ListTransactionsQuery) {
    await this.workspaces.get(organizationId, workspaceId);
    if (query.startDate && query.endDate && query.startDate > query.endDate)
      throw invalid('startDate must not be after endDate');
    const page = pageOf(query);
    const result = await this.store.bankTransactions.list(workspaceId, page.limit, page.offset, {
      entityId: query.entityId,
      startDate: query.startDate,
      endDate: query.endDate,
      status: query.status,
      accountId: query.accountId,
      search: query.search,
      reference: query.reference,
      prefix: query.prefix,
    });
    return listOf(page, { rows: await this.present(result.rows), total: result.total });
  }

  async get(organizationId: string, id: string): Promise<BankTransaction> {
    const found = await this.store.bankTransactions.find(organizationId, id);
    if (!found) throw notFound('bank transaction');
    return (await this.present([found]))[0]!;
  }

  /**
   * The for-review queue of an entity: every waiting transaction, oldest first, narrowed by
   * days, bank account and text; with `suggest`, each with what books suggests and why.
   */
  async forReview(organizationId: string, entityId: string, query: ForReviewQuery) {
    const scope = await this.entities.scope(organizationId, entityId);
    if (query.startDate && query.endDate && query.startDate > query.endDate)
      throw invalid('startDate must not be after endDate');
    const waiting = await this.store.bankTransactions.waiting(entityId, {
      startDate: query.startDate,
      endDate: query.endDate,
      accountId: query.accountId,
      search: query.search,
    });
    const presented = await this.present(waiting);
    if (query.suggest) {
      // Transfers and matches look at every waiting line, not only those shown.
      const queue =
        query.startDate || query.endDate || query.accountId || query.search
          ? await this.store.bankTransactions.waiting(entityId)
          : waiting;
      const suggestions = await this.suggestions(organizationId, scope, queue);
      for (const transaction of presented)
        transaction.suggestion = suggestions.get(transaction.id) ?? null;
    }
    return { data: presented, total: presented.length };
  }

  /**
   * What books suggests for each line of a queue, learned from the entity's books (and the
   * firm's, read once per request through `firmDecisions`).
   */
  private async suggestions(
    organizationId: string,
    scope: EntityScope,
    queue: readonly BankTransactionView[],
    firmDecisions: () => Promise<FirmIndex> = this.firmIndexOnce(organizationId),
  ): Promise<Map<string, Suggestion | null>> {
    const entityId = scope.entity.id;
    const [chart, categorized, entryLines, matched, reconciled, lastReconciled, firstStatement] =
      await Promise.all([
        this.store.accounts.all(entityId),
        this.store.bankTransactions.categorizedHistory(entityId),
        this.store.bankTransactions.entryBankLines(scope.entitySeq),
        this.store.bankTransactions.matchedEntries(entityId),
        this.store.reconciliations.reconciledEntries(entityId),
        this.store.reconciliations.lastReconciledDays(entityId),
        this.store.bankTransactions.firstStatementDays(entityId),
      ]);
    const accounts = new Map<string, AccountInfo>(
      chart.map((account) => [account.id, accountInfo(account)]),
    );
    const accountsByName = new Map(chart.map((a) => [a.name.toLowerCase(), accounts.get(a.id)!]));
    // Where the client's chart keeps the firm's codes (a custom chart), a code means the
    // firm's account too.
    const accountsByCode = scope.workspace.customChartOfAccounts
      ? new Map(chart.map((a) => [a.code, accounts.get(a.id)!]))
      : new Map<string, AccountInfo>();
    const history: LabeledLine[] = categorized.map((row) => ({
      text: row.description,
      amountCents: row.amountCents,
      bankAccountId: row.bankAccountId,
      day: row.date,
      accountId: row.accountId,
    }));
    const entries: EntryOnBank[] = [];
    for (const line of entryLines) {
      const largest = [...line.others].sort((a, b) => Math.abs(b.cents) - Math.abs(a.cents))[0];
      entries.push({
        entryId: line.entryId,
        day: line.date,
        memo: line.memo,
        description: line.description,
        bankAccountId: line.bankAccountId,
        amountCents: line.amountCents,
        otherAccountId: largest?.accountId ?? null,
      });
      // The entry teaches too: its text, its bank line, the account on its other side.
      const text =
        line.description.trim() || line.memo?.trim() || largest?.description.trim() || '';
      if (largest && text !== '' && line.amountCents !== 0)
        history.push({
          text,
          amountCents: line.amountCents,
          bankAccountId: line.bankAccountId,
          day: line.date,
          accountId: largest.accountId,
        });
    }
    const learned = history.length > 0 ? learnCategories(history) : undefined;
    let firmIndex: FirmIndex | undefined;
    const firm = (words: readonly string[], inflow: boolean): FirmDecisions | undefined => {
      const rows = firmIndex?.get(firmKey(words, inflow));
      return rows && firmDecisionsOf(rows.filter((row) => row.entityId !== entityId));
    };
    // The firm's decisions are read only when some line's payee is new to the client.
    const needsFirm = queue.some((line) => {
      const words = payeeWords(line.description);
      return (
        words.length > 0 &&
        !learned?.model.knows({
          text: line.description,
          amountCents: line.amountCents,
          bankAccountId: line.bankAccountId,
          day: line.date,
        })
      );
    });
    if (needsFirm) firmIndex = await firmDecisions();
    const waiting: WaitingLine[] = queue.map((line) => ({
      id: line.id,
      text: line.description,
      amountCents: line.amountCents,
      bankAccountId: line.bankAccountId,
      bankAccountName: `${line.bankAccountCode} ${line.bankAccountName}`,
      day: line.date,
    }));
    const out = suggestForQueue({
      queue: waiting,
      learned,
      entries,
      matchedEntries: matched,
      window: { reconciled, lastReconciled, firstStatement },
      accounts,
      accountsByName,
      accountsByCode,
      firm,
    });
    // An account's usual tax code goes with it, where the entity keeps codes.
    const codes = await this.usualTaxCodes(entityId);
    const result = new Map<string, Suggestion | null>();
    for (const [id, suggestion] of out) {
      const usual = suggestion?.kind === 'account' ? codes.get(suggestion.accountId) : undefined;
      result.set(
        id,
        suggestion &&
          presentSuggestion(
            usual
              ? {
                  ...suggestion,
                  taxCode: usual.taxCode,
                  reason: `${suggestion.reason}${usualCodeReason(usual)}`,
                }
              : suggestion,
            accounts,
          ),
      );
    }
    return result;
  }

  /** Each account's usual tax code in the entity's books (none where it keeps no codes). */
  private async usualTaxCodes(entityId: string): Promise<Map<string, UsualCode>> {
    if (!(await this.store.tax.setting(entityId))) return new Map();
    const codes = new Map((await this.store.tax.codes(entityId)).map((c) => [c.code, c]));
    return usualCodes(await this.store.tax.codeUse(entityId), (code) => {
      const known = codes.get(code);
      return known !== undefined && !known.archived;
    });
  }

  /**
   * What the organization's entities decided, by payee and direction, read once (on first
   * asking) for the request that asks: each entity sees the others' (FirmIndex).
   */
  private firmIndexOnce(organizationId: string): () => Promise<FirmIndex> {
    let read: Promise<FirmIndex> | undefined;
    return () =>
      (read ??= this.store.bankTransactions.firmHistory(organizationId).then((rows) => {
        const index: FirmIndex = new Map();
        for (const row of rows) {
          const words = payeeWords(row.description);
          if (words.length === 0) continue;
          const key = firmKey(words, row.inflow);
          const list = index.get(key);
          if (list) list.push(row);
          else index.set(key, [row]);
        }
        return index;
      }));
  }

  /**
   * The firm's morning view: per entity of a workspace (or the one asked), how many wait, the
   * oldest, money in and out, and how many have a suggestion at or above `minConfidence`.
   */
  async summary(
    organizationId: string,
    workspaceId: string,
    query: ForReviewSummaryQuery,
  ): Promise<ForReviewSummary[]> {
    await this.workspaces.get(organizationId, workspaceId);
    const entities = (await this.store.entities.list(workspaceId, 1_000_000, 0)).rows.filter(
      (entity) => query.entityId === undefined || entity.id === query.entityId,
    );
    if (query.entityId !== undefined && entities.length === 0) throw notFound('entity');
    const waiting = await this.store.bankTransactions.waitingByEntity(workspaceId);
    const minConfidence = query.minConfidence ?? 0.95;
    const firmDecisions = this.firmIndexOnce(organizationId);
    const rows: ForReviewSummary[] = [];
    for (const entity of entities) {
      const counts = waiting.get(entity.id);
      let confident = 0;
      if (counts && counts.waiting > 0) {
        const scope = await this.entities.scope(organizationId, entity.id);
        const queue = await this.store.bankTransactions.waiting(entity.id);
        for (const suggestion of (
          await this.suggestions(organizationId, scope, queue, firmDecisions)
        ).values())
          if (suggestion && suggestion.confidence >= minConfidence) confident += 1;
      }
      rows.push({
        workspaceId,
        entityId: entity.id,
        entityName: entity.name,
        waiting: counts?.waiting ?? 0,
        oldest: counts?.oldest ?? null,
        moneyIn: centsToAmount(counts?.moneyInCents ?? ZERO_CENTS),
        moneyOut: centsToAmount(counts?.moneyOutCents ?? ZERO_CENTS),
        confident,
      });
    }
    return rows;
  }

  // --- deciding ----------------------------------------------------------------------------

  /** One decision on one transaction, whole or not at all. */
  async decide(
    organizationId: string,
    transactionId: string,
    body: DecisionBody,
  ): Promise<DecisionResponse> {
    const found = await this.store.bankTransactions.find(organizationId, transactionId);
    if (!found) throw notFound('bank transaction');
    const changed = await this.store.transaction(async () => {
      await this.entities.lockExclusively(found.entityId);
      const scope = await this.entities.scope(organizationId, found.entityId);
      return this.decideLocked(scope, transactionId, body);
    });
    return this.response(found.entityId, transactionId, changed);
  }

  /**
   * Up to 100 decisions of one entity, each on its own: decided (200), or refused with the
   * status and message it would have had alone. Each is checked whole before anything of it is
   * written, so a refused one changes nothing.
   */
  async decideMany(
    organizationId: string,
    entityId: string,
    body: BulkDecisionBody,
  ): Promise<{ data: DecisionOutcome[] }> {
    await this.entities.get(organizationId, entityId);
    const outcomes: {
      transactionId: string;
      status: number;
      changed?: string[];
      message?: string;
    }[] = await this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const scope = await this.entities.scope(organizationId, entityId);
      const results = [];
      for (const { transactionId, ...decision } of body.decisions) {
        try {
          const changed = await this.decideLocked(scope, transactionId, decision);
          results.push({ transactionId, status: 200, changed });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          results.push({
            transactionId,
            status: STATUS_OF_KIND[error.kind],
            message: error.message,
          });
        }
      }
      return results;
    });
    const data: DecisionOutcome[] = [];
    for (const outcome of outcomes) {
      if (outcome.status !== 200) {
        data.push({
          transactionId: outcome.transactionId,
          status: outcome.status,
          message: outcome.message!,
        });
        continue;
      }
      const { transaction, related } = await this.response(
        entityId,
        outcome.transactionId,
        outcome.changed!,
      );
      data.push({ transactionId: outcome.transactionId, status: 200, transaction, related });
    }
    return { data };
  }

  private async response(
    entityId: string,
    transactionId: string,
    changed: readonly string[],
  ): Promise<DecisionResponse> {
    const views = await this.present(await this.store.bankTransactions.byIds(entityId, changed));
    return {
      transaction: views.find((v) => v.id === transactionId)!,
      related: views.filter((v) => v.id !== transactionId),
    };
  }

  /**
   * Checks a decision against the transaction as it is now (its version, the lock date, the
   * accounts, the other side, the entry), then writes it: the transaction's postings replaced,
   * a former transfer's other side sent back to wait. Answers the ids of what changed.
   */
  private async decideLocked(
    scope: EntityScope,
    transactionId: string,
    body: DecisionBody,
  ): Promise<string[]> {
    const entity = scope.entity;
    const [record] = await this.store.bankTransactions.byIds(entity.id, [transactionId]);
    if (!record) throw notFound('bank transaction');
    if (body.version !== record.version)
      throw conflict(
        `transaction ${record.id} was decided meanwhile (it is now ${stateOf(record)}, version ${record.version}, not ${body.version}): nothing was changed; read it again`,
      );
    this.checkLock(record, entity.lockDate);
    if (
      record.status === 'possible-duplicate' &&
      body.kind !== 'exclude' &&
      body.kind !== 'not-duplicate'
    )
      throw conflict(
        `transaction ${record.id} is held as a possible duplicate of ${duplicateText(record)}: say it is not one (kind not-duplicate), or exclude it`,
      );
    const chart = new Map((await this.store.accounts.all(entity.id)).map((a) => [a.id, a]));
    const prepared = await this.prepare(scope, record, body, chart);
    // A coded decision, or one undoing a coded posting, in a period whose VAT return is filed.
    const filed = await filedReturnCovering(this.store, entity.id, [record.date]);
    if (filed) {
      const postedLines =
        (await this.store.postings.linesOf(SOURCE_KIND.bankTransaction, [record.seq])).get(
          record.seq,
        ) ?? [];
      const coded =
        (prepared.posting.kind === 'category' && prepared.posting.tax !== undefined) ||
        (prepared.posting.kind === 'split' && prepared.posting.parts.some((part) => part.tax)) ||
        postedLines.some((line) => line.taxCode);
      if (coded) throw conflict(`transaction ${record.id}: ${filedMessage(filed, record.date)}`);
    }
    // A transfer's former other side goes back to wait (unless it stays the other side).
    const former =
      record.transferId && record.transferId !== prepared.partner?.id
        ? (await this.store.bankTransactions.byIds(entity.id, [record.transferId]))[0]
        : undefined;
    if (former) this.checkLock(former, entity.lockDate);
    if (prepared.partner?.transferId && prepared.partner.transferId !== record.id)
      throw conflict(
        `transaction ${prepared.partner.id} is already the other side of a transfer with ${prepared.partner.transferId}: send that one back to wait first`,
      );

    // Everything is checked: write.
    const changed = [record.id];
    const feed = record.bankAccountId;
    if (former) {
      await this.store.postings.deleteSource(SOURCE_KIND.bankTransaction, former.seq);
      await this.store.bankTransactions.decide(former.seq, waitingWrite());
      await this.post(scope.entitySeq, former.bankAccountId, former, UNCATEGORIZED_POSTING);
      changed.push(former.id);
    }
    await this.store.postings.deleteSource(SOURCE_KIND.bankTransaction, record.seq);
    await this.store.bankTransactions.decide(record.seq, prepared.write, prepared.splits);
    await this.post(scope.entitySeq, feed, record, prepared.posting, chart);
    if (prepared.partner) {
      const partner = prepared.partner;
      await this.store.postings.deleteSource(SOURCE_KIND.bankTransaction, partner.seq);
      await this.store.bankTransactions.decide(partner.seq, {
        status: 'categorized',
        accountId: feed,
        ruleId: null,
        decidedBy: 'transfer',
        decidedAt: prepared.write.decidedAt,
        memo: null,
        transferId: record.id,
        matchedEntryId: null,
      });
      changed.push(partner.id);
    }
    return changed;
  }

  /** The entity's tax codes and VAT accounts, to resolve a decision's codes by (400 where none). */
  private async taxesOf(
    scope: EntityScope,
  ): Promise<(code: string, field: string, vatAmount?: number) => PartTax> {
    const registration = await this.vatRegistration(scope.entity.id);
    return (name, field, vatAmount) => {
      if (!registration)
        throw invalid(`${field}: entity "${scope.entity.name}" is not registered for VAT`);
      const code = registration.codes.get(name);
      if (!code) throw invalid(`${field} ${name} is not a tax code of the entity`);
      if (code.archived) throw invalid(`${field} ${name} is archived`);
      let vatCents: Cents | undefined;
      if (vatAmount !== undefined) {
        try {
          vatCents = amountToCents(vatAmount);
        } catch (error) {
          if (error instanceof InvalidAmountError) throw invalid(`vatAmount ${error.message}`);
          throw error;
        }
      }
      return {
        code,
        ...registration.vatAccountsOf(code),
        ...(vatCents !== undefined && { vatCents }),
      };
    };
  }

  /**
   * The entity's tax codes by name and the VAT accounts each posts to (its own where it keeps
   * its VAT apart, else the entity's two); none where it is not registered.
   */
  private async vatRegistration(entityId: string): Promise<
    | {
        codes: Map<string, TaxCode>;
        vatAccountsOf: (code: TaxCode) => { output: AccountRecord; input: AccountRecord };
      }
    | undefined
  > {
    const setting = await this.store.tax.setting(entityId);
    if (!setting) return undefined;
    const codes = await this.store.tax.codes(entityId);
    const ids = new Set([setting.outputAccountId, setting.inputAccountId]);
    for (const code of codes)
      for (const id of [code.outputAccountId, code.inputAccountId]) if (id) ids.add(id);
    const accounts = new Map<string, AccountRecord>();
    for (const id of ids) {
      const account = await this.store.accounts.find(entityId, id);
      if (account) accounts.set(id, account);
    }
    const output = accounts.get(setting.outputAccountId);
    const input = accounts.get(setting.inputAccountId);
    if (!output || !input) return undefined;
    return {
      codes: new Map(codes.map((c) => [c.code, c])),
      vatAccountsOf: (code) => ({
        output: (code.outputAccountId && accounts.get(code.outputAccountId)) || output,
        input: (code.inputAccountId && accounts.get(code.inputAccountId)) || input,
      }),
    };
  }

  private checkLock(record: BankTransactionRecord, lockDate: string | null): void {
    if (isInClosedPeriod(record.date, lockDate))
      throw conflict(
        `transaction ${record.id} of ${record.date} is on or before the lock date ${lockDate}: the books are locked through ${lockDate}, nothing was changed`,
      );
  }

  /** A decision checked against the books: what it writes and posts. */
  private async prepare(
    scope: EntityScope,
    record: BankTransactionView,
    body: DecisionBody,
    chart: ReadonlyMap<string, AccountRecord>,
  ): Promise<PreparedDecision> {
    const decidedAt = new Date().toISOString();
    const person = body.decidedBy ?? 'person';
    const accountOf = async (id: string, field: string) => {
      const account = chart.get(id);
      if (!account) {
        const elsewhere = await this.store.accounts.isWorkspaceAccount(
          scope.entity.workspaceId,
          id,
        );
        throw invalid(
          elsewhere
            ? `${field} ${id} is an account of another entity, not of entity "${scope.entity.name}"`
            : `${field} ${id} is not an account of entity "${scope.entity.name}"`,
        );
      }
      if (account.isDisabled)
        throw invalid(`${field}: account ${account.code} "${account.name}" is archived`);
      if (account.id === record.bankAccountId)
        throw invalid(
          `${field}: account ${account.code} "${account.name}" is the transaction's own bank account`,
        );
      return account;
    };
    const classIds = await this.checkClasses(scope, body.classIds ?? []);
    if ((body.taxCode !== undefined || body.vatAmount !== undefined) && body.kind !== 'account')
      throw invalid(
        `taxCode and vatAmount go with kind account (a split's parts each take a taxCode), not ${body.kind}`,
      );
    if (body.vatAmount !== undefined && body.taxCode === undefined)
      throw invalid('vatAmount goes with a taxCode');
    let taxes: Awaited<ReturnType<typeof this.taxesOf>> | undefined;
    const taxOf = async (code: string, field: string, vatAmount?: number): Promise<PartTax> => {
      taxes ??= await this.taxesOf(scope);
      return taxes(code, field, vatAmount);
    };
    switch (body.kind) {
      case 'account': {
        if (!body.accountId) throw invalid('accountId is required to categorize to an account');
        const account = await accountOf(body.accountId, 'accountId');
        const tax =
          body.taxCode === undefined
            ? undefined
            : await taxOf(body.taxCode, 'taxCode', body.vatAmount);
        if (tax?.vatCents !== undefined && tax.vatCents >= absCents(record.amountCents))
          throw invalid(
            `vatAmount ${formatCents(tax.vatCents, { thousands: true })} is not less than the transaction's ${formatCents(absCents(record.amountCents), { thousands: true })}`,
          );
        return {
          write: decided('categorized', account.id, person, decidedAt, { memo: body.memo ?? null }),
          posting: { kind: 'category', accountId: account.id, classIds, ...(tax && { tax }) },
          splits: [],
        };
      }
      case 'split': {
        if (!body.splits || body.splits.length < 2)
          throw invalid('splits: a split has at least two parts');
        const parts: (SplitRecord & { classIds: string[]; tax?: PartTax })[] = [];
        for (const [index, part] of body.splits.entries()) {
          const account = await accountOf(part.accountId, `splits[${index}].accountId`);
          let cents: Cents;
          try {
            cents = amountToCents(Math.abs(part.amount));
          } catch (error) {
            if (error instanceof InvalidAmountError)
              throw invalid(`splits[${index}].amount ${error.message}`);
            throw error;
          }
          if (cents === 0) throw invalid(`splits[${index}].amount must not be zero`);
          parts.push({
            accountId: account.id,
            amountCents: part.amount < 0 ? negateCents(cents) : cents,
            memo: part.memo ?? null,
            classIds: await this.checkClasses(scope, part.classIds ?? []),
            ...(part.taxCode !== undefined && {
              tax: await taxOf(part.taxCode, `splits[${index}].taxCode`),
            }),
          });
        }
        const total = sumCents(parts.map((p) => p.amountCents));
        const expected = absCents(record.amountCents);
        if (total !== expected)
          throw invalid(
            `splits: the parts add up to ${formatCents(total, { thousands: true })}, not the transaction's ${formatCents(expected, { thousands: true })}: a difference of ${formatCents(asCents(expected - total), { thousands: true })}`,
          );
        return {
          write: decided('categorized', null, person, decidedAt),
          posting: { kind: 'split', parts },
          splits: parts.map(({ classIds: _classIds, tax: _tax, ...part }) => part),
        };
      }
      case 'transfer':
        return this.prepareTransfer(scope, record, body, chart, decidedAt);
      case 'match': {
        if (!body.entryId) throw invalid('entryId is required to match a journal entry');
        const entry = await this.store.journalEntries.find(scope.entity.id, body.entryId);
        if (!entry)
          throw invalid(
            `entryId ${body.entryId} is not a journal entry of entity "${scope.entity.name}"`,
          );
        const lines =
          (await this.store.postings.linesOf(SOURCE_KIND.journalEntry, [entry.seq])).get(
            entry.seq,
          ) ?? [];
        const onBank = lines.some(
          (line) =>
            line.accountId === record.bankAccountId &&
            line.debitCents - line.creditCents === record.amountCents,
        );
        if (!onBank)
          throw invalid(
            `journal entry ${entry.id} of ${entry.dateOnly} does not post ${formatCents(absCents(record.amountCents), { thousands: true })} ${record.amountCents > 0 ? 'into' : 'out of'} ${record.bankAccountCode} "${record.bankAccountName}": it cannot stand for this bank line`,
          );
        if (entry.ledgerBasis !== 'cash')
          throw invalid(
            `journal entry ${entry.id} is on the accrual ledger: a bank line stands for an entry of the cash ledger`,
          );
        const other = await this.store.bankTransactions.matchedBy(entry.id);
        if (other && other.id !== record.id)
          throw conflict(`journal entry ${entry.id} is already matched by transaction ${other.id}`);
        // The entry stands for the line on the cash ledger; the accrual ledger, which the entry
        // is not on, keeps the line, posted as the entry posts it (its largest other line).
        const counter = lines
          .filter((line) => line.accountId !== record.bankAccountId)
          .sort((a, b) => b.debitCents + b.creditCents - (a.debitCents + a.creditCents))[0];
        return {
          write: decided('categorized', null, 'match', decidedAt, { matchedEntryId: entry.id }),
          posting: {
            kind: 'category',
            accountId: counter?.accountId ?? null,
            classIds: [],
            ledgers: ['accrual'],
          },
          splits: [],
        };
      }
      case 'exclude':
        return {
          write: decided('excluded', null, 'person', decidedAt),
          posting: { kind: 'none' },
          splits: [],
        };
      case 'uncategorize':
        return { write: waitingWrite(), posting: UNCATEGORIZED_POSTING, splits: [] };
      case 'not-duplicate': {
        if (record.status !== 'possible-duplicate')
          throw invalid(
            `transaction ${record.id} is not held as a possible duplicate (it is ${stateOf(record)})`,
          );
        // In as any line arrives: the rules take it, or it waits.
        const categorizer = await this.categorizer(scope.entity.workspaceId, scope.entity.id);
        const outcome = categorizer(record);
        if (outcome.accountId === null)
          return { write: waitingWrite(), posting: UNCATEGORIZED_POSTING, splits: [] };
        return {
          write: {
            ...decided('categorized', outcome.accountId, 'rule', decidedAt),
            ruleId: outcome.ruleId,
          },
          posting: outcome.posting,
          splits: [],
        };
      }
    }
  }

  /**
   * A transfer: to the other side's transaction (given, or the one books finds: the opposite
   * amount waiting on another of the entity's bank or card accounts within days), or to a bank
   * or card account whose side has not arrived (it joins when it does).
   */
  private async prepareTransfer(
    scope: EntityScope,
    record: BankTransactionView,
    body: DecisionBody,
    chart: ReadonlyMap<string, AccountRecord>,
    decidedAt: string,
  ): Promise<PreparedDecision> {
    const entityId = scope.entity.id;
    const amount = formatCents(absCents(record.amountCents), { thousands: true });
    let partner: BankTransactionView | undefined;
    let otherAccount: AccountRecord | undefined;
    const candidates = async (accountId?: string) =>
      (
        await this.store.bankTransactions.waiting(entityId, {
          startDate: shiftDay(record.date, -TRANSFER_DAYS),
          endDate: shiftDay(record.date, TRANSFER_DAYS),
          ...(accountId && { accountId }),
        })
      ).filter(
        (t) =>
          t.id !== record.id &&
          t.financialAccountId !== record.financialAccountId &&
          t.amountCents === -record.amountCents,
      );
    if (body.otherTransactionId) {
      [partner] = await this.store.bankTransactions.byIds(entityId, [body.otherTransactionId]);
      if (!partner)
        throw invalid(
          `otherTransactionId ${body.otherTransactionId} is not a bank transaction of entity "${scope.entity.name}"`,
        );
      if (partner.id === record.id)
        throw invalid('a transfer is between two transactions, not one');
      if (partner.financialAccountId === record.financialAccountId)
        throw invalid(
          `transaction ${partner.id} is on the same bank account: a transfer's other side is on another`,
        );
      if (partner.amountCents !== -record.amountCents)
        throw invalid(
          `transaction ${partner.id} is ${formatCents(partner.amountCents)}, not the opposite of this ${formatCents(record.amountCents)}`,
        );
      if (partner.status === 'excluded' || partner.matchedEntryId)
        throw invalid(
          `transaction ${partner.id} is ${stateOf(partner)}: send it back to wait before making it a transfer's other side`,
        );
      otherAccount = chart.get(partner.bankAccountId);
    } else if (body.accountId) {
      otherAccount = chart.get(body.accountId);
      if (!otherAccount) {
        const elsewhere = await this.store.accounts.isWorkspaceAccount(
          scope.entity.workspaceId,
          body.accountId,
        );
        throw invalid(
          `accountId ${body.accountId} is ${elsewhere ? 'an account of another entity' : 'not an account'} of entity "${scope.entity.name}"`,
        );
      }
      if (!BANK_TYPES.has(otherAccount.type))
        throw invalid(
          `account ${otherAccount.code} "${otherAccount.name}" is ${/^[AEIOU]/.test(otherAccount.type) ? 'an' : 'a'} ${otherAccount.type} account, not a bank or card account: a transfer's other side must be one`,
        );
      if (otherAccount.isDisabled)
        throw invalid(`account ${otherAccount.code} "${otherAccount.name}" is archived`);
      if (otherAccount.id === record.bankAccountId)
        throw invalid(
          `account ${otherAccount.code} "${otherAccount.name}" is the transaction's own bank account`,
        );
      const found = await candidates(otherAccount.id);
      if (found.length === 1) partner = found[0];
    } else {
      const found = await candidates();
      if (found.length === 0)
        throw invalid(
          `no transaction of the opposite ${amount} waits on another of the entity's bank or card accounts within ${TRANSFER_DAYS} days: name the other side (its transaction, or its account)`,
        );
      if (found.length > 1)
        throw invalid(
          `${found.length} transactions of the opposite ${amount} wait on the entity's other accounts (${found.map((t) => `${t.id} on ${t.date}`).join(', ')}): name the other side`,
        );
      partner = found[0];
      otherAccount = chart.get(partner!.bankAccountId);
    }
    // The other side's postings go too: it must be open as well.
    if (partner) this.checkLock(partner, scope.entity.lockDate);
    return {
      write: decided('categorized', otherAccount!.id, 'transfer', decidedAt, {
        transferId: partner?.id ?? null,
      }),
      posting: { kind: 'category', accountId: otherAccount!.id, classIds: [] },
      splits: [],
      ...(partner && { partner }),
    };
  }

  private async checkClasses(scope: EntityScope, classIds: readonly string[]): Promise<string[]> {
    if (classIds.length === 0) return [];
    const classes = await this.store.classes.byIds(scope.entity.workspaceId, [...classIds]);
    const roots = new Map(classes.map((c) => [c.id, c.rootClassId]));
    const seen = new Set<string>();
    for (const classId of classIds) {
      const root = roots.get(classId);
      if (root === undefined) throw invalid(`classIds: ${classId} is not a class of the workspace`);
      if (seen.has(root)) throw invalid('classIds holds more than one class of the same root');
      seen.add(root);
    }
    return [...classIds];
  }

  // --- rules -------------------------------------------------------------------------------

  /**
   * Runs the workspace's rules (or the ones named) on the transactions that wait, of every
   * entity of the workspace (or the one named): each is taken by the first enabled rule that
   * matches it, posted to the rule's account. `dryRun` says what each rule would take, and
   * changes nothing.
   */
  async applyRules(
    organizationId: string,
    workspaceId: string,
    body: ApplyRulesBody,
  ): Promise<ApplyRulesResponse> {
    await this.workspaces.get(organizationId, workspaceId);
    const entities = (await this.store.entities.list(workspaceId, 1_000_000, 0)).rows.filter(
      (entity) => body.entityId === undefined || entity.id === body.entityId,
    );
    if (body.entityId !== undefined && entities.length === 0) throw notFound('entity');
    const byRule = new Map<string, string[]>();
    let waiting = 0;
    let categorized = 0;
    for (const entity of entities) {
      const outcome = await this.store.transaction(async () => {
        await this.entities.lockExclusively(entity.id);
        return this.applyLocked(organizationId, entity.id, body.ruleIds, body.dryRun ?? false);
      });
      waiting += outcome.waiting;
      for (const [ruleId, ids] of outcome.taken) {
        byRule.set(ruleId, [...(byRule.get(ruleId) ?? []), ...ids]);
        categorized += ids.length;
      }
    }
    return {
      rules: [...byRule].map(([ruleId, transactionIds]) => ({
        ruleId,
        categorized: transactionIds.length,
        transactionIds,
      })),
      categorized,
      waiting,
      dryRun: body.dryRun ?? false,
    };
  }

  /** The rules on one entity's waiting transactions (inside its transaction, under its lock). */
  private async applyLocked(
    organizationId: string,
    entityId: string,
    ruleIds: readonly string[] | undefined,
    dryRun: boolean,
  ): Promise<{ waiting: number; taken: Map<string, string[]> }> {
    const scope = await this.entities.scope(organizationId, entityId);
    const only = ruleIds && new Set(ruleIds);
    const categorizer = await this.categorizer(scope.entity.workspaceId, entityId, only);
    const taken = new Map<string, string[]>();
    const waiting = await this.store.bankTransactions.uncategorized(entityId);
    const decidedAt = new Date().toISOString();
    for (const transaction of waiting) {
      if (isInClosedPeriod(transaction.date, scope.entity.lockDate)) continue;
      const outcome = categorizer(transaction);
      if (outcome.ruleId === null || outcome.accountId === null) continue;
      taken.set(outcome.ruleId, [...(taken.get(outcome.ruleId) ?? []), transaction.id]);
      if (dryRun) continue;
      const feed = await this.chartAccountOfFinancial(
        organizationId,
        transaction.financialAccountId,
      );
      await this.store.postings.deleteSource(SOURCE_KIND.bankTransaction, transaction.seq);
      await this.store.bankTransactions.decide(transaction.seq, {
        ...decided('categorized', outcome.accountId, 'rule', decidedAt),
        ruleId: outcome.ruleId,
      });
      await this.post(scope.entitySeq, feed, transaction, outcome.posting);
    }
    return { waiting: waiting.length, taken };
  }

  /**
   * Runs the rules again on an entity's waiting transactions (after an accounting migration
   * seeds its rules); those already decided keep their category.
   */
  async recategorize(organizationId: string, entityId: string): Promise<number> {
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const { taken } = await this.applyLocked(organizationId, entityId, undefined, false);
      return [...taken.values()].reduce((sum, ids) => sum + ids.length, 0);
    });
  }

  /**
   * A journal entry is deleted: a bank transaction matched to it posts nothing, so it goes back
   * to wait (posted to Uncategorized), in the deletion's transaction.
   */
  async entryDeleted(entitySeq: number, entryId: string): Promise<void> {
    const matched = await this.store.bankTransactions.matchedBy(entryId);
    if (!matched) return;
    const [view] = await this.store.bankTransactions.byIds(matched.entityId, [matched.id]);
    await this.store.postings.deleteSource(SOURCE_KIND.bankTransaction, matched.seq);
    await this.store.bankTransactions.decide(matched.seq, waitingWrite());
    await this.post(entitySeq, view!.bankAccountId, matched, UNCATEGORIZED_POSTING);
  }

  /**
   * The rules' decision for a transaction, and the category it posts: a rule's `tax_code` posts
   * as net and VAT where the entity keeps the code (not archived) and the day is in no filed
   * return's period; else the rule's account takes the gross.
   */
  private async categorizer(
    workspaceId: string,
    entityId: string,
    only?: ReadonlySet<string>,
  ): Promise<
    (facts: {
      financialAccountId: string;
      amountCents: Cents;
      description: string;
      date: string;
    }) => Categorization & { posting: Posting }
  > {
    const none = { ...UNCATEGORIZED, posting: UNCATEGORIZED_POSTING };
    if (await this.categorizationPaused(entityId)) return () => none;
    const rules = (
      await this.store.transactionRules.forCategorization(workspaceId, entityId)
    ).filter((rule) => !only || only.has(rule.id));
    const entityAccounts = new Set((await this.store.accounts.all(entityId)).map((a) => a.id));
    const taxOf = rules.some((rule) => rule.actions.some((a) => a.actionType === 'tax_code'))
      ? await this.ruleTaxes(entityId)
      : () => undefined;
    return (facts) => {
      const outcome = categorize(rules, facts, (accountId) => entityAccounts.has(accountId));
      const tax = outcome.taxCode === null ? undefined : taxOf(outcome.taxCode, facts.date);
      return {
        ...outcome,
        posting: {
          kind: 'category',
          accountId: outcome.accountId,
          classIds: outcome.classIds,
          ...(tax && { tax }),
        },
      };
    };
  }

  /** A rule's tax code as the entity keeps it on a day, if it does and may post it then. */
  private async ruleTaxes(
    entityId: string,
  ): Promise<(code: string, day: string) => PartTax | undefined> {
    const registration = await this.vatRegistration(entityId);
    if (!registration) return () => undefined;
    const filed = await this.store.tax.filedReturns(entityId);
    return (name, day) => {
      const code = registration.codes.get(name);
      if (!code || code.archived) return undefined;
      if (filed.some((f) => f.startDate <= day && day <= f.endDate)) return undefined;
      return { code, ...registration.vatAccountsOf(code) };
    };
  }

  // --- posting -----------------------------------------------------------------------------

  /**
   * Posts a transaction on both ledgers: its bank account against its category (or Uncategorized
   * Income / Expense while it waits), its split's parts, or nothing (a match, an excluded line,
   * a transfer's side the other side posts).
   */
  private async post(
    entitySeq: number,
    bankAccountId: string,
    transaction: Pick<
      BankTransactionRecord,
      'seq' | 'entityId' | 'date' | 'amountCents' | 'description'
    >,
    posting: Posting,
    chart?: ReadonlyMap<string, AccountRecord>,
  ): Promise<void> {
    if (posting.kind === 'none') return;
    const inflow = transaction.amountCents > 0;
    const find = async (id: string) =>
      chart?.get(id) ?? (await this.store.accounts.find(transaction.entityId, id))!;
    const feed = await find(bankAccountId);
    const parts =
      posting.kind === 'split'
        ? posting.parts
        : [
            {
              accountId: posting.accountId,
              amountCents: absCents(transaction.amountCents),
              classIds: posting.classIds,
              memo: null,
              tax: posting.tax,
            },
          ];
    const total = absCents(transaction.amountCents);
    const lines: PostingInput[] = [
      {
        accountId: feed.id,
        accountSeq: feed.seq,
        classIds: [],
        debitCents: inflow ? total : ZERO_CENTS,
        creditCents: inflow ? ZERO_CENTS : total,
        description: transaction.description,
      },
    ];
    for (const part of parts) {
      const account = part.accountId
        ? await find(part.accountId)
        : await this.accounts.ensureAccount(
            transaction.entityId,
            inflow ? UNCATEGORIZED_INCOME : UNCATEGORIZED_EXPENSE,
            inflow ? 'Income' : 'Operating Expenses',
          );
      // A part against the transaction's direction (a fee taken from a deposit) posts on the
      // bank's own side.
      const against = part.amountCents < 0;
      const cents = absCents(part.amountCents);
      const onCredit = inflow !== against;
      const line = (to: AccountRecord, amount: Cents, credit: boolean, taxCode?: string) =>
        lines.push({
          accountId: to.id,
          accountSeq: to.seq,
          classIds: to === account ? part.classIds : [],
          debitCents: credit ? ZERO_CENTS : amount,
          creditCents: credit ? amount : ZERO_CENTS,
          description: part.memo ?? transaction.description,
          ...(taxCode !== undefined && { taxCode }),
        });
      if (!part.tax) {
        line(account, cents, onCredit);
        continue;
      }
      const { code, output, input, vatCents } = part.tax;
      for (const vat of vatParts(code, transaction.date, cents, vatCents)) {
        const to = vat.account === 'category' ? account : vat.account === 'output' ? output : input;
        line(to, vat.cents, vat.withCategory ? onCredit : !onCredit, code.code);
      }
    }
    const ledgers =
      (posting.kind === 'category' && posting.ledgers) || (LEDGER_BASES as readonly LedgerBasis[]);
    await this.store.postings.insert(
      ledgers.map((ledgerBasis) => ({
        source: {
          entitySeq,
          ledgerBasis,
          day: transaction.date,
          sourceKind: SOURCE_KIND.bankTransaction,
          sourceSeq: transaction.seq,
          sourceType: 'transaction' as const,
          counterpartyName: transaction.description,
        },
        lines,
      })),
    );
  }

  // --- presenting ----------------------------------------------------------------------------

  private async present(views: readonly BankTransactionView[]): Promise<BankTransaction[]> {
    const splitSeqs = views
      .filter((v) => v.status === 'categorized' && v.accountId === null && !v.matchedEntryId)
      .map((v) => v.seq);
    const splits =
      splitSeqs.length > 0 ? await this.store.bankTransactions.splitsOf(splitSeqs) : new Map();
    return views.map((view) => presentTransaction(view, splits.get(view.seq) ?? []));
  }
}

/** The organization's decisions by payee key: what each entity sent where. */
type FirmIndex = Map<string, FirmDecisionRow[]>;

const STATUS_OF_KIND = {
  invalid: 400,
  unauthenticated: 401,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
} as const;

const UNCATEGORIZED_POSTING: Posting = { kind: 'category', accountId: null, classIds: [] };

function decided(
  status: DecisionWrite['status'],
  accountId: string | null,
  decidedBy: DecisionWrite['decidedBy'],
  decidedAt: string,
  extra: Partial<DecisionWrite> = {},
): DecisionWrite {
  return {
    status,
    accountId,
    ruleId: null,
    decidedBy,
    decidedAt,
    memo: null,
    transferId: null,
    matchedEntryId: null,
    ...extra,
  };
}

/** Back in the queue: nothing decided. */
const waitingWrite = (): DecisionWrite =>
  decided('uncategorized', null, null, '', { decidedAt: null });

/** A record's decision as it stands (to write it again with one field changed). */
function writeOf(record: BankTransactionRecord): DecisionWrite {
  return {
    status: record.status,
    accountId: record.accountId,
    ruleId: record.ruleId,
    decidedBy: record.decidedBy,
    decidedAt: record.decidedAt,
    memo: record.memo,
    transferId: record.transferId,
    matchedEntryId: record.matchedEntryId,
  };
}

/** The line a possible duplicate may repeat, in words: `2026-11-03 -1,200.00 RENT (id)`. */
function duplicateText(view: BankTransactionView): string {
  const other = view.duplicate;
  if (!other) return `transaction ${view.duplicateOf}`;
  return `${other.date} ${formatCents(other.amountCents, { thousands: true })} ${other.description} (${other.id})`;
}

/** How a transaction stands, in words (for a 409's message). */
function stateOf(record: BankTransactionRecord): string {
  if (record.status === 'uncategorized') return 'waiting';
  if (record.status === 'possible-duplicate') return 'held as a possible duplicate';
  if (record.status === 'excluded') return 'excluded';
  if (record.matchedEntryId) return `matched to journal entry ${record.matchedEntryId}`;
  return `categorized by ${record.decidedBy ?? 'rule'}${record.decidedAt ? ` at ${record.decidedAt}` : ''}`;
}

function accountInfo(account: AccountRecord): AccountInfo {
  return {
    id: account.id,
    code: account.code,
    name: account.name,
    isBank: BANK_TYPES.has(account.type),
    usable: !account.isDisabled,
  };
}

function presentSuggestion(
  suggestion: SuggestionOut & { taxCode?: string },
  accounts: ReadonlyMap<string, AccountInfo>,
): Suggestion {
  const account = accounts.get(suggestion.accountId)!;
  return {
    kind: suggestion.kind,
    account: account.name,
    accountId: account.id,
    accountCode: account.code,
    confidence: suggestion.confidence,
    reason: suggestion.reason,
    ...(suggestion.transactionId && { transactionId: suggestion.transactionId }),
    ...(suggestion.entryId && { entryId: suggestion.entryId }),
    ...(suggestion.taxCode && { taxCode: suggestion.taxCode }),
  };
}

function presentTransaction(
  view: BankTransactionView,
  splits: readonly SplitView[],
): BankTransaction {
  const named = (id: string, code: string | null, name: string | null) => ({
    id,
    code: code ?? '',
    name: name ?? '',
  });
  let category: TransactionCategory | null = null;
  if (view.status === 'categorized') {
    if (view.matchedEntryId)
      category = {
        kind: 'match',
        entryId: view.matchedEntryId,
        entryDate: view.entryDate,
        entryMemo: view.entryMemo,
      };
    else if (view.decidedBy === 'transfer' && view.accountId)
      category = {
        kind: 'transfer',
        account: named(view.accountId, view.accountCode, view.accountName),
        transactionId: view.transferId,
      };
    else if (view.accountId)
      category = {
        kind: 'account',
        account: named(view.accountId, view.accountCode, view.accountName),
        memo: view.memo,
      };
    else if (splits.length > 0)
      category = {
        kind: 'split',
        splits: splits.map((part) => ({
          account: named(part.accountId, part.accountCode, part.accountName),
          amount: centsToAmount(part.amountCents),
          memo: part.memo,
        })),
      };
  }
  return {
    id: view.id,
    entityId: view.entityId,
    financialAccountId: view.financialAccountId,
    bankAccount: named(view.bankAccountId, view.bankAccountCode, view.bankAccountName),
    date: view.date,
    amount: centsToAmount(view.amountCents),
    description: view.description,
    reference: view.externalId,
    accountId: view.status === 'categorized' ? view.accountId : null,
    ruleId: view.ruleId,
    status: view.status,
    category,
    decidedBy: view.decidedBy,
    decidedAt: view.decidedAt,
    version: view.version,
    ...(view.status === 'possible-duplicate' &&
      view.duplicate && {
        duplicateOf: {
          id: view.duplicate.id,
          date: view.duplicate.date,
          amount: centsToAmount(view.duplicate.amountCents),
          description: view.duplicate.description,
        },
      }),
  };
}
