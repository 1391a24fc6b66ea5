import { detectDelimiter, lineCells } from '../common/csvRecords.js';
import { headerKey } from './reader.js';

/*
 * A bank's CSV layout, remembered: the shape of its files — its header row, or, for a file
 * without one, its count of columns and what each holds — so that the next file of that shape
 * is read with the same `--map`, date format, decimal mark and encoding without flags.
 */

/** What a cell holds, as far as telling a file's shape goes. */
export type CellKind = 'day' | 'amount' | 'text' | 'empty';

export type CsvShape = { header: string[] } | { columns: number; kinds: CellKind[] };

const kindOf = (cell: string): CellKind => {
  const text = cell.trim();
  if (text === '') return 'empty';
  if (/^(\d{4}-\d\d-\d\d|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{8})$/.test(text)) return 'day';
  if (/^[-+]?[\d.,' ]*\d$/.test(text) && /\d/.test(text)) return 'amount';
  return 'text';
};

/** The first lines of a file (at most 30 not empty), each split at its delimiter. */
function firstRows(head: string): string[][] {
  const rows: string[][] = [];
  for (const line of head.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') continue;
    const cells = lineCells(line, detectDelimiter(line));
    if (cells) rows.push(cells);
    if (rows.length === 30) break;
  }
  return rows;
}

/**
 * The shape of a file a `--map` reads: by numbers, its first row's count of columns and kinds;
 * by names, the header row that holds every name mapped. Undefined when the map names columns
 * the file's first lines do not hold.
 */
export function csvShape(
  head: string,
  map: Readonly<Record<string, string>>,
): CsvShape | undefined {
  const rows = firstRows(head);
  const names = Object.values(map);
  if (names.length === 0) {
    // No --map: the file's own header (the first row of texts alone, below any preamble of
    // fewer columns), else its columns and what they hold.
    const widest = Math.max(0, ...rows.map((cells) => cells.length));
    const header = rows.find(
      (cells) =>
        cells.length === widest &&
        cells.filter((cell) => kindOf(cell) === 'text').length >= 2 &&
        cells.every((cell) => kindOf(cell) === 'text' || kindOf(cell) === 'empty'),
    );
    if (header) return { header: header.map(headerKey) };
    const [first] = rows;
    return first && { columns: first.length, kinds: first.map(kindOf) };
  }
  if (names.every((name) => /^\d{1,3}$/.test(name.trim()))) {
    const [first] = rows;
    return first && { columns: first.length, kinds: first.map(kindOf) };
  }
  const wanted = names.map(headerKey);
  const header = rows.find((cells) => {
    const keys = cells.map(headerKey);
    return wanted.every((key) => keys.includes(key));
  });
  return header && { header: header.map(headerKey) };
}

/** Whether a file's first lines have a shape. */
export function shapeFits(head: string, shape: CsvShape): boolean {
  const rows = firstRows(head);
  if ('header' in shape)
    return rows.some(
      (cells) =>
        cells.length === shape.header.length &&
        cells.every((cell, i) => headerKey(cell) === shape.header[i]),
    );
  const [first] = rows;
  return (
    first !== undefined &&
    first.length === shape.columns &&
    first.every((cell, i) => {
      const kind = kindOf(cell);
      // An optional cell may be empty in one file and filled in the next.
      return kind === shape.kinds[i] || kind === 'empty' || shape.kinds[i] === 'empty';
    })
  );
}

/** A shape in words: `header Datum;Betrag;…` or `no header, 12 columns (day, text, amount, …)`. */
export const shapeText = (shape: CsvShape) =>
  'header' in shape
    ? `header ${shape.header.join(', ')}`
    : `no header, ${shape.columns} columns (${shape.kinds.join(', ')})`;
