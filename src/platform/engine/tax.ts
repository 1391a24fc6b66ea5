import type {
  CreateTaxCodeBody,
  FiledTaxReturn,
  FileTaxReturnBody,
  SetUpTaxBody,
  TaxCode,
  TaxReturn,
  TaxReturnQuery,
  TaxSetup,
  UpdateTaxCodeBody,
} from '../../api/index.js';
import { CLASS_OF_TYPE, type AccountType } from '../../api/index.js';
import { createHash } from 'node:crypto';
import { answeredAmountToCents, asCents, centsToAmount } from '../../core/money.js';
import { newId } from './ids.js';
import type { FiledReturnRecord, TaxPostingRow } from '../store/tax.js';
import { conflict, invalid, notFound } from '../domain/errors.js';
import { PRESET_TAX_CODES, presetBoxesOf } from '../domain/tax/taxCodes.js';
import {
  TaxReturnTally,
  vatAccountsOf,
  type BoxPosting,
  type TaxPosting,
  type TaxProblem,
} from '../domain/tax/taxReturn.js';
import type { AccountRecord } from '../store/accounts.js';
import { BASIS_CODE } from '../store/postings.js';
import type { Store } from '../store/index.js';
import type { EntityService } from './entities.js';

const amount = (cents: number) => centsToAmount(asCents(cents));
/**
 * A posting behind a box as the answer carries it (its entry, date, account, code, description,
 * net and VAT), written as JSON text without building the object: a year of a big client's
 * postings is many, and building and spreading an object for each was a third of the time of
 * answering them.
 */
export function postingJson(posting: BoxPosting): string {
  return `{"journalEntryId":${JSON.stringify(posting.entryId)},"date":"${posting.day}","accountCode":${JSON.stringify(posting.accountCode)},"accountName":${JSON.stringify(posting.accountName)},"taxCode":${JSON.stringify(posting.taxCode)},"description":${JSON.stringify(posting.description)},"net":${JSON.stringify(amount(posting.netCents))},"vat":${JSON.stringify(amount(posting.vatCents))}}`;
}

const line = (posting: BoxPosting | TaxProblem) => ({
  journalEntryId: posting.entryId,
  date: posting.day,
  accountCode: posting.accountCode,
  accountName: posting.accountName,
  taxCode: posting.taxCode,
  description: posting.description,
});

/**
 * An entity's VAT (sandbox control plane, an addition): its registration and codes, which the
 * lines of its journal entries may name, and the return of a period computed from them.
 */
export class TaxService {
  constructor(
    private readonly store: Store,
    private readonly entities: EntityService,
  ) {}

  /** Registers the entity for VAT in a country: its VAT accounts and the country's codes. */
  async setUp(organizationId: string, entityId: string, body: SetUpTaxBody): Promise<TaxSetup> {
    await this.entities.get(organizationId, entityId);
    for (const [field, id] of [
      ['outputAccountId', body.outputAccountId],
      ['inputAccountId', body.inputAccountId],
    ] as const) {
      const account = await this.store.accounts.find(entityId, id);
      if (!account) throw invalid(`${field} ${id} is not an account of the entity`);
      if (account.class !== 'Assets' && account.class !== 'Liabilities')
        throw invalid(
          `${field}: account ${account.code} "${account.name}" is ${account.type}: VAT is kept on a balance sheet account`,
        );
    }
    if (body.outputAccountId === body.inputAccountId)
      throw invalid(
        'outputAccountId and inputAccountId name one account: VAT due and VAT reclaimable are kept apart',
      );
    return this.store.transaction(async () => {
      const before = await this.store.tax.setting(entityId);
      if (before && before.country !== body.country)
        throw conflict(
          `the entity is registered for VAT in ${before.country}; its codes and postings are that country's`,
        );
      const taxSetting = {
        entityId,
        country: body.country,
        scheme: body.scheme ?? before?.scheme ?? 'standard',
        period: body.period ?? before?.period ?? 'quarterly',
        vatNumber: body.vatNumber === undefined ? (before?.vatNumber ?? null) : body.vatNumber,
        outputAccountId: body.outputAccountId,
        inputAccountId: body.inputAccountId,
        createdAt: before?.createdAt ?? new Date().toISOString(),
      };
      const kept = await this.store.tax.codes(entityId);
      if (kept.some((code) => code.inputAccountId === body.outputAccountId))
        throw invalid('outputAccountId: a tax code keeps its VAT reclaimed there');
      if (kept.some((code) => code.outputAccountId === body.inputAccountId))
        throw invalid('inputAccountId: a tax code keeps its VAT due there');
      await this.store.tax.saveSetting(taxSetting);
      const known = new Set(kept.map((code) => code.code));
      for (const preset of PRESET_TAX_CODES[body.country])
        if (!known.has(preset.code))
          await this.store.tax.saveCode(entityId, {
            ...preset,
            outputAccountId: null,
            inputAccountId: null,
            archived: false,
          });
      return { taxSetting, taxCodes: await this.store.tax.codes(entityId) };
    });
  }

  /**
   * A code's own VAT accounts: the entity's balance sheet accounts, VAT due never on an account
   * that keeps VAT reclaimed (the entity's or another code's) nor the other way round.
   */
  private async checkCodeAccounts(
    entityId: string,
    taxSetting: TaxSetup['taxSetting'],
    taxCodes: readonly TaxCode[],
    taxCode: TaxCode,
  ): Promise<void> {
    const others = taxCodes.filter((c) => c.code !== taxCode.code);
    const outputs = new Set([taxSetting.outputAccountId, ...others.map((c) => c.outputAccountId)]);
    const inputs = new Set([taxSetting.inputAccountId, ...others.map((c) => c.inputAccountId)]);
    for (const [field, id, otherSide] of [
      ['outputAccountId', taxCode.outputAccountId, inputs],
      ['inputAccountId', taxCode.inputAccountId, outputs],
    ] as const) {
      if (id === null) continue;
      const account = await this.store.accounts.find(entityId, id);
      if (!account) throw invalid(`${field} ${id} is not an account of the entity`);
      if (account.class !== 'Assets' && account.class !== 'Liabilities')
        throw invalid(
          `${field}: account ${account.code} "${account.name}" is ${account.type}: VAT is kept on a balance sheet account`,
        );
      if (otherSide.has(id) || taxCode.outputAccountId === taxCode.inputAccountId)
        throw invalid(
          `${field}: account ${account.code} "${account.name}" keeps VAT ${field === 'outputAccountId' ? 'reclaimed' : 'due'}: VAT due and VAT reclaimable are kept apart`,
        );
    }
  }

  async get(organizationId: string, entityId: string): Promise<TaxSetup> {
    await this.entities.get(organizationId, entityId);
    return this.setupOf(entityId);
  }

  private async setupOf(entityId: string): Promise<TaxSetup> {
    const taxSetting = await this.store.tax.setting(entityId);
    if (!taxSetting) throw notFound('tax setting');
    return { taxSetting, taxCodes: await this.store.tax.codes(entityId) };
  }

  async createCode(
    organizationId: string,
    entityId: string,
    body: CreateTaxCodeBody,
  ): Promise<TaxCode> {
    const { taxSetting, taxCodes } = await this.get(organizationId, entityId);
    if (taxCodes.some((code) => code.code === body.code))
      throw conflict(`tax code ${body.code} exists already`);
    const boxes = presetBoxesOf(taxSetting.country, body.side, body.kind);
    const taxCode: TaxCode = {
      code: body.code,
      name: body.name ?? body.code,
      side: body.side,
      kind: body.kind,
      rates: sortedRates(body.rates),
      netBoxes: body.netBoxes ?? boxes.netBoxes,
      outputVatBoxes: body.outputVatBoxes ?? boxes.outputVatBoxes,
      inputVatBoxes: body.inputVatBoxes ?? boxes.inputVatBoxes,
      outputAccountId: body.outputAccountId ?? null,
      inputAccountId: body.inputAccountId ?? null,
      archived: false,
    };
    await this.checkCodeAccounts(entityId, taxSetting, taxCodes, taxCode);
    await this.store.tax.saveCode(entityId, taxCode);
    return taxCode;
  }

  async updateCode(
    organizationId: string,
    entityId: string,
    code: string,
    body: UpdateTaxCodeBody,
  ): Promise<TaxCode> {
    const { taxSetting, taxCodes } = await this.get(organizationId, entityId);
    const taxCode = taxCodes.find((c) => c.code === code);
    if (!taxCode) throw notFound('tax code');
    const updated: TaxCode = {
      ...taxCode,
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.rates === undefined ? {} : { rates: sortedRates(body.rates) }),
      ...(body.archived === undefined ? {} : { archived: body.archived }),
      ...(body.outputAccountId === undefined ? {} : { outputAccountId: body.outputAccountId }),
      ...(body.inputAccountId === undefined ? {} : { inputAccountId: body.inputAccountId }),
    };
    if (
      updated.outputAccountId !== taxCode.outputAccountId ||
      updated.inputAccountId !== taxCode.inputAccountId
    )
      await this.checkCodeAccounts(entityId, taxSetting, taxCodes, updated);
    await this.store.tax.saveCode(entityId, updated);
    return updated;
  }

  /**
   * The return with every posting behind each box, for an answer written part by part: its
   * figures (the boxes without their postings), then each box's postings, presented as they are
   * written (a year of a big client's postings is never one document in memory).
   */
  async taxReturnDetail(
    organizationId: string,
    entityId: string,
    query: TaxReturnQuery,
  ): Promise<{
    taxReturn: TaxReturn;
    /** The postings behind a box, a thousand at a time (written with `postingJson`). */
    postings: (box: string) => Iterable<readonly BoxPosting[]>;
  }> {
    const { taxReturn, boxes } = await this.compute(organizationId, entityId, query, {
      keepPostings: true,
    });
    return {
      taxReturn,
      *postings(box: string) {
        const behind = boxes.get(box) ?? [];
        for (let at = 0; at < behind.length; at += 1000) yield behind.slice(at, at + 1000);
      },
    };
  }

  /** The return's figures (its postings are `taxReturnDetail`'s, written as they are read). */
  async taxReturn(
    organizationId: string,
    entityId: string,
    query: TaxReturnQuery,
  ): Promise<TaxReturn> {
    return (await this.compute(organizationId, entityId, query)).taxReturn;
  }

  /**
   * Marks a period's return filed: it must tie and overlap no return filed before. Its figures
   * and a fingerprint of the postings behind them are kept, and its period is locked against
   * changes to coded postings (see `filedReturnCovering`).
   */
  async fileReturn(
    organizationId: string,
    entityId: string,
    body: FileTaxReturnBody,
  ): Promise<FiledTaxReturn> {
    return this.store.transaction(async () => {
      await this.entities.lockExclusively(entityId);
      const { taxReturn, postingsHash } = await this.compute(organizationId, entityId, body, {
        fingerprint: true,
      });
      if (!taxReturn.ties)
        throw conflict(
          `the return from ${body.startDate} to ${body.endDate} does not tie to the VAT accounts (${taxReturn.vatAccountsMovement === taxReturn.declaredVat ? 'postings on them are in no box' : `they moved ${taxReturn.vatAccountsMovement.toFixed(2)}, the coded postings declare ${taxReturn.declaredVat.toFixed(2)}`}): it cannot be filed`,
        );
      const overlapping = (await this.store.tax.filedReturns(entityId)).find(
        (filed) => filed.startDate <= body.endDate && body.startDate <= filed.endDate,
      );
      if (overlapping)
        throw conflict(
          `the return from ${overlapping.startDate} to ${overlapping.endDate} was filed on ${overlapping.filedAt.slice(0, 10)}: its period overlaps this one`,
        );
      const record: FiledReturnRecord = {
        id: newId(),
        entityId,
        country: taxReturn.country,
        startDate: body.startDate,
        endDate: body.endDate,
        basis: taxReturn.basis,
        netCents: answeredAmountToCents(taxReturn.net),
        boxes: taxReturn.boxes.map((box) => ({
          box: box.box,
          formCents: answeredAmountToCents(box.formAmount),
        })),
        postingsHash,
        filedAt: new Date().toISOString(),
      };
      await this.store.tax.fileReturn(record);
      return presentFiled(record, true);
    });
  }

  /** The returns filed, earliest first; `intact` whether the postings behind each are unchanged. */
  async filedReturns(organizationId: string, entityId: string): Promise<FiledTaxReturn[]> {
    await this.get(organizationId, entityId);
    const filed = await this.store.tax.filedReturns(entityId);
    const answers: FiledTaxReturn[] = [];
    for (const record of filed) {
      const { postingsHash } = await this.compute(
        organizationId,
        entityId,
        { startDate: record.startDate, endDate: record.endDate, basis: record.basis },
        { fingerprint: true },
      );
      answers.push(presentFiled(record, postingsHash === record.postingsHash));
    }
    return answers;
  }

  private async compute(
    organizationId: string,
    entityId: string,
    query: TaxReturnQuery,
    options: {
      /** Keep the postings behind each box (`taxReturnDetail` writes them; the figures do not). */
      keepPostings?: boolean;
      /** Fingerprint the postings read (`postingsHash`; else empty): filing keeps it. */
      fingerprint?: boolean;
    } = {},
  ): Promise<{
    taxReturn: TaxReturn;
    postingsHash: string;
    boxes: ReadonlyMap<string, readonly BoxPosting[]>;
  }> {
    const entity = await this.entities.get(organizationId, entityId);
    const { taxSetting, taxCodes } = await this.setupOf(entityId);
    if (query.startDate > query.endDate) throw invalid('startDate must not be after endDate');
    // Cash accounting counts VAT as money moves: the cash ledger. Accrual, as invoiced: the
    // accrual ledger where the entity keeps one, else its books are one (cash) ledger.
    const basis = query.basis ?? (taxSetting.scheme === 'cash' ? 'cash' : 'accrual');
    const ledger = basis === 'accrual' && entity.accrualLedgerOpen ? 'accrual' : 'cash';
    const chart = new Map(
      (await this.store.accounts.all(entityId)).map((account) => [account.id, account]),
    );
    const readPosting = postingReader(chart);
    const setting = {
      country: taxSetting.country,
      outputAccountId: taxSetting.outputAccountId,
      inputAccountId: taxSetting.inputAccountId,
      codes: taxCodes,
    };
    const tally = new TaxReturnTally(setting, query.startDate, query.endDate, {
      detail: options.keepPostings === true,
    });
    const fingerprint = options.fingerprint ? createHash('sha256') : undefined;
    // Each row counted as it is read: a year of a big client's postings is never one array.
    await this.store.tax.eachPosting(
      entityId,
      BASIS_CODE[ledger],
      query.startDate,
      query.endDate,
      [...vatAccountsOf(setting, 'output'), ...vatAccountsOf(setting, 'input')],
      (row) => {
        fingerprint?.update(fingerprintLine(row));
        tally.add(readPosting(row));
      },
    );
    const result = tally.result();
    const taxReturn: TaxReturn = {
      entityId,
      country: result.country,
      startDate: result.startDate,
      endDate: result.endDate,
      basis,
      boxes: result.boxes.map((box) => ({
        box: box.box,
        label: box.label,
        amount: amount(box.amountCents),
        formAmount: amount(box.formCents),
      })),
      net: amount(result.netCents),
      declaredVat: amount(result.declaredVatCents),
      vatAccountsMovement: amount(result.vatAccountsCents),
      ties: result.ties,
      problems: result.problems.map((problem) => ({
        ...line(problem),
        kind: problem.kind,
        message: problem.message,
      })),
      uncoded: result.uncoded.map(line),
    };
    return {
      taxReturn,
      postingsHash: fingerprint?.digest('hex') ?? '',
      boxes: new Map(result.boxes.map((box) => [box.box, box.postings])),
    };
  }
}

/**
 * Rows as the return reads them. The lines of an entry come together and share its id, day and
 * often its description: each takes the text of the line before where it is the same, so that a
 * year of postings held for `--detail` holds each once (a fifth less memory, measured).
 */
function postingReader(
  chart: ReadonlyMap<string, AccountRecord>,
): (row: TaxPostingRow) => TaxPosting {
  let last: TaxPosting | undefined;
  return (row) => {
    const [entryIdRead, day, accountId, debitCents, creditCents, taxCode, description] = row;
    const account = chart.get(String(accountId))!;
    const entryId = String(entryIdRead);
    const posting: TaxPosting = {
      entryId: entryId === last?.entryId ? last.entryId : entryId,
      day: day === last?.day ? last.day : day,
      accountId: account.id,
      accountCode: account.code,
      accountName: account.name,
      accountClass: CLASS_OF_TYPE[account.type as AccountType],
      debitCents: Number(debitCents),
      creditCents: Number(creditCents),
      taxCode,
      description: description === last?.description ? last.description : description,
    };
    last = posting;
    return posting;
  };
}

/**
 * A posting a return reads, as its fingerprint takes it: the hash of these lines in the order
 * read is what filing keeps, and what shows the postings unchanged since.
 */
const fingerprintLine = ([
  entryId,
  day,
  accountId,
  debitCents,
  creditCents,
  taxCode,
]: TaxPostingRow) =>
  `${String(entryId)}|${day}|${String(accountId)}|${Number(debitCents)}|${Number(creditCents)}|${taxCode ?? ''}\n`;

const presentFiled = (record: FiledReturnRecord, intact: boolean): FiledTaxReturn => ({
  id: record.id,
  entityId: record.entityId,
  country: record.country,
  startDate: record.startDate,
  endDate: record.endDate,
  basis: record.basis,
  net: centsToAmount(asCents(record.netCents)),
  boxes: record.boxes.map((box) => ({
    box: box.box,
    formAmount: centsToAmount(asCents(box.formCents)),
  })),
  postingsHash: record.postingsHash,
  filedAt: record.filedAt,
  intact,
});

/**
 * The filed return whose period holds one of these days, if any: a coded posting there (or one
 * on the VAT accounts) may not be written, changed or removed.
 */
export async function filedReturnCovering(
  store: Store,
  entityId: string,
  days: readonly string[],
): Promise<FiledReturnRecord | undefined> {
  if (days.length === 0) return undefined;
  const filed = await store.tax.filedReturns(entityId);
  return filed.find((f) => days.some((day) => f.startDate <= day && day <= f.endDate));
}

/** Why a coded posting in a filed period is refused. */
export const filedMessage = (filed: FiledReturnRecord, day: string) =>
  `${day} is in the VAT return from ${filed.startDate} to ${filed.endDate}, filed on ${filed.filedAt.slice(0, 10)}: its coded postings cannot change (a correction goes into the next open return)`;

function sortedRates(rates: CreateTaxCodeBody['rates']): CreateTaxCodeBody['rates'] {
  const sorted = [...rates].sort((a, b) =>
    a.from === b.from ? 0 : a.from === null ? -1 : b.from === null ? 1 : a.from < b.from ? -1 : 1,
  );
  if (sorted.slice(1).some((rate) => rate.from === null))
    throw invalid('rates: only the first rate may hold since ever (from null)');
  return sorted;
}
