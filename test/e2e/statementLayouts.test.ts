import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseNewEntity, runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';

/**
 * A bank's CSV layout saved once (`--save-layout`) and its next files read without flags: the
 * built binary, a temporary HOME, `books serve` on the run's database (the layout is kept in the
 * profile; what it reads is brought in to the platform's).
 */
describe("a bank's CSV layout, saved and used again (the built binary)", () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serveBooks>>;
  let fileNumber = 0;
  beforeAll(async () => {
    home = temporaryHome();
    server = await serveBooks(home, ['--db', path.join(home.home, 'platform.sqlite')]);
    for (const args of [
      ...chooseNewEntity('Layout Books', 'Layout Co'),
      ['sandbox', 'feed', 'connect', '--bank', 'Sparkasse', '--account', 'Checking:bank'],
    ]) {
      const result = await runBooks(args, server.env);
      expect(result.code, result.stderr).toBe(0);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    home.cleanup();
  });

  const books = (...args: string[]) => runBooks(args, server.env);
  const fileOf = (text: string | Buffer, name: string) => {
    const file = path.join(home.home, `${++fileNumber}-${name}`);
    writeFileSync(file, text);
    return file;
  };
  const shown = async (...args: string[]) => {
    const result = await books('statement', 'show', ...args, '--json');
    expect(result.code, result.stderr).toBe(0);
    const [file] = JSON.parse(result.stdout);
    return {
      stderr: result.stderr,
      entries: file.statements.flatMap((s: any) =>
        s.entries.map((e: any) => `${e.bookingDate} ${e.amount} ${e.description}`),
      ),
    };
  };

  // Without a header: day, type, text, amount with a decimal comma, currency.
  const headerless = (rows: string[][]) =>
    rows.map((cells) => cells.map((cell) => `"${cell}"`).join(',')).join('\r\n') + '\r\n';
  const october = headerless([
    ['30.10.2026', 'Lastschrift', 'Stadtwerke', '-84,20', 'EUR'],
    ['31.10.2026', 'Gutschrift', 'ACME GmbH', '1.250,00', 'EUR'],
  ]);
  const november = headerless([
    ['03.11.2026', 'Lastschrift', 'Telekom', '-39,99', 'EUR'],
    // A type left empty: the shape is the same.
    ['04.11.2026', '', 'Bäckerei', '-5,10', 'EUR'],
  ]);
  const headerlessFlags = [
    ...['--map', 'date=1,description=3,amount=4', '--date-format', 'DD.MM.YYYY'],
    '--decimal-comma',
  ];

  it('keeps a headerless layout with --save-layout, and reads the next file of its shape with it', async () => {
    const bare = await books('statement', 'show', fileOf(november, 'bare.csv'));
    expect(bare.code).toBe(3);
    expect(bare.stderr).toContain('a CSV without a header row: name its columns by number');

    const noMap = await books(
      ...['statement', 'show', fileOf(october, 'oct.csv'), '--save-layout', 'Sparkasse'],
    );
    // A layout keeps what was given; a file without a header row cannot be read without a map.
    expect(noMap.code).toBe(3);
    expect(noMap.stderr).toContain('a CSV without a header row: name its columns by number');
    const badName = await books(
      ...['statement', 'show', fileOf(october, 'oct.csv'), ...headerlessFlags],
      ...['--save-layout', '../Sparkasse'],
    );
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain(
      '--save-layout takes a name of letters, digits, spaces, dots, dashes and underscores; got "../Sparkasse"',
    );

    const saved = await shown(
      fileOf(october, 'oct.csv'),
      ...headerlessFlags,
      ...['--save-layout', 'Sparkasse'],
    );
    expect(saved.entries).toEqual(['2026-10-30 -84.2 Stadtwerke', '2026-10-31 1250 ACME GmbH']);
    expect(saved.stderr).toContain(
      `layout "Sparkasse" saved (profile "default"): the bank's CSVs of its shape (no header, 5 columns (day, text, text, amount, text)) are read with --map date=1,description=3,amount=4 --date-format DD.MM.YYYY --decimal-comma from now on`,
    );

    // The next month's file comes in with no flags, said; to the cent.
    const imported = await books(
      ...['transactions', 'import', 'Checking', fileOf(november, 'nov.csv'), '--json'],
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(
      /nov\.csv: read with the saved layout "Sparkasse" \(--map date=1,description=3,amount=4 --date-format DD\.MM\.YYYY --decimal-comma\)/,
    );
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: 2, skipped: 0 });
    const listed = await books('transactions', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      JSON.parse(listed.stdout)
        .map((t: any) => `${t.date} ${t.amount} ${t.description}`)
        .sort(),
    ).toEqual(['2026-11-03 -39.99 Telekom', '2026-11-04 -5.1 Bäckerei']);
  });

  it('reads a file of another shape as before, and --map given wins over a saved layout', async () => {
    // Five columns too, but the amount second: not the saved shape.
    const other = headerless([['03.11.2026', '-39,99', 'Telekom', 'Lastschrift', 'EUR']]);
    const notSaved = await books('statement', 'show', fileOf(other, 'other.csv'));
    expect(notSaved.code).toBe(3);
    expect(notSaved.stderr).not.toContain('saved layout');
    expect(notSaved.stderr).toContain('a CSV without a header row');

    // Four columns: not the saved shape either.
    const fewer = headerless([['03.11.2026', 'Lastschrift', 'Telekom', '-39,99']]);
    expect((await books('statement', 'show', fileOf(fewer, 'fewer.csv'))).code).toBe(3);

    // The flags say otherwise (the type as the description): they are read, not the layout.
    const given = await shown(
      fileOf(november, 'nov.csv'),
      ...['--map', 'date=1,description=2,amount=4', '--date-format', 'DD.MM.YYYY'],
      '--decimal-comma',
    );
    expect(given.stderr).not.toContain('saved layout');
    expect(given.entries[0]).toBe('2026-11-03 -39.99 Lastschrift');
  });

  it('keeps a layout by its header (after a preamble, in UTF-8), and tells a header apart by one column', async () => {
    const sparkasse = (preamble: string[], header: string, rows: string[]) =>
      [...preamble, header, ...rows].join('\n') + '\n';
    const header = 'Buchungstag;Valutadatum;Verwendungszweck;Betrag (€);Währung';
    const first = sparkasse(
      ['Umsätze Girokonto;DE02120300000000202051', 'Zeitraum: 01.10.2026 - 31.10.2026', ''],
      header,
      ['30.10.2026;30.10.2026;Stadtwerke Abschlag;-84,20;EUR'],
    );
    const saved = await shown(
      fileOf(first, 'umsaetze-oktober.csv'),
      ...['--map', 'date=Buchungstag,amount=Betrag (€),description=Verwendungszweck'],
      ...['--date-format', 'DD.MM.YYYY', '--decimal-comma', '--save-layout', 'Sparkasse Giro'],
    );
    expect(saved.entries).toEqual(['2026-10-30 -84.2 Stadtwerke Abschlag']);
    expect(saved.stderr).toMatch(/layout "Sparkasse Giro" saved .*header buchungstag, valutadatum/);

    // November's preamble names another period; its header is the same.
    const next = sparkasse(
      ['Umsätze Girokonto;DE02120300000000202051', 'Zeitraum: 01.11.2026 - 30.11.2026', ''],
      header,
      [
        '02.11.2026;02.11.2026;Miete November;-1.200,00;EUR',
        '05.11.2026;05.11.2026;Honorar;3.000,00;EUR',
      ],
    );
    const read = await shown(fileOf(next, 'umsaetze-november.csv'));
    expect(read.stderr).toContain('read with the saved layout "Sparkasse Giro"');
    expect(read.entries).toEqual(['2026-11-02 -1200 Miete November', '2026-11-05 3000 Honorar']);

    // A sixth column (the bank added one): not the saved layout; the file says what it lacks.
    const wider = sparkasse([], `${header};Kategorie`, [
      '02.11.2026;02.11.2026;Miete;-1.200,00;EUR;Wohnen',
    ]);
    const notRead = await books('statement', 'show', fileOf(wider, 'wider.csv'));
    expect(notRead.stderr).not.toContain('saved layout');
  });

  it('refuses to keep the layout of a file that is not a bank CSV', async () => {
    const mt940 = fileOf(
      [
        ':20:OCT',
        ':25:DE02120300000000202051',
        ':28C:1/1',
        ':60F:C261001EUR0,00',
        ':61:2610301030D84,20NTRFNONREF',
        ':86:Stadtwerke',
        ':62F:D261031EUR84,20',
        '-',
      ].join('\r\n'),
      'october.sta',
    );
    const result = await books(
      ...['statement', 'show', mt940, '--map', 'date=1,amount=2', '--save-layout', 'MT'],
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--save-layout keeps a bank CSV's layout; ${mt940} is mt940`);
  });

  it('refuses a layout whose header lies beyond the first 64 kB, saying why', async () => {
    const preamble = Array.from({ length: 25 }, (_, i) => `Hinweis ${i};${'x'.repeat(3000)}`);
    const file = fileOf(
      [...preamble, 'Datum;Betrag;Text', '30.10.2026;-84,20;Stadtwerke'].join('\n') + '\n',
      'long-preamble.csv',
    );
    const result = await books(
      ...['statement', 'show', file, '--map', 'date=Datum,amount=Betrag,description=Text'],
      ...['--date-format', 'DD.MM.YYYY', '--decimal-comma', '--save-layout', 'Long'],
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--save-layout Long: ${file}'s first lines hold no row with every column --map names`,
    );
  });

  it('lists the saved layouts, and forgets one', async () => {
    const listed = await books('statement', 'layouts', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((l: any) => [l.name, l.map])).toEqual([
      ['Sparkasse', { date: '1', description: '3', amount: '4' }],
      [
        'Sparkasse Giro',
        { date: 'Buchungstag', amount: 'Betrag (€)', description: 'Verwendungszweck' },
      ],
    ]);
    const text = await books('statement', 'layouts');
    expect(text.stdout).toContain('no header, 5 columns (day, text, text, amount, text)');
    expect(text.stdout).toContain('header buchungstag, valutadatum, verwendungszweck');

    const noFlag = await books('statement', 'layouts', 'Sparkasse');
    expect(noFlag.code).toBe(2);
    expect(noFlag.stderr).toContain(
      'statement layouts NAME --forget: name the layout to forget, with --forget',
    );
    const unknown = await books('statement', 'layouts', 'Postbank', '--forget');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'no layout "Postbank" is saved; books statement layouts lists those that are',
    );
    for (const name of ['Sparkasse', 'Sparkasse Giro']) {
      const forgotten = await books('statement', 'layouts', name, '--forget');
      expect(forgotten.code, forgotten.stderr).toBe(0);
      expect(forgotten.stderr).toContain(`layout "${name}" forgotten`);
    }
    const none = await books('statement', 'layouts');
    expect(none.stderr).toContain(
      'books: no layouts saved: read a bank CSV with --map … --save-layout NAME to keep one',
    );
    // Forgotten: the next file needs its flags again.
    expect((await books('statement', 'show', fileOf(november, 'nov.csv'))).code).toBe(3);
  });
});
