import { asCents, negateCents, type Cents } from '../../core/money.js';
import type { CalendarDay } from '../../core/calendar.js';
import { dayOfYymmdd, UnreadableStatement } from '../statement.js';

/*
 * What the statement formats of fixed-width records share (CODA's 128 characters, Norma 43's
 * 80, CFONB's 120): the records of a file, a field by the positions their specifications give,
 * amounts as digits with a number of decimals, days as six digits.
 */

export interface FixedRecord {
  /** The record, padded with spaces to its width (tools trim the blanks at a line's end). */
  text: string;
  /** The file line it is on. */
  line: number;
}

/**
 * The records of a file: one a line, blank lines passed over. A line longer than a record is a
 * file written without line breaks where it is records end to end (each beginning with a record
 * code `startsRecord` knows), else refused naming the line; blanks after a record are dropped.
 */
export function fixedRecords(
  text: string,
  width: number,
  format: string,
  startsRecord: (record: string) => boolean,
): FixedRecord[] {
  const records: FixedRecord[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, index) => {
    const line = index + 1;
    const unmarked = raw.replace(/^\uFEFF/, '');
    const physical = unmarked.replace(/\s+$/, '');
    if (physical === '') return;
    if (physical.length <= width) {
      records.push({ text: physical.padEnd(width, ' '), line });
      return;
    }
    const chunks: string[] = [];
    for (let at = 0; at < unmarked.length; at += width) chunks.push(unmarked.slice(at, at + width));
    const last = chunks.at(-1)!;
    if (last.trim() === '') chunks.pop();
    if (chunks.length > 1 && chunks.every((chunk) => startsRecord(chunk)))
      for (const chunk of chunks) records.push({ text: chunk.padEnd(width, ' '), line });
    else
      throw new UnreadableStatement(
        `${format}: the line is ${physical.length.toLocaleString('en-US')} characters long, and a ${format} record is ${width}`,
        line,
      );
  });
  return records;
}

/** The field at positions `from` to `to` (1-based, both included), as the specifications say. */
export const field = (record: FixedRecord, from: number, to: number) =>
  record.text.slice(from - 1, to);

/**
 * An amount written as digits with `decimals` of them after an unwritten point, to cents:
 * decimals past the second must be zeros (books holds amounts to the cent), refused otherwise.
 */
export function unitsToCents(
  digits: string,
  decimals: number,
  negative: boolean,
  format: string,
  line: number,
): Cents {
  if (!/^\d+$/.test(digits))
    throw new UnreadableStatement(`${format}: "${digits}" is not an amount (digits only)`, line);
  let whole = digits.replace(/^0+(?=\d)/, '');
  if (decimals > 2) {
    const extra = whole.slice(-(decimals - 2));
    if (/[1-9]/.test(extra))
      throw new UnreadableStatement(
        `${format}: ${digits} has ${decimals} decimals that are not zeros past the second, which books cannot hold to the cent`,
        line,
      );
    whole = whole.slice(0, -(decimals - 2)) || '0';
  } else whole = `${whole}${'0'.repeat(2 - decimals)}`;
  whole = whole.replace(/^0+(?=\d)/, '');
  if (whole.length > 14)
    throw new UnreadableStatement(`${format}: ${digits} is larger than books holds`, line);
  const cents = asCents(Number(whole));
  return negative ? negateCents(cents) : cents;
}

/** `DDMMYY` (CODA, CFONB), or `YYMMDD` (Norma 43), to a day: years 80–99 are 19xx. */
export function sixDigitDay(text: string, order: 'DMY' | 'YMD'): CalendarDay | undefined {
  if (order === 'YMD') return dayOfYymmdd(text);
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  return match ? dayOfYymmdd(`${match[3]}${match[2]}${match[1]}`) : undefined;
}

/** A record's day, or the record refused naming what the day is. */
export function recordDay(
  text: string,
  order: 'DMY' | 'YMD',
  what: string,
  format: string,
  line: number,
): CalendarDay {
  const day = sixDigitDay(text, order);
  if (day === undefined)
    throw new UnreadableStatement(
      `${format}: the ${what} "${text}" is not a day (${order === 'DMY' ? 'DDMMYY' : 'YYMMDD'})`,
      line,
    );
  return day;
}

/** A text field without its padding, runs of spaces made one; null where blank. */
export function textOf(value: string): string | null {
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}
