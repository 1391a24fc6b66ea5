import { asCents, formatCents, taxIncluded, taxOnNet, type Cents } from '../../../core/money.js';
import { rateOn, type TaxCodeDefinition } from './taxCodes.js';

/*
 * A bank line categorized with a tax code: the line's amount is what the bank moved, VAT
 * included. It posts as its net on the category and its VAT on the VAT account the code says
 * (VAT due on a sale, VAT reclaimable on a purchase), both carrying the code. A reverse charge,
 * an acquisition or postponed import VAT moves no VAT through the bank: the whole amount is the
 * net, and the VAT the customer accounts for is posted twice, due and reclaimed, at the code's
 * rate of the net. A zero-rated, exempt or outside-the-scope code posts the whole amount as net.
 */

/** One posting of a coded part, besides the bank's own line. */
export interface VatPart {
  /** Where it posts: the part's category, or one of the entity's VAT accounts. */
  account: 'category' | 'output' | 'input';
  cents: Cents;
  /** On the category's side (true) or against it (the self-assessed VAT due of a purchase). */
  withCategory: boolean;
}

export class VatAmountError extends Error {
  override name = 'VatAmountError';
}

/**
 * The postings of a VAT-inclusive amount `grossCents` (its size) under a code on a day; `vatCents`
 * where the receipt states the VAT (it must be less than the amount, of its sign).
 */
export function vatParts(
  code: Pick<TaxCodeDefinition, 'side' | 'kind' | 'rates'>,
  day: string,
  grossCents: Cents,
  vatCents?: Cents,
): VatPart[] {
  const { percent } = rateOn(code, day);
  switch (code.kind) {
    case 'output':
    case 'input': {
      const vat = vatCents ?? taxIncluded(grossCents, percent);
      if (vat < 0 || vat >= grossCents)
        throw new VatAmountError(
          `the VAT must be at least 0.00 and less than the amount, ${formatCents(grossCents)}`,
        );
      const vatAccount = code.side === 'sales' ? 'output' : 'input';
      return [
        { account: 'category', cents: asCents(grossCents - vat), withCategory: true },
        ...(vat > 0 ? [{ account: vatAccount, cents: vat, withCategory: true } as const] : []),
      ];
    }
    case 'reverse-charge':
    case 'acquisition':
    case 'import': {
      if (code.side === 'sales')
        return [{ account: 'category', cents: grossCents, withCategory: true }];
      const selfAssessed = vatCents ?? taxOnNet(grossCents, percent);
      return [
        { account: 'category', cents: grossCents, withCategory: true },
        ...(selfAssessed > 0
          ? ([
              { account: 'input', cents: selfAssessed, withCategory: true },
              { account: 'output', cents: selfAssessed, withCategory: false },
            ] as const)
          : []),
      ];
    }
    default:
      return [{ account: 'category', cents: grossCents, withCategory: true }];
  }
}
