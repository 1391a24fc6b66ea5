import iconv from 'iconv-lite';

/**
 * Text an audit file's character set cannot hold (a Polish `Ł` in SIE's code page 437 or in
 * DATEV's Windows-1252), replaced rather than written as bytes of another encoding: each such
 * character by the letter it is built on when the set has that (`ź` → `z`: its accents taken
 * off), by the usual spelling of a letter that has no accent to take off (`Ł` → `L`, `Ø` → `O`,
 * `Œ` → `OE`), by ASCII for typography (`’` → `'`, `–` → `-`, `…` → `...`, `€` → `EUR`), else by
 * `?`. Control characters and the characters a format keeps for itself (`forbidden`) become a
 * space. What was replaced is counted and said once (`summary`).
 */
export class CharsetText {
  private readonly encodable = new Map<string, boolean>();
  private replacedTexts = 0;
  private readonly examples: string[] = [];

  constructor(
    /** The format and its character set, as said: `SIE 4 (code page 437)`. */
    private readonly said: string,
    /** An iconv-lite encoding name; `utf-8` holds every character. */
    private readonly encoding: string,
    /** Characters the format's syntax uses (a separator): replaced by `separatorFallback`. */
    private readonly forbidden: ReadonlySet<string> = new Set(),
    private readonly separatorFallback = ' ',
  ) {}

  /** The text as the file can hold it. */
  text(value: string): string {
    let out = '';
    let changed = false;
    for (const character of value) {
      const kept = this.character(character);
      if (kept !== character) changed = true;
      out += kept;
    }
    if (changed) {
      this.replacedTexts += 1;
      if (this.examples.length < 3) this.examples.push(`"${value}" → "${out}"`);
    }
    return out;
  }

  /** One sentence on what was replaced, or undefined when nothing was. */
  summary(): string | undefined {
    if (this.replacedTexts === 0) return undefined;
    const texts = this.replacedTexts === 1 ? '1 text' : `${this.replacedTexts} texts`;
    return `${this.said}: ${texts} had characters it cannot hold, written as the nearest it has (${this.examples.join(', ')}${this.replacedTexts > this.examples.length ? ', …' : ''})`;
  }

  private character(character: string): string {
    const code = character.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029)
      return ' ';
    if (this.forbidden.has(character)) return this.separatorFallback;
    if (this.holds(character)) return character;
    const spelled = SPELLINGS[character];
    if (spelled !== undefined && [...spelled].every((c) => this.holds(c))) return spelled;
    const base = character.normalize('NFD').replace(/\p{Mn}/gu, '');
    if (base !== '' && base !== character && [...base].every((c) => this.holds(c))) return base;
    const baseSpelled = SPELLINGS[base];
    if (baseSpelled !== undefined) return baseSpelled;
    return '?';
  }

  private holds(character: string): boolean {
    if (this.encoding === 'utf-8') return true;
    let known = this.encodable.get(character);
    if (known === undefined) {
      known = iconv.decode(iconv.encode(character, this.encoding), this.encoding) === character;
      this.encodable.set(character, known);
    }
    return known;
  }
}

/** Letters without an accent to take off, and typography, as they are usually spelled. */
const SPELLINGS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ð: 'D',
  ð: 'd',
  Ø: 'O',
  ø: 'o',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Þ: 'Th',
  þ: 'th',
  ß: 'ss',
  ı: 'i',
  Ħ: 'H',
  ħ: 'h',
  '\u00a0': ' ',
  '\u202f': ' ',
  '\u2007': ' ',
  '‘': "'",
  '’': "'",
  '‚': ',',
  '“': '"',
  '”': '"',
  '„': '"',
  '«': '"',
  '»': '"',
  '–': '-',
  '—': '-',
  '−': '-',
  '…': '...',
  '€': 'EUR',
  '•': '*',
};
