import { asCents, formatCents, wholeUnits } from '../../../core/money.js';
import type { CalendarDay } from '../../../core/calendar.js';
import { rateOn, vatOfNet, type TaxCodeDefinition, type TaxCountry } from './taxCodes.js';

/*
 * A VAT return from the books: every coded posting of the period adds its net (on any account
 * but the VAT accounts) or its VAT (on the output or input VAT account) to its code's boxes;
 * the country's form then rounds and totals them. The return ties when the VAT it declares
 * before the form's rounding equals the period's movement on the VAT accounts; where it does
 * not, the postings that make it not are named.
 */

/** A posting of the period as the return reads it. */
export interface TaxPosting {
  entryId: string;
  day: CalendarDay;
  accountId: string;
  accountCode: string;
  accountName: string;
  /** The account's class: Income and Expenses lines should carry a code. */
  accountClass: string;
  debitCents: number;
  creditCents: number;
  taxCode: string | null;
  description: string;
}

/** What the return needs to know of the entity's VAT. */
export interface TaxSetting {
  country: TaxCountry;
  outputAccountId: string;
  inputAccountId: string;
  codes: readonly TaxCodeDefinition[];
}

/**
 * The VAT accounts of a side: the entity's, then those its codes keep their own VAT on (as
 * Germany's charts keep each rate's apart), each once.
 */
export function vatAccountsOf(
  setting: Pick<TaxSetting, 'outputAccountId' | 'inputAccountId' | 'codes'>,
  side: 'output' | 'input',
): string[] {
  const own = side === 'output' ? setting.outputAccountId : setting.inputAccountId;
  const codes = setting.codes.map((code) =>
    side === 'output' ? code.outputAccountId : code.inputAccountId,
  );
  return [...new Set([own, ...codes.filter((id): id is string => typeof id === 'string')])];
}

/** A posting behind a box, with what it adds. */
export interface BoxPosting {
  entryId: string;
  day: CalendarDay;
  accountCode: string;
  accountName: string;
  taxCode: string;
  description: string;
  netCents: number;
  vatCents: number;
}

export interface ReturnBox {
  box: string;
  label: string;
  /** The sum of the postings, to the cent. */
  amountCents: number;
  /** What the form takes: the amount as the country rounds it (whole units where it wants them). */
  formCents: number;
  postings: BoxPosting[];
}

export type TaxProblemKind =
  'vat-without-code' | 'vat-not-rate' | 'code-unknown' | 'vat-on-wrong-account' | 'uncoded';

export interface TaxProblem {
  kind: TaxProblemKind;
  entryId: string;
  day: CalendarDay;
  accountCode: string;
  accountName: string;
  taxCode: string | null;
  description: string;
  message: string;
}

export interface TaxReturnResult {
  country: TaxCountry;
  startDate: CalendarDay;
  endDate: CalendarDay;
  boxes: ReturnBox[];
  /** What is payable (positive) or repayable (negative), as the form computes it. */
  netCents: number;
  /** The VAT the postings declare: VAT due less VAT reclaimed, to the cent. */
  declaredVatCents: number;
  /** The period's movement on the VAT accounts: output credit less debit, less input debit less credit. */
  vatAccountsCents: number;
  ties: boolean;
  /** Postings that keep the return from tying, and coded VAT that is not its rate of its net. */
  problems: TaxProblem[];
  /** Income and expense lines without a code: not in the return, listed. */
  uncoded: TaxProblem[];
}

interface FormBox {
  box: string;
  label: string;
  /** How the form takes the amount: to the cent, whole units dropping the cents, whole units in the taxpayer's favour upward. */
  rounding: 'cents' | 'whole-down' | 'whole-up';
}

const GB_FORM: FormBox[] = [
  { box: '1', label: 'VAT due on sales and other outputs', rounding: 'cents' },
  { box: '2', label: 'VAT due on acquisitions from the EU (Northern Ireland)', rounding: 'cents' },
  { box: '3', label: 'Total VAT due (box 1 + box 2)', rounding: 'cents' },
  { box: '4', label: 'VAT reclaimed on purchases and other inputs', rounding: 'cents' },
  {
    box: '5',
    label: 'Net VAT to pay to HMRC or reclaim (difference of boxes 3 and 4)',
    rounding: 'cents',
  },
  {
    box: '6',
    label: 'Total value of sales and all other outputs excluding VAT',
    rounding: 'whole-down',
  },
  {
    box: '7',
    label: 'Total value of purchases and all other inputs excluding VAT',
    rounding: 'whole-down',
  },
  {
    box: '8',
    label: 'Total value of dispatches of goods to the EU (Northern Ireland)',
    rounding: 'whole-down',
  },
  {
    box: '9',
    label: 'Total value of acquisitions of goods from the EU (Northern Ireland)',
    rounding: 'whole-down',
  },
];

const DE_FORM: FormBox[] = [
  {
    box: '81',
    label: 'Steuerpflichtige Umsätze zum Steuersatz von 19 % (Bemessungsgrundlage)',
    rounding: 'whole-down',
  },
  { box: '81.tax', label: 'Steuer zu Kz 81', rounding: 'cents' },
  {
    box: '86',
    label: 'Steuerpflichtige Umsätze zum Steuersatz von 7 % (Bemessungsgrundlage)',
    rounding: 'whole-down',
  },
  { box: '86.tax', label: 'Steuer zu Kz 86', rounding: 'cents' },
  {
    box: '35',
    label: 'Umsätze zu anderen Steuersätzen (Bemessungsgrundlage)',
    rounding: 'whole-down',
  },
  { box: '36', label: 'Steuer zu Kz 35', rounding: 'cents' },
  {
    box: '41',
    label: 'Innergemeinschaftliche Lieferungen an Abnehmer mit USt-IdNr.',
    rounding: 'whole-down',
  },
  {
    box: '43',
    label: 'Weitere steuerfreie Umsätze mit Vorsteuerabzug (Ausfuhren)',
    rounding: 'whole-down',
  },
  { box: '48', label: 'Steuerfreie Umsätze ohne Vorsteuerabzug', rounding: 'whole-down' },
  {
    box: '21',
    label: 'Nicht steuerbare sonstige Leistungen (EU, Leistungsempfänger schuldet)',
    rounding: 'whole-down',
  },
  { box: '45', label: 'Übrige nicht steuerbare Umsätze', rounding: 'whole-down' },
  {
    box: '89',
    label: 'Innergemeinschaftliche Erwerbe zum Steuersatz von 19 %',
    rounding: 'whole-down',
  },
  { box: '89.tax', label: 'Steuer zu Kz 89', rounding: 'cents' },
  {
    box: '93',
    label: 'Innergemeinschaftliche Erwerbe zum Steuersatz von 7 %',
    rounding: 'whole-down',
  },
  { box: '93.tax', label: 'Steuer zu Kz 93', rounding: 'cents' },
  {
    box: '95',
    label: 'Innergemeinschaftliche Erwerbe zu anderen Steuersätzen',
    rounding: 'whole-down',
  },
  { box: '98', label: 'Steuer zu Kz 95', rounding: 'cents' },
  {
    box: '46',
    label: 'Sonstige Leistungen eines EU-Unternehmers (§ 13b Abs. 1 UStG)',
    rounding: 'whole-down',
  },
  { box: '47', label: 'Steuer zu Kz 46', rounding: 'cents' },
  { box: '84', label: 'Andere Leistungen nach § 13b Abs. 2 UStG', rounding: 'whole-down' },
  { box: '85', label: 'Steuer zu Kz 84', rounding: 'cents' },
  {
    box: '66',
    label: 'Vorsteuerbeträge aus Rechnungen von anderen Unternehmern',
    rounding: 'cents',
  },
  {
    box: '61',
    label: 'Vorsteuerbeträge aus dem innergemeinschaftlichen Erwerb',
    rounding: 'cents',
  },
  { box: '62', label: 'Entrichtete Einfuhrumsatzsteuer', rounding: 'cents' },
  {
    box: '67',
    label: 'Vorsteuerbeträge aus Leistungen im Sinne des § 13b UStG',
    rounding: 'cents',
  },
  {
    box: '83',
    label: 'Verbleibende Umsatzsteuer-Vorauszahlung (Überschuss: negativ)',
    rounding: 'cents',
  },
];

const NL_RUBRIEKEN: [string, string][] = [
  ['1a', 'Leveringen/diensten belast met hoog tarief'],
  ['1b', 'Leveringen/diensten belast met laag tarief'],
  ['1c', 'Leveringen/diensten belast met overige tarieven, behalve 0 %'],
  ['1d', 'Privégebruik'],
  ['1e', 'Leveringen/diensten belast met 0 % of niet bij u belast'],
  ['2a', 'Leveringen/diensten waarbij de omzetbelasting naar u is verlegd'],
  ['3a', 'Leveringen naar landen buiten de EU (uitvoer)'],
  ['3b', 'Leveringen naar of diensten in landen binnen de EU'],
  ['3c', 'Installatie/afstandsverkopen binnen de EU'],
  ['4a', 'Leveringen/diensten uit landen buiten de EU'],
  ['4b', 'Leveringen/diensten uit landen binnen de EU'],
];
const NL_FORM: FormBox[] = [
  ...NL_RUBRIEKEN.flatMap(([box, label]): FormBox[] => [
    { box, label: `${label} (omzet)`, rounding: 'whole-down' },
    { box: `${box}.vat`, label: `${label} (omzetbelasting)`, rounding: 'whole-down' },
  ]),
  { box: '5a', label: 'Verschuldigde omzetbelasting (rubrieken 1a t/m 4b)', rounding: 'cents' },
  { box: '5b', label: 'Voorbelasting', rounding: 'whole-up' },
  { box: '5c', label: 'Subtotaal (5a min 5b)', rounding: 'cents' },
  { box: '5d', label: 'Vermindering volgens de kleineondernemersregeling', rounding: 'cents' },
  { box: '5e', label: 'Schatting vorige aangifte(n)', rounding: 'cents' },
  { box: '5f', label: 'Schatting deze aangifte', rounding: 'cents' },
  { box: '5g', label: 'Totaal te betalen of terug te vragen', rounding: 'cents' },
];

const FORMS: Record<TaxCountry, FormBox[]> = { GB: GB_FORM, DE: DE_FORM, NL: NL_FORM };

function round(cents: number, rounding: FormBox['rounding']): number {
  if (rounding === 'cents') return cents;
  return wholeUnits(asCents(cents), rounding === 'whole-down' ? 'down' : 'up');
}

/** Germany's form computes the tax of these bases itself, at the rate in the box's name. */
const DE_COMPUTED_TAX: Record<string, number> = { '81': 19, '86': 7, '89': 19, '93': 7 };

/**
 * The return of a period: `postings` are the entity's postings of the period on the ledger of
 * the return's basis (accrual, or cash when VAT is counted as money moves), in the order
 * `TaxReturnTally` takes them.
 */
export function computeTaxReturn(
  setting: TaxSetting,
  startDate: CalendarDay,
  endDate: CalendarDay,
  postings: Iterable<TaxPosting>,
  options: { detail?: boolean } = {},
): TaxReturnResult {
  const tally = new TaxReturnTally(setting, startDate, endDate, options);
  for (const posting of postings) tally.add(posting);
  return tally.result();
}

/**
 * A return counted posting by posting as the books are read (a year of a big client's postings
 * is never held to be counted): `add` each posting of the period, ordered by day and then entry
 * (an entry's postings together), then `result`.
 */
export class TaxReturnTally {
  private readonly byBox: Map<
    string,
    FormBox & { amountCents: number; formCents: number; postings: BoxPosting[] }
  >;
  private readonly codes: Map<string, TaxCodeDefinition>;
  /** The accounts of VAT due: the entity's, and those codes keep their own VAT due on. */
  private readonly outputAccounts: ReadonlySet<string>;
  private readonly inputAccounts: ReadonlySet<string>;
  private readonly problems: TaxProblem[] = [];
  private readonly uncoded: TaxProblem[] = [];
  private vatDue = 0;
  private vatReclaimed = 0;
  private vatAccounts = 0;
  /** The current entry's net and VAT per code. */
  private readonly perEntryCode = new Map<
    string,
    { net: number; vat: number; first: TaxPosting; code: TaxCodeDefinition }
  >();
  private currentEntry: string | undefined;

  constructor(
    private readonly setting: TaxSetting,
    private readonly startDate: CalendarDay,
    private readonly endDate: CalendarDay,
    private readonly options: { detail?: boolean } = {},
  ) {
    this.byBox = new Map(
      FORMS[setting.country].map((box) => [
        box.box,
        { ...box, amountCents: 0, formCents: 0, postings: [] as BoxPosting[] },
      ]),
    );
    this.codes = new Map(setting.codes.map((code) => [code.code, code]));
    this.outputAccounts = new Set(vatAccountsOf(setting, 'output'));
    this.inputAccounts = new Set(vatAccountsOf(setting, 'input'));
  }

  private addTo(boxes: readonly string[], cents: number, behind: BoxPosting | undefined): void {
    for (const id of boxes) {
      const box = this.byBox.get(id);
      if (!box) continue;
      box.amountCents += cents;
      if (behind) box.postings.push(behind);
    }
  }

  /** VAT that is not the code's rate of the entry's net beyond a cent a line of rounding. */
  private checkEntry(): void {
    for (const { net, vat, first, code } of this.perEntryCode.values()) {
      if (code.kind === 'exempt' || code.kind === 'zero' || code.kind === 'outside') {
        if (vat !== 0)
          this.problems.push(
            problem(
              'vat-not-rate',
              first,
              `tax code ${code.code} carries no VAT, yet ${formatted(vat)} is posted`,
            ),
          );
        continue;
      }
      // Import VAT paid at the border has no net in the books (the goods' value is the supplier's).
      if (net === 0 && (vat === 0 || code.kind === 'import')) continue;
      const { percent } = rateOn(code, first.day);
      const expected = vatOfNet(net, percent);
      if (Math.abs(expected - vat) > 1) {
        this.problems.push(
          problem(
            'vat-not-rate',
            first,
            `VAT ${formatted(vat)} is not ${percent} % of the net ${formatted(net)} (${formatted(expected)})`,
          ),
        );
      }
    }
    this.perEntryCode.clear();
  }

  add(posting: TaxPosting): void {
    const { problems } = this;
    const isOutput = this.outputAccounts.has(posting.accountId);
    const isInput = this.inputAccounts.has(posting.accountId);
    const isVatAccount = isOutput || isInput;
    if (isOutput) this.vatAccounts += posting.creditCents - posting.debitCents;
    if (isInput) this.vatAccounts -= posting.debitCents - posting.creditCents;
    if (posting.taxCode === null) {
      if (isVatAccount) {
        problems.push(
          problem('vat-without-code', posting, 'a posting on a VAT account carries no tax code'),
        );
      } else if (posting.accountClass === 'Income' || posting.accountClass === 'Expenses') {
        this.uncoded.push(
          problem('uncoded', posting, 'an income or expense line carries no tax code'),
        );
      }
      return;
    }
    const code = this.codes.get(posting.taxCode);
    if (!code) {
      problems.push(
        problem('code-unknown', posting, `tax code ${posting.taxCode} is not a code of the entity`),
      );
      return;
    }
    const rate = rateOn(code, posting.day);
    // Every posting behind a box only where they are asked for: a year of a big client's
    // postings is a lot to hold.
    const behind: BoxPosting | undefined = this.options.detail
      ? {
          entryId: posting.entryId,
          day: posting.day,
          accountCode: posting.accountCode,
          accountName: posting.accountName,
          taxCode: code.code,
          description: posting.description,
          netCents: 0,
          vatCents: 0,
        }
      : undefined;
    // An entry's postings come together (ordered by day, then entry): its sums per code are
    // checked when the next entry begins, so only one entry's are held.
    if (posting.entryId !== this.currentEntry) {
      this.checkEntry();
      this.currentEntry = posting.entryId;
    }
    let sum = this.perEntryCode.get(code.code);
    if (!sum) {
      sum = { net: 0, vat: 0, first: posting, code };
      this.perEntryCode.set(code.code, sum);
    }
    if (isOutput) {
      const vat = posting.creditCents - posting.debitCents;
      const boxes = rate.outputVatBoxes ?? code.outputVatBoxes;
      if (boxes.length === 0) {
        problems.push(
          problem(
            'vat-on-wrong-account',
            posting,
            `tax code ${code.code} charges no VAT due, yet this VAT is on the output VAT account`,
          ),
        );
        return;
      }
      if (behind) behind.vatCents = vat;
      this.vatDue += vat;
      this.addTo(boxes, vat, behind);
      if (code.kind === 'output') sum.vat += vat;
    } else if (isInput) {
      const vat = posting.debitCents - posting.creditCents;
      if (code.inputVatBoxes.length === 0) {
        problems.push(
          problem(
            'vat-on-wrong-account',
            posting,
            `tax code ${code.code} reclaims no VAT, yet this VAT is on the input VAT account`,
          ),
        );
        return;
      }
      if (behind) behind.vatCents = vat;
      this.vatReclaimed += vat;
      this.addTo(code.inputVatBoxes, vat, behind);
      sum.vat += vat;
    } else {
      const net =
        code.side === 'sales'
          ? posting.creditCents - posting.debitCents
          : posting.debitCents - posting.creditCents;
      if (behind) behind.netCents = net;
      this.addTo(rate.netBoxes ?? code.netBoxes, net, behind);
      sum.net += net;
    }
  }

  /** The return of what was added: the form's boxes, rounded and totalled as it wants. */
  result(): TaxReturnResult {
    this.checkEntry();
    const { byBox, setting } = this;
    const declared = this.vatDue - this.vatReclaimed;
    const amount = (id: string) => byBox.get(id)?.amountCents ?? 0;
    const set = (id: string, cents: number) => {
      const box = byBox.get(id);
      if (box) box.amountCents = cents;
    };
    for (const box of byBox.values()) box.formCents = round(box.amountCents, box.rounding);
    const formOf = (id: string) => byBox.get(id)?.formCents ?? 0;
    let net: number;
    if (setting.country === 'GB') {
      set('3', amount('1') + amount('2'));
      set('5', Math.abs(amount('1') + amount('2') - amount('4')));
      for (const id of ['3', '5']) byBox.get(id)!.formCents = amount(id);
      net = amount('1') + amount('2') - amount('4');
    } else if (setting.country === 'DE') {
      // The form computes the tax of Kz 81, 86, 89 and 93 from the whole-euro base.
      for (const [base, percent] of Object.entries(DE_COMPUTED_TAX))
        byBox.get(`${base}.tax`)!.formCents = vatOfNet(formOf(base), percent);
      const due = ['81.tax', '86.tax', '36', '89.tax', '93.tax', '98', '47', '85'];
      const reclaimed = ['66', '61', '62', '67'];
      net =
        due.reduce((total, id) => total + formOf(id), 0) -
        reclaimed.reduce((total, id) => total + formOf(id), 0);
      set('83', declared);
      byBox.get('83')!.formCents = net;
    } else {
      const due = NL_RUBRIEKEN.map(([id]) => `${id}.vat`);
      const fiveA = due.reduce((total, id) => total + formOf(id), 0);
      set(
        '5a',
        due.reduce((total, id) => total + amount(id), 0),
      );
      byBox.get('5a')!.formCents = fiveA;
      set('5c', amount('5a') - amount('5b'));
      byBox.get('5c')!.formCents = fiveA - formOf('5b');
      set('5g', amount('5c'));
      byBox.get('5g')!.formCents = formOf('5c');
      net = formOf('5g');
    }

    return {
      country: setting.country,
      startDate: this.startDate,
      endDate: this.endDate,
      boxes: [...byBox.values()].map(
        ({ box, label, amountCents, formCents, postings: behind }) => ({
          box,
          label,
          amountCents,
          formCents,
          postings: behind,
        }),
      ),
      netCents: net,
      declaredVatCents: declared,
      vatAccountsCents: this.vatAccounts,
      // A VAT posting in no box (no code, an unknown one, on the wrong VAT account) leaves its
      // boxes short even where the net agrees: it keeps the return from tying too.
      ties: declared === this.vatAccounts && this.problems.every((p) => p.kind === 'vat-not-rate'),
      problems: this.problems,
      uncoded: this.uncoded,
    };
  }
}

const problem = (kind: TaxProblemKind, posting: TaxPosting, message: string): TaxProblem => ({
  kind,
  entryId: posting.entryId,
  day: posting.day,
  accountCode: posting.accountCode,
  accountName: posting.accountName,
  taxCode: posting.taxCode,
  description: posting.description,
  message,
});

const formatted = (cents: number) => formatCents(asCents(cents));
