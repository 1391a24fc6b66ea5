/** A field of a CSV file, quoted as RFC 4180 asks when it holds a quote, a comma or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
