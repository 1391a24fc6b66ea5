import { describe, expect, it } from 'vitest';
import {
  PRESET_TAX_CODES,
  rateOn,
  splitGross,
  vatOfNet,
  type TaxCountry,
} from '../../src/platform/domain/tax/taxCodes.js';
import { computeTaxReturn, type TaxPosting } from '../../src/platform/domain/tax/taxReturn.js';
import { VatAmountError, vatParts } from '../../src/platform/domain/tax/vatPosting.js';
import { asCents } from '../../src/core/money.js';
import { usualCodeReason, usualCodes } from '../../src/platform/domain/tax/learnedCodes.js';
import { dueDate } from '../../src/cli/commands/tax/return.js';

/*
 * Returns of generated books whose boxes are known by construction: each entry a sale or a
 * purchase of one code (its net on an income or expense account, its VAT on the VAT accounts as
 * the code says), the expected boxes summed here from the amounts the books were made of.
 */

const OUTPUT = 'output-vat';
const INPUT = 'input-vat';

class Books {
  readonly postings: TaxPosting[] = [];
  private entry = 0;

  /** A sale (net and VAT credited) or a purchase (debited), of one code; cents signed as the side wants. */
  post(
    day: string,
    code: string | null,
    side: 'sales' | 'purchases',
    netCents: number,
    vat: { output?: number; input?: number } = {},
  ) {
    const entryId = `e${++this.entry}`;
    const line = (
      accountId: string,
      accountClass: string,
      debit: number,
      credit: number,
    ): TaxPosting => ({
      entryId,
      day,
      accountId,
      accountCode: accountId,
      accountName: accountId,
      accountClass,
      debitCents: Math.max(debit - credit, 0),
      creditCents: Math.max(credit - debit, 0),
      taxCode: code,
      description: `${side} ${code}`,
    });
    if (side === 'sales') this.postings.push(line('sales', 'Income', 0, netCents));
    else this.postings.push(line('costs', 'Expenses', netCents, 0));
    if (vat.output !== undefined) this.postings.push(line(OUTPUT, 'Liabilities', 0, vat.output));
    if (vat.input !== undefined) this.postings.push(line(INPUT, 'Assets', vat.input, 0));
  }
}

const setting = (country: TaxCountry) => ({
  country,
  outputAccountId: OUTPUT,
  inputAccountId: INPUT,
  codes: PRESET_TAX_CODES[country],
});

const boxesOf = (result: ReturnType<typeof computeTaxReturn>) =>
  Object.fromEntries(result.boxes.map((box) => [box.box, box.formCents]));

describe('rates and rounding', () => {
  it('splits a VAT-inclusive amount, half away from zero to the cent', () => {
    expect(splitGross(120_00, 20)).toEqual({ net: 100_00, vat: 20_00 });
    expect(splitGross(99, 20)).toEqual({ net: 82, vat: 17 }); // 16.5p
    expect(splitGross(-120_00, 20)).toEqual({ net: -100_00, vat: -20_00 });
    expect(splitGross(107_00, 7)).toEqual({ net: 100_00, vat: 7_00 });
    expect(splitGross(10_00, 0)).toEqual({ net: 10_00, vat: 0 });
    expect(vatOfNet(10_05, 19)).toBe(1_91); // 190.95 cents
    expect(vatOfNet(-10_05, 19)).toBe(-1_91);
  });

  it('a posting takes the rate of its day', () => {
    const codeOf = (country: TaxCountry, code: string) =>
      PRESET_TAX_CODES[country].find((c) => c.code === code)!;
    expect(rateOn(codeOf('NL', 'LAAG'), '2018-12-31').percent).toBe(6);
    expect(rateOn(codeOf('NL', 'LAAG'), '2019-01-01').percent).toBe(9);
    expect(rateOn(codeOf('DE', 'USt19'), '2020-06-30').percent).toBe(19);
    expect(rateOn(codeOf('DE', 'USt19'), '2020-07-01').percent).toBe(16);
    expect(rateOn(codeOf('DE', 'USt7'), '2020-12-31').percent).toBe(5);
    expect(rateOn(codeOf('DE', 'USt19'), '2021-01-01').percent).toBe(19);
    expect(rateOn(codeOf('GB', 'S'), '2010-12-31').percent).toBe(17.5);
    expect(rateOn(codeOf('GB', 'S'), '2011-01-04').percent).toBe(20);
  });
});

describe('the United Kingdom: boxes 1 to 9', () => {
  it('every code, a credit note, the reverse charges, postponed import VAT and Northern Ireland', () => {
    const books = new Books();
    books.post('2026-07-01', 'S', 'sales', 1000_00, { output: 200_00 });
    books.post('2026-07-02', 'S', 'sales', -100_00, { output: -20_00 }); // a credit note
    books.post('2026-07-03', 'R', 'sales', 200_00, { output: 10_00 });
    books.post('2026-07-04', 'Z', 'sales', 300_45, {});
    books.post('2026-07-05', 'E', 'sales', 50_00, {});
    books.post('2026-07-06', 'O', 'sales', 999_00, {});
    books.post('2026-07-07', 'RCS', 'sales', 400_00, {});
    books.post('2026-07-08', 'NID', 'sales', 150_00, {});
    books.post('2026-08-01', 'SP', 'purchases', 500_00, { input: 100_00 });
    books.post('2026-08-02', 'RP', 'purchases', 40_00, { input: 2_00 });
    books.post('2026-08-03', 'ZP', 'purchases', 30_00, {});
    books.post('2026-08-04', 'EP', 'purchases', 20_00, {});
    books.post('2026-08-05', 'OP', 'purchases', 3000_00, {}); // wages
    books.post('2026-08-06', 'RC', 'purchases', 1000_00, { output: 200_00, input: 200_00 });
    books.post('2026-08-07', 'RCA', 'purchases', 250_00, { output: 50_00, input: 50_00 });
    books.post('2026-08-08', 'PIV', 'purchases', 600_00, { output: 120_00, input: 120_00 });
    books.post('2026-09-01', 'NIA', 'purchases', 700_00, { output: 140_00, input: 140_00 });
    const result = computeTaxReturn(setting('GB'), '2026-07-01', '2026-09-30', books.postings);
    const box1 = 200_00 - 20_00 + 10_00 + 200_00 + 50_00 + 120_00;
    const box2 = 140_00;
    const box4 = 100_00 + 2_00 + 200_00 + 50_00 + 120_00 + 140_00;
    expect(boxesOf(result)).toEqual({
      '1': box1,
      '2': box2,
      '3': box1 + box2,
      '4': box4,
      '5': Math.abs(box1 + box2 - box4),
      // 1000 − 100 + 200 + 300.45 + 50 + 400 + 150 + 250 (services from abroad): whole pounds
      '6': 2250_00,
      // 500 + 40 + 30 + 20 + 1000 + 250 + 600 + 700
      '7': 3140_00,
      '8': 150_00,
      '9': 700_00,
    });
    expect(result.netCents).toBe(box1 + box2 - box4);
    expect(result.ties).toBe(true);
    expect(result.problems).toEqual([]);
  });

  it('a VAT posting without a code keeps the return from tying, and says which', () => {
    const books = new Books();
    books.post('2026-07-01', 'S', 'sales', 1000_00, { output: 200_00 });
    books.post('2026-07-09', null, 'sales', 100_00, { output: 20_00 });
    books.post('2026-07-10', 'S', 'sales', 100_00, { output: 25_00 }); // not 20 %
    const result = computeTaxReturn(setting('GB'), '2026-07-01', '2026-09-30', books.postings);
    expect(result.ties).toBe(false);
    expect(result.vatAccountsCents - result.declaredVatCents).toBe(20_00);
    expect(result.problems.map((p) => [p.kind, p.entryId, p.message])).toEqual([
      ['vat-without-code', 'e2', 'a posting on a VAT account carries no tax code'],
      ['vat-not-rate', 'e3', 'VAT 25.00 is not 20 % of the net 100.00 (20.00)'],
    ]);
    expect(result.uncoded.map((p) => p.entryId)).toEqual(['e2']);
  });
});

describe('a tie that is no tie', () => {
  it("a reverse charge's VAT posted without its code nets to nothing, yet leaves boxes 1 and 4 short: not tied", () => {
    const books = new Books();
    books.post('2026-07-01', 'S', 'sales', 1000_00, { output: 200_00 });
    books.post('2026-07-02', 'RC', 'purchases', 1000_00);
    books.post('2026-07-02', null, 'purchases', 0, { output: 200_00, input: 200_00 });
    const result = computeTaxReturn(setting('GB'), '2026-07-01', '2026-09-30', books.postings);
    expect(result.declaredVatCents).toBe(result.vatAccountsCents);
    expect(result.ties).toBe(false);
    expect(result.problems.map((p) => p.kind)).toEqual([
      'vat-without-code',
      'vat-without-code',
      'vat-not-rate', // the reverse charge's entry has its net and no VAT of its code
    ]);
  });
});

describe('Germany: the Umsatzsteuer-Voranmeldung', () => {
  it('19 % and 7 %, the 16 % of 2020 in Kz 35/36, an acquisition, § 13b and the Vorauszahlung', () => {
    const books = new Books();
    books.post('2020-06-30', 'USt19', 'sales', 1000_50, { output: 190_10 });
    books.post('2020-07-01', 'USt19', 'sales', 500_00, { output: 80_00 });
    books.post('2020-07-02', 'USt7', 'sales', 200_00, { output: 10_00 });
    books.post('2020-06-15', 'USt7', 'sales', 100_00, { output: 7_00 });
    books.post('2020-07-03', 'IGL', 'sales', 800_99, {});
    books.post('2020-07-04', 'VSt19', 'purchases', 300_00, { input: 48_00 });
    books.post('2020-07-05', 'IGE19', 'purchases', 400_00, { output: 64_00, input: 64_00 });
    books.post('2020-07-06', '13bEU', 'purchases', 250_00, { output: 40_00, input: 40_00 });
    const result = computeTaxReturn(setting('DE'), '2020-06-01', '2020-07-31', books.postings);
    const boxes = boxesOf(result);
    expect(boxes['81']).toBe(1000_00); // whole euros
    expect(boxes['81.tax']).toBe(190_00); // the form's 19 % of 1,000
    expect(boxes['86']).toBe(100_00);
    expect(boxes['86.tax']).toBe(7_00);
    expect(boxes['35']).toBe(700_00);
    expect(boxes['36']).toBe(90_00);
    expect(boxes['41']).toBe(800_00);
    expect(boxes['95']).toBe(400_00);
    expect(boxes['98']).toBe(64_00);
    expect(boxes['46']).toBe(250_00);
    expect(boxes['47']).toBe(40_00);
    expect(boxes['66']).toBe(48_00);
    expect(boxes['61']).toBe(64_00);
    expect(boxes['67']).toBe(40_00);
    expect(boxes['83']).toBe(190_00 + 7_00 + 90_00 + 64_00 + 40_00 - 48_00 - 64_00 - 40_00);
    // The postings declare 0.10 more than the form computes from whole euros; they tie.
    expect(result.declaredVatCents).toBe(190_10 + 80_00 + 10_00 + 7_00 - 48_00);
    expect(result.ties).toBe(true);
    expect(result.problems).toEqual([]);
  });
});

describe('the Netherlands: the aangifte omzetbelasting', () => {
  it('the low rate of 6 % before 2019 and 9 % after, in one period; 5b rounded up', () => {
    const books = new Books();
    books.post('2018-12-31', 'LAAG', 'sales', 100_00, { output: 6_00 });
    books.post('2019-01-01', 'LAAG', 'sales', 100_00, { output: 9_00 });
    books.post('2019-01-02', 'HOOG', 'sales', 1000_70, { output: 210_15 });
    books.post('2019-01-03', 'ICP', 'sales', 500_00, {});
    books.post('2019-01-04', 'VHOOG', 'purchases', 10_00, { input: 2_10 });
    books.post('2019-01-05', '4B', 'purchases', 100_00, { output: 21_00, input: 21_00 });
    const result = computeTaxReturn(setting('NL'), '2018-12-01', '2019-01-31', books.postings);
    const boxes = boxesOf(result);
    expect(boxes['1a']).toBe(1000_00);
    expect(boxes['1a.vat']).toBe(210_00);
    expect(boxes['1b']).toBe(200_00);
    expect(boxes['1b.vat']).toBe(15_00);
    expect(boxes['3b']).toBe(500_00);
    expect(boxes['4b']).toBe(100_00);
    expect(boxes['4b.vat']).toBe(21_00);
    expect(boxes['5a']).toBe(210_00 + 15_00 + 21_00);
    expect(boxes['5b']).toBe(24_00); // 23.10, up in the taxpayer's favour
    expect(boxes['5g']).toBe(246_00 - 24_00);
    expect(result.ties).toBe(true);
    expect(result.problems).toEqual([]);
  });
});

describe('a VAT-inclusive bank line under a code', () => {
  const codeOf = (code: string) => PRESET_TAX_CODES.GB.find((c) => c.code === code)!;
  const cents = (n: number) => asCents(n);

  it('a purchase: net on the category, VAT reclaimable; the receipt may say the VAT', () => {
    expect(vatParts(codeOf('SP'), '2026-07-01', cents(120_00))).toEqual([
      { account: 'category', cents: 100_00, withCategory: true },
      { account: 'input', cents: 20_00, withCategory: true },
    ]);
    expect(vatParts(codeOf('SP'), '2026-07-01', cents(99_99), cents(16_00))).toEqual([
      { account: 'category', cents: 83_99, withCategory: true },
      { account: 'input', cents: 16_00, withCategory: true },
    ]);
    // 2009's 15 %: 115.00 is 100.00 and 15.00.
    expect(vatParts(codeOf('SP'), '2009-06-01', cents(115_00))[1]!.cents).toBe(15_00);
    expect(() => vatParts(codeOf('SP'), '2026-07-01', cents(10_00), cents(10_00))).toThrow(
      VatAmountError,
    );
  });

  it('a sale: VAT due; zero-rated, exempt and outside the scope: all of it net', () => {
    expect(vatParts(codeOf('S'), '2026-07-01', cents(40_00))).toEqual([
      { account: 'category', cents: 33_33, withCategory: true },
      { account: 'output', cents: 6_67, withCategory: true },
    ]);
    for (const code of ['Z', 'E', 'O', 'EP'])
      expect(vatParts(codeOf(code), '2026-07-01', cents(40_00))).toEqual([
        { account: 'category', cents: 40_00, withCategory: true },
      ]);
  });

  it('a reverse charge: the whole amount net, the VAT self-assessed both ways', () => {
    expect(vatParts(codeOf('RC'), '2026-07-01', cents(1000_00))).toEqual([
      { account: 'category', cents: 1000_00, withCategory: true },
      { account: 'input', cents: 200_00, withCategory: true },
      { account: 'output', cents: 200_00, withCategory: false },
    ]);
  });
});

describe('when a return is due', () => {
  it("by each country's rule", () => {
    expect(dueDate('GB', '2026-09-30')).toBe('2026-11-07'); // a month and seven days
    expect(dueDate('GB', '2026-01-31')).toBe('2026-03-07');
    expect(dueDate('DE', '2026-09-30')).toBe('2026-10-10'); // the 10th after
    expect(dueDate('DE', '2026-12-31')).toBe('2027-01-10');
    expect(dueDate('NL', '2026-09-30')).toBe('2026-10-31'); // the month after's last day
    expect(dueDate('NL', '2027-01-31')).toBe('2027-02-28');
  });
});

describe("an account's usual tax code, learned from the client's lines", () => {
  const use = (accountId: string, taxCode: string | null, lines: number) => ({
    accountId,
    taxCode,
    lines,
  });
  it('the code of at least 80 % of its lines and 3 of them; uncoded lines count against it', () => {
    const usual = usualCodes(
      [
        use('office', 'SP', 8),
        use('office', null, 2),
        use('rent', 'E', 2),
        use('travel', 'SP', 5),
        use('travel', null, 5),
        use('ink', 'SP12', 4),
        use('fuel', 'SP', 4),
        use('fuel', 'SR', 4),
      ],
      (code) => code !== 'SP12',
    );
    expect(Object.fromEntries(usual)).toEqual({ office: { taxCode: 'SP', lines: 8, of: 10 } });
    expect(usualCodeReason(usual.get('office')!)).toBe('; coded SP as 8 of 10 earlier lines on it');
    expect(usualCodeReason({ taxCode: 'S', lines: 4, of: 4 })).toBe(
      '; coded S as all 4 earlier lines on it',
    );
  });
});
