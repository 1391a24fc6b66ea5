import { addDays, daysInMonth, type CalendarDay } from './calendar.js';

export const GROUP_BY = ['week', 'month', 'quarter', 'year', 'total'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** A report column: an inclusive range of calendar days. */
export interface Period {
  startDate: CalendarDay;
  endDate: CalendarDay;
}

export class TooManyPeriodsError extends Error {
  override name = 'TooManyPeriodsError';
}

/** Reports refuse ranges that would make more columns than this. */
export const MAX_PERIODS = 1000;

function parts(day: CalendarDay): [number, number, number] {
  return [Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10))];
}

function format(year: number, month: number, date: number): CalendarDay {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}

/** The last day of the grouping period that contains `day`. */
function periodEnd(day: CalendarDay, groupBy: Exclude<GroupBy, 'total'>): CalendarDay {
  const [year, month] = parts(day);
  switch (groupBy) {
    case 'week': {
      // Weeks run Monday to Sunday; getUTCDay() is 0 on Sunday.
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      return addDays(day, (7 - weekday) % 7);
    }
    case 'month':
      return addDays(format(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1), -1);
    case 'quarter': {
      const lastMonth = Math.ceil(month / 3) * 3;
      return addDays(
        format(lastMonth === 12 ? year + 1 : year, lastMonth === 12 ? 1 : lastMonth + 1, 1),
        -1,
      );
    }
    case 'year':
      return format(year, 12, 31);
  }
}

/**
 * The columns of a report from `startDate` to `endDate` (inclusive): calendar weeks
 * (Monday–Sunday), months, quarters or years, each clipped to the range; or one column for
 * `total`. Throws TooManyPeriodsError past 1,000 columns.
 */
export function periodsBetween(
  startDate: CalendarDay,
  endDate: CalendarDay,
  groupBy: GroupBy,
  maxPeriods = MAX_PERIODS,
): Period[] {
  if (startDate > endDate) throw new RangeError('startDate must not be after endDate');
  if (groupBy === 'total') return [{ startDate, endDate }];
  const periods: Period[] = [];
  let start = startDate;
  while (start <= endDate) {
    if (periods.length === maxPeriods) {
      throw new TooManyPeriodsError(`the range makes more than ${maxPeriods} ${groupBy} periods`);
    }
    const end = periodEnd(start, groupBy);
    const clipped = end < endDate ? end : endDate;
    periods.push({ startDate: start, endDate: clipped });
    start = addDays(clipped, 1);
  }
  return periods;
}

/** The index of the period containing `day`, or −1 when it is outside them all. */
export function periodIndexOf(periods: readonly Period[], day: CalendarDay): number {
  let low = 0;
  let high = periods.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const period = periods[middle]!;
    if (day < period.startDate) high = middle - 1;
    else if (day > period.endDate) low = middle + 1;
    else return middle;
  }
  return -1;
}

/**
 * The day an entity's fiscal year starts, `MM-DD` (the entity's setting; `01-01` a calendar
 * year). Any day of the year but 29 February, which most years lack.
 */
export type FiscalYearStart = string;

export const CALENDAR_YEAR: FiscalYearStart = '01-01';

/** Whether `MM-DD` can start a fiscal year: a day every year has (not 29 February). */
export function isFiscalYearStart(text: string): boolean {
  const match = /^(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [month, date] = [Number(match[1]), Number(match[2])];
  return month >= 1 && month <= 12 && date >= 1 && date <= daysInMonth(2025, month);
}

/** The first day of the fiscal year (starting each year on `start`, `MM-DD`) holding `day`. */
export function fiscalYearStart(
  day: CalendarDay,
  start: FiscalYearStart = CALENDAR_YEAR,
): CalendarDay {
  const year = Number(day.slice(0, 4));
  return day.slice(5) >= start
    ? `${day.slice(0, 4)}-${start}`
    : `${String(year - 1).padStart(4, '0')}-${start}`;
}

/** The fiscal year holding `day`: its first and last days. */
export function fiscalYearOf(day: CalendarDay, start: FiscalYearStart = CALENDAR_YEAR): Period {
  const first = fiscalYearStart(day, start);
  return { startDate: first, endDate: addDays(addMonths(first, 12), -1) };
}

/**
 * How a fiscal year is named, as accountants name it: by the calendar year it ends in (`FY2026`
 * for April 2025 to March 2026), or the year alone when it is a calendar year.
 */
export function fiscalYearName(day: CalendarDay, start: FiscalYearStart = CALENDAR_YEAR): string {
  const { endDate } = fiscalYearOf(day, start);
  return start === CALENDAR_YEAR ? endDate.slice(0, 4) : `FY${endDate.slice(0, 4)}`;
}

export const DATE_WORDS = [
  'this-month',
  'last-month',
  'this-quarter',
  'last-quarter',
  'this-year',
  'last-year',
  'ytd',
] as const;
export type DateWord = (typeof DATE_WORDS)[number];

/**
 * The range a relative date word names, as of `today`. Months and quarters are calendar ones;
 * `this-year`, `last-year` and `ytd` (the year to today) are the entity's fiscal years, which
 * start on `fiscalStart` (`MM-DD`; calendar years by default).
 */
export function rangeOfWord(
  word: DateWord,
  today: CalendarDay,
  fiscalStart: FiscalYearStart = CALENDAR_YEAR,
): Period {
  const [year, month] = parts(today);
  const quarterStartMonth = Math.floor((month - 1) / 3) * 3 + 1;
  const monthStart = (y: number, m: number) => format(y, m, 1);
  switch (word) {
    case 'this-month':
      return { startDate: monthStart(year, month), endDate: periodEnd(today, 'month') };
    case 'last-month': {
      const start = month === 1 ? monthStart(year - 1, 12) : monthStart(year, month - 1);
      return { startDate: start, endDate: periodEnd(start, 'month') };
    }
    case 'this-quarter':
      return {
        startDate: monthStart(year, quarterStartMonth),
        endDate: periodEnd(today, 'quarter'),
      };
    case 'last-quarter': {
      const start =
        quarterStartMonth === 1
          ? monthStart(year - 1, 10)
          : monthStart(year, quarterStartMonth - 3);
      return { startDate: start, endDate: periodEnd(start, 'quarter') };
    }
    case 'this-year':
      return fiscalYearOf(today, fiscalStart);
    case 'last-year':
      return fiscalYearOf(addDays(fiscalYearStart(today, fiscalStart), -1), fiscalStart);
    case 'ytd':
      return { startDate: fiscalYearStart(today, fiscalStart), endDate: today };
  }
}

export const COMPARISONS = ['prior-period', 'prior-year'] as const;
/** What a comparative report sets beside each period (QuickBooks' "Previous period/year"). */
export type Comparison = (typeof COMPARISONS)[number];

const isMonthEnd = (day: CalendarDay) => day === periodEnd(day, 'month');

/**
 * `day` moved by whole months (negative: back): the same day of the month, the month's last day
 * when the target month is shorter, and a month's last day stays its month's last day (the
 * period ending 2025-02-28 a year before 2024-02-29; the one ending 2024-02-29 a year after
 * 2023-02-28).
 */
export function addMonths(day: CalendarDay, months: number): CalendarDay {
  const [year, month, date] = parts(day);
  const index = year * 12 + (month - 1) + months;
  const [toYear, toMonth] = [Math.floor(index / 12), (index % 12) + 1];
  const last = daysInMonth(toYear, toMonth);
  return format(toYear, toMonth, isMonthEnd(day) ? last : Math.min(date, last));
}

/**
 * The range just before `range`, of its length: as many whole months when it is whole months
 * (a quarter before a quarter, the year before a year), else as many days.
 */
export function precedingRange(range: Period): Period {
  const [startYear, startMonth, startDay] = parts(range.startDate);
  if (startDay === 1 && isMonthEnd(range.endDate)) {
    const [endYear, endMonth] = parts(range.endDate);
    const months = endYear * 12 + endMonth - (startYear * 12 + startMonth) + 1;
    return {
      startDate: addMonths(range.startDate, -months),
      endDate: addDays(range.startDate, -1),
    };
  }
  const days = (Date.parse(range.endDate) - Date.parse(range.startDate)) / 86_400_000 + 1;
  return { startDate: addDays(range.startDate, -days), endDate: addDays(range.startDate, -1) };
}

/**
 * The range whose report, grouped as the report being compared, has each column's comparison
 * period in the same place: a year back (52 weeks back for weeks, so that they stay Monday to
 * Sunday), or one grouping period back (each month against the month before it). Grouped by
 * `total`, the prior period is `precedingRange`.
 */
export function comparisonRange(range: Period, groupBy: GroupBy, compare: Comparison): Period {
  const shift = (by: (day: CalendarDay) => CalendarDay) => ({
    startDate: by(range.startDate),
    endDate: by(range.endDate),
  });
  if (groupBy === 'week') return shift((day) => addDays(day, compare === 'prior-year' ? -364 : -7));
  if (compare === 'prior-year') return shift((day) => addMonths(day, -12));
  if (groupBy === 'total') return precedingRange(range);
  const months = { month: 1, quarter: 3, year: 12 }[groupBy];
  return shift((day) => addMonths(day, -months));
}

/**
 * The range a period's name covers: a month `2025-01`, a quarter `2025-Q1`, a year `2025`;
 * undefined for anything else.
 */
export function namedPeriod(name: string): Period | undefined {
  const month = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(name);
  if (month) {
    const start = `${month[1]}-${month[2]}-01`;
    return { startDate: start, endDate: periodEnd(start, 'month') };
  }
  const quarter = /^(\d{4})-Q([1-4])$/i.exec(name);
  if (quarter) {
    const start = format(Number(quarter[1]), (Number(quarter[2]) - 1) * 3 + 1, 1);
    return { startDate: start, endDate: periodEnd(start, 'quarter') };
  }
  if (/^\d{4}$/.test(name)) return { startDate: `${name}-01-01`, endDate: `${name}-12-31` };
  return undefined;
}
