import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * Text in a PDF, in fonts that travel with `books` (Noto Sans from npm, embedded as subsets):
 * Noto Sans for Latin, Greek and Cyrillic (`Müller`, `Łódź`), and Noto Sans JP, loaded only
 * when a name needs it, for kana and the CJK ideographs (`東京`). Each string is set in runs,
 * every character in the first font that has it; a character neither has shows as the font's
 * empty box.
 *
 * The fonts' OpenType layout tables (GSUB, GPOS, GDEF) are hidden from the layout engine: a
 * pack's text needs no shaping (no ligatures, no scripts that join), and shaping every cell of
 * a million-line ledger took ten times as long as setting it. The glyphs are the same.
 */

const require = createRequire(import.meta.url);

const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  cjk: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  cjkBold: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
} as const;

type FontName = keyof typeof FONT_FILES;

const loaded = new Map<FontName, { file: Buffer; glyphs: fontkit.Font }>();

/**
 * A font file with its layout tables renamed out of the layout engine's sight, and the font as
 * fontkit reads it (to ask which characters it has); read once a process, however many packs
 * (`--all-entities`) are drawn with it.
 */
function unshapedFont(name: FontName): { file: Buffer; glyphs: fontkit.Font } {
  const known = loaded.get(name);
  if (known) return known;
  const font = Buffer.from(readFileSync(require.resolve(FONT_FILES[name])));
  const tables = font.readUInt16BE(4);
  for (let i = 0; i < tables; i++) {
    const at = 12 + 16 * i;
    const tag = font.toString('latin1', at, at + 4);
    if (tag === 'GSUB' || tag === 'GPOS' || tag === 'GDEF')
      font.write(tag.toLowerCase(), at, 'latin1');
  }
  const read = { file: font, glyphs: fontkit.create(font) as fontkit.Font };
  loaded.set(name, read);
  return read;
}

/** Printable ASCII: always in the Latin font. */
const ASCII = /^[\x20-\x7e]*$/;

export interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
}

export class PdfText {
  private readonly latin: fontkit.Font;
  private cjkLoaded = false;
  private cjk: fontkit.Font | undefined;

  constructor(private readonly doc: PDFKit.PDFDocument) {
    const regular = unshapedFont('regular');
    this.latin = regular.glyphs;
    doc.registerFont('regular', regular.file);
    doc.registerFont('bold', unshapedFont('bold').file);
  }

  /** `text` cut into runs of one font each. */
  private runs(text: string, bold: boolean): [string, string][] {
    const latin = bold ? 'bold' : 'regular';
    if (ASCII.test(text)) return [[latin, text]];
    const runs: [string, string][] = [];
    for (const char of text) {
      const code = char.codePointAt(0)!;
      const font =
        this.latin.hasGlyphForCodePoint(code) || !this.cjkFont()?.hasGlyphForCodePoint(code)
          ? latin
          : bold
            ? 'cjkBold'
            : 'cjk';
      const last = runs[runs.length - 1];
      if (last && last[0] === font) last[1] += char;
      else runs.push([font, char]);
    }
    return runs;
  }

  private cjkFont(): fontkit.Font | undefined {
    if (!this.cjkLoaded) {
      this.cjkLoaded = true;
      const regular = unshapedFont('cjk');
      this.cjk = regular.glyphs;
      this.doc.registerFont('cjk', regular.file);
      this.doc.registerFont('cjkBold', unshapedFont('cjkBold').file);
    }
    return this.cjk;
  }

  /** How wide `text` is set in `style`. */
  width(text: string, style: TextStyle): number {
    let width = 0;
    for (const [font, run] of this.runs(text, style.bold ?? false)) {
      width += this.doc.font(font).fontSize(style.size).widthOfString(run);
    }
    return width;
  }

  /** `text` shortened with … to fit `width`. */
  fit(text: string, style: TextStyle, width: number): string {
    if (this.width(text, style) <= width) return text;
    const chars = [...text];
    let low = 0;
    let high = chars.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.width(`${chars.slice(0, mid).join('')}…`, style) <= width) low = mid;
      else high = mid - 1;
    }
    return `${chars.slice(0, low).join('').trimEnd()}…`;
  }

  /**
   * Sets `text` on one line with its top at `y`: from `x`, or with `align: 'right'` ending at
   * `x`; cut with … to `width` when one is given.
   */
  draw(
    text: string,
    x: number,
    y: number,
    style: TextStyle & { align?: 'left' | 'right'; width?: number },
  ): void {
    if (text === '') return;
    const fitted = style.width === undefined ? text : this.fit(text, style, style.width);
    let at = style.align === 'right' ? x - this.width(fitted, style) : x;
    this.doc.fillColor(style.color ?? '#000000');
    for (const [font, run] of this.runs(fitted, style.bold ?? false)) {
      this.doc.font(font).fontSize(style.size);
      this.doc.text(run, at, y, { lineBreak: false });
      at += this.doc.widthOfString(run);
    }
  }
}
