import type { CalendarDay } from '../../core/calendar.js';

export {
  commonText,
  descriptionKey,
  generateRules,
  RuleLearner,
  type GeneratedRule,
  type LearningLine,
} from '../../core/ruleLearning.js';
import type { LearningLine } from '../../core/ruleLearning.js';

/** The Procedure's window: entries dated in the year before the bookkeeping start date. */
export function learningWindow(bookkeepingStartDate: CalendarDay): {
  from: CalendarDay;
  before: CalendarDay;
} {
  const year = Number(bookkeepingStartDate.slice(0, 4)) - 1;
  let from = `${String(year).padStart(4, '0')}${bookkeepingStartDate.slice(4)}`;
  if (from.endsWith('-02-29')) from = `${from.slice(0, 8)}28`;
  return { from, before: bookkeepingStartDate };
}

/** A line's text for learning: its description, else the entry memo when it is ≤ 1,024 bytes. */
export function learningText(description: string, memo: string | null): string {
  if (description.trim() !== '') return description;
  if (memo && Buffer.byteLength(memo, 'utf8') <= 1024) return memo;
  return '';
}

/** The lines to learn from, as they are read: each with its `learningText`, those without any left out. */
export function* learningLinesOf(
  rows: Iterable<{ description: string; memo: string | null; accountId: string }>,
): Generator<LearningLine> {
  for (const row of rows) {
    const description = learningText(row.description, row.memo);
    if (description !== '') yield { description, accountId: row.accountId };
  }
}
