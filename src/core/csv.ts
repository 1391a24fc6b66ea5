/**
 * A text cell made safe for a spreadsheet: one beginning with `=`, `+`, `-`, `@`, a tab or a CR
 * would be run as a formula, so it gets a leading `'` (which spreadsheets show as text). Numbers
 * (`-1234.56`) are never changed.
 */
export function spreadsheetText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

/** A TSV field: backslash, tab, CR and newline escaped, so a cell can never break a line. */
export function tsvField(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\t/g, '\\t')
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n');
}

/** A field of a CSV file, quoted as RFC 4180 asks when it holds a quote, a comma or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
