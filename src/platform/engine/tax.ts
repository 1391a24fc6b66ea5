import type {
  CreateTaxCodeBody,
  SetUpTaxBody,
  TaxCode,
  TaxReturn,
  TaxReturnQuery,
  TaxSetup,
  UpdateTaxCodeBody,
} from '../../api/index.js';
import { CLASS_OF_TYPE, type AccountType } from '../../api/index.js';
import { asCents, centsToAmount } from '../../core/money.js';
import { conflict, invalid, notFound } from '../domain/errors.js';
import { PRESET_TAX_CODES, presetBoxesOf } from '../domain/tax/taxCodes.js';
import { computeTaxReturn, type BoxPosting, type TaxProblem } from '../domain/tax/taxReturn.js';
import { BASIS_CODE } from '../store/postings.js';
import type { Store } from '../store/index.js';
import type { EntityService } from './entities.js';

const amount = (cents: number) => centsToAmount(asCents(cents));
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
      await this.store.tax.saveSetting(taxSetting);
      const known = new Set((await this.store.tax.codes(entityId)).map((code) => code.code));
      for (const preset of PRESET_TAX_CODES[body.country])
        if (!known.has(preset.code))
          await this.store.tax.saveCode(entityId, { ...preset, archived: false });
      return { taxSetting, taxCodes: await this.store.tax.codes(entityId) };
    });
  }

  async get(organizationId: string, entityId: string): Promise<TaxSetup> {
    await this.entities.get(organizationId, entityId);
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
      archived: false,
    };
    await this.store.tax.saveCode(entityId, taxCode);
    return taxCode;
  }

  async updateCode(
    organizationId: string,
    entityId: string,
    code: string,
    body: UpdateTaxCodeBody,
  ): Promise<TaxCode> {
    const { taxCodes } = await this.get(organizationId, entityId);
    const taxCode = taxCodes.find((c) => c.code === code);
    if (!taxCode) throw notFound('tax code');
    const updated: TaxCode = {
      ...taxCode,
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.rates === undefined ? {} : { rates: sortedRates(body.rates) }),
      ...(body.archived === undefined ? {} : { archived: body.archived }),
    };
    await this.store.tax.saveCode(entityId, updated);
    return updated;
  }

  async taxReturn(
    organizationId: string,
    entityId: string,
    query: TaxReturnQuery,
  ): Promise<TaxReturn> {
    const { taxSetting, taxCodes } = await this.get(organizationId, entityId);
    if (query.startDate > query.endDate) throw invalid('startDate must not be after endDate');
    const entity = await this.entities.get(organizationId, entityId);
    // Cash accounting counts VAT as money moves: the cash ledger. Accrual, as invoiced: the
    // accrual ledger where the entity keeps one, else its books are one (cash) ledger.
    const basis = query.basis ?? (taxSetting.scheme === 'cash' ? 'cash' : 'accrual');
    const ledger = basis === 'accrual' && entity.accrualLedgerOpen ? 'accrual' : 'cash';
    const rows = await this.store.tax.postings(
      entityId,
      BASIS_CODE[ledger],
      query.startDate,
      query.endDate,
      [taxSetting.outputAccountId, taxSetting.inputAccountId],
    );
    const result = computeTaxReturn(
      {
        country: taxSetting.country,
        outputAccountId: taxSetting.outputAccountId,
        inputAccountId: taxSetting.inputAccountId,
        codes: taxCodes,
      },
      query.startDate,
      query.endDate,
      rows.map((row) => ({
        entryId: String(row.entry_id),
        day: row.day,
        accountId: String(row.account_id),
        accountCode: row.code,
        accountName: row.name,
        accountClass: CLASS_OF_TYPE[row.type as AccountType],
        debitCents: Number(row.debit_cents),
        creditCents: Number(row.credit_cents),
        taxCode: row.tax_code,
        description: row.description,
      })),
    );
    return {
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
        ...(query.detail
          ? {
              postings: box.postings.map((posting) => ({
                ...line(posting),
                net: amount(posting.netCents),
                vat: amount(posting.vatCents),
              })),
            }
          : {}),
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
  }
}

function sortedRates(rates: CreateTaxCodeBody['rates']): CreateTaxCodeBody['rates'] {
  const sorted = [...rates].sort((a, b) =>
    a.from === b.from ? 0 : a.from === null ? -1 : b.from === null ? 1 : a.from < b.from ? -1 : 1,
  );
  if (sorted.slice(1).some((rate) => rate.from === null))
    throw invalid('rates: only the first rate may hold since ever (from null)');
  return sorted;
}
