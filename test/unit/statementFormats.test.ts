import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import type { StatementFile, StatementReadOptions } from '../../src/formats/statement.js';
import { readStatementFile, statementFormatOf } from '../../src/formats/statements.js';
import { statementTransactions } from '../../src/cli/statements/reading.js';
import { xsdProblems } from '../helpers/auditFileRules.js';
import {
  bai2File,
  bankCsvFile,
  CAMT_VERSIONS,
  camtFile,
  cfonb120File,
  closingOf,
  codaFile,
  mt940File,
  norma43File,
  ofxFile,
  qifFile,
  type ModelStatement,
} from '../helpers/statementFiles.js';
import { expectModel, november, october } from '../helpers/statementModel.js';

/*
 * Every statement format read across what its specification allows, from files written in the
 * test from one model (test/helpers/statementFiles.ts): each read to the model's own figures —
 * its account, currency, period, balances, and each entry's day, signed amount, reference, party
 * and text — and nothing said against itself when the file agrees with itself.
 */

const directory = mkdtempSync(path.join(os.tmpdir(), 'books-statements-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

async function read(
  name: string,
  content: string | Buffer,
  options: StatementReadOptions = {},
): Promise<StatementFile> {
  const file = path.join(directory, `${++files}-${name}`);
  writeFileSync(file, content);
  return readStatementFile(file, options);
}

describe('ISO 20022 camt', () => {
  for (const message of ['053', '052'] as const) {
    it.each(CAMT_VERSIONS)(
      `camt.${message}.001.%s: balances, entries, reversals on their real side`,
      async (version) => {
        const file = await read(
          `camt${message}-${version}.xml`,
          camtFile([october, november], { message, version }),
        );
        expect(file.format).toBe('camt');
        expect(file.checks).toEqual([]);
        expect(file.statements).toHaveLength(2);
        expect(file.statements[0]!.account).toBe('NL91ABNA0417164300');
        expectModel(file.statements[0]!, october, { valueDates: true });
        expectModel(file.statements[1]!, november);
      },
    );
  }

  it.each(CAMT_VERSIONS)('camt.054.001.%s: notifications, no balances', async (version) => {
    const file = await read(
      `camt054-${version}.xml`,
      camtFile([october], { message: '054', version }),
    );
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, october, { balances: 'none' });
  });

  it('a namespace prefix, a business application header envelope, date-times, PRCD for the opening', async () => {
    const file = await read(
      'camt-variants.xml',
      camtFile([october], {
        message: '053',
        version: '08',
        prefix: 'camt',
        envelope: true,
        dateTimes: true,
        previousClosing: true,
      }),
    );
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, october);
  });

  it('pending entries are kept apart from booked ones, and make no balance', async () => {
    const withPending: ModelStatement = {
      ...october,
      entries: [
        ...october.entries,
        { booked: '2026-10-31', cents: -99_99, text: 'Card authorization', status: 'pending' },
      ],
    };
    const file = await read(
      'camt-pending.xml',
      camtFile([withPending], { message: '053', version: '10' }),
    );
    expect(file.checks).toEqual([]);
    expect(file.statements[0]!.entries.at(-1)!.status).toBe('pending');
    expect(file.statements[0]!.closing).toBe(closingOf(october));
  });

  it('says what the file says against itself, and reads on: a closing its entries do not make, a summary count, a missing statement', async () => {
    const wrong = camtFile([october, { ...november }], {
      message: '053',
      version: '02',
      sequence: 7,
    })
      .replace('<ElctrncSeqNb>8</ElctrncSeqNb>', '<ElctrncSeqNb>9</ElctrncSeqNb>')
      .replace('<NbOfNtries>2</NbOfNtries>', '<NbOfNtries>3</NbOfNtries>')
      .replace(/(<Cd>CLBD<\/Cd><\/CdOrPrtry><\/Tp><Amt Ccy="EUR">)([\d.]+)/, '$1100.00');
    const file = await read('camt-wrong.xml', wrong);
    expect(file.statements).toHaveLength(2);
    const said = file.checks.map((c) => c.message).join('\n');
    expect(said).toContain(', but the closing balance is -100.00');
    expect(said).toContain('the summary counts 3 entries, the statement holds 2');
    expect(said).toContain('statement 9 of NL91ABNA0417164300 follows statement 7: one is missing');
  });

  it('refuses what is not camt, or is cut short, naming the line', async () => {
    const cut = camtFile([october], { message: '053', version: '04' });
    await expect(read('camt-cut.xml', cut.slice(0, cut.length / 2))).rejects.toThrow(
      /not well-formed XML/,
    );
    await expect(read('camt-amount.xml', cut.replace('250.00', '250.001'))).rejects.toThrow(
      /more than 2 decimals/,
    );
  });
});

describe('SWIFT MT940 and MT942', () => {
  for (const dialect of ['german', 'dutch', 'free'] as const) {
    it(`${dialect} :86: details, reversals (RC/RD), a debit balance, two statements`, async () => {
      const file = await read(`mt940-${dialect}.sta`, mt940File([october, november], { dialect }));
      expect(file.format).toBe('mt940');
      expect(file.checks).toEqual([]);
      expect(file.statements).toHaveLength(2);
      expectModel(file.statements[0]!, october, {
        reference: true,
        party: dialect !== 'free',
      });
      expect(file.statements[0]!.closing).toBeLessThan(0);
      expectModel(file.statements[1]!, november, { party: dialect !== 'free' });
    });
  }

  it('SWIFT blocks, header lines, LF endings, whole amounts written `125,`', async () => {
    const whole: ModelStatement = {
      ...october,
      entries: october.entries.map((e) => ({ ...e, cents: Math.round(e.cents / 100) * 100 })),
    };
    const file = await read(
      'mt940-blocks.sta',
      mt940File([whole], { blocks: true, bareCommas: true, eol: '\n' }),
    );
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, { ...whole, opening: whole.opening });
    const headers = await read(
      'mt940-headers.sta',
      mt940File([october], { header: '0000 01INGBNL2AXXXX00001' }),
    );
    expectModel(headers.statements[0]!, october);
  });

  it("an opening balance dated its first entry's day stands at the start of that day", async () => {
    const file = await read(
      'mt940-sameday.sta',
      mt940File([october], { openingOnFirstEntry: true }),
    );
    expect(file.checks).toEqual([]);
    expect(file.statements[0]!.from).toBe('2026-10-02');
    expect(file.statements[0]!.opening).toBe(october.opening);
  });

  it('a statement in three pages (60F…62M, 60M…62M, 60M…62F) is one statement', async () => {
    const file = await read('mt940-pages.sta', mt940File([october], { pages: 3 }));
    expect(file.checks).toEqual([]);
    expect(file.statements).toHaveLength(1);
    expectModel(file.statements[0]!, october);
  });

  it("a page that does not open at the last page's close, and a missing page, are said", async () => {
    const text = mt940File([october], { pages: 2 });
    const lines = text.split('\r\n');
    const at = lines.findIndex((l) => l.startsWith(':60M:'));
    lines[at] = lines[at]!.replace(/,\d\d$/, ',99');
    const file = await read('mt940-pagegap.sta', lines.join('\r\n'));
    expect(file.checks.map((c) => c.message).join('\n')).toContain('opens at');
  });

  it('an entry booked in December for a value day in January reads in its own year', async () => {
    const turn: ModelStatement = {
      ...october,
      from: '2026-12-31',
      to: '2027-01-02',
      entries: [
        {
          booked: '2026-12-31',
          value: '2027-01-02',
          cents: -5_00,
          reference: 'R1',
          text: 'Turn of the year',
        },
      ],
    };
    const file = await read('mt940-turn.sta', mt940File([turn], {}));
    expect(file.statements[0]!.entries[0]!.bookingDate).toBe('2026-12-31');
    expect(file.statements[0]!.entries[0]!.valueDate).toBe('2027-01-02');
  });

  it('MT942: no balances, its :90D:/:90C: sums checked', async () => {
    const file = await read('mt942.sta', mt940File([october], { mt942: true }));
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, october, { balances: 'none', period: false });
    const wrong = mt940File([october], { mt942: true }).replace(/:90C:2EUR/, ':90C:3EUR');
    const said = (await read('mt942-wrong.sta', wrong)).checks.map((c) => c.message);
    expect(said).toContain('MT942: :90C: states 3 credits of 295.67, the report holds 2 of 295.67');
  });

  it('MT942: a floor limit (:34F:) whose currency is no currency is not taken as one (it was put in a pattern, and ended in a bug)', async () => {
    const text = mt940File([october], { mt942: true }).replace(':34F:EUR', ':34F:PL[');
    const file = await read('mt942-34f.sta', text);
    expect(file.statements[0]!.currency).toBe('EUR');
    expectModel(file.statements[0]!, october, { balances: 'none', period: false });
  });

  it('Latin-1 umlauts read as Windows-1252 and said; --encoding reads them as named', async () => {
    const model: ModelStatement = {
      ...october,
      entries: [{ booked: '2026-10-02', cents: 1_00, text: 'Gebühr Müller', reference: 'R1' }],
    };
    const bytes = iconv.encode(mt940File([model], { dialect: 'free' }), 'latin1');
    const file = await read('mt940-latin1.sta', bytes);
    expect(file.statements[0]!.entries[0]!.description).toContain('Gebühr Müller');
    expect(file.checks.map((c) => c.message)).toContain(
      'MT940: the file is not UTF-8: read as Windows-1252 (--encoding names another)',
    );
  });
});

describe('OFX and QFX', () => {
  for (const version of [1, 2] as const) {
    for (const card of [false, true]) {
      it(`OFX ${version}, ${card ? 'a credit card' : 'a bank account'}: LEDGERBAL the closing balance, no opening`, async () => {
        const model = card
          ? { ...october, account: '4111111111111111', opening: -500_00 }
          : october;
        const file = await read(`ofx${version}-${card}.ofx`, ofxFile(model, { version, card }));
        expect(file.format).toBe('ofx');
        expect(file.checks).toEqual([]);
        expect(file.statements[0]!.card).toBe(card);
        expect(file.statements[0]!.account).toBe(model.account);
        expectModel(file.statements[0]!, model, { balances: 'closing', valueDates: true });
      });
    }
  }

  it('QFX (INTU.BID), in Windows-1252', async () => {
    const model: ModelStatement = {
      ...october,
      entries: [
        { booked: '2026-10-02', cents: -3_00, reference: 'F1', party: 'Café Crème', text: 'Café' },
      ],
    };
    const file = await read(
      'qfx.qfx',
      iconv.encode(ofxFile(model, { version: 1, qfx: true }), 'windows-1252'),
    );
    expect(file.statements[0]!.entries[0]!.counterparty).toBe('Café Crème');
  });

  it('a correction replaces or deletes the transaction it names', async () => {
    const text = ofxFile(october, { version: 1 }).replace(
      '</BANKTRANLIST>',
      '<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20261015\n<TRNAMT>-12.34\n<FITID>FIX1\n<CORRECTFITID>REF0003\n<CORRECTACTION>DELETE\n</STMTTRN>\n</BANKTRANLIST>',
    );
    const file = await read('ofx-correction.ofx', text);
    expect(file.statements[0]!.entries.map((e) => e.reference)).not.toContain('REF0003');
  });

  it('a file cut short is refused', async () => {
    const text = ofxFile(october, { version: 2 });
    await expect(
      read('ofx-cut.ofx', text.slice(0, text.indexOf('</STMTTRN>') + 5)),
    ).rejects.toThrow(/cut short/);
  });
});

describe('BAI2', () => {
  it.each([
    ['plain', {}],
    ['88 continuations of the account and the transactions', { continuations: true }],
    ['several records to a line', { runOn: true }],
    ['funds types with their fields (V, S)', { fundsTypes: true }],
  ] as const)(
    '%s: each account of each group a statement of its day, control totals checked',
    async (_, options) => {
      const day1: ModelStatement = {
        ...october,
        account: '10200123456',
        currency: 'USD',
        from: '2026-10-01',
        to: '2026-10-01',
        entries: october.entries.map((e) => ({
          ...e,
          booked: '2026-10-01',
          value: undefined,
          reversal: false,
        })),
      };
      const day2: ModelStatement = {
        ...november,
        account: '10200123456',
        currency: 'USD',
        from: '2026-10-02',
        to: '2026-10-02',
        opening: closingOf(day1),
        entries: november.entries.map((e) => ({ ...e, booked: '2026-10-02' })),
      };
      const file = await read('bai2.txt', bai2File([day1, day2], options));
      expect(file.format).toBe('bai2');
      expect(file.checks).toEqual([]);
      expect(file.statements).toHaveLength(2);
      expectModel(file.statements[0]!, day1, { party: false });
      expectModel(file.statements[1]!, day2, { party: false });
    },
  );

  it('no ledger balance: the available balances (040/045) open and close it where its entries tie them, said; else no balance', async () => {
    const statement: ModelStatement = {
      ...october,
      currency: 'USD',
      from: '2026-10-01',
      to: '2026-10-01',
      entries: october.entries.map((e) => ({
        ...e,
        booked: '2026-10-01',
        value: undefined,
        reversal: false,
      })),
    };
    const tied = await read('bai2-available.txt', bai2File([statement], { available: 'tied' }));
    expectModel(tied.statements[0]!, statement, { party: false });
    expect(tied.statements[0]).toMatchObject({
      opening: statement.opening,
      closing: closingOf(statement),
    });
    expect(tied.checks.map((c) => c.message)).toEqual([
      `BAI2: account ${statement.account}: no ledger balance (010/015): the available balances (040/045), which its entries tie, taken as its opening and closing`,
    ]);
    const untied = await read('bai2-untied.txt', bai2File([statement], { available: 'untied' }));
    expect(untied.statements[0]).toMatchObject({ opening: null, closing: null });
    expect(untied.checks.map((c) => c.message).join('\n')).toMatch(
      /no ledger balance \(010\/015\), and its available balances \(040 [\d,.-]+, 045 [\d,.-]+\) are not what its entries make \([\d,.-]+\): no balance taken/,
    );
  });

  it('a control total that is not its amounts is said, with the figures', async () => {
    const file = await read(
      'bai2-wrong.txt',
      bai2File([{ ...october, currency: 'USD' }], { wrongTotal: true }),
    );
    expect(file.checks.map((c) => c.message).join('\n')).toMatch(
      /the account trailer's control total is [\d,.]+, its amounts sum to [\d,.]+ \(1\.00 apart\)/,
    );
  });

  it('a file without its 99 trailer may be cut short: said', async () => {
    const text = bai2File([{ ...october, currency: 'USD' }]);
    const file = await read('bai2-cut.txt', text.split('\n').slice(0, -2).join('\n'));
    expect(file.checks.map((c) => c.message)).toContain(
      'BAI2: the file ends without its trailer (99): it may be cut short',
    );
  });
});

describe('QIF', () => {
  it.each([
    "M/D'YY",
    'M/D/YY',
    'MM/DD/YYY',
    'MM/DD/YYYY',
    'DD/MM/YYYY',
    'DD.MM.YYYY',
    'YYYY-MM-DD',
    'spaced',
    'spaced-slash',
  ] as const)('days written %s, told by the file', async (dates) => {
    const file = await read(
      'register.qif',
      qifFile(october, { dates, accountBlock: true, openingRecord: true }),
    );
    expect(file.format).toBe('qif');
    expect(file.checks).toEqual([]);
    expect(file.statements[0]!.account).toBe(october.account);
    expectModel(file.statements[0]!, october, { party: true, period: true, currency: null });
  });

  it("each year form older and newer Quicken wrote: 'YY the 2000s, three digits since 1900, two digits windowed at 1970, four", async () => {
    const text = [
      '!Type:Bank',
      ...[
        ["1/ 5'04", '2004-01-05'],
        ['12/31/99', '1999-12-31'],
        ['03/25/099', '1999-03-25'],
        ['01/01/100', '2000-01-01'],
        ['2/ 3/101', '2001-02-03'],
        ['7/4/69', '2069-07-04'],
        ['7/4/70', '1970-07-04'],
        ['12/13/2026', '2026-12-13'],
      ].flatMap(([day], i) => [`D${day}`, `T-${i + 1}.00`, `PPAYEE ${i}`, '^']),
    ].join('\n');
    const file = await read('years.qif', `${text}\n`);
    expect(file.statements[0]!.entries.map((e) => e.bookingDate)).toEqual([
      '2004-01-05',
      '1999-12-31',
      '1999-03-25',
      '2000-01-01',
      '2001-02-03',
      '2069-07-04',
      '1970-07-04',
      '2026-12-13',
    ]);
  });

  it('a card register, no account block: an account the file does not name, --account names it', async () => {
    const file = await read('card.qif', qifFile(october, { dates: 'MM/DD/YYYY', card: true }), {
      account: 'Visa 1234',
    });
    expect(file.statements[0]!.card).toBe(true);
    expect(file.statements[0]!.account).toBe('Visa 1234');
    expectModel(file.statements[0]!, october, { balances: 'none', period: false, currency: null });
  });

  it('days that read both ways are read month first and said; --date-format reads them the other way', async () => {
    const model: ModelStatement = {
      ...october,
      from: '2026-03-04',
      to: '2026-03-04',
      entries: [{ booked: '2026-03-04', cents: 1_00, text: 'x', reference: '1' }],
    };
    const text = qifFile(model, { dates: 'MM/DD/YYYY' });
    const file = await read('ambiguous.qif', text);
    expect(file.statements[0]!.entries[0]!.bookingDate).toBe('2026-03-04');
    expect(file.checks[0]!.message).toMatch(/no day in the file tells/);
    const other = await read('ambiguous2.qif', text, { dateFormat: 'DD/MM/YYYY' });
    expect(other.statements[0]!.entries[0]!.bookingDate).toBe('2026-04-03');
  });
});

describe("a bank's CSV", () => {
  it.each([
    ['en', 'signed', false, {}],
    ['en', 'debit-credit', false, { dates: 'MM/DD/YYYY' }],
    ['de', 'signed', true, { dates: 'DD.MM.YYYY', preamble: true }],
    ['de', 'side', true, { dates: 'DD.MM.YYYY' }],
    ['nl', 'side', true, {}],
    ['fr', 'debit-credit', true, { dates: 'DD/MM/YYYY' }],
    ['es', 'signed', true, { dates: 'DD/MM/YYYY' }],
  ] as const)(
    '%s headers, %s amounts, decimal comma %s',
    async (language, layout, decimalComma, extra) => {
      const file = await read(
        `bank-${language}.csv`,
        bankCsvFile(october, {
          language,
          layout,
          decimalComma,
          balance: true,
          newestFirst: true,
          ...extra,
        }),
      );
      expect(file.format).toBe('bank-csv');
      expect(file.checks).toEqual([]);
      if ('preamble' in extra) expect(file.statements[0]!.account).toBe(october.account);
      expectModel(file.statements[0]!, october, { period: false, currency: null });
      expect(file.statements[0]!.from).toBe('2026-10-02');
    },
  );

  it('--map names the columns of a CSV whose headers books does not know', async () => {
    const text =
      'Booked On,What,Sum\n2026-10-02,Invoice 2026-117,250.00\n2026-10-05,Rent October,-400.00\n';
    const file = await read('mapped.csv', text, {
      map: { date: 'Booked On', description: 'What', amount: 'Sum' },
    });
    expect(file.statements[0]!.entries.map((e) => e.amount)).toEqual([250_00, -400_00]);
  });

  it('--map names the columns of a header below a preamble (the account, the period)', async () => {
    const text = [
      'Umsätze Girokonto;DE02120300000000202051',
      'Zeitraum: 01.10.2026 - 31.10.2026',
      '',
      'Tag;Text;Summe (€)',
      '02.10.2026;Invoice 2026-117;250,00',
      '05.10.2026;Rent October;-400,00',
    ].join('\n');
    const file = await read('preamble.csv', text, {
      map: { date: 'Tag', description: 'Text', amount: 'Summe (€)' },
      decimalComma: true,
    });
    expect(file.statements[0]!.account).toBe('DE02120300000000202051');
    expect(file.statements[0]!.entries.map((e) => [e.bookingDate, e.amount])).toEqual([
      ['2026-10-02', 250_00],
      ['2026-10-05', -400_00],
    ]);
    // Where no line holds the columns, the first line is said to lack them.
    await expect(
      read('preamble2.csv', text, { map: { date: 'Datum', amount: 'Summe (€)' } }),
    ).rejects.toThrow(
      '--map date=Datum: the header has no column "Datum" (it has Umsätze Girokonto, DE02120300000000202051)',
    );
  });

  it.each([
    [
      'signed',
      false,
      { date: '1', counterparty: '2', description: '3', reference: '4', amount: '5', balance: '6' },
    ],
    [
      'debit-credit',
      true,
      {
        date: '1',
        counterparty: '2',
        description: '3',
        reference: '4',
        debit: '5',
        credit: '6',
        balance: '7',
      },
    ],
    [
      'side',
      true,
      {
        date: '1',
        counterparty: '2',
        description: '3',
        reference: '4',
        amount: '5',
        side: '6',
        balance: '7',
      },
    ],
  ] as const)(
    'a CSV without a header row (%s amounts, decimal comma %s): its columns named by number',
    async (layout, decimalComma, map) => {
      const text = bankCsvFile(october, {
        language: 'nl',
        layout,
        decimalComma,
        balance: true,
        dates: 'DD.MM.YYYY',
      });
      const headerless = text.split('\r\n').slice(1).join('\r\n');
      const file = await read('headerless.csv', headerless, { map });
      expect(file.format).toBe('bank-csv');
      expect(file.checks).toEqual([]);
      expectModel(file.statements[0]!, october, { period: false, currency: null });
    },
  );

  it('a CSV without a header row, read without --map: said to be one, its first row numbered', async () => {
    const text =
      '02-10-2026,NL91ABNA0417164300,Invoice 117,250.00\n05-10-2026,NL91ABNA0417164300,Rent,-400.00\n';
    await expect(read('asn.csv', text)).rejects.toThrow(
      'a CSV without a header row: name its columns by number, as --map date=N,amount=N[,description=N…] (its first row: 1=02-10-2026, 2=NL91ABNA0417164300, 3=Invoice 117, 4=250.00)',
    );
    const file = await read('asn2.csv', text, {
      map: { date: '1', description: '3', amount: '4' },
      dateFormat: 'DD/MM/YYYY',
    });
    expect(file.statements[0]!.entries.map((e) => [e.bookingDate, e.amount])).toEqual([
      ['2026-10-02', 250_00],
      ['2026-10-05', -400_00],
    ]);
  });

  it('unknown bytes, and a CSV whose columns say nothing of dates and amounts, are refused', async () => {
    await expect(
      read('binary.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])),
    ).rejects.toThrow(/NUL/);
    await expect(read('other.csv', 'a,b,c\n1,2,3\n')).rejects.toThrow(
      /not a statement books reads/,
    );
  });
});

describe('a reference on two entries of one statement', () => {
  it('is taken off them, so that both come in (keyed by the reference, the second was lost)', async () => {
    const twice: ModelStatement = {
      ...october,
      entries: [
        { booked: '2026-10-02', cents: -40_00, reference: 'BATCH-7', text: 'Stationery' },
        { booked: '2026-10-03', cents: -60_00, reference: 'BATCH-7', text: 'Printer ink' },
      ],
    };
    for (const [format, text] of [
      ['MT940', mt940File([twice])],
      ['camt', camtFile([twice], { message: '053', version: '08' })],
    ] as const) {
      const file = await read(`twice.${format}`, text);
      expect(file.checks.map((c) => c.message)).toEqual([
        expect.stringMatching(
          /the reference BATCH-7 is on 2 entries of one statement \(lines \d+, \d+\): not taken as theirs$/,
        ),
      ]);
      // Both come in, told apart by their content (neither carries the reference now).
      const [batch] = statementTransactions([file]).batches;
      expect(batch!.transactions.map((t) => [t.description, t.externalId])).toEqual([
        [expect.stringContaining('Stationery'), undefined],
        [expect.stringContaining('Printer ink'), undefined],
      ]);
    }
    // In two statements of one file it may be one entry stated twice: kept, and brought in once.
    const once = { ...twice, entries: [twice.entries[0]!] };
    const again = await read('overlap.sta', mt940File([once, once]));
    expect(again.statements.map((st) => st.entries[0]!.reference)).toEqual(['BATCH-7', 'BATCH-7']);
    expect(again.checks).toEqual([]);
  });
});

describe('a file in UTF-16 (what Windows saves as "Unicode", Excel\'s "Unicode Text")', () => {
  // Told by its byte order mark and read as in UTF-8: before, no format was told at all ("not a
  // statement books reads"), as the first bytes were looked at one byte a character.
  const on = (account: string) => [october, november].map((s) => ({ ...s, account }));
  const files: [string, string][] = [
    ['camt.xml', camtFile([october, november], { message: '053', version: '08' })],
    ['mt940.sta', mt940File([october, november])],
    ['ofx.ofx', ofxFile(october, { version: 2 })],
    ['bai2.txt', bai2File([{ ...october, currency: 'USD' }])],
    ['qif.qif', qifFile(october, { dates: 'MM/DD/YYYY' })],
    ['bank.csv', bankCsvFile(october, { language: 'de', layout: 'signed', decimalComma: true })],
    ['coda.cod', codaFile(on('BE68539007547034'), { structure: 2 })],
    ['norma43.n43', norma43File(on('ES9121000418450200051332'), { modality: 3 })],
    ['cfonb.txt', cfonb120File(on('FR7630006000011234567890189'))],
  ];
  it.each(files)('%s, little- and big-endian', async (name, text) => {
    const utf8 = await read(name, text);
    for (const encoding of ['utf-16le', 'utf-16be']) {
      const utf16 = await read(name, iconv.encode(text, encoding, { addBOM: true }));
      expect(utf16.format).toBe(utf8.format);
      expect(utf16.statements).toEqual(utf8.statements);
      expect(utf16.checks).toEqual(utf8.checks);
    }
  });

  it("a bank CSV's head, which its saved layout is found by, is its text", async () => {
    const text = '01.10.2026;Miete Oktober;-950,00\r\n02.10.2026;Gehalt ACME GmbH;3.100,00\r\n';
    const file = path.join(directory, 'headless-utf16.csv');
    writeFileSync(file, iconv.encode(text, 'utf-16le', { addBOM: true }));
    expect(statementFormatOf(file)).toEqual({ name: 'bank-csv', head: text });
  });
});

describe('what each reader says of a file, and reads on', () => {
  const said = (file: StatementFile) => file.checks.map((c) => c.message);

  it('camt: an entry with a value day only, a status camt does not define, a balance in another currency', async () => {
    const text = camtFile([october], { message: '053', version: '04' })
      .replace('<BookgDt><Dt>2026-10-02</Dt></BookgDt>', '')
      .replace('<Sts>BOOK</Sts>', '<Sts>XXXX</Sts>')
      .replace('<Amt Ccy="EUR">1234.56</Amt>', '<Amt Ccy="USD">1234.56</Amt>');
    const file = await read('camt-odd.xml', text);
    expect(said(file)).toEqual(
      expect.arrayContaining([
        'an entry without a booking date: its value date taken',
        'an entry of status "XXXX", which camt does not define: kept as information, not booked',
        'the OPBD balance is in USD, the account in EUR',
      ]),
    );
    expect(file.statements[0]!.entries[0]!.bookingDate).toBe('2026-10-03');
    expect(file.statements[0]!.entries[0]!.status).toBe('info');
  });

  it('MT940: 30 February, a page that does not follow on, a statement cut before its last page, one begun mid-way, a closing dated before the opening', async () => {
    const feb = mt940File([
      {
        ...october,
        from: '2024-02-01',
        to: '2024-02-29',
        entries: [{ booked: '2024-02-28', cents: 1_00, text: 'Interest', reference: 'I1' }],
      },
    ]).replace(':61:2402280228', ':61:2402300230');
    expect(said(await read('feb30.sta', feb))).toContain(
      'MT940: :61: dates a posting 30 February, a day of 30-day interest months: read as 2024-02-29',
    );
    const pages = mt940File([october], { pages: 2 }).split('\r\n');
    const at = pages.findIndex((l) => l.startsWith(':60M:'));
    pages[at] = pages[at]!.replace(/,\d\d$/, ',99');
    expect(said(await read('pages.sta', pages.join('\r\n'))).join('\n')).toMatch(
      /MT940: page 00100\/2 opens at -?\d+\.99, the page before closed at -?\d+\.\d\d/,
    );
    const firstPage = mt940File([october], { pages: 2 }).split('-\r\n')[0]!;
    expect(said(await read('cut.sta', `${firstPage}-\r\n${mt940File([november])}`))).toContain(
      'MT940: the statement of line 1 ends on an intermediate page (:62M:) and no page follows it',
    );
    const secondPage = mt940File([october], { pages: 2 }).split('-\r\n')[1]!;
    expect(said(await read('mid.sta', `${secondPage}-\r\n`))).toContain(
      'MT940: a statement begins with an intermediate page (:60M:): its first pages are not in the file',
    );
    const backwards = mt940File([{ ...october, to: '2026-09-15', entries: [] }]);
    expect(said(await read('backwards.sta', backwards)).join('\n')).toContain(
      'MT940: the closing balance is dated 2026-09-15, before the opening balance (2026-09-30)',
    );
  });

  it('OFX: no character set, no </OFX>, a correction of what is not there, a FITID given twice, an investment statement', async () => {
    const text = ofxFile(october, { version: 1, charset: 'NONE' })
      .replace('</OFX>', '')
      .replace(
        '</BANKTRANLIST>',
        '<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20261015\n<TRNAMT>-1.00\n<FITID>REF0001\n<MEMO>again\n</STMTTRN>\n<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20261015\n<TRNAMT>-1.00\n<FITID>X\n<CORRECTFITID>NOPE\n<CORRECTACTION>DELETE\n</STMTTRN>\n</BANKTRANLIST>',
      )
      .replace(
        '<BANKMSGSRSV1>',
        '<INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1>\n<BANKMSGSRSV1>',
      );
    const file = await read(
      'ofx-odd.ofx',
      iconv.encode(text.replace('Rent October', 'Loyer été'), 'latin1'),
    );
    expect(said(file)).toEqual(
      expect.arrayContaining([
        'OFX: the file is not UTF-8 and names no character set: read as Windows-1252',
        'OFX: the file ends without </OFX>',
        'OFX: a correction deletes FITID NOPE, which the file does not hold',
        'OFX: FITID REF0001 is given to two transactions',
        'OFX: an investment statement (INVSTMTRS) is not a bank statement: left out',
      ]),
    );
  });

  it('QIF: a last record without its ^, and lists that are not registers', async () => {
    const text = `!Type:Cat\nNOffice\n^\n${qifFile(october, { dates: 'MM/DD/YYYY' }).replace(/\^\n$/, '')}`;
    expect(said(await read('odd.qif', text))).toEqual([
      'QIF: the last record has no ^ after it: read as if it had',
      'QIF: !Type:Cat is not a register of a bank, cash or card account: left out',
    ]);
  });

  it('a bank CSV: a running balance its movements do not make, the first five said and the count of the rest', async () => {
    const rows = Array.from(
      { length: 8 },
      (_, i) => `2026-10-${String(i + 1).padStart(2, '0')},x${i},-1.00,${(100 - i * 2).toFixed(2)}`,
    );
    const file = await read(
      'balances.csv',
      `Date,Description,Amount,Balance\n${rows.join('\n')}\n`,
    );
    expect(said(file)).toEqual([
      'CSV: the balance after this row is 98.00, its movement makes 99.00',
      'CSV: the balance after this row is 96.00, its movement makes 97.00',
      'CSV: the balance after this row is 94.00, its movement makes 95.00',
      'CSV: the balance after this row is 92.00, its movement makes 93.00',
      'CSV: the balance after this row is 90.00, its movement makes 91.00',
      'CSV: and 2 more balances its movements do not make',
    ]);
  });
});

describe("camt.053 written (the demo's statements)", () => {
  it('reads back to what was written: balances, entries, references, parties, statuses', async () => {
    const { camt053 } = await import('../../src/formats/camt/writer.js');
    const first = await read(
      'model.xml',
      camtFile([october, november], { message: '053', version: '08' }),
    );
    const written = camt053(first.statements, {
      messageId: 'M1',
      createdAt: '2026-12-01T06:00:00',
    });
    const again = await read('written.xml', written);
    expect(again.checks).toEqual([]);
    const strip = (file: StatementFile) =>
      file.statements.map((s) => ({
        ...s,
        line: 0,
        entries: s.entries.map((e) => ({ ...e, line: 0 })),
      }));
    expect(strip(again)).toEqual(strip(first));
  });
});

/** ISO 20022's schemas of the camt versions genkgo/camt keeps (test/fixtures/statements). */
const CAMT_XSD = path.resolve(import.meta.dirname, '../fixtures/statements/camt-xsd');
const xsdOf = (message: string, version: string) =>
  path.join(CAMT_XSD, `camt.${message}.001.${version}.xsd`);

describe('camt files valid against ISO 20022’s schemas', () => {
  const versions = (['052', '053', '054'] as const).flatMap((message) =>
    CAMT_VERSIONS.filter((version) => existsSync(xsdOf(message, version))).map(
      (version) => [message, version] as const,
    ),
  );
  it.each(versions)(
    'the camt.%s.001.%s the tests read is schema-valid',
    async (message, version) => {
      const file = path.join(directory, `xsd-${message}-${version}.xml`);
      writeFileSync(file, camtFile([october, november], { message, version }));
      expect(await xsdProblems(file, xsdOf(message, version))).toEqual([]);
    },
  );

  it('what books writes (the demo’s camt.053.001.08) is schema-valid', async () => {
    const { camt053 } = await import('../../src/formats/camt/writer.js');
    const first = await read(
      'for-xsd.xml',
      camtFile([october, november], { message: '053', version: '08' }),
    );
    const file = path.join(directory, 'written-for-xsd.xml');
    writeFileSync(
      file,
      camt053(first.statements, { messageId: 'M1', createdAt: '2026-12-01T06:00:00' }),
    );
    expect(await xsdProblems(file, xsdOf('053', '08'))).toEqual([]);
  });
});
