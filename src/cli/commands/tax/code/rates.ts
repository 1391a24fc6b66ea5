import type { CreateTaxCodeBody } from '../../../../api/index.js';
import { isCalendarDay } from '../../../../core/calendar.js';
import { UsageError } from '../../../exitCodes.js';

/**
 * `--rate 20` or, with its history, `--rate 17.5,15@2008-12-01,17.5@2010-01-01,20@2011-01-04`:
 * each rate a percent with at most two decimals, from the day after `@` (the first: since ever).
 */
export function parseRates(given: string): CreateTaxCodeBody['rates'] {
  return given.split(',').map((part, index) => {
    const [percentText = '', from] = part.trim().split('@');
    const percent = Number(percentText);
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(percentText) || percent > 100)
      throw new UsageError(
        `--rate takes percents from 0 to 100 with at most two decimals, each from a day: 20, or 19,16@2020-07-01,19@2021-01-01; not "${part.trim()}"`,
      );
    if (from !== undefined && !isCalendarDay(from))
      throw new UsageError(`--rate: "${from}" is not a day in YYYY-MM-DD`);
    if (index > 0 && from === undefined)
      throw new UsageError(
        `--rate: every rate after the first says from which day it holds (${percentText}@YYYY-MM-DD)`,
      );
    return { from: from ?? null, percent };
  });
}

/** `--net-boxes 6,7`: a code's boxes, as the country's form names them. */
export const parseBoxes = (given: string | undefined): string[] | undefined =>
  given === undefined
    ? undefined
    : given
        .split(',')
        .map((box) => box.trim())
        .filter(Boolean);
