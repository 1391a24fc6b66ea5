import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isCalendarDay } from '../../core/calendar.js';

/**
 * The string formats the platform's schemas use, as ajv checks them: ajv-formats' date-time and
 * uuid, and one definition of a calendar day for the whole platform (ajv's own accepts year
 * 0000). Given to ajv at run time and named in the validators written at build time.
 */
export const VALIDATION_FORMATS = {
  date: (text: string) => isCalendarDay(text),
  'date-time': fullFormats['date-time'],
  uuid: fullFormats.uuid,
};
