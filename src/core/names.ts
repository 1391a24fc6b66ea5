/**
 * How names compare, everywhere (the platform's uniqueness checks, the CLI's and the import's
 * resolution of what a person typed or a file holds): trimmed, case-insensitive.
 */
export function nameKey(name: string): string {
  return name.trim().toLocaleLowerCase('en-US');
}

/** Names said in a sentence: the first `shown`, then how many more (`a, b and 3 more`). */
export const listed = (items: readonly string[], shown = 8) =>
  items.length > shown
    ? `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`
    : items.join(', ');

/** Codes in the order a chart lists them: numbers numerically, then the rest as text. */
export const byCode = (a: string, b: string) =>
  /^\d+$/.test(a) && /^\d+$/.test(b)
    ? Number(a) - Number(b) || a.localeCompare(b)
    : a.localeCompare(b);

/**
 * A pool of texts: each distinct text kept once, however often it is read (a year of a bank
 * account repeats its days, its customers, its fees). `kept(text)` is the pool's copy.
 */
export function textPool(): (text: string) => string {
  const texts = new Map<string, string>();
  return (text) => {
    const known = texts.get(text);
    if (known !== undefined) return known;
    texts.set(text, text);
    return text;
  };
}
