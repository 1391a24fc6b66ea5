import { spawnSync } from 'node:child_process';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { constants, crc32, createDeflateRaw, createGzip, type Gzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKS_BIN, chooseNewEntity, runBooks, temporaryHome } from '../helpers/cli.js';
import { writeBookSqlite } from '../helpers/gnucashBooks.js';
import {
  bai2File,
  camtFile,
  mt940File,
  ofxFile,
  type ModelStatement,
} from '../helpers/statementFiles.js';

/*
 * Input that is hostile or huge, as each reader family meets it — XML, CSV and lines of text,
 * fixed-width records, gzip, a SQLite book, a zipped workbook — through the built binary: each
 * refused in one sentence naming the file and where (exit 3), in bounded memory, never "a bug".
 */

const MILLION = 1024 * 1024;

describe('hostile or huge input, refused in one sentence (the built binary)', () => {
  let home: ReturnType<typeof temporaryHome>;
  let files = 0;
  beforeAll(() => {
    home = temporaryHome();
  });
  afterAll(() => home.cleanup());
  const fileOf = (name: string, content?: string | Buffer) => {
    const file = path.join(home.home, `${++files}-${name}`);
    if (content !== undefined) writeFileSync(file, content);
    return file;
  };
  const refused = async (args: string[]) => {
    const result = await runBooks(args, home.env);
    expect(result.stderr).not.toMatch(/a bug|at .*\.js:\d+/);
    expect(result.code, result.stderr).toBe(3);
    return result.stderr;
  };
  /** Gzip-compressed text written as it is made (never held whole). */
  const gzipped = async (
    name: string,
    write: (put: (text: string) => Promise<void>) => Promise<void>,
  ) => {
    const file = fileOf(name);
    const gzip: Gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
    const out = createWriteStream(file);
    gzip.pipe(out);
    await write(async (text) => {
      if (!gzip.write(text)) await once(gzip, 'drain');
    });
    gzip.end();
    await once(out, 'close');
    return file;
  };
  const gnucashHead = `<?xml version="1.0" encoding="utf-8" ?>
<gnc-v2 xmlns:gnc="http://www.gnucash.org/XML/gnc" xmlns:act="http://www.gnucash.org/XML/act" xmlns:book="http://www.gnucash.org/XML/book" xmlns:cd="http://www.gnucash.org/XML/cd">
<gnc:book version="2.0.0">
<book:id type="guid">0123456789abcdef0123456789abcdef</book:id>
`;
  const statement: ModelStatement = {
    account: 'NL91ABNA0417164300',
    currency: 'EUR',
    from: '2026-10-01',
    to: '2026-10-31',
    opening: 0,
    entries: [{ booked: '2026-10-02', cents: 250_00, reference: 'R1', text: 'Invoice 117' }],
  };

  it('gzip: a GnuCash book of 800 kB that unpacks to an 800 MB account name, in bounded memory', async () => {
    const bomb = await gzipped('bomb.gnucash', async (put) => {
      await put(`${gnucashHead}<gnc:account version="2.0.0">\n<act:name>`);
      const a = 'A'.repeat(MILLION);
      for (let i = 0; i < 800; i++) await put(a);
      await put('</act:name>\n</gnc:account>\n</gnc:book>\n</gnc-v2>\n');
    });
    const gnuTime = existsSync('/usr/bin/time');
    const run = spawnSync(
      gnuTime ? '/usr/bin/time' : process.execPath,
      [
        ...(gnuTime ? ['-f', 'peak-rss-kb %M', process.execPath] : []),
        BOOKS_BIN,
        ...['migrate', 'run', bomb, '--dry-run'],
      ],
      { env: home.env, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(3);
    expect(run.stderr).toContain(
      `${bomb}:6: a text, name or value (the characters between two tags) is longer than 1,048,576 characters, which no export's is: refused`,
    );
    expect(run.stderr).not.toMatch(/a bug|RangeError/);
    if (gnuTime) {
      const peakMb = Number(/peak-rss-kb (\d+)/.exec(run.stderr)![1]) / 1024;
      expect(peakMb).toBeLessThan(300);
    } else console.log('peak memory not measured: /usr/bin/time (GNU time) is not installed');
  }, 60_000);

  it('gzip: a book that unpacks past a hundred times its size (no one text too long)', async () => {
    const bomb = await gzipped('ratio.gnucash', async (put) => {
      await put(gnucashHead);
      const count = `<gnc:count-data cd:type="x">${'9'.repeat(1_000_000)}</gnc:count-data>\n`;
      for (let i = 0; i < 300; i++) await put(count);
      await put('</gnc:book>\n</gnc-v2>\n');
    });
    const said = await refused(['migrate', 'run', bomb, '--dry-run']);
    expect(said).toMatch(
      /ratio\.gnucash:\d+: the gzip-compressed data unpacks to more than 256 MB from \d+ kB, past 100 times its size: a compressed bomb, refused/,
    );
  }, 60_000);

  it('XML: a camt statement with a text of two million characters', async () => {
    const xml = camtFile([statement], { message: '053', version: '08' }).replace(
      'Invoice 117',
      'I'.repeat(2 * MILLION),
    );
    const said = await refused(['statement', 'show', fileOf('long.xml', xml)]);
    expect(said).toMatch(
      /long\.xml:\d+: cannot read the statement: .*is longer than 1,048,576 characters, which no export's is: refused/,
    );
  });

  it('lines of text and CSV: an MT940 line, an OFX value, a BAI2 record, a bank CSV line, a ledger CSV record, a SIE line of two million characters', async () => {
    const mt940 = mt940File([statement]).replace(
      'SVWZ+Invoice 11',
      `SVWZ+${'I'.repeat(2 * MILLION)}`,
    );
    expect(await refused(['statement', 'show', fileOf('long.sta', mt940)])).toMatch(
      /long\.sta:\d+: cannot read the statement: MT940: the line is longer than 1,048,576 characters, which no export's is: refused/,
    );
    // OFX may be one line, and BAI2 records may run together on one: a value or record so long.
    const ofx = ofxFile(statement, { version: 2, card: false }).replace(
      'Invoice 117',
      'I'.repeat(2 * MILLION),
    );
    expect(await refused(['statement', 'show', fileOf('long.ofx', ofx)])).toMatch(
      /long\.ofx:\d+: cannot read the statement: OFX: a value \(the characters between two tags\) is longer than 1,048,576 characters/,
    );
    const bai2 = bai2File([statement]).replace('Invoice 117', 'I'.repeat(2 * MILLION));
    expect(await refused(['statement', 'show', fileOf('long.bai', bai2)])).toMatch(
      /long\.bai:\d+: cannot read the statement: BAI2: a record \(the characters between two \/\) is longer than 1,048,576 characters/,
    );
    const bankCsv = `Date,Amount,Description\n2026-10-02,250.00,${'I'.repeat(2 * MILLION)}\n`;
    expect(await refused(['statement', 'show', fileOf('long.csv', bankCsv)])).toContain(
      'long.csv:2: cannot read the statement: CSV: the line is longer than 1,048,576 characters',
    );
    const ledger = `date,account,debit,credit,memo\n2026-10-02,Cash,250.00,,"${'I'.repeat(2 * MILLION)}"\n2026-10-02,Sales,,250.00,x\n`;
    expect(
      await refused(['migrate', 'run', fileOf('long-ledger.csv', ledger), '--dry-run']),
    ).toContain(
      'a record is longer than 1,048,576 characters (an unclosed quote, or not a CSV file)',
    );
    const sie = Buffer.from(
      `#FLAGGA 0\n#SIETYP 4\n#FNAMN "${'I'.repeat(2 * MILLION)}"\n`,
      'latin1',
    );
    expect(await refused(['migrate', 'run', fileOf('long.se', sie), '--dry-run'])).toMatch(
      /long\.se:3: the line is longer than 1,048,576 characters, which no export's is: refused/,
    );
  });

  it('fixed-width records and files read whole: a CODA line that is no records, a statement of 200 MB', async () => {
    const header = `0000012102672505        00099449  Testgebruiker21           KREDBEBB   00630366277 00000                                       2`;
    const coda = `${header}\r\n1${'x'.repeat(3 * MILLION)}\r\n`;
    expect(await refused(['statement', 'show', fileOf('garbage.cod', coda)])).toContain(
      'garbage.cod:2: cannot read the statement: CODA: the line is 3,145,729 characters long, and a CODA record is 128',
    );
    // A sparse file: two hundred megabytes that take no room.
    const huge = fileOf('huge.sta', ':20:STATEMENT\r\n');
    truncateSync(huge, 200 * MILLION);
    expect(await refused(['statement', 'show', huge])).toContain(
      'huge.sta: cannot read the statement: the file is 200 MB, and a statement (read whole) may be 128 MB: split it by month',
    );
    // A file of decisions, read whole as well.
    for (const args of chooseNewEntity('Hostile Books', 'Hostile Co'))
      expect((await runBooks(args, home.env)).code).toBe(0);
    const decisions = fileOf('decisions.csv', 'id,account\n');
    truncateSync(decisions, 200 * MILLION);
    expect(
      await refused(['transactions', 'categorize', '--from', decisions, '--dry-run']),
    ).toContain('decisions.csv: the file is 200 MB, more than a file of decisions holds: refused');
  });

  it('SQLite: a GnuCash book whose account name is two million characters', async () => {
    const book = fileOf('long.gnucash');
    const usd = { space: 'CURRENCY', id: 'USD' };
    writeBookSqlite(
      book,
      {
        accounts: [
          { id: 'a'.repeat(32), name: 'N'.repeat(2 * MILLION), type: 'BANK', commodity: usd },
          { id: 'b'.repeat(32), name: 'Sales', type: 'INCOME', commodity: usd },
        ],
        transactions: [
          {
            id: 'c'.repeat(32),
            date: '2026-10-02',
            description: 'Invoice 117',
            currency: usd,
            splits: [
              { account: 'a'.repeat(32), value: [25000, 100], quantity: [25000, 100] },
              { account: 'b'.repeat(32), value: [-25000, 100], quantity: [-25000, 100] },
            ],
          },
        ],
      },
      usd,
    );
    expect(await refused(['migrate', 'run', book, '--dry-run'])).toMatch(
      /long\.gnucash:1: the name of row \d+ of the accounts table is longer than 1,048,576 characters, which no export's is: refused/,
    );
  });

  it('zip workbooks: an .xlsx whose sheet unpacks to 300 MB from a few hundred kilobytes', async () => {
    // The sheet's part, deflated as it is made; then a zip of it (its directory says its size).
    const deflate = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
    const pieces: Buffer[] = [];
    deflate.on('data', (piece: Buffer) => pieces.push(piece));
    const row = Buffer.alloc(MILLION, 0x20);
    for (let i = 0; i < 300; i++) if (!deflate.write(row)) await once(deflate, 'drain');
    deflate.end();
    await once(deflate, 'end');
    const packed = Buffer.concat(pieces);
    const parts = [
      {
        name: '[Content_Types].xml',
        data: Buffer.from('<Types/>'),
        packed: Buffer.from('<Types/>'),
        method: 0,
      },
      { name: 'xl/worksheets/sheet1.xml', data: null, packed, method: 8, size: 300 * MILLION },
    ];
    const local: Buffer[] = [];
    const central: Buffer[] = [];
    let offset = 0;
    for (const part of parts) {
      const name = Buffer.from(part.name);
      const size = part.size ?? part.data!.length;
      const crc = part.data ? crc32(part.data) : 0;
      const header = Buffer.alloc(30);
      header.writeUInt32LE(0x04034b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(part.method, 8);
      header.writeUInt32LE(crc, 14);
      header.writeUInt32LE(part.packed.length, 18);
      header.writeUInt32LE(size, 22);
      header.writeUInt16LE(name.length, 26);
      local.push(header, name, part.packed);
      const entry = Buffer.alloc(46);
      entry.writeUInt32LE(0x02014b50, 0);
      entry.writeUInt16LE(20, 4);
      entry.writeUInt16LE(20, 6);
      entry.writeUInt16LE(part.method, 10);
      entry.writeUInt32LE(crc, 16);
      entry.writeUInt32LE(part.packed.length, 20);
      entry.writeUInt32LE(size, 24);
      entry.writeUInt16LE(name.length, 28);
      entry.writeUInt32LE(offset, 42);
      central.push(entry, name);
      offset += 30 + name.length + part.packed.length;
    }
    const directory = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(parts.length, 8);
    end.writeUInt16LE(parts.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    const workbook = fileOf('bomb.xlsx', Buffer.concat([...local, directory, end]));
    expect(await refused(['migrate', 'run', workbook, '--dry-run'])).toMatch(
      /bomb\.xlsx:1: the workbook: its part xl\/worksheets\/sheet1\.xml unpacks to more than 300 MB from \d+ kB, past 100 times its size: a compressed bomb, refused/,
    );
  }, 30_000);
});
