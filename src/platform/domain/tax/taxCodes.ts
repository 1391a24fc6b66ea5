import type { TAX_COUNTRIES, TAX_KINDS, TAX_SIDES } from '../../../api/index.js';
import { asCents, taxIncluded, taxOnNet } from '../../../core/money.js';
import type { CalendarDay } from '../../../core/calendar.js';

/*
 * Tax codes: what a posting's VAT is and which boxes of the country's return it fills. A code
 * says its side (a sale or a purchase), its kind, its rates with the days each held, and the
 * boxes its net and its VAT go to. The VAT of a coded posting on the entity's output VAT account
 * is VAT due (charged on a sale, or self-assessed under a reverse charge, an acquisition or
 * postponed import VAT); on the input VAT account, VAT reclaimed. So a reverse charge is two VAT
 * postings of one code, one on each account, and the return still ties to the accounts.
 */

export type TaxCountry = (typeof TAX_COUNTRIES)[number];
export type TaxKind = (typeof TAX_KINDS)[number];
export type TaxSide = (typeof TAX_SIDES)[number];

/** A rate from a day on (until the next rate's day), and where a rate has boxes of its own. */
export interface TaxRate {
  /** The first day the rate holds; null: since ever. */
  from: CalendarDay | null;
  percent: number;
  /** Boxes of the net while this rate holds, where they differ from the code's. */
  netBoxes?: string[];
  /** Boxes of the VAT due while this rate holds, where they differ from the code's. */
  outputVatBoxes?: string[];
}

/** A tax code as the country's preset or the bookkeeper defines it. */
export interface TaxCodeDefinition {
  code: string;
  name: string;
  side: TaxSide;
  kind: TaxKind;
  /** Oldest first. */
  rates: TaxRate[];
  /** Boxes the net (the coded posting on any account but the VAT accounts) adds to. */
  netBoxes: string[];
  /** Boxes the VAT posted on the output VAT account adds to (VAT due). */
  outputVatBoxes: string[];
  /** Boxes the VAT posted on the input VAT account adds to (VAT reclaimed). */
  inputVatBoxes: string[];
  /** The account of this code's VAT due where not the entity's output VAT account. */
  outputAccountId?: string | null;
  /** The account of this code's VAT reclaimed where not the entity's input VAT account. */
  inputAccountId?: string | null;
}

/** The rate a posting of this day takes. */
export function rateOn(code: Pick<TaxCodeDefinition, 'rates'>, day: CalendarDay): TaxRate {
  let held = code.rates[0]!;
  for (const rate of code.rates) if (rate.from === null || rate.from <= day) held = rate;
  return held;
}

/** The VAT of a net at a rate, rounded half away from zero to the cent. */
export const vatOfNet = (netCents: number, percent: number): number =>
  taxOnNet(asCents(netCents), percent);

/**
 * A VAT-inclusive amount split into net and VAT: the VAT is gross × rate / (100 + rate),
 * rounded half away from zero to the cent (HMRC VAT Notice 700 §17.5 lets the VAT of a line be
 * rounded to the nearest penny; Germany and the Netherlands round commercially, the same).
 */
export function splitGross(grossCents: number, percent: number): { net: number; vat: number } {
  const vat = taxIncluded(asCents(grossCents), percent);
  return { net: grossCents - vat, vat };
}

const since = (percent: number): TaxRate[] => [{ from: null, percent }];

/** The UK standard rate's history: 17.5 %, 15 % for 2009, 17.5 % again, 20 % from 4 January 2011. */
const GB_STANDARD: TaxRate[] = [
  { from: null, percent: 17.5 },
  { from: '2008-12-01', percent: 15 },
  { from: '2010-01-01', percent: 17.5 },
  { from: '2011-01-04', percent: 20 },
];

/*
 * The United Kingdom's VAT Return, boxes 1–9 (HMRC, VAT Notice 700/12 "How to fill in and submit
 * your VAT Return", sections 3–4; VAT Notice 735 for the domestic reverse charge; Notice 702/9
 * for postponed import VAT; Notice 741A for services received from abroad):
 * 1 VAT due on sales and other outputs (with the VAT a customer accounts for under a reverse
 * charge and postponed import VAT); 2 VAT due on acquisitions of goods into Northern Ireland
 * from the EU; 3 = 1 + 2; 4 VAT reclaimed on purchases and other inputs; 5 the difference;
 * 6 sales and all other outputs excluding VAT (zero-rated and exempt included, services
 * received from abroad too, the domestic reverse charge's purchases not); 7 purchases and all
 * other inputs excluding VAT (exempt and zero-rated included; wages, rates and other supplies
 * outside the scope not); 8 goods dispatched from Northern Ireland to the EU (also in 6);
 * 9 goods acquired into Northern Ireland from the EU (also in 7).
 */
const GB_CODES: TaxCodeDefinition[] = [
  code('S', 'Standard rated sales', 'sales', 'output', GB_STANDARD, ['6'], ['1'], []),
  code('R', 'Reduced rate sales (5 %)', 'sales', 'output', since(5), ['6'], ['1'], []),
  code('Z', 'Zero rated sales', 'sales', 'zero', since(0), ['6'], [], []),
  code('E', 'Exempt sales', 'sales', 'exempt', since(0), ['6'], [], []),
  code('O', 'Outside the scope of VAT (sales)', 'sales', 'outside', since(0), [], [], []),
  code(
    'RCS',
    'Domestic reverse charge sales (the customer accounts for the VAT)',
    'sales',
    'reverse-charge',
    since(0),
    ['6'],
    [],
    [],
  ),
  code('NID', 'Goods dispatched from Northern Ireland to the EU', 'sales', 'zero', since(0), [
    '6',
    '8',
  ]),
  code('SP', 'Standard rated purchases', 'purchases', 'input', GB_STANDARD, ['7'], [], ['4']),
  code('RP', 'Reduced rate purchases (5 %)', 'purchases', 'input', since(5), ['7'], [], ['4']),
  code('ZP', 'Zero rated purchases', 'purchases', 'zero', since(0), ['7']),
  code('EP', 'Exempt purchases', 'purchases', 'exempt', since(0), ['7']),
  code('OP', 'Outside the scope of VAT (purchases, wages)', 'purchases', 'outside', since(0)),
  code(
    'RC',
    'Domestic reverse charge purchases (construction, VAT Notice 735)',
    'purchases',
    'reverse-charge',
    GB_STANDARD,
    ['7'],
    ['1'],
    ['4'],
  ),
  code(
    'RCA',
    'Services received from abroad (reverse charge)',
    'purchases',
    'reverse-charge',
    GB_STANDARD,
    ['6', '7'],
    ['1'],
    ['4'],
  ),
  code('PIV', 'Postponed import VAT', 'purchases', 'import', GB_STANDARD, ['7'], ['1'], ['4']),
  code(
    'NIA',
    'Goods acquired into Northern Ireland from the EU',
    'purchases',
    'acquisition',
    GB_STANDARD,
    ['7', '9'],
    ['2'],
    ['4'],
  ),
];

/** Germany's 19 % and 7 %, and the 16 % and 5 % of 1 July to 31 December 2020 (Zweites Corona-Steuerhilfegesetz). */
const DE_STANDARD: TaxRate[] = [
  { from: null, percent: 19 },
  { from: '2020-07-01', percent: 16 },
  { from: '2021-01-01', percent: 19 },
];
const DE_REDUCED: TaxRate[] = [
  { from: null, percent: 7 },
  { from: '2020-07-01', percent: 5 },
  { from: '2021-01-01', percent: 7 },
];
/** A sale at 16 % or 5 % was one "zu anderen Steuersätzen" in the return's form: Kz 35/36. */
const DE_SALES_STANDARD: TaxRate[] = DE_STANDARD.map((rate) =>
  rate.percent === 16 ? { ...rate, netBoxes: ['35'], outputVatBoxes: ['36'] } : rate,
);
const DE_SALES_REDUCED: TaxRate[] = DE_REDUCED.map((rate) =>
  rate.percent === 5 ? { ...rate, netBoxes: ['35'], outputVatBoxes: ['36'] } : rate,
);
const DE_ACQUISITION_STANDARD: TaxRate[] = [
  { from: null, percent: 19 },
  { from: '2020-07-01', percent: 16, netBoxes: ['95'], outputVatBoxes: ['98'] },
  { from: '2021-01-01', percent: 19 },
];
const DE_ACQUISITION_REDUCED: TaxRate[] = [
  { from: null, percent: 7 },
  { from: '2020-07-01', percent: 5, netBoxes: ['95'], outputVatBoxes: ['98'] },
  { from: '2021-01-01', percent: 7 },
];

/*
 * Germany's Umsatzsteuer-Voranmeldung (the BMF's Vordruckmuster USt 1 A and its Anleitung):
 * Kz 81 Umsätze zu 19 % and Kz 86 zu 7 % (the base; the tax beside it), Kz 35/36 Umsätze zu
 * anderen Steuersätzen (base/tax: the 16 % and 5 % of the second half of 2020), Kz 41
 * innergemeinschaftliche Lieferungen an Abnehmer mit USt-IdNr., Kz 43 weitere steuerfreie
 * Umsätze mit Vorsteuerabzug (Ausfuhren), Kz 48 steuerfreie Umsätze ohne Vorsteuerabzug,
 * Kz 21 nicht steuerbare sonstige Leistungen (EU, the customer owes the tax), Kz 45 übrige
 * nicht steuerbare Umsätze; Kz 89/93 innergemeinschaftliche Erwerbe zu 19 %/7 % (Kz 95/98 other
 * rates); Kz 46/47 sonstige Leistungen eines im übrigen Gemeinschaftsgebiet ansässigen
 * Unternehmers (§ 13b Abs. 1), Kz 84/85 andere Leistungen (§ 13b Abs. 2, Bauleistungen);
 * Kz 66 Vorsteuer aus Rechnungen, Kz 61 aus innergemeinschaftlichem Erwerb, Kz 67 nach § 13b,
 * Kz 62 entrichtete Einfuhrumsatzsteuer; Kz 83 the Vorauszahlung.
 */
const DE_CODES: TaxCodeDefinition[] = [
  code('USt19', 'Umsatzsteuer 19 %', 'sales', 'output', DE_SALES_STANDARD, ['81'], ['81.tax']),
  code('USt7', 'Umsatzsteuer 7 %', 'sales', 'output', DE_SALES_REDUCED, ['86'], ['86.tax']),
  code(
    'IGL',
    'Steuerfreie innergemeinschaftliche Lieferung (§ 4 Nr. 1b UStG)',
    'sales',
    'zero',
    since(0),
    ['41'],
  ),
  code('AUS', 'Steuerfreie Ausfuhrlieferung (§ 4 Nr. 1a UStG)', 'sales', 'zero', since(0), ['43']),
  code(
    'FREI',
    'Steuerfreier Umsatz ohne Vorsteuerabzug (§ 4 Nr. 8 ff. UStG)',
    'sales',
    'exempt',
    since(0),
    ['48'],
  ),
  code(
    'EUSL',
    'Nicht steuerbare sonstige Leistung in der EU (Leistungsempfänger schuldet)',
    'sales',
    'reverse-charge',
    since(0),
    ['21'],
  ),
  code('NSTB', 'Übriger nicht steuerbarer Umsatz', 'sales', 'outside', since(0), ['45']),
  code('VSt19', 'Vorsteuer 19 %', 'purchases', 'input', DE_STANDARD, [], [], ['66']),
  code('VSt7', 'Vorsteuer 7 %', 'purchases', 'input', DE_REDUCED, [], [], ['66']),
  code('EUSt', 'Entrichtete Einfuhrumsatzsteuer', 'purchases', 'import', since(0), [], [], ['62']),
  code(
    'FREIP',
    'Steuerfreier Einkauf (ohne Vorsteuer)',
    'purchases',
    'exempt',
    since(0),
    [],
    [],
    [],
  ),
  code(
    'IGE19',
    'Innergemeinschaftlicher Erwerb 19 %',
    'purchases',
    'acquisition',
    DE_ACQUISITION_STANDARD,
    ['89'],
    ['89.tax'],
    ['61'],
  ),
  code(
    'IGE7',
    'Innergemeinschaftlicher Erwerb 7 %',
    'purchases',
    'acquisition',
    DE_ACQUISITION_REDUCED,
    ['93'],
    ['93.tax'],
    ['61'],
  ),
  code(
    '13bEU',
    'Sonstige Leistung eines EU-Unternehmers (§ 13b Abs. 1 UStG)',
    'purchases',
    'reverse-charge',
    DE_STANDARD,
    ['46'],
    ['47'],
    ['67'],
  ),
  code(
    '13b',
    'Andere Leistung nach § 13b Abs. 2 UStG (Bauleistungen, ausländische Unternehmer)',
    'purchases',
    'reverse-charge',
    DE_STANDARD,
    ['84'],
    ['85'],
    ['67'],
  ),
];

/** The Dutch low rate: 6 % until 31 December 2018, 9 % from 1 January 2019. */
const NL_LOW: TaxRate[] = [
  { from: null, percent: 6 },
  { from: '2019-01-01', percent: 9 },
];
/** The Dutch high rate: 19 % until 30 September 2012, 21 % from 1 October 2012. */
const NL_HIGH: TaxRate[] = [
  { from: null, percent: 19 },
  { from: '2012-10-01', percent: 21 },
];

/*
 * The Dutch aangifte omzetbelasting (Belastingdienst, "Toelichting aangifte omzetbelasting"):
 * each rubriek has its omzet (the base) and its omzetbelasting (here "<rubriek>.vat"):
 * 1a leveringen/diensten belast met hoog tarief, 1b laag tarief, 1c overige tarieven behalve
 * 0 %, 1d privégebruik, 1e belast met 0 % of niet bij u belast (verlegd to the customer
 * included); 2a leveringen/diensten waarbij de heffing naar u is verlegd (binnenland);
 * 3a leveringen naar landen buiten de EU (uitvoer), 3b leveringen naar of diensten in landen
 * binnen de EU (ICP), 3c installatie/afstandsverkopen binnen de EU; 4a leveringen/diensten uit
 * landen buiten de EU, 4b uit landen binnen de EU; 5a verschuldigde omzetbelasting (1a–4b),
 * 5b voorbelasting, 5c subtotaal, 5d–5f (estimates: not from the books), 5g totaal.
 */
const NL_CODES: TaxCodeDefinition[] = [
  code('HOOG', 'Omzet hoog tarief', 'sales', 'output', NL_HIGH, ['1a'], ['1a.vat']),
  code('LAAG', 'Omzet laag tarief', 'sales', 'output', NL_LOW, ['1b'], ['1b.vat']),
  code('0', 'Omzet 0 % of niet bij u belast', 'sales', 'zero', since(0), ['1e']),
  code('VERL', 'Omzet verlegd naar de afnemer', 'sales', 'reverse-charge', since(0), ['1e']),
  code('UITV', 'Leveringen naar landen buiten de EU (uitvoer)', 'sales', 'zero', since(0), ['3a']),
  code(
    'ICP',
    'Leveringen naar of diensten in landen binnen de EU (ICP)',
    'sales',
    'zero',
    since(0),
    ['3b'],
  ),
  code('VRIJ', 'Vrijgestelde omzet', 'sales', 'exempt', since(0), []),
  code('VHOOG', 'Voorbelasting hoog tarief', 'purchases', 'input', NL_HIGH, [], [], ['5b']),
  code('VLAAG', 'Voorbelasting laag tarief', 'purchases', 'input', NL_LOW, [], [], ['5b']),
  code('VRIJP', 'Vrijgestelde of niet belaste inkoop', 'purchases', 'exempt', since(0)),
  code(
    '2A',
    'Inkoop waarbij de heffing naar u is verlegd (binnenland)',
    'purchases',
    'reverse-charge',
    NL_HIGH,
    ['2a'],
    ['2a.vat'],
    ['5b'],
  ),
  code(
    '4A',
    'Leveringen/diensten uit landen buiten de EU',
    'purchases',
    'import',
    NL_HIGH,
    ['4a'],
    ['4a.vat'],
    ['5b'],
  ),
  code(
    '4B',
    'Leveringen/diensten uit landen binnen de EU',
    'purchases',
    'acquisition',
    NL_HIGH,
    ['4b'],
    ['4b.vat'],
    ['5b'],
  ),
];

function code(
  name: string,
  description: string,
  side: TaxSide,
  kind: TaxKind,
  rates: TaxRate[],
  netBoxes: string[] = [],
  outputVatBoxes: string[] = [],
  inputVatBoxes: string[] = [],
): TaxCodeDefinition {
  return {
    code: name,
    name: description,
    side,
    kind,
    rates,
    netBoxes,
    outputVatBoxes,
    inputVatBoxes,
  };
}

/** Each country's standard codes, as `books tax setup` creates them. */
export const PRESET_TAX_CODES: Record<TaxCountry, readonly TaxCodeDefinition[]> = {
  GB: GB_CODES,
  DE: DE_CODES,
  NL: NL_CODES,
};

/**
 * The boxes of a code the bookkeeper makes (`books tax code create`), by its country, side and
 * kind: those of the preset code of the same side and kind (the first such), so a custom 20 %
 * code fills the boxes the standard one does.
 */
export function presetBoxesOf(
  country: TaxCountry,
  side: TaxSide,
  kind: TaxKind,
): Pick<TaxCodeDefinition, 'netBoxes' | 'outputVatBoxes' | 'inputVatBoxes'> {
  const like = PRESET_TAX_CODES[country].find((c) => c.side === side && c.kind === kind);
  return {
    netBoxes: like?.netBoxes ?? [],
    outputVatBoxes: like?.outputVatBoxes ?? [],
    inputVatBoxes: like?.inputVatBoxes ?? [],
  };
}
