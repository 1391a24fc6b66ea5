/**
 * Calendar days (`YYYY-MM-DD`) and their relation to instants in a named time zone.
 * A calendar day is a plain string; its lexical order is its chronological order.
 */
export type CalendarDay = string;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDay(text: unknown): text is CalendarDay {
  if (typeof text !== 'string') return false;
  const match = DAY_PATTERN.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Why a text a person gave is not a calendar day, in words that say what was given and what is
 * wanted (`25/11/2026 is not a day in YYYY-MM-DD: 2026-11-25?`; `2026-11-31 is no day: November
 * 2026 has 30 days`); undefined when it is one.
 */
export function whyNotADay(text: string): string | undefined {
  const valid: boolean = isCalendarDay(text as unknown);
  if (valid) return undefined;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (month < 1 || month > 12) return `${text} is no day: a year has months 01 to 12`;
    const last = daysInMonth(year, month);
    if (day < 1 || day > last)
      return `${text} is no day: ${MONTH_NAMES[month - 1]} ${year} has ${last} days`;
    return `${text} is not a day in YYYY-MM-DD: ${year}-${pad(month)}-${pad(day)}?`;
  }
  const slashed = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
  if (slashed) {
    const [a, b, year] = [Number(slashed[1]), Number(slashed[2]), Number(slashed[3])];
    const readings = [
      [b, a],
      [a, b],
    ]
      .filter(
        ([month, day]) =>
          month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth(year, month!),
      )
      .map(([month, day]) => `${year}-${pad(month!)}-${pad(day!)}`);
    const unique = [...new Set(readings)];
    return `${text} is not a day in YYYY-MM-DD${unique.length > 0 ? `: ${unique.join(' or ')}?` : ''}`;
  }
  return `"${text}" is not a day in YYYY-MM-DD`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Days in a month (1–12) of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}

function dayParts(day: CalendarDay): [number, number, number] {
  const match = DAY_PATTERN.exec(day);
  if (!match) throw new RangeError(`not a calendar day: ${day}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function utcMidnight(day: CalendarDay): number {
  const [year, month, date] = dayParts(day);
  const ms = Date.UTC(year, month - 1, date);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear puts them back.
  const fixed = new Date(ms);
  fixed.setUTCFullYear(year);
  return fixed.getTime();
}

function formatUtcDay(ms: number): CalendarDay {
  const date = new Date(ms);
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

export function addDays(day: CalendarDay, days: number): CalendarDay {
  return formatUtcDay(utcMidnight(day) + days * 86_400_000);
}

/** How many days `a` is after `b` (negative when before). */
export function daysAfter(a: CalendarDay, b: CalendarDay): number {
  return Math.round((utcMidnight(a) - utcMidnight(b)) / 86_400_000);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      era: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of an instant in a time zone. */
function wallClock(ms: number, timeZone: string) {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    parts[part.type] = part.value;
  }
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  return {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Offset of the zone from UTC at an instant, in milliseconds (New York in winter: −5 h). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  asUtc.setUTCHours(wall.hour, wall.minute, wall.second, 0);
  return asUtc.getTime() - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * A day's value in a zone, computed once: ledgers revisit the same few thousand days, and the
 * zone rules behind them never change. A cache past 100,000 days starts again.
 */
function remembered<T>(
  cache: Map<string, T>,
  day: CalendarDay,
  timeZone: string,
  compute: () => T,
): T {
  const key = `${timeZone} ${day}`;
  let value = cache.get(key);
  if (value === undefined) {
    value = compute();
    if (cache.size > 100_000) cache.clear();
    cache.set(key, value);
  }
  return value;
}

const dayStarts = new Map<string, number>();
const dayStartTexts = new Map<string, string>();

/** The instant at which a calendar day starts (00:00 local) in a time zone. */
export function startOfDay(day: CalendarDay, timeZone: string): Date {
  return new Date(remembered(dayStarts, day, timeZone, () => computeStartOfDay(day, timeZone)));
}

/** `startOfDay(day, timeZone).toISOString()`, remembered: answers print it for every entry. */
export function startOfDayIso(day: CalendarDay, timeZone: string): string {
  return remembered(dayStartTexts, day, timeZone, () => startOfDay(day, timeZone).toISOString());
}

function computeStartOfDay(day: CalendarDay, timeZone: string): number {
  const midnightAsUtc = utcMidnight(day);
  let instant = midnightAsUtc - zoneOffsetMs(midnightAsUtc, timeZone);
  // The offset at the true instant may differ from the guess's near a transition.
  const corrected = midnightAsUtc - zoneOffsetMs(instant, timeZone);
  if (corrected !== instant) instant = corrected;
  return instant;
}

/** The calendar day an instant falls on in a time zone. */
export function calendarDayAt(instant: Date, timeZone: string): CalendarDay {
  const wall = wallClock(instant.getTime(), timeZone);
  const year = String(wall.year).padStart(4, '0');
  return `${year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
}

/**
 * calendarDayAt for the many instants of one time zone a report gives (a general ledger's
 * postings share a few hundred days' midnights): each distinct timestamp worked out once.
 */
export function calendarDaysIn(timeZone: string): (timestamp: string) => CalendarDay {
  const days = new Map<string, CalendarDay>();
  return (timestamp) => {
    let day = days.get(timestamp);
    if (day === undefined) {
      day = calendarDayAt(new Date(timestamp), timeZone);
      days.set(timestamp, day);
    }
    return day;
  };
}

/** ISO 8601 UTC with milliseconds, the form every response timestamp takes. */
export function toTimestamp(instant: Date): string {
  return instant.toISOString();
}
