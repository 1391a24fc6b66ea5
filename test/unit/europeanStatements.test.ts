import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StatementFile } from '../../src/formats/statement.js';
import { readStatementFile } from '../../src/formats/statements.js';
import {
  cfonb120File,
  closingOf,
  codaFile,
  norma43File,
  PARTY_ACCOUNT,
  type ModelStatement,
} from '../helpers/statementFiles.js';
import { expectModel, november, october } from '../helpers/statementModel.js';

/*
 * The statements three countries' banks hand out before any ISO one — Belgium's CODA, Spain's
 * Norma 43, France's CFONB 120 — written in the test from the model across what each
 * specification allows (test/helpers/statementFiles.ts), each read back to the model's figures.
 */

const directory = mkdtempSync(path.join(os.tmpdir(), 'books-european-statements-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

async function read(name: string, content: string | Buffer): Promise<StatementFile> {
  const file = path.join(directory, `${++files}-${name}`);
  writeFileSync(file, content);
  return readStatementFile(file);
}

const onAccount = (account: string, ...statements: ModelStatement[]) =>
  statements.map((s) => ({ ...s, account }));
const said = (file: StatementFile) => file.checks.map((c) => c.message).join('\n');

describe('CODA (Febelfin 2.x)', () => {
  const belgian = onAccount('BE68539007547034', october, november);

  it.each([
    [0, 'a Belgian account number, made its IBAN', 'BE68539007547034'],
    [1, 'a foreign account number', '123-4567890-12'],
    [2, 'a Belgian IBAN', 'BE68539007547034'],
    [3, 'a foreign IBAN', 'NL91ABNA0417164300'],
  ] as const)(
    'account structure %i (%s): two statements, every entry',
    async (structure, _what, account) => {
      const models = onAccount(account, october, november);
      const file = await read(`structure-${structure}.cod`, codaFile(models, { structure }));
      expect(file.format).toBe('coda');
      expect(file.checks).toEqual([]);
      expect(file.statements.map((s) => s.account)).toEqual([account, account]);
      expect(file.statements[0]!.entries.map((e) => e.counterpartyAccount)).toEqual(
        models[0]!.entries.map((e) => (e.party ? PARTY_ACCOUNT : null)),
      );
      expectModel(file.statements[0]!, models[0]!, { valueDates: true });
      expectModel(file.statements[1]!, models[1]!);
    },
  );

  it('texts that run on into the 22 and 23 records; the party of the 23; debit balances', async () => {
    const long =
      'Invoice 2026-117 for the maintenance of the premises at Rue de la Loi 16 in October and November, with the parts listed on the quote of 3 September';
    const model: ModelStatement = {
      ...belgian[1]!,
      opening: -2_500_00,
      entries: [
        {
          booked: '2026-11-03',
          cents: 1_500_00,
          reference: 'OL9456574JBBNEUBCRCL1',
          party: 'Olgerdin Egill Skallagrims',
          text: long,
        },
        {
          booked: '2026-11-04',
          cents: -20_00,
          reference: 'OL9456574JBBNEUBCRCL2',
          text: 'A text of exactly fifty-three characters, no more !!',
        },
      ],
    };
    const file = await read('long.cod', codaFile([model], { structure: 2 }));
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, model);
    expect(file.statements[0]!.entries[0]!.description).toBe(long);
    expect(file.statements[0]!.opening).toBe(-2_500_00);
  });

  it('a structured communication (101) as the Belgian reference; others by their layout; a card payment’s party its terminal', async () => {
    const model: ModelStatement = {
      ...belgian[0]!,
      entries: [
        {
          booked: '2026-10-02',
          cents: 99_95,
          reference: 'REF1',
          party: 'Telenet',
          text: '+++090/9337/55493+++',
        },
      ],
    };
    const file = await read(
      'structured.cod',
      codaFile([model], { structure: 2, structured: true }),
    );
    expect(file.checks).toEqual([]);
    expect(file.statements[0]!.entries[0]!.description).toBe('+++090/9337/55493+++');
    // A card payment (113) by its terminal and place; a SEPA direct debit (127) by its own text.
    const text = codaFile([model], { structure: 2, structured: true }).split('\r\n');
    const card = '1910317041110214172454663076602110614287CORA LA LO';
    const at = text.findIndex((r) => r.startsWith('21'));
    text[at] = `${text[at]!.slice(0, 61)}1113${card}`.padEnd(115, ' ') + text[at]!.slice(115);
    text[at + 1] =
      `${text[at + 1]!.slice(0, 10)}${'UVIERELA LOUVIER'.padEnd(53, '0')}${text[at + 1]!.slice(63)}`;
    const read113 = await read('card.cod', text.join('\r\n'));
    expect(read113.statements[0]!.entries[0]!.description).toBe('CORA LA LOUVIERE, LA LOUVIER');
    // With no party of its own (its 23 record names none), a card payment's is its terminal.
    const anonymous = text.map((r) =>
      r.startsWith('23') ? `${r.slice(0, 47)}${' '.repeat(35)}${r.slice(82)}` : r,
    );
    const shop = await read('card-shop.cod', anonymous.join('\r\n'));
    expect(shop.statements[0]!.entries[0]!.counterparty).toBe('CORA LA LOUVIERE');
    expect(read113.statements[0]!.entries[0]!.counterparty).toBe('Telenet');
  });

  it('a collective movement is booked once: its details are what it is made of', async () => {
    const file = await read('batch.cod', codaFile(belgian, { structure: 2, collective: true }));
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, belgian[0]!);
    expectModel(file.statements[1]!, belgian[1]!);
  });

  it('information records (31, 32) are not booked; their text is a movement’s that has none', async () => {
    const file = await read(
      'information.cod',
      codaFile(belgian, { structure: 2, information: true }),
    );
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, belgian[0]!);
    const model: ModelStatement = {
      ...belgian[0]!,
      entries: [
        { booked: '2026-10-02', cents: -75_00, reference: 'REF9', party: 'Securex', text: '' },
      ],
    };
    const bare = await read('bare.cod', codaFile([model], { structure: 2, information: true }));
    expect(bare.statements[0]!.entries[0]!.description).toBe(
      'Securex Rue de la Loi 16 1000 Brussel',
    );
    const none = await read(
      'none.cod',
      codaFile([{ ...model, entries: [{ ...model.entries[0]!, party: undefined }] }], {
        structure: 2,
      }),
    );
    expect(none.statements[0]!.entries[0]!.description).toBe(
      'CODA 01: domestic or SEPA credit transfer',
    );
  });

  it('a file of several files (0 … 9 each), and one written without line breaks', async () => {
    for (const options of [
      { filePerStatement: true },
      { lineBreaks: false },
      { filePerStatement: true, lineBreaks: false },
    ]) {
      const file = await read('several.cod', codaFile(belgian, { structure: 0, ...options }));
      expect(file.checks, JSON.stringify(options)).toEqual([]);
      expectModel(file.statements[0]!, belgian[0]!);
      expectModel(file.statements[1]!, belgian[1]!);
    }
  });

  it('says what the file says against itself: the trailer, a duplicate, a shared reference', async () => {
    const wrong = await read(
      'trailer.cod',
      codaFile(belgian, { structure: 2, wrongTrailer: true }),
    );
    expect(said(wrong)).toContain(
      `the trailer's sums (debit 1,000,419.85, credit 999,295.67) are not the movements' (debit 1,000,419.84, credit 999,295.67)`,
    );
    const duplicate = await read(
      'duplicate.cod',
      codaFile(belgian, { structure: 2, duplicate: true }),
    );
    expect(said(duplicate)).toContain(
      'the file is marked a duplicate (D) of one the bank sent before',
    );
    const shared: ModelStatement = {
      ...belgian[0]!,
      entries: belgian[0]!.entries.slice(0, 2).map((e) => ({ ...e, reference: 'SAME-REF' })),
    };
    const twice = await read('shared.cod', codaFile([shared], { structure: 2 }));
    expect(said(twice)).toContain(
      'CODA: the reference SAME-REF is on 2 entries of one statement (lines 3, 6): not taken as theirs',
    );
    expect(twice.statements[0]!.entries.map((e) => e.reference)).toEqual([null, null]);
    // The new balance's sign turned: a debit of what was a credit.
    const unbalanced = codaFile([belgian[0]!], { structure: 2 }).replace(/^8(.{40})1/m, '8$10');
    expect(said(await read('unbalanced.cod', unbalanced))).toContain(
      'make -998,882.11, but the closing balance is 998,882.11 (1,997,764.22 apart)',
    );
  });

  it('a balance dated 000000, as some banks write it: the day its movements give, said (it was refused)', async () => {
    const zeroed = (text: string, code: '1' | '8') =>
      text
        .split('\r\n')
        .map((line) =>
          line.startsWith(code)
            ? code === '1'
              ? `${line.slice(0, 58)}000000${line.slice(64)}`
              : `${line.slice(0, 57)}000000${line.slice(63)}`
            : line,
        )
        .join('\r\n');
    const closing = await read(
      'zero-new.cod',
      zeroed(codaFile([belgian[0]!], { structure: 2 }), '8'),
    );
    const days = belgian[0]!.entries.filter((e) => e.status !== 'pending').map((e) => e.booked);
    expectModel(closing.statements[0]!, belgian[0]!, { period: false });
    expect(closing.statements[0]!.to).toBe(days.at(-1));
    expect(said(closing)).toBe(
      `CODA: the new balance (record 8) is dated 000000: taken as of ${days.at(-1)}, the day of the statement's last movement`,
    );
    const opening = await read(
      'zero-old.cod',
      zeroed(codaFile([belgian[0]!], { structure: 2 }), '1'),
    );
    expect(opening.statements[0]!.from).toBe(days[0]);
    expect(said(opening)).toBe(
      `CODA: the old balance (record 1) is dated 000000: the statement taken to begin on ${days[0]}, the day of its first movement`,
    );
    // No movement to tell: the new balance as of the day the file was made (its header's).
    const empty: ModelStatement = { ...belgian[0]!, entries: [], opening: 0, from: '2026-10-01' };
    const bare = await read('zero-empty.cod', zeroed(codaFile([empty], { structure: 2 }), '8'));
    const created = codaFile([empty], { structure: 2 }).slice(5, 11);
    const createdDay = `20${created.slice(4, 6)}-${created.slice(2, 4)}-${created.slice(0, 2)}`;
    expect(bare.statements[0]!.to).toBe(createdDay);
    expect(said(bare)).toBe(
      `CODA: the new balance (record 8) is dated 000000: taken as of ${createdDay}, the day the file was made (its header's)`,
    );
  });

  it('refuses, naming the line, a file cut short, CODA 1, a record out of place or too long, a third decimal', async () => {
    const lines = codaFile(belgian, { structure: 2 }).split('\r\n');
    const refused = async (text: string) =>
      read('refused.cod', text).then(
        () => 'read',
        (error: Error & { line?: number }) => `${error.line}: ${error.message}`,
      );
    const withoutNewBalances = lines.filter((l) => !l.startsWith('8'));
    const secondOld = withoutNewBalances.findIndex((l, i) => i > 1 && l.startsWith('1')) + 1;
    expect(await refused(withoutNewBalances.join('\r\n'))).toBe(
      `${secondOld}: CODA: an old balance (record 1) before the new balance (record 8) of the statement at line 2: the file is cut short`,
    );
    expect(await refused(lines.slice(0, 5).join('\r\n'))).toBe(
      '2: CODA: the statement at line 2 has no new balance (record 8): the file is cut short',
    );
    expect(await refused([`${lines[0]!.slice(0, 127)}1`, ...lines.slice(1)].join('\r\n'))).toBe(
      "1: CODA: version 1 (position 128 of the header): books reads CODA 2 (the standard's 2.1 to 2.6)",
    );
    expect(await refused([lines[0], lines[1], lines[3], ...lines.slice(2)].join('\r\n'))).toMatch(
      /^3: CODA: a record 22 of movement 0001\/0000 that does not follow its record 21$/,
    );
    expect(await refused([lines[0], `${lines[1]}XYZ`, ...lines.slice(2)].join('\r\n'))).toBe(
      '2: CODA: the line is 131 characters long, and a CODA record is 128',
    );
    const third = `${lines[2]!.slice(0, 46)}5${lines[2]!.slice(47)}`;
    expect(await refused([lines[0], lines[1], third, ...lines.slice(3)].join('\r\n'))).toMatch(
      /^3: CODA: \d{15} has 3 decimals that are not zeros past the second/,
    );
  });
});

describe('Norma 43 (Cuaderno 43)', () => {
  const spanish = onAccount('ES9121000418450200051332', october, november);

  it.each([1, 2, 3] as const)(
    'modality %i: accounts, balances, every entry and its text',
    async (modality) => {
      const file = await read(`modality-${modality}.n43`, norma43File(spanish, { modality }));
      expect(file.format).toBe('norma43');
      expect(file.checks).toEqual([]);
      expect(file.statements.map((s) => s.account)).toEqual([
        'ES9121000418450200051332',
        'ES9121000418450200051332',
      ]);
      expectModel(file.statements[0]!, spanish[0]!, {
        reference: false,
        party: false,
        valueDates: true,
      });
      expectModel(file.statements[1]!, spanish[1]!, { reference: false, party: false });
    },
  );

  it('the SEPA form of the concepts (Annex 4): the payer of a transfer, the creditor of a direct debit', async () => {
    const file = await read('sepa.n43', norma43File(spanish, { modality: 3, sepa: true }));
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, spanish[0]!, { reference: false });
    expectModel(file.statements[1]!, spanish[1]!, { reference: false });
  });

  it('a movement in another currency says its amount in it (24)', async () => {
    const file = await read(
      'foreign.n43',
      norma43File(spanish, { modality: 3, foreignAmount: true }),
    );
    expect(file.statements[0]!.entries[0]!.description).toBe('Invoice 2026-117 (275.00 USD)');
  });

  it('says totals that are not the movements’, a count of records that is not the file’s, a missing end', async () => {
    const wrong = await read(
      'totals.n43',
      norma43File(spanish, { modality: 1, wrongTotals: true }),
    );
    expect(said(wrong)).toContain(
      "the account's end (33) states 4 debits of 1,000,412.34 and 2 credits of 295.67; its movements are 3 debits of 1,000,412.34 and 2 credits of 295.67",
    );
    const text = norma43File(spanish, { modality: 1 });
    const miscounted = text.replace(/^88(9{18})\d{6}/m, '88$1000099');
    expect(said(await read('count.n43', miscounted))).toMatch(
      /the file's end counts 99 records, and the file has \d+ before it/,
    );
    const noEnd = text
      .split('\r\n')
      .filter((l) => !l.startsWith('88'))
      .join('\r\n');
    expect(said(await read('no-end.n43', noEnd))).toContain(
      "the file has no end (88): its records' count was not checked",
    );
  });

  it("a balance whose key is neither 1 nor 2 (a 0, as in Tecnativa's sample) is not taken, said; its movements are read", async () => {
    const lines = norma43File(spanish, { modality: 1 }).split('\r\n');
    const end = lines.findIndex((l) => l.startsWith('33'));
    lines[end] = `${lines[end]!.slice(0, 58)}0${lines[end]!.slice(59)}`;
    const second = lines.findIndex((l, i) => i > 0 && l.startsWith('11'));
    lines[second] = `${lines[second]!.slice(0, 32)} ${lines[second]!.slice(33)}`;
    const file = await read('balance-key.n43', lines.join('\r\n'));
    expect(file.statements[0]!.opening).toBe(spanish[0]!.opening);
    expect(file.statements[0]!.closing).toBeNull();
    expect(file.statements[0]!.entries.map((e) => e.amount)).toEqual(
      spanish[0]!.entries.filter((e) => e.status !== 'pending').map((e) => e.cents),
    );
    expect(file.statements[1]!.opening).toBeNull();
    expect(file.statements[1]!.closing).toBe(closingOf(spanish[1]!));
    expect(said(file)).toBe(
      [
        'Norma 43: the closing balance\'s key (position 59) is "0", not 1 (debit) or 2 (credit): the balance is not taken',
        'Norma 43: the opening balance\'s key (position 33) is " ", not 1 (debit) or 2 (credit): the balance is not taken',
      ].join('\n'),
    );
  });

  it('an unknown currency number is said and none taken; records out of place and keys refused', async () => {
    const lines = norma43File([spanish[0]!], { modality: 1 }).split('\r\n');
    const unknown = [`${lines[0]!.slice(0, 47)}123${lines[0]!.slice(50)}`, ...lines.slice(1)].join(
      '\r\n',
    );
    const file = await read('currency.n43', unknown);
    expect(file.statements[0]!.currency).toBeNull();
    expect(said(file)).toContain('the currency number 123 is not an ISO 4217 currency books knows');
    const refused = async (text: string) =>
      read('refused.n43', text).then(
        () => 'read',
        (error: Error & { line?: number }) => `${error.line}: ${error.message}`,
      );
    expect(
      await refused(lines.filter((l) => !l.startsWith('33') && !l.startsWith('88')).join('\r\n')),
    ).toBe('1: Norma 43: the account at line 1 has no end (33): the file is cut short');
    expect(await refused(lines.filter((l) => !l.startsWith('33')).join('\r\n'))).toMatch(
      /^\d+: Norma 43: the file's end \(88\) before the end \(33\) of the account at line 1: the file is cut short$/,
    );
    expect(await refused([lines[0], lines[2], ...lines.slice(1)].join('\r\n'))).toBe(
      '2: Norma 43: a record 23 that follows no movement (22)',
    );
    expect(
      await refused(
        [lines[0], `${lines[1]!.slice(0, 27)}3${lines[1]!.slice(28)}`, ...lines.slice(2)].join(
          '\r\n',
        ),
      ),
    ).toBe('2: Norma 43: the key at position 28 is "3", not 1 (debit) or 2 (credit)');
  });
});

describe('CFONB 120', () => {
  const french = onAccount('FR7630006000011234567890189', october, november);
  const whole: ModelStatement = {
    ...french[0]!,
    opening: 1_234_00,
    entries: french[0]!.entries.map((e) => ({ ...e, cents: Math.round(e.cents / 100) * 100 })),
  };

  it.each([
    [2, 'qualified'],
    [3, 'qualified'],
    [2, 'legacy'],
  ] as const)(
    '%i decimals, complements %s: balances and every entry',
    async (decimals, complements) => {
      const file = await read(
        `cfonb-${decimals}-${complements}.txt`,
        cfonb120File(french, { decimals, complements }),
      );
      expect(file.format).toBe('cfonb120');
      expect(file.checks).toEqual([]);
      expect(file.statements.map((s) => s.account)).toEqual([
        'FR7630006000011234567890189',
        'FR7630006000011234567890189',
      ]);
      const party = complements === 'qualified';
      expectModel(file.statements[0]!, french[0]!, { party, valueDates: true });
      expect(file.statements[0]!.entries.map((e) => e.counterpartyAccount ?? null)).toEqual(
        french[0]!.entries.map((e) => (party && e.party ? PARTY_ACCOUNT : null)),
      );
      expectModel(file.statements[1]!, french[1]!, { party });
      expect(file.statements[0]!.entries[4]!.description).toBe(
        'Corporate tax 2025 final assessment',
      );
    },
  );

  it("the same text in LIB and LCC said once; LC2 runs LCC on (as Akretion's sample of a real bank has them)", async () => {
    const model: ModelStatement = {
      ...french[0]!,
      entries: [
        { booked: '2026-10-02', cents: -617_14, reference: 'R1', text: 'PRLV SEPA Orange' },
      ],
    };
    const lines = cfonb120File([model]).split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('04'));
    const complement = (qualifier: string, information: string) =>
      `05${lines[at]!.slice(2, 40)}     ${qualifier}${information.padEnd(70)}  `;
    const invoice = 'FIBENT - FR - Facture: 76662391 - Compte Fact: 30008765 - Ident: 00003';
    lines.splice(
      at + 1,
      0,
      complement('LIB', invoice),
      complement('NBE', 'Orange'),
      complement('LCC', invoice),
      complement('LC2', '263'),
      complement('LIB', 'F230866 F230765'),
      complement('LCC', 'F230866 F230765'),
    );
    const file = await read('lcc.txt', lines.join('\r\n'));
    const entry = file.statements[0]!.entries[0]!;
    expect(entry.description).toBe(`PRLV SEPA Orange ${invoice}263 F230866 F230765`);
    expect(entry.counterparty).toBe('Orange');
  });

  it('no decimals: whole amounts', async () => {
    const file = await read('cfonb-0.txt', cfonb120File([whole], { decimals: 0 }));
    expect(file.checks).toEqual([]);
    expectModel(file.statements[0]!, whole);
  });

  it('a statement a day, and a file written without line breaks', async () => {
    for (const lineBreaks of [true, false]) {
      const file = await read('daily.txt', cfonb120File(french, { daily: true, lineBreaks }));
      expect(file.checks).toEqual([]);
      // Each statement's last day closes on the statement's own.
      const days = french.flatMap((s) => [
        ...new Set([...s.entries.map((e) => e.booked).slice(0, -1), s.to]),
      ]);
      expect(file.statements.map((s) => s.to)).toEqual(days);
      expect(file.statements.map((s) => s.to)).toEqual([...days.slice(0, -1), '2026-11-30']);
      expect(file.statements.flatMap((s) => s.entries.map((e) => e.amount))).toEqual(
        [...french[0]!.entries, ...french[1]!.entries].map((e) => e.cents),
      );
      expect(file.statements.at(-1)!.closing).toBe(closingOf(french[1]!));
      // Each day's opening is the day before's closing.
      for (let i = 1; i < file.statements.length; i++)
        expect(file.statements[i]!.opening).toBe(file.statements[i - 1]!.closing);
    }
  });

  it('refuses, naming the line, an amount without its sign, a complement of no movement, a file cut short, another account inside', async () => {
    const lines = cfonb120File([french[0]!], { complements: 'qualified' }).split('\r\n');
    const refused = async (text: string) =>
      read('refused.txt', text).then(
        () => 'read',
        (error: Error & { line?: number }) => `${error.line}: ${error.message}`,
      );
    expect(
      await refused(
        [lines[0], `${lines[1]!.slice(0, 103)}5${lines[1]!.slice(104)}`, ...lines.slice(2)].join(
          '\r\n',
        ),
      ),
    ).toMatch(/^2: CFONB 120: the amount "\d+5" does not end in its sign/);
    expect(await refused([lines[0], lines[2], ...lines.slice(1)].join('\r\n'))).toBe(
      '2: CFONB 120: a complement (05) that follows no movement (04)',
    );
    expect(await refused(lines.filter((l) => !l.startsWith('07')).join('\r\n'))).toBe(
      '1: CFONB 120: the statement at line 1 has no new balance (07): the file is cut short',
    );
    expect(
      await refused(
        [
          lines[0],
          `${lines[1]!.slice(0, 21)}99999999999${lines[1]!.slice(32)}`,
          ...lines.slice(2),
        ].join('\r\n'),
      ),
    ).toBe(
      '2: CFONB 120: a record 04 of the account 99999999999 inside the statement of 12345678901 (line 1)',
    );
  });
});

describe('told apart by their first bytes', () => {
  it('each is its format, and none is taken for another', async () => {
    const belgian = onAccount('BE68539007547034', october);
    const formats = await Promise.all([
      read('a.cod', codaFile(belgian, { structure: 2 })),
      read('a.n43', norma43File(onAccount('ES9121000418450200051332', october), { modality: 1 })),
      read('a.txt', cfonb120File(onAccount('FR7630006000011234567890189', october))),
    ]);
    expect(formats.map((f) => f.format)).toEqual(['coda', 'norma43', 'cfonb120']);
  });
});
