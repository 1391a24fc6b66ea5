/**
 * How names compare, everywhere (the platform's uniqueness checks, the CLI's and the import's
 * resolution of what a person typed or a file holds): trimmed, case-insensitive.
 */
export function nameKey(name: string): string {
  return name.trim().toLocaleLowerCase('en-US');
}

/**
 * A name as a person may type it without its accents or its exact spacing (`Harbour Cafe` for
 * `Harbour Café`): folded to compare, never to keep.
 */
export function foldedKey(name: string): string {
  return nameKey(name)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ');
}

/** Edits (insert, delete, change, swap two neighbours) that make one text the other. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++)
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/**
 * The names closest to what a person typed (`Utilites` → `Utilities`), for a "did you mean":
 * those a few edits away (a third of the word at most), or that contain it or that it
 * contains; nearest first, `max` at most.
 */
export function closestNames(names: readonly string[], given: string, max = 3): string[] {
  const wanted = foldedKey(given);
  if (wanted === '') return [];
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(names)) {
    const key = foldedKey(name);
    const distance = editDistance(key.slice(0, 200), wanted.slice(0, 200));
    const near = distance <= Math.max(1, Math.floor(Math.max(key.length, wanted.length) / 3));
    const within = wanted.length >= 3 && (key.includes(wanted) || wanted.includes(key));
    if (near || within) scored.push({ name, score: near ? distance : key.length });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((s) => s.name);
}

/** ` (did you mean "Utilities"?)`, or nothing when no name is close. */
export function didYouMean(names: readonly string[], given: string): string {
  const close = closestNames(names, given);
  return close.length === 0
    ? ''
    : `; did you mean ${close
        .map((n) => `"${n}"`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}?`;
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
