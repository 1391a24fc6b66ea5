import { describe, expect, it } from 'vitest';
import { WORKSPACE_TIMEZONES } from '../../src/api/index.js';
import {
  addDays,
  calendarDayAt,
  daysInMonth,
  isCalendarDay,
  startOfDay,
  startOfDayIso,
} from '../../src/core/calendar.js';

describe('isCalendarDay', () => {
  it.each(['2026-01-01', '2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01', '9999-12-31'])(
    'accepts %s',
    (day) => {
      expect(isCalendarDay(day)).toBe(true);
    },
  );
  it.each([
    '2025-02-29',
    '1900-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-1-1',
    '26-01-01',
    '2026-01-01T00:00:00Z',
    '0000-01-01',
    '',
    20260101,
    null,
  ])('refuses %j', (day) => {
    expect(isCalendarDay(day)).toBe(false);
  });
});

describe('daysInMonth', () => {
  it('agrees with the Gregorian calendar of Date for every month of years 100 to 2800', () => {
    for (let year = 100; year <= 2800; year += 1)
      for (let month = 1; month <= 12; month += 1)
        expect(daysInMonth(year, month)).toBe(new Date(Date.UTC(year, month, 0)).getUTCDate());
  });
});

describe('addDays', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-01-01', 365, '2027-01-01'],
  ])('%s + %d = %s', (day, days, result) => {
    expect(addDays(day, days)).toBe(result);
  });
});

/** UTC offsets in hours: [mid-January, mid-July]. */
const OFFSETS: Record<(typeof WORKSPACE_TIMEZONES)[number], [number, number]> = {
  'America/New_York': [-5, -4],
  'America/Chicago': [-6, -5],
  'America/Denver': [-7, -6],
  'America/Phoenix': [-7, -7],
  'America/Los_Angeles': [-8, -7],
  'America/Anchorage': [-9, -8],
  'America/Adak': [-10, -9],
  'Pacific/Honolulu': [-10, -10],
  'America/Puerto_Rico': [-4, -4],
  'Pacific/Guam': [10, 10],
  'Pacific/Pago_Pago': [-11, -11],
  UTC: [0, 0],
};

function expectedStart(day: string, offsetHours: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - offsetHours * 3_600_000).toISOString();
}

describe('startOfDay and calendarDayAt in every workspace timezone', () => {
  it.each(WORKSPACE_TIMEZONES)('%s: midnight in winter and in summer', (timeZone) => {
    const [winter, summer] = OFFSETS[timeZone];
    for (const text of [
      startOfDay('2026-01-15', timeZone).toISOString(),
      startOfDayIso('2026-01-15', timeZone),
    ])
      expect(text).toBe(expectedStart('2026-01-15', winter));
    for (const text of [
      startOfDay('2026-07-15', timeZone).toISOString(),
      startOfDayIso('2026-07-15', timeZone),
    ])
      expect(text).toBe(expectedStart('2026-07-15', summer));
  });

  it.each(WORKSPACE_TIMEZONES)(
    '%s: every day of 2024–2026 round-trips, and the instant before is the day before',
    (timeZone) => {
      for (let day = '2024-01-01'; day <= '2026-12-31'; day = addDays(day, 1)) {
        const start = startOfDay(day, timeZone);
        expect(calendarDayAt(start, timeZone)).toBe(day);
        expect(calendarDayAt(new Date(start.getTime() - 1), timeZone)).toBe(addDays(day, -1));
      }
    },
  );

  it('America/New_York: 05:00 UTC before the spring change, 04:00 after, and back in autumn', () => {
    const ny = 'America/New_York';
    expect(startOfDay('2026-03-08', ny).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDay('2026-03-09', ny).toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfDay('2026-11-01', ny).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDay('2026-11-02', ny).toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('Pacific/Guam: a day starts on the previous UTC day', () => {
    expect(startOfDay('2026-01-01', 'Pacific/Guam').toISOString()).toBe('2025-12-31T14:00:00.000Z');
    expect(calendarDayAt(new Date('2025-12-31T14:00:00.000Z'), 'Pacific/Guam')).toBe('2026-01-01');
  });

  it('calendarDayAt reads the same instant as different days in different zones', () => {
    const instant = new Date('2026-06-30T23:30:00.000Z');
    expect(calendarDayAt(instant, 'UTC')).toBe('2026-06-30');
    expect(calendarDayAt(instant, 'Pacific/Guam')).toBe('2026-07-01');
    expect(calendarDayAt(instant, 'Pacific/Pago_Pago')).toBe('2026-06-30');
  });
});
