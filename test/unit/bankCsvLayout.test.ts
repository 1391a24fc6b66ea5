import { describe, expect, it } from 'vitest';
import { csvShape, shapeFits, shapeText } from '../../src/formats/bankCsv/layout.js';

describe("a bank's CSV layout: the shape of its files", () => {
  it('by numbers: the first row’s count of columns and what each holds, whatever the delimiter', () => {
    const map = { date: '1', description: '2', amount: '3' };
    for (const delimiter of [',', ';', '\t', '|']) {
      const row = (cells: string[]) => cells.join(delimiter);
      const shape = csvShape(
        row(['2026-10-02', '"Invoice 117, part"', '"-1.250,00"', '']) + '\n',
        map,
      )!;
      expect(shapeText(shape)).toBe('no header, 4 columns (day, text, amount, empty)');
      // The optional last cell filled; another day's format; a quoted text with the delimiter.
      expect(shapeFits(row(['02/10/2026', '"Rent; October"', '400', 'x']) + '\n', shape)).toBe(
        true,
      );
      expect(shapeFits(row(['02/10/2026', '400', 'Rent', '']) + '\n', shape)).toBe(false);
      expect(shapeFits(row(['02/10/2026', 'Rent', '400']) + '\n', shape)).toBe(false);
    }
  });

  it('by names: the header row that holds every column mapped, below any preamble', () => {
    const map = { date: 'Buchungstag', amount: 'Betrag (€)' };
    const header = 'Buchungstag;Verwendungszweck;Betrag (€)';
    const shape = csvShape(
      `Konto;DE02120300000000202051\n\n${header}\n01.10.2026;Miete;-400,00\n`,
      map,
    )!;
    expect(shapeFits(`${header}\n`, shape)).toBe(true);
    expect(
      shapeFits(`Zeitraum: November\n"Buchungstag";"Verwendungszweck";"Betrag (€)"\n`, shape),
    ).toBe(true);
    expect(shapeFits(`${header};Kategorie\n`, shape)).toBe(false);
    expect(shapeFits('Buchungstag;Betrag (€);Verwendungszweck\n', shape)).toBe(false);
    expect(csvShape(`${header}\n`, { date: 'Datum', amount: 'Betrag (€)' })).toBeUndefined();
  });
});
