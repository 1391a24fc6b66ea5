import { isCalendarDay, whyNotADay, type CalendarDay } from '../../core/calendar.js';
import {
  DATE_WORDS,
  rangeOfWord,
  type DateWord,
  type FiscalYearStart,
} from '../../core/periods.js';
import { UsageError } from '../exitCodes.js';

/** The calendar day of a moment in the local time zone of the machine. */
export function localDay(now: Date): CalendarDay {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The words that name the entity's fiscal year (the others are calendar months and quarters). */
const FISCAL_WORDS: readonly string[] = ['this-year', 'last-year', 'ytd'];

/** Whether `--from` or `--to` names a fiscal year: the entity's fiscal year start is needed. */
export const namesFiscalYear = (flags: { from?: string | undefined; to?: string | undefined }) =>
  [flags.from, flags.to].some((text) => text !== undefined && FISCAL_WORDS.includes(text));

/**
 * `--from`/`--to`: a calendar day or a relative word (its start for --from, its end for --to);
 * the year words in the fiscal years that start on `fiscalStart` (`MM-DD`, else calendar years).
 */
export function parseDateOption(
  text: string,
  side: 'from' | 'to',
  asOf: CalendarDay,
  fiscalStart?: FiscalYearStart,
): CalendarDay {
  if (isCalendarDay(text)) return text;
  if ((DATE_WORDS as readonly string[]).includes(text)) {
    const range = rangeOfWord(text as DateWord, asOf, fiscalStart);
    return side === 'from' ? range.startDate : range.endDate;
  }
  throw new UsageError(`--${side} ${whyNotADay(text)} (or one of ${DATE_WORDS.join(', ')})`);
}

/** A flag's calendar day (`--date 2026-11-25`), refused saying what was given and what is wanted. */
export function dayOption(flag: string, text: string): CalendarDay {
  const why = whyNotADay(text);
  if (why !== undefined) throw new UsageError(`${flag} ${why}`);
  return text;
}

/**
 * `--from`/`--to` together, either one optional: each parsed, and a range that ends before it
 * starts refused here (exit 2) rather than by the platform (a 400, exit 1).
 */
export function parseDateRange(
  flags: { from?: string | undefined; to?: string | undefined },
  asOf: CalendarDay,
  fiscalStart?: FiscalYearStart,
): { startDate?: CalendarDay; endDate?: CalendarDay } {
  const startDate =
    flags.from === undefined ? undefined : parseDateOption(flags.from, 'from', asOf, fiscalStart);
  const endDate =
    flags.to === undefined ? undefined : parseDateOption(flags.to, 'to', asOf, fiscalStart);
  if (startDate !== undefined && endDate !== undefined && startDate > endDate) {
    const said = (text: string, day: CalendarDay) => (text === day ? day : `${text} (${day})`);
    throw new UsageError(
      `--from ${said(flags.from!, startDate)} is after --to ${said(flags.to!, endDate)}: the range would be empty`,
    );
  }
  return { ...(startDate && { startDate }), ...(endDate && { endDate }) };
}
