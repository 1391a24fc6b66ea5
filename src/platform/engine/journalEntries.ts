import { newId } from './ids.js';
import type {
  CreateJournalEntryBody,
  JournalEntry,
  JournalLineInput,
  LedgerBasis,
  ListJournalEntriesQuery,
  SourceType,
  UpdateJournalEntryBody,
} from '../../api/index.js';
import { startOfDayIso } from '../../core/calendar.js';
import { centsToAmount } from '../../core/money.js';
import { isInClosedPeriod } from '../domain/accounts.js';
import { filedMessage, filedReturnCovering } from './tax.js';
import { conflict, invalid, notFound } from '../domain/errors.js';
import { validateLines, type LineReferences, type PostingLine } from '../domain/journalEntries.js';
import type { JournalEntryRecord } from '../store/journalEntries.js';
import type { Store } from '../store/index.js';
import type { AccountRecord } from '../store/accounts.js';
import { SOURCE_KIND, type PostedLine, type PostingInput } from '../store/postings.js';
import type { EntityScope, EntityService } from './entities.js';
import { listOf, pageOf } from './pagination.js';

/** An entry checked and converted, ready to write. */
interface PreparedEntry {
  record: JournalEntryRecord;
  lines: PostingInput[];
}

/** What the entries of one request are checked against: loaded once per request. */
interface EntryContext {
  scope: EntityScope;
  accounts: Map<string, AccountRecord>;
  references: LineReferences;
  sourceType: SourceType;
}

/** Manual journal entries on an entity's cash or accrual ledger. */
export class JournalEntryService {
  /** Told, inside the deletion's transaction, that an entry is gone (a bank line matched to it waits again). */
  entryDeleted: (entitySeq: number, entryId: string) => Promise<void> = async () => {};

  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
  ) {}

  async list(organizationId: string, entityId: string, query: ListJournalEntriesQuery) {
    const scope = await this.entities.scope(organizationId, entityId);
    const ledgerBasis = this.readableBasis(scope, query.ledgerBasis);
    if (query.startDate && query.endDate && query.startDate > query.endDate) {
      throw invalid('startDate must not be after endDate');
    }
    const page = pageOf(query);
    const { rows, total } = await this.store.journalEntries.list(
      { entityId, ledgerBasis, startDate: query.startDate, endDate: query.endDate },
      page.limit,
      page.offset,
    );
    const lines = await this.store.postings.linesOf(
      SOURCE_KIND.journalEntry,
      rows.map((r) => r.seq),
    );
    return listOf(page, {
      rows: rows.map((record) => this.present(scope, record, lines.get(record.seq) ?? [])),
      total,
    });
  }

  async get(
    organizationId: string,
    entityId: string,
    id: string,
    basis: LedgerBasis | undefined,
  ): Promise<JournalEntry> {
    const scope = await this.entities.scope(organizationId, entityId);
    const record = await this.find(scope, id, this.readableBasis(scope, basis));
    return this.present(scope, record, await this.storedLines(record));
  }

  async create(
    organizationId: string,
    entityId: string,
    body: CreateJournalEntryBody,
  ): Promise<JournalEntry> {
    return (await this.bulkCreate(organizationId, entityId, [body], ''))[0]!;
  }

  /**
   * Creates entries all or nothing: every entry is checked before anything is written, then all
   * are written in one transaction. Answers in request order.
   */
  bulkCreate(
    organizationId: string,
    entityId: string,
    bodies: CreateJournalEntryBody[],
    prefix = 'journalEntries',
  ): Promise<JournalEntry[]> {
    return this.store.transaction(async () => {
      // Seqs are taken with the reads, so that entries and postings are written together.
      const [seqs, context] = await Promise.all([
        this.store.journalEntries.reserveSeqs(bodies.length),
        this.context(
          organizationId,
          entityId,
          bodies.flatMap((body) => body.lines),
        ),
      ]);
      const createdAt = new Date().toISOString();
      await this.refuseFiled(
        entityId,
        bodies.filter((body) => body.lines.some((line) => line.taxCode)).map((body) => body.date),
      );
      const prepared = bodies.map((body, index) =>
        this.prepare(context, body, prefix === '' ? '' : `${prefix}[${index}].`, createdAt),
      );
      seqs.forEach((seq, index) => (prepared[index]!.record.seq = seq));
      await Promise.all([
        this.store.journalEntries.insertAll(prepared.map((entry) => entry.record)),
        this.store.postings.insert(
          prepared.map(({ record, lines }) => ({
            source: this.postingSource(context.scope, record),
            lines,
          })),
        ),
      ]);
      return prepared.map(({ record, lines }) =>
        this.present(context.scope, record, this.withAccounts(context, lines)),
      );
    });
  }

  /** Touches only the fields sent; `lines` replaces the whole set and must balance. */
  update(
    organizationId: string,
    entityId: string,
    id: string,
    basis: LedgerBasis | undefined,
    body: UpdateJournalEntryBody,
  ): Promise<JournalEntry> {
    return this.store.transaction(async () => {
      const context = await this.context(organizationId, entityId, 'every account');
      const { entity } = context.scope;
      const record = await this.find(context.scope, id, this.readableBasis(context.scope, basis));
      if (isInClosedPeriod(record.dateOnly, entity.lockDate)) {
        throw conflict(
          `the entry is dated ${record.dateOnly}, on or before the lock date ${entity.lockDate}`,
        );
      }
      const dateOnly = body.date ?? record.dateOnly;
      if (isInClosedPeriod(dateOnly, entity.lockDate)) {
        throw conflict(`date ${dateOnly} is on or before the lock date ${entity.lockDate}`);
      }
      const updated: JournalEntryRecord = {
        ...record,
        dateOnly,
        memo: body.memo === undefined ? record.memo : body.memo,
      };
      const stored = await this.storedLines(record);
      const lines = body.lines
        ? this.withSeqs(context, validateLines(body.lines, context.references))
        : stored;
      await this.refuseFiled(entityId, [
        ...(stored.some((line) => line.taxCode) ? [record.dateOnly] : []),
        ...(lines.some((line) => line.taxCode) ? [dateOnly] : []),
      ]);
      await this.store.journalEntries.update(updated);
      await this.store.postings.deleteSource(SOURCE_KIND.journalEntry, record.seq);
      await this.store.postings.insert([
        { source: this.postingSource(context.scope, updated), lines },
      ]);
      return this.present(context.scope, updated, this.withAccounts(context, lines));
    });
  }

  /** Deletes an entry and the postings it produced. */
  delete(
    organizationId: string,
    entityId: string,
    id: string,
    basis: LedgerBasis | undefined,
  ): Promise<void> {
    return this.store.transaction(async () => {
      const scope = await this.entities.lockedScope(organizationId, entityId);
      const record = await this.find(scope, id, this.readableBasis(scope, basis));
      if (isInClosedPeriod(record.dateOnly, scope.entity.lockDate)) {
        throw conflict(
          `the entry is dated ${record.dateOnly}, on or before the lock date ${scope.entity.lockDate}`,
        );
      }
      if ((await this.storedLines(record)).some((line) => line.taxCode))
        await this.refuseFiled(entityId, [record.dateOnly]);
      await this.store.postings.deleteSource(SOURCE_KIND.journalEntry, record.seq);
      await this.store.journalEntries.delete(id);
      await this.entryDeleted(scope.entitySeq, id);
    });
  }

  /** A coded posting on a day a filed VAT return covers is refused (409), naming the return. */
  private async refuseFiled(entityId: string, days: readonly string[]): Promise<void> {
    const filed = await filedReturnCovering(this.store, entityId, days);
    if (filed)
      throw conflict(
        filedMessage(
          filed,
          days.find((day) => filed.startDate <= day && day <= filed.endDate)!,
        ),
      );
  }

  /**
   * What entries are checked against, read inside their transaction under the entity's shared
   * lock: the accounts and classes the lines name (or the whole chart), and whether the
   * migration is open.
   */
  private async context(
    organizationId: string,
    entityId: string,
    lines: readonly JournalLineInput[] | 'every account',
  ): Promise<EntryContext> {
    // One round trip on PostgreSQL: the lock first, then every read (all issued before any is
    // awaited; the server runs them in order).
    const [scope, chart] = await Promise.all([
      this.entities.lockedScope(organizationId, entityId),
      lines === 'every account'
        ? this.store.accounts.all(entityId)
        : this.store.accounts.byIds(
            entityId,
            lines.map((line) => line.accountId),
          ),
    ]);
    const classIds = lines === 'every account' ? [] : lines.flatMap((line) => line.classIds ?? []);
    const classes =
      lines === 'every account'
        ? await this.store.classes.all(scope.entity.workspaceId)
        : await this.store.classes.byIds(scope.entity.workspaceId, classIds);
    const accounts = new Map(chart.map((a) => [a.id, a]));
    const classRoots = new Map(classes.map((c) => [c.id, c.rootClassId]));
    const taxCodes = new Map(
      (lines === 'every account' || lines.some((line) => line.taxCode)
        ? await this.store.tax.codes(entityId)
        : []
      ).map((code) => [code.code, code]),
    );
    return {
      scope,
      accounts,
      references: {
        account: (id) => accounts.get(id),
        classRoot: (id) => classRoots.get(id),
        taxCode: (code) => taxCodes.get(code),
      },
      sourceType: scope.migrationOpen ? 'migration' : 'manual',
    };
  }

  private prepare(
    context: EntryContext,
    body: CreateJournalEntryBody,
    at: string,
    createdAt: string,
  ): PreparedEntry {
    const { entity } = context.scope;
    const ledgerBasis = body.ledgerBasis ?? 'cash';
    if (ledgerBasis === 'accrual' && !entity.accrualLedgerOpen) {
      throw invalid(`${at}ledgerBasis: the accrual ledger of this entity is not open`);
    }
    if (isInClosedPeriod(body.date, entity.lockDate)) {
      throw conflict(`${at}date ${body.date} is on or before the lock date ${entity.lockDate}`);
    }
    const lines = this.withSeqs(context, validateLines(body.lines, context.references, at));
    return {
      record: {
        seq: 0,
        id: newId(),
        entityId: entity.id,
        ledgerBasis,
        dateOnly: body.date,
        memo: body.memo ?? null,
        sourceType: context.sourceType,
        createdAt,
      },
      lines,
    };
  }

  private postingSource(scope: EntityScope, record: JournalEntryRecord) {
    return {
      entitySeq: scope.entitySeq,
      ledgerBasis: record.ledgerBasis,
      day: record.dateOnly,
      sourceKind: SOURCE_KIND.journalEntry,
      sourceSeq: record.seq,
      sourceType: record.sourceType,
    };
  }

  private async storedLines(record: JournalEntryRecord): Promise<PostedLine[]> {
    return (
      (await this.store.postings.linesOf(SOURCE_KIND.journalEntry, [record.seq])).get(record.seq) ??
      []
    );
  }

  /** Validated lines refer to accounts of the context, so each has a seq. */
  private withSeqs(context: EntryContext, lines: PostingLine[]): PostingInput[] {
    return lines.map((line) => ({
      accountId: line.accountId,
      classIds: line.classIds,
      debitCents: line.debitCents,
      creditCents: line.creditCents,
      description: line.description,
      ...(line.taxCode ? { taxCode: line.taxCode } : {}),
      accountSeq: context.accounts.get(line.accountId)!.seq,
    }));
  }

  /** Reading the accrual ledger requires it to be open (400), like writing to it. */
  private readableBasis(scope: EntityScope, basis: LedgerBasis | undefined): LedgerBasis {
    const ledgerBasis = basis ?? 'cash';
    if (ledgerBasis === 'accrual' && !scope.entity.accrualLedgerOpen) {
      throw invalid('ledgerBasis: the accrual ledger of this entity is not open');
    }
    return ledgerBasis;
  }

  /** An entry of the entity on the given basis; on the other basis it reads as 404. */
  private async find(
    scope: EntityScope,
    id: string,
    basis: LedgerBasis,
  ): Promise<JournalEntryRecord> {
    const record = await this.store.journalEntries.find(scope.entity.id, id);
    if (!record || record.ledgerBasis !== basis) throw notFound('journal entry');
    return record;
  }

  private withAccounts(context: EntryContext, lines: PostingInput[]): PostedLine[] {
    return lines.map((line, lineNo) => {
      const account = context.accounts.get(line.accountId);
      return {
        accountId: line.accountId,
        accountSeq: line.accountSeq,
        classIds: line.classIds,
        debitCents: line.debitCents,
        creditCents: line.creditCents,
        description: line.description,
        ...(line.taxCode ? { taxCode: line.taxCode } : {}),
        lineNo,
        accountCode: account?.code ?? '0',
        accountName: account?.name ?? '',
      };
    });
  }

  private present(
    scope: EntityScope,
    record: JournalEntryRecord,
    lines: readonly PostedLine[],
  ): JournalEntry {
    const memo = record.memo ?? '';
    return {
      id: record.id,
      entityId: record.entityId,
      date: startOfDayIso(record.dateOnly, scope.workspace.timezone),
      dateOnly: record.dateOnly,
      ledgerBasis: record.ledgerBasis,
      memo: record.memo,
      lines: lines.map((line) => ({
        accountId: line.accountId,
        accountCode: Number(line.accountCode),
        accountName: line.accountName,
        classIds: line.classIds,
        debitAmount: line.debitCents > 0 ? centsToAmount(line.debitCents) : null,
        creditAmount: line.creditCents > 0 ? centsToAmount(line.creditCents) : null,
        description: line.description,
        memo,
        ...(line.taxCode ? { taxCode: line.taxCode } : {}),
      })),
      sourceType: record.sourceType,
    };
  }
}
