import { Type, type Static } from '@sinclair/typebox';
import { CalendarDaySchema, TimestampSchema, UuidSchema } from './common.js';

/*
 * An entity's VAT (an addition of the local platform's sandbox control plane: the hosted API has
 * no tax codes): its registration (country, scheme, how often it files, the VAT accounts), its
 * tax codes, and the return of a period computed from the coded postings of its books.
 */

export const TAX_COUNTRIES = ['GB', 'DE', 'NL'] as const;
export const TAX_KINDS = [
  'output',
  'input',
  'reverse-charge',
  'acquisition',
  'import',
  'exempt',
  'zero',
  'outside',
] as const;
export const TAX_SIDES = ['sales', 'purchases'] as const;
export const TAX_SCHEMES = ['standard', 'cash'] as const;
export const TAX_PERIODS = ['monthly', 'quarterly'] as const;

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((value) => Type.Literal(value)));

export const TaxCountrySchema = literals(TAX_COUNTRIES);
export const TaxCodeNameSchema = Type.String({ minLength: 1, maxLength: 20, pattern: '^\\S+$' });
const Boxes = Type.Array(Type.String({ minLength: 1, maxLength: 10 }), { maxItems: 10 });

export const TaxRateSchema = Type.Object({
  /** The first day the rate holds; null: since ever. */
  from: Type.Union([CalendarDaySchema, Type.Null()]),
  percent: Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01 }),
  netBoxes: Type.Optional(Boxes),
  outputVatBoxes: Type.Optional(Boxes),
});

export const TaxCodeSchema = Type.Object(
  {
    code: TaxCodeNameSchema,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    side: literals(TAX_SIDES),
    kind: literals(TAX_KINDS),
    /** Oldest first: a posting takes the rate of its day. */
    rates: Type.Array(TaxRateSchema, { minItems: 1, maxItems: 20 }),
    netBoxes: Boxes,
    outputVatBoxes: Boxes,
    inputVatBoxes: Boxes,
    /**
     * The account this code's VAT due is kept on, where not the entity's output VAT account
     * (null): Germany's charts keep each rate's VAT apart (SKR03 1771 Umsatzsteuer 7 %, 1776
     * 19 %), and the return counts every code's account as the entity's.
     */
    outputAccountId: Type.Union([UuidSchema, Type.Null()]),
    /** The account this code's VAT reclaimed is kept on, where not the entity's input VAT account. */
    inputAccountId: Type.Union([UuidSchema, Type.Null()]),
    archived: Type.Boolean(),
  },
  { title: 'TaxCode' },
);
export type TaxCode = Static<typeof TaxCodeSchema>;

export const TaxSettingSchema = Type.Object(
  {
    entityId: UuidSchema,
    country: TaxCountrySchema,
    scheme: literals(TAX_SCHEMES),
    period: literals(TAX_PERIODS),
    vatNumber: Type.Union([Type.String(), Type.Null()]),
    outputAccountId: UuidSchema,
    inputAccountId: UuidSchema,
    createdAt: TimestampSchema,
  },
  { title: 'TaxSetting' },
);
export type TaxSetting = Static<typeof TaxSettingSchema>;

export const SetUpTaxBodySchema = Type.Object({
  country: TaxCountrySchema,
  scheme: Type.Optional(literals(TAX_SCHEMES)),
  period: Type.Optional(literals(TAX_PERIODS)),
  vatNumber: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
  /** The account of VAT due (a liability), and of VAT reclaimable (an asset or a liability). */
  outputAccountId: UuidSchema,
  inputAccountId: UuidSchema,
});
export type SetUpTaxBody = Static<typeof SetUpTaxBodySchema>;

export const TaxSetupResponseSchema = Type.Object({
  taxSetting: TaxSettingSchema,
  taxCodes: Type.Array(TaxCodeSchema),
});
export type TaxSetup = Static<typeof TaxSetupResponseSchema>;

export const CreateTaxCodeBodySchema = Type.Object({
  code: TaxCodeNameSchema,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  side: literals(TAX_SIDES),
  kind: literals(TAX_KINDS),
  rates: Type.Array(TaxRateSchema, { minItems: 1, maxItems: 20 }),
  /** Default: the boxes of the country's preset code of this side and kind. */
  netBoxes: Type.Optional(Boxes),
  outputVatBoxes: Type.Optional(Boxes),
  inputVatBoxes: Type.Optional(Boxes),
  /** Default null: the entity's VAT accounts. */
  outputAccountId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
  inputAccountId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
});
export type CreateTaxCodeBody = Static<typeof CreateTaxCodeBodySchema>;

export const UpdateTaxCodeBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  rates: Type.Optional(Type.Array(TaxRateSchema, { minItems: 1, maxItems: 20 })),
  archived: Type.Optional(Type.Boolean()),
  /** null: back to the entity's VAT account. */
  outputAccountId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
  inputAccountId: Type.Optional(Type.Union([UuidSchema, Type.Null()])),
});
export type UpdateTaxCodeBody = Static<typeof UpdateTaxCodeBodySchema>;

export const TaxCodeResponseSchema = Type.Object({ taxCode: TaxCodeSchema });
export const TaxCodeListSchema = Type.Object({ data: Type.Array(TaxCodeSchema) });

export const TaxReturnQuerySchema = Type.Object({
  startDate: CalendarDaySchema,
  endDate: CalendarDaySchema,
  /** accrual (the default: VAT when invoiced) or cash (when the money moves: the cash ledger). */
  basis: Type.Optional(Type.Union([Type.Literal('accrual'), Type.Literal('cash')])),
  /** true: every posting behind each box. */
  detail: Type.Optional(Type.Boolean()),
});
export type TaxReturnQuery = Static<typeof TaxReturnQuerySchema>;

const TaxLineSchema = Type.Object({
  journalEntryId: UuidSchema,
  date: CalendarDaySchema,
  accountCode: Type.String(),
  accountName: Type.String(),
  taxCode: Type.Union([Type.String(), Type.Null()]),
  description: Type.String(),
});

export const TaxReturnSchema = Type.Object(
  {
    entityId: UuidSchema,
    country: TaxCountrySchema,
    startDate: CalendarDaySchema,
    endDate: CalendarDaySchema,
    basis: Type.Union([Type.Literal('accrual'), Type.Literal('cash')]),
    boxes: Type.Array(
      Type.Object({
        box: Type.String(),
        label: Type.String(),
        /** The postings' sum, to the cent. */
        amount: Type.Number(),
        /** What the form takes (whole units where the country wants them). */
        formAmount: Type.Number(),
        postings: Type.Optional(
          Type.Array(
            Type.Composite([
              TaxLineSchema,
              Type.Object({ net: Type.Number(), vat: Type.Number() }),
            ]),
          ),
        ),
      }),
    ),
    /** Payable (positive) or repayable (negative), as the form computes it. */
    net: Type.Number(),
    declaredVat: Type.Number(),
    vatAccountsMovement: Type.Number(),
    ties: Type.Boolean(),
    problems: Type.Array(
      Type.Composite([TaxLineSchema, Type.Object({ kind: Type.String(), message: Type.String() })]),
    ),
    uncoded: Type.Array(TaxLineSchema),
  },
  { title: 'TaxReturn' },
);
export type TaxReturn = Static<typeof TaxReturnSchema>;

export const FileTaxReturnBodySchema = Type.Object({
  startDate: CalendarDaySchema,
  endDate: CalendarDaySchema,
  basis: Type.Optional(Type.Union([Type.Literal('accrual'), Type.Literal('cash')])),
});
export type FileTaxReturnBody = Static<typeof FileTaxReturnBodySchema>;

/**
 * A return marked filed: its figures as filed and a fingerprint of the postings behind them.
 * Its period is locked against changes to coded postings; `intact` says whether the postings
 * behind it are still those it was filed on.
 */
export const FiledTaxReturnSchema = Type.Object(
  {
    id: UuidSchema,
    entityId: UuidSchema,
    country: TaxCountrySchema,
    startDate: CalendarDaySchema,
    endDate: CalendarDaySchema,
    basis: Type.Union([Type.Literal('accrual'), Type.Literal('cash')]),
    net: Type.Number(),
    boxes: Type.Array(Type.Object({ box: Type.String(), formAmount: Type.Number() })),
    postingsHash: Type.String(),
    filedAt: TimestampSchema,
    intact: Type.Boolean(),
  },
  { title: 'FiledTaxReturn' },
);
export type FiledTaxReturn = Static<typeof FiledTaxReturnSchema>;
export const FiledTaxReturnResponseSchema = Type.Object({ taxReturn: FiledTaxReturnSchema });
export const FiledTaxReturnListSchema = Type.Object({ data: Type.Array(FiledTaxReturnSchema) });
