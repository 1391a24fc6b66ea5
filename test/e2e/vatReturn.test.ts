import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAFT_XSD, XAF_XSD, xsdProblems } from '../helpers/auditFileRules.js';
import { runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';
import { pdfText, sheetRows } from '../helpers/documents.js';

/*
 * The VAT return from the books (issue 55, first cut), through the built binary against `books
 * serve` (SQLite; PostgreSQL in its run): a UK client registered with `tax setup`, a quarter of
 * coded postings brought in by `je import` (a books CSV with a tax_code column: sales, a credit
 * note, a purchase, a domestic reverse charge), the nine boxes, the MTD body valid against
 * HMRC's own schema, and a VAT posting without a code refused by name.
 */

// HMRC's schema is Apache-2.0 and kept with the tests (test/fixtures/schemas/SOURCES.md); Norway's
// SAF-T XSD and Skatteetaten's example state no licence: they are read from the project's
// ../shared, and only the checks that need them are skipped, saying so, where they are not.
const HMRC_SCHEMA = path.resolve(
  import.meta.dirname,
  '../fixtures/schemas/hmrc-mtd-vat/VatReturnDeclaration.json',
);
const REAL_SAFT = path.resolve(
  import.meta.dirname,
  '../../../shared/realworld/files/saft-no_financial-example-888888888_skatteetaten.xml',
);
const saftXsdPresent = existsSync(SAFT_XSD);
const realSaftPresent = existsSync(REAL_SAFT);
const xafXsdPresent = existsSync(XAF_XSD);
if (!xafXsdPresent)
  console.warn(
    `skipped: the XAF export of the quarter is not validated: the Dutch XSD is not at ${XAF_XSD} (the project's ../shared/spec/formats)`,
  );
if (!saftXsdPresent)
  console.warn(
    `skipped: the SAF-T export of the quarter is not validated: Norway's XSD is not at ${SAFT_XSD} (the project's ../shared/spec/formats)`,
  );
if (!realSaftPresent)
  console.warn(
    `skipped: Skatteetaten's SAF-T example is not at ${REAL_SAFT} (it states no licence: it is read from the project's ../shared/realworld/files, not kept here)`,
  );

describe('books tax: the UK VAT return from coded postings (the built binary against books serve)', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serveBooks>>;
  let env: NodeJS.ProcessEnv;
  const books = (...args: string[]) => runBooks(args, env);
  const ok = async (...args: string[]) => {
    const result = await books(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  const file = (name: string, rows: string[]) => {
    const at = path.join(home.home, name);
    writeFileSync(at, `${rows.join('\n')}\n`);
    return at;
  };

  /**
   * A German client of `workspace` (SKR03's numbers): its chart imported from `chart`, written
   * once as the file `chartFile` (which also names a Buchungsstapel's accounts, `--chart`), and
   * registered for VAT on 1776 and 1576.
   */
  const germanClient = async (workspace: string, entity: string, chartFile: string) => {
    await ok('sandbox', 'entity', 'create', entity, '-w', workspace);
    const at = ['-w', workspace, '-e', entity];
    await ok('coa', 'import', chartFile, ...at);
    await ok(
      ...['tax', 'setup', '--country', 'DE', '--output-account', '1776'],
      ...['--input-account', '1576', ...at],
    );
    return at;
  };
  const chartFileOf = (name: string, chart: readonly (readonly [string, string, string])[]) =>
    file(name, ['code,name,type', ...chart.map((account) => account.join(','))]);

  /** An exported file read into a new client registered the same way: the same Q3 boxes. */
  const expectSameReturnReadBack = async (entity: string, exported: string) => {
    await ok('sandbox', 'entity', 'create', entity, '-w', 'Harbour Café Ltd');
    const copy = ['-e', entity];
    await ok('tax', 'setup', '--country', 'GB', ...copy);
    await ok('je', 'import', exported, '--create-missing-accounts', ...copy);
    const boxesOf = async (where: string[]) =>
      (
        JSON.parse(
          (await ok('tax', 'return', '--period', '2026-Q3', '--json', ...where)).stdout,
        ) as { boxes: { box: string; formAmount: number }[] }
      ).boxes.map((b) => [b.box, b.formAmount]);
    expect(await boxesOf(copy)).toEqual(await boxesOf([]));
  };

  beforeAll(async () => {
    home = temporaryHome();
    server = await serveBooks(home, ['--db', path.join(home.home, 'platform.sqlite')]);
    env = { ...server.env, BOOKS_RETRY_BASE_MS: '10' };
    await ok('workspace', 'create', 'Harbour Café Ltd', '--timezone', 'UTC');
    await ok('sandbox', 'entity', 'create', 'Harbour Café Ltd', '-w', 'Harbour Café Ltd');
    await ok('use', '-w', 'Harbour Café Ltd', '-e', 'Harbour Café Ltd');
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  it('tax setup makes the VAT accounts and the codes; a code not of the entity is refused', async () => {
    const setup = await ok('tax', 'setup', '--country', 'GB', '--vat-number', 'GB123456789');
    expect(setup.stderr).toContain(
      'books: created account 2000 VAT on Sales (Other Current Liabilities) for the VAT',
    );
    expect(setup.stdout).toMatch(/^Country\s+GB$/m);
    const codes = JSON.parse((await ok('tax', 'codes', '--json')).stdout) as { code: string }[];
    expect(codes.map((c) => c.code)).toEqual(
      expect.arrayContaining(['S', 'R', 'Z', 'E', 'O', 'SP', 'RC', 'RCA', 'PIV', 'NIA']),
    );
    const unknown = await books(
      'je',
      'import',
      file('unknown.csv', [
        'date,account,account_type,debit,credit,entry,tax_code',
        '2026-06-01,Sales,Income,,10.00,1,T9',
        '2026-06-01,Bank,Cash,10.00,,1,',
      ]),
      '--create-missing-accounts',
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain(
      'tax code "T9" is not a code of the entity: books tax codes lists them',
    );
  });

  it("the nine boxes of a quarter, tied to the VAT accounts, and the MTD body valid against HMRC's schema", async () => {
    await ok(
      'je',
      'import',
      file('q3.csv', [
        'date,account,account_type,debit,credit,entry,description,tax_code',
        '2026-07-01,Sales,Income,,1000.00,10,Catering July,S',
        '2026-07-01,VAT on Sales,Other Current Liabilities,,200.00,10,Catering July,S',
        '2026-07-01,Bank,Cash,1200.00,,10,Catering July,',
        '2026-07-15,Sales,Income,,300.49,11,Export,Z',
        '2026-07-15,Bank,Cash,300.49,,11,Export,',
        '2026-08-03,Office Supplies,Operating Expenses,100.00,,12,Staples,SP',
        '2026-08-03,VAT on Purchases,Other Current Assets,20.00,,12,Staples,SP',
        '2026-08-03,Bank,Cash,,120.00,12,Staples,',
        '2026-08-20,Subcontractors,Operating Expenses,1000.00,,13,Builder (reverse charge),RC',
        '2026-08-20,VAT on Sales,Other Current Liabilities,,200.00,13,Builder (reverse charge),RC',
        '2026-08-20,VAT on Purchases,Other Current Assets,200.00,,13,Builder (reverse charge),RC',
        '2026-08-20,Bank,Cash,,1000.00,13,Builder (reverse charge),',
        '2026-09-10,Sales,Income,250.00,,14,Credit note,S',
        '2026-09-10,VAT on Sales,Other Current Liabilities,50.00,,14,Credit note,S',
        '2026-09-10,Bank,Cash,,300.00,14,Credit note,',
        '2026-09-30,Wages,Operating Expenses,2000.00,,15,Wages September,OP',
        '2026-09-30,Bank,Cash,,2000.00,15,Wages September,',
      ]),
      '--create-missing-accounts',
    );
    const result = await ok('tax', 'return', '--period', '2026-Q3', '--json');
    const taxReturn = JSON.parse(result.stdout) as {
      boxes: { box: string; formAmount: number }[];
      ties: boolean;
      net: number;
    };
    const boxes = Object.fromEntries(taxReturn.boxes.map((b) => [b.box, b.formAmount]));
    // Box 1: 200 − 50 + 200 (the reverse charge); box 4: 20 + 200; box 6: 1000 + 300.49 − 250
    // in whole pounds; box 7: 100 + 1000 (wages are outside the scope).
    expect(boxes).toEqual({
      '1': 350,
      '2': 0,
      '3': 350,
      '4': 220,
      '5': 130,
      '6': 1050,
      '7': 1100,
      '8': 0,
      '9': 0,
    });
    expect(taxReturn.ties).toBe(true);
    expect(taxReturn.net).toBe(130);
    // The codes are kept on the postings: the general ledger and the journal entry show them.
    const ledger = JSON.parse(
      (await ok('report', 'gl', '--from', '2026-07-01', '--to', '2026-07-31', '--json')).stdout,
    ) as { report: { accounts: { accountName: string; entries: { taxCode?: string }[] }[] } };
    expect(
      ledger.report.accounts.map((a) => [a.accountName, a.entries.map((e) => e.taxCode ?? null)]),
    ).toEqual(
      expect.arrayContaining([
        ['Sales', ['S', 'Z']],
        ['VAT on Sales', ['S']],
        ['Bank', [null, null]],
      ]),
    );
    const table = await ok('tax', 'return', '--period', '2026-07-01..2026-09-30');
    expect(table.stderr).toContain(
      'books: GB VAT return 2026-07-01 to 2026-09-30 (accrual): 130.00 to pay; ties to the VAT accounts (they moved 130.00)',
    );

    const mtd = await ok('tax', 'return', '--period', '2026-Q3', '--mtd', '--period-key', '26C3');
    const body = JSON.parse(mtd.stdout) as Record<string, unknown>;
    const { $schema: _draft, ...schema } = JSON.parse(readFileSync(HMRC_SCHEMA, 'utf8'));
    const validate = new Ajv({ strict: false, multipleOfPrecision: 8 }).compile(schema);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toMatchObject({
      periodKey: '26C3',
      vatDueSales: 350,
      netVatDue: 130,
      totalValueSalesExVAT: 1050,
      finalised: true,
    });

    const detail = JSON.parse(
      (await ok('tax', 'return', '--period', '2026-Q3', '--detail', '--json')).stdout,
    ) as {
      boxes: { box: string; postings: { description: string; net: number; vat: number }[] }[];
    };
    expect(detail.boxes.find((b) => b.box === '1')!.postings).toEqual([
      expect.objectContaining({ description: 'Catering July', vat: 200 }),
      expect.objectContaining({ description: 'Builder (reverse charge)', vat: 200 }),
      expect.objectContaining({ description: 'Credit note', vat: -50 }),
    ]);
    // As records, the postings are read and written as they arrive: the same rows.
    const records = (
      await ok('tax', 'return', '--period', '2026-Q3', '--detail', '-o', 'csv')
    ).stdout
      .trim()
      .split('\n');
    expect(records[0]).toBe('Box,Date,Account,Code,Description,Net,VAT,Entry');
    const fromJson = detail.boxes.flatMap((b) =>
      b.postings.map((p) => `${b.box},${p.description},${p.net.toFixed(2)},${p.vat.toFixed(2)}`),
    );
    expect(
      records.slice(1).map((row) => {
        const f = row.split(',');
        return `${f[0]},${f[4]},${f[5]},${f[6]}`;
      }),
    ).toEqual(fromJson);
  });

  it('filed is filed: a quarter marked filed locks its coded postings; a correction goes into the next return', async () => {
    const filed = await ok('tax', 'return', '--period', '2026-Q3', '--mark-filed');
    expect(filed.stderr).toContain(
      "books: marked the return from 2026-07-01 to 2026-09-30 filed (130.00 to pay): its period's coded postings are locked",
    );
    const again = await books('tax', 'return', '--period', '2026-09', '--mark-filed');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /the return from 2026-07-01 to 2026-09-30 was filed on \d{4}-\d{2}-\d{2}: its period overlaps this one/,
    );
    // A coded sale back-dated into the filed quarter is refused, naming the return.
    const late = await books(
      'je',
      'import',
      file('late.csv', [
        'date,account,account_type,debit,credit,entry,description,tax_code',
        '2026-08-15,Sales,Income,,10.00,30,Forgotten sale,S',
        '2026-08-15,VAT on Sales,Other Current Liabilities,,2.00,30,Forgotten sale,S',
        '2026-08-15,Bank,Cash,12.00,,30,Forgotten sale,',
      ]),
    );
    expect(late.code).not.toBe(0);
    expect(late.stderr).toMatch(
      /2026-08-15 is in the VAT return from 2026-07-01 to 2026-09-30, filed on \d{4}-\d{2}-\d{2}: its coded postings cannot change \(a correction goes into the next open return\)/,
    );
    // An entry of the quarter without a code (a transfer between banks) is not the return's.
    await ok(
      'je',
      'import',
      file('transfer.csv', [
        'date,account,account_type,debit,credit,entry,description',
        '2026-08-16,Savings,Cash,50.00,,31,To savings',
        '2026-08-16,Bank,Cash,,50.00,31,To savings',
      ]),
      '--create-missing-accounts',
    );
    const returns = JSON.parse((await ok('tax', 'returns', '--json')).stdout) as {
      startDate: string;
      net: number;
      intact: boolean;
    }[];
    expect(returns).toEqual([
      expect.objectContaining({ startDate: '2026-07-01', net: 130, intact: true }),
    ]);
  });

  it('the return as a file (json, csv, xlsx, pdf) and as a page of the report pack', async () => {
    const out = (name: string) => path.join(home.home, 'returns', name);
    for (const name of ['q3.json', 'q3.csv', 'q3-detail.csv', 'q3.xlsx', 'q3.pdf'])
      await ok(
        ...['tax', 'return', '--period', '2026-Q3', '--out', out(name)],
        ...(name.includes('detail') ? ['--detail'] : []),
      );
    const json = JSON.parse(readFileSync(out('q3.json'), 'utf8')) as { net: number; ties: boolean };
    expect([json.net, json.ties]).toEqual([130, true]);
    const csv = readFileSync(out('q3.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('box,label,amount,form_amount');
    expect(csv).toContain(
      '6,Total value of sales and all other outputs excluding VAT,1050.49,1050.00',
    );
    const detail = readFileSync(out('q3-detail.csv'), 'utf8').split('\n');
    expect(detail[0]).toBe('box,date,entry,account_code,account_name,tax_code,description,net,vat');
    expect(detail.filter((line) => line.startsWith('1,')).length).toBe(3);
    const rows = await sheetRows(out('q3.xlsx'), 'VAT Return');
    expect(rows.flat()).toEqual(
      expect.arrayContaining(['Ties to the VAT accounts (they moved 130.00)', 'To pay', 130]),
    );
    const [page] = await pdfText(out('q3.pdf'));
    expect(page).toContain('Harbour Café Ltd · GB VAT return');
    expect(page).toContain('Ties to the VAT accounts (they moved 130.00)');
    expect(page).toContain('To pay');
    const again = await ok('tax', 'return', '--period', '2026-Q3', '--out', out('q3.json'));
    expect(again.stderr).toContain(`: wrote the return to ${out('q3.json')}`);
    const both = await books(
      ...['tax', 'return', '--period', '2026-Q3', '--all', '--out', out('all.json')],
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--out writes one return: not with --all or --mtd');
    const wrong = await books('tax', 'return', '--period', '2026-Q3', '--out', out('q3.txt'));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      `--out takes a file ending .json, .csv, .xlsx or .pdf (the format by its name), not "${out('q3.txt')}"`,
    );
    // The month-end pack of a VAT-registered client carries its return for the pack's period.
    const pack = await ok(
      ...['report', 'pack', '--period', '2026-Q3', '--format', 'xlsx'],
      ...['--out', path.join(home.home, 'packs'), '--json'],
    );
    const [workbook] = (JSON.parse(pack.stdout) as { files: string[] }).files;
    expect((await sheetRows(workbook!, 'VAT Return')).flat()).toEqual(
      expect.arrayContaining(['To pay', 130]),
    );
  });

  it("a SAF-T of the quarter carries each line's code, valid by Norway's schema, and reads back to the same return", async () => {
    const directory = path.join(home.home, 'saft-q3');
    const exported = await ok(
      ...['export', directory, '--format', 'saft', '--from', '2026-07-01', '--to', '2026-09-30'],
      ...['--org-number', '999999999', '--contact', 'Kari Nordmann', '--phone', '1', '--json'],
    );
    const saft = (JSON.parse(exported.stdout) as { file: string }).file;
    if (saftXsdPresent) expect(await xsdProblems(saft, SAFT_XSD)).toEqual([]);
    expect(readFileSync(saft, 'utf8')).toContain(
      '<TaxCode>S</TaxCode>\n            <TaxBase>1000.00</TaxBase>\n            <CreditTaxAmount><Amount>200.00</Amount></CreditTaxAmount>',
    );
    // Read back into a new client registered the same way: the same nine boxes.
    await expectSameReturnReadBack('Harbour Copy', saft);
  });

  it("an XAF of the quarter carries each line's vat and the entity's vatCodes, valid by the Dutch schema, and reads back to the same return", async () => {
    const directory = path.join(home.home, 'xaf-q3');
    const exported = await ok(
      ...['export', directory, '--format', 'xaf', '--from', '2026-07-01', '--to', '2026-09-30'],
      '--json',
    );
    const xaf = (JSON.parse(exported.stdout) as { file: string }).file;
    if (xafXsdPresent) expect(await xsdProblems(xaf, XAF_XSD)).toEqual([]);
    const text = readFileSync(xaf, 'utf8');
    expect(text).toContain('<taxRegIdent>GB123456789</taxRegIdent>');
    expect(text).toContain(
      '<vatCode>\n        <vatID>S</vatID>\n        <vatDesc>Standard rated sales</vatDesc>\n        <vatToPayAccID>2000</vatToPayAccID>',
    );
    expect(text).toContain(
      '<vat>\n              <vatID>S</vatID>\n              <vatPerc>20.000</vatPerc>\n              <vatAmnt>200.00</vatAmnt>\n              <vatAmntTp>C</vatAmntTp>\n            </vat>',
    );
    await expectSameReturnReadBack('Harbour XAF', xaf);
  });

  it('bank lines categorized with a code post their net and VAT; codes made, changed and archived', async () => {
    await ok(
      'sandbox',
      'feed',
      'connect',
      '--bank',
      'Barclays',
      '--account',
      'Barclays Current:bank',
    );
    await ok(
      'transactions',
      'import',
      'Barclays Current',
      file('november.csv', [
        'Date,Description,Amount,Reference',
        '2026-11-03,STAPLES 0412,-120.00,N1',
        '2026-11-04,CARD SALES,60.00,N2',
        '2026-11-05,ACME TOOLS,-99.99,N3',
        '2026-11-06,BUILDER LTD,-1000.00,N4',
        '2026-11-07,PRINTER INK,-24.00,N5',
        '2026-11-08,CAFE SUPPLIES,-10.50,N6',
      ]),
    );
    await ok(
      'transactions',
      'categorize',
      'N1',
      '--account',
      'Office Supplies',
      '--tax-code',
      'SP',
    );
    await ok('transactions', 'categorize', 'N2', '--split', 'Sales=40:S', '--split', 'Sales=20:Z');
    // The receipt says 16.00 of VAT, not the 16.67 that 20 % of 99.99 would give.
    await ok(
      'transactions',
      'categorize',
      'N3',
      '--account',
      'Office Supplies',
      '--tax-code',
      'SP',
      '--vat',
      '16.00',
    );
    await ok('transactions', 'categorize', 'N4', '--account', 'Subcontractors', '--tax-code', 'RC');
    const created = await ok(
      ...['tax', 'code', 'create', 'SP12', '--side', 'purchases', '--kind', 'input'],
      ...['--rate', '12.5,20@2026-11-07'],
    );
    expect(created.stderr).toContain('books: created tax code SP12 (SP12)');
    expect(created.stdout).toMatch(/^Rates\s+12\.5 %, 20 % from 2026-11-07$/m);
    await ok(
      'transactions',
      'categorize',
      '--from',
      file('decisions.csv', ['reference,account,tax_code', 'N5,Office Supplies,SP12']),
    );
    await ok('tax', 'code', 'archive', 'SP12');
    const archived = await books(
      'transactions',
      'categorize',
      'N6',
      '--account',
      'Office Supplies',
      '--tax-code',
      'SP12',
    );
    expect(archived.code).toBe(1);
    expect(archived.stderr).toContain('taxCode SP12 is archived');
    for (const [args, message] of [
      [
        ['tax', 'code', 'create', 'X1', '--side', 'sales', '--kind', 'output', '--rate', '12,5'],
        '--rate: every rate after the first says from which day it holds (5@YYYY-MM-DD)',
      ],
      [
        ['tax', 'code', 'create', 'X1', '--side', 'sales', '--kind', 'output', '--rate', '120'],
        '--rate takes percents from 0 to 100 with at most two decimals, each from a day: 20, or 19,16@2020-07-01,19@2021-01-01; not "120"',
      ],
      [
        ['tax', 'code', 'update', 'SP12'],
        'give --name, --rate, --output-account or --input-account: what to change',
      ],
      [
        ['transactions', 'categorize', 'N6', '--account', 'Office Supplies', '--vat', '1.00'],
        '--vat goes with --tax-code',
      ],
    ] as const) {
      const usage = await books(...args);
      expect(usage.code, usage.stderr).toBe(2);
      expect(usage.stderr).toContain(message);
    }
    const updated = await ok('tax', 'code', 'update', 'SP12', '--name', 'Ink at 12.5 %');
    expect(updated.stderr).toContain('books: updated tax code SP12');
    const mixed = await books(
      'transactions',
      'categorize',
      'N6',
      '--split',
      'Office Supplies=10.50:S',
      '--tax-code',
      'S',
    );
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      "--tax-code and --vat go with --account (a split takes its parts' codes: --split A=AMOUNT:CODE)",
    );

    const detail = JSON.parse(
      (await ok('tax', 'return', '--period', '2026-11', '--detail', '--json')).stdout,
    ) as {
      boxes: {
        box: string;
        formAmount: number;
        postings: { description: string; net: number; vat: number }[];
      }[];
      ties: boolean;
    };
    const box = (id: string) => detail.boxes.find((b) => b.box === id)!;
    // 120.00 at 20 % is 100.00 + 20.00; 40.00 of sales at 20 % is 33.33 + 6.67, 20.00 zero-rated;
    // 99.99 with the receipt's 16.00; the builder's 1,000.00 self-assessed at 20 % both ways;
    // 24.00 at the new code's 20 % from 7 November: 20.00 + 4.00.
    expect(box('1').formAmount).toBe(6.67 + 200);
    expect(box('4').formAmount).toBe(20 + 16 + 200 + 4);
    expect(box('6').formAmount).toBe(53);
    expect(box('7').formAmount).toBe(Math.trunc(100 + 83.99 + 1000 + 20));
    expect(box('4').postings.map((p) => [p.description, p.vat])).toEqual([
      ['STAPLES 0412', 20],
      ['ACME TOOLS', 16],
      ['BUILDER LTD', 200],
      ['PRINTER INK', 4],
    ]);
    expect(detail.ties).toBe(true);

    // A rule's tax_code: the lines it takes post their net and VAT as a person's would.
    await ok(
      ...['rule', 'create', '--when', 'description_contains=STATIONERS'],
      ...['--then', 'account_id=Office Supplies', '--then', 'tax_code=SP'],
    );
    const noAccount = await books(
      ...['rule', 'create', '--when', 'description_contains=INK'],
      ...['--then', 'tax_code=SP'],
    );
    expect(noAccount.code).toBe(1);
    expect(noAccount.stderr).toContain(
      'a tax_code action goes with an account_id action: the account it taxes',
    );
    await ok(
      'transactions',
      'import',
      'Barclays Current',
      file('january.csv', [
        'Date,Description,Amount,Reference',
        '2027-01-05,STATIONERS LTD,-60.00,J1',
      ]),
    );
    const january = JSON.parse(
      (await ok('tax', 'return', '--period', '2027-01', '--detail', '--json')).stdout,
    ) as typeof detail;
    const january_ = (id: string) => january.boxes.find((b) => b.box === id)!;
    expect([january_('4').formAmount, january_('7').formAmount]).toEqual([10, 50]);
    expect(january_('4').postings).toEqual([
      expect.objectContaining({ description: 'STATIONERS LTD', vat: 10 }),
    ]);
    expect(january.ties).toBe(true);

    await ok('transactions', 'categorize', 'N6', '--exclude');
    // Suggestions learn the code with the account: four of the five lines on Office Supplies
    // were coded SP (the fifth SP12, archived since), so a new STAPLES comes suggested at SP,
    // and --auto posts it as net and VAT.
    await ok(
      'transactions',
      'import',
      'Barclays Current',
      file('january-2.csv', [
        'Date,Description,Amount,Reference',
        '2027-01-12,STAPLES 0999,-36.00,J2',
      ]),
    );
    const [waiting] = JSON.parse(
      (await ok('transactions', 'list', '--suggest', '--json')).stdout,
    ) as {
      description: string;
      suggestion: { account: string; taxCode?: string; reason: string };
    }[];
    expect(waiting).toMatchObject({
      description: 'STAPLES 0999',
      suggestion: {
        account: 'Office Supplies',
        taxCode: 'SP',
        reason: expect.stringContaining('; coded SP as 4 of 5 earlier lines on it'),
      },
    });
    await ok('transactions', 'categorize', '--auto', '--min-confidence', '0.1');
    const after = JSON.parse(
      (await ok('tax', 'return', '--period', '2027-01', '--json')).stdout,
    ) as typeof detail;
    expect(after.boxes.find((b) => b.box === '4')!.formAmount).toBe(16);
    expect(after.ties).toBe(true);
  });

  it.skipIf(!realSaftPresent)(
    "a real SAF-T file: each line's TaxInformation carried to the entity's codes by --tax-codes, summing to the file's own",
    async () => {
      const saft = REAL_SAFT;
      await ok('sandbox', 'entity', 'create', 'Toyen Lekefabrikk', '-w', 'Harbour Café Ltd');
      const where = ['-e', 'Toyen Lekefabrikk'];
      await ok('tax', 'setup', '--country', 'NL', ...where);
      // Norway's codes of the file, as the firm keeps them for this client.
      for (const [code, side, rate] of [
        ['NO1', 'purchases', '25'],
        ['NO1R', 'purchases', '15'],
        ['NO2', 'sales', '25'],
      ] as const)
        await ok(
          ...['tax', 'code', 'create', code, '--side', side, '--rate', rate, ...where],
          ...['--kind', side === 'sales' ? 'output' : 'input'],
        );
      const importArgs = [
        ...['je', 'import', saft, '--create-missing-accounts'],
        ...['--offset-account', 'Opening Offset', ...where],
      ];
      // 21 lines state code 1, and their 21 VAT lines take it: 42, named once.
      const unmapped = await books(...importArgs);
      expect(unmapped.code).toBe(3);
      expect(unmapped.stderr).toContain(
        'tax code "1" is not a code of the entity: books tax codes lists them, --tax-codes FILE maps the file\'s codes (theirs,ours) to them (42 lines)',
      );
      const badMap = await books(
        ...importArgs,
        '--tax-codes',
        file('bad-codes.csv', ['theirs,ours', '1,NO1,extra']),
      );
      expect(badMap.code).toBe(3);
      expect(badMap.stderr).toContain(
        "bad-codes.csv: line 2 is not theirs,ours (the file's code, the entity's)",
      );
      const map = file('norway-codes.csv', ['theirs,ours', '1,NO1', '1R,NO1R', '2,NO2']);
      await ok(...importArgs, '--tax-codes', map);

      // The file's own tax, read here from its XML: per code, the TaxBase and TaxAmount of each line.
      const xml = readFileSync(saft, 'utf8').replaceAll('n1:', '');
      const stated = new Map<string, { base: number; tax: number; lines: number }>();
      for (const [, block] of xml.matchAll(/<TaxInformation>([\s\S]*?)<\/TaxInformation>/g)) {
        const code = { '1': 'NO1', '1R': 'NO1R', '2': 'NO2' }[/<TaxCode>(.*?)</.exec(block!)![1]!]!;
        const sum = stated.get(code) ?? { base: 0, tax: 0, lines: 0 };
        sum.base += Number(/<TaxBase>(.*?)</.exec(block!)![1]);
        sum.tax += Number(/<TaxAmount>\s*<Amount>(.*?)</.exec(block!)![1]);
        sum.lines += 1;
        stated.set(code, sum);
      }
      const entries = JSON.parse((await ok('je', 'list', '--all', '--json', ...where)).stdout) as {
        lines: {
          accountName: string;
          debitAmount: number | null;
          creditAmount: number | null;
          taxCode?: string;
        }[];
      }[];
      const books_ = new Map<string, { base: number; tax: number; vatLines: number }>();
      for (const line of entries.flatMap((entry) => entry.lines)) {
        if (!line.taxCode) continue;
        const sum = books_.get(line.taxCode) ?? { base: 0, tax: 0, vatLines: 0 };
        const amount = Math.abs((line.debitAmount ?? 0) - (line.creditAmount ?? 0));
        // Norway's VAT accounts, by their names in the file's chart (the codes are the platform's).
        if (/merverdiavgift/i.test(line.accountName)) {
          sum.tax += amount;
          sum.vatLines += 1;
        } else sum.base += amount;
        books_.set(line.taxCode, sum);
      }
      expect([...books_.keys()].sort()).toEqual(['NO1', 'NO1R', 'NO2']);
      for (const [code, file_] of stated) {
        const kept = books_.get(code)!;
        expect(kept.base, code).toBeCloseTo(file_.base, 2);
        // Every TaxAmount found its VAT line; the file states two of them in whole kroner.
        expect(kept.vatLines, code).toBe(file_.lines);
        expect(Math.abs(kept.tax - file_.tax), code).toBeLessThanOrEqual(1.5);
      }
    },
  );

  it("the firm's returns of a quarter: a row per VAT-registered entity, its due day, filed or not", async () => {
    if (!realSaftPresent) {
      // The Dutch client the real SAF-T's test registers, with no postings of the quarter.
      await ok('sandbox', 'entity', 'create', 'Toyen Lekefabrikk', '-w', 'Harbour Café Ltd');
      await ok('tax', 'setup', '--country', 'NL', '-e', 'Toyen Lekefabrikk');
    }
    const firm = await ok('tax', 'return', '--period', '2026-Q3', '--all', '--json');
    const rows = JSON.parse(firm.stdout) as Record<string, unknown>[];
    expect(rows.map((r) => [r.entity, r.country, r.due, Boolean(r.filed), r.net, r.ties])).toEqual([
      ['Harbour Café Ltd', 'GB', '2026-11-07', true, 130, true],
      ['Harbour Copy', 'GB', '2026-11-07', false, 130, true],
      ['Harbour XAF', 'GB', '2026-11-07', false, 130, true],
      ['Toyen Lekefabrikk', 'NL', '2026-10-31', false, 0, true],
    ]);
    expect(firm.stderr).toContain(
      'books: 4 VAT-registered entities from 2026-07-01 to 2026-09-30; every return ties',
    );
    const mixed = await books('tax', 'return', '--period', '2026-Q3', '--all', '--mark-filed');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      '--all gives a row per entity: --mtd, --mark-filed and --detail are of one',
    );
  });

  it('a VAT posting without a code: the return does not tie and names it (exit 1)', async () => {
    await ok(
      'je',
      'import',
      file('uncoded.csv', [
        'date,account,account_type,debit,credit,entry,description,tax_code',
        '2026-10-02,Sales,Income,,100.00,20,Cash sale,',
        '2026-10-02,VAT on Sales,Other Current Liabilities,,20.00,20,Cash sale,',
        '2026-10-02,Bank,Cash,120.00,,20,Cash sale,',
      ]),
    );
    const refused = await books('tax', 'return', '--period', '2026-10');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'books: the return from 2026-10-01 to 2026-10-31 does not tie: the VAT accounts moved 20.00, the coded postings declare 0.00',
    );
    expect(refused.stderr).toContain(
      '2026-10-02 2000 VAT on Sales "Cash sale" (no code): a posting on a VAT account carries no tax code',
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(refused.stderr).not.toContain('books: books:');
    // Streamed with its postings, the return is refused the same, before any row is written.
    const refusedDetail = await books('tax', 'return', '--period', '2026-10', '--detail');
    expect(refusedDetail.code).toBe(1);
    expect(refusedDetail.stdout).toBe('');
    expect(refusedDetail.stderr).toContain(
      'books: the return from 2026-10-01 to 2026-10-31 does not tie: the VAT accounts moved 20.00, the coded postings declare 0.00',
    );
    // The month's close review fails on it too, naming the posting.
    const review = await books('close', 'review', '--period', '2026-10', '--json');
    const [reviewed] = JSON.parse(review.stdout) as {
      checks: { id: string; status: string; items: string[] }[];
    }[];
    expect(reviewed!.checks.find((c) => c.id === 'tax')).toMatchObject({
      status: 'fail',
      items: expect.arrayContaining([
        expect.stringMatching(
          /^2026-10-02 2000 VAT on Sales "Cash sale" \(\S+\): a posting on a VAT account carries no tax code$/,
        ),
      ]),
    });
    // A reverse charge whose two VAT lines carry no code: the net agrees, the boxes do not.
    await ok(
      'je',
      'import',
      file('reverse-uncoded.csv', [
        'date,account,account_type,debit,credit,entry,description,tax_code',
        '2026-12-03,Subcontractors,Operating Expenses,100.00,,40,Builder,RC',
        '2026-12-03,VAT on Sales,Other Current Liabilities,,20.00,40,Builder,',
        '2026-12-03,VAT on Purchases,Other Current Assets,20.00,,40,Builder,',
        '2026-12-03,Bank,Cash,,100.00,40,Builder,',
      ]),
    );
    const short = await books('tax', 'return', '--period', '2026-12');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain(
      'books: the return from 2026-12-01 to 2026-12-31 does not tie: the VAT accounts moved what the coded postings declare (0.00), but postings on them are in no box (named above)',
    );
    const firm = await books('tax', 'return', '--period', '2026-10', '--all');
    expect(firm.code).toBe(1);
    expect(firm.stderr).toContain(
      'books: 4 VAT-registered entities from 2026-10-01 to 2026-10-31; 1 does not tie: Harbour Café Ltd (books tax return --period … -e ENTITY names why)',
    );
    const bad = await books('tax', 'return', '--period', '2026-Q5');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--period must be a month (2026-07), a quarter (2026-Q3), a year (2026) or FROM..TO (2026-07-01..2026-09-30), not "2026-Q5"',
    );
    for (const [args, message] of [
      [['--mtd'], "--mtd needs --period-key: HMRC's key of the obligation (e.g. 26A3)"],
      [
        ['--mtd', '--period-key', 'TOO-LONG'],
        '--period-key is four letters, digits or #, not "TOO-LONG"',
      ],
    ] as const) {
      const usage = await books('tax', 'return', '--period', '2026-Q3', ...args);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain(message);
    }
  });

  it('an entity not registered, and the MTD body asked of another country', async () => {
    await ok('sandbox', 'entity', 'create', 'Hafen GmbH', '-w', 'Harbour Café Ltd');
    const where = ['-e', 'Hafen GmbH'];
    const unregistered = await books('tax', 'return', '--period', '2026-Q3', ...where);
    expect(unregistered.code).toBe(1);
    expect(unregistered.stderr).toContain(
      'the entity is not registered for VAT: books tax setup --country GB, DE or NL registers it',
    );
    // A ledger's tax codes into an entity that keeps none: left out, said.
    const uncoded = await ok(
      'je',
      'import',
      file('hafen.csv', [
        'date,account,account_type,debit,credit,entry,tax_code',
        '2026-06-01,Umsatzerlöse,Income,,100.00,1,USt19',
        '2026-06-01,Bank,Cash,100.00,,1,',
      ]),
      '--create-missing-accounts',
      ...where,
    );
    expect(uncoded.stderr).toContain(
      'the tax codes of 1 line were left out: entity "Hafen GmbH" keeps none (books tax setup registers it for VAT)',
    );
    await ok('tax', 'setup', '--country', 'DE', ...where);
    const mtd = await books(
      'tax',
      'return',
      '--period',
      '2026-Q3',
      '--mtd',
      '--period-key',
      '26C3',
      ...where,
    );
    expect(mtd.code).toBe(2);
    expect(mtd.stderr).toContain("--mtd writes the UK's return; the entity files in DE");
  });

  it('a DATEV Buchungsstapel carries USt19 and VSt19 as tax keys 3 and 9 on gross rows, and reads back to the same Voranmeldung', async () => {
    // A German firm keeps SKR03's numbers: a workspace whose charts take the codes given.
    await ok('workspace', 'create', 'Bäckereien', '--timezone', 'UTC');
    await ok('sandbox', 'workspace', 'update', 'Bäckereien', '--custom-chart');
    const vatAccounts = chartFileOf('sonne-vat.csv', [
      ['1776', 'Umsatzsteuer 19 %', 'Other Current Liabilities'],
      ['1576', 'Vorsteuer 19 %', 'Other Current Assets'],
    ]);
    const registered = (entity: string) => germanClient('Bäckereien', entity, vatAccounts);
    const where = await registered('Bäckerei Sonne GmbH');
    const header =
      'date,account_code,account_name,account_type,debit,credit,entry,description,tax_code';
    await ok(
      'je',
      'import',
      file('sonne-q3.csv', [
        header,
        // A sale at 19 %, a purchase at 19 %, and a sale whose VAT is a cent off what DATEV
        // would compute from its gross (written as booked, without a key).
        '2026-07-10,1800,Bank,Cash,119.00,,10,Brot und Kuchen,',
        '2026-07-10,8400,Erlöse 19 % USt,Income,,100.00,10,Brot und Kuchen,USt19',
        '2026-07-10,1776,Umsatzsteuer 19 %,Other Current Liabilities,,19.00,10,Brot und Kuchen,USt19',
        '2026-07-20,1800,Bank,Cash,238.00,,13,Catering,',
        '2026-07-20,8200,Erlöse,Income,,200.00,13,Catering,USt19',
        '2026-07-20,1776,Umsatzsteuer 19 %,Other Current Liabilities,,38.00,13,Catering,USt19',
        '2026-08-05,4930,Bürobedarf,Operating Expenses,84.03,,11,Papier,VSt19',
        '2026-08-05,1576,Vorsteuer 19 %,Other Current Assets,15.97,,11,Papier,VSt19',
        '2026-08-05,1800,Bank,Cash,,100.00,11,Papier,',
        '2026-10-01,1800,Bank,Cash,59.51,,12,Torte,',
        '2026-10-01,8400,Erlöse 19 % USt,Income,,50.00,12,Torte,USt19',
        '2026-10-01,1776,Umsatzsteuer 19 %,Other Current Liabilities,,9.51,12,Torte,USt19',
      ]),
      ...['--create-missing-accounts', ...where],
    );
    const exportDatev = async (name: string, from: string, to: string) => {
      const exported = await ok(
        ...['export', path.join(home.home, name), '--format', 'datev', '--from', from, '--to', to],
        ...['--datev-consultant', '29098', '--datev-client', '1', '--skr', '03', '--json'],
        ...where,
      );
      const datev = (JSON.parse(exported.stdout) as { file: string }).file;
      const rows = iconv
        .decode(readFileSync(datev), 'windows-1252')
        .split('\r\n')
        .slice(2, -1)
        .map((row) => row.split(';').slice(0, 11).join(';'))
        .filter((row) => !row.endsWith('"EB"')); // the balances carried in
      return { datev, rows, text: iconv.decode(readFileSync(datev), 'windows-1252') };
    };
    const quarter = await exportDatev('datev-q3', '2026-07-01', '2026-09-30');
    // The sale on 8400, SKR03's automatic 19 % account, carries no key (the account computes
    // the VAT itself); the one on 8200 key 3; the purchase key 9, 4930 debited as the Gegenkonto.
    expect(quarter.rows).toEqual([
      '119,00;"S";"";;;"";1800;8400;"";1007;"1"',
      '238,00;"S";"";;;"";1800;8200;"3";2007;"2"',
      '100,00;"H";"";;;"";1800;4930;"9";0508;"3"',
    ]);
    // The sale a cent off what DATEV would compute from its gross: as booked, the automatic off.
    const october = await exportDatev('datev-10', '2026-10-01', '2026-10-31');
    expect(october.rows).toEqual([
      '50,00;"S";"";;;"";1800;8400;"40";0110;"1"',
      '9,51;"S";"";;;"";1800;1776;"";0110;"1"',
    ]);

    const copy = await registered('Bäckerei Kopie');
    // A Buchungsstapel names no account: the client's chart (--chart) names them.
    const clientChart = file('sonne-chart.csv', [
      'code,name,type',
      '1800,Bank,Cash',
      '8400,Erlöse 19 % USt,Income',
      '8200,Erlöse,Income',
      '4930,Bürobedarf,Operating Expenses',
      '1776,Umsatzsteuer 19 %,Other Current Liabilities',
      '1576,Vorsteuer 19 %,Other Current Assets',
    ]);
    for (const { datev } of [quarter, october])
      await ok(
        ...['je', 'import', datev, '--datev-vat', 'split', '--chart', clientChart],
        ...['--create-missing-accounts', ...copy],
      );
    const boxesOf = async (entity: string[]) =>
      (
        JSON.parse(
          (await ok('tax', 'return', '--period', '2026-Q3', '--json', ...entity)).stdout,
        ) as { boxes: { box: string; amount: number }[] }
      ).boxes
        .filter((b) => b.amount !== 0)
        .map((b) => [b.box, b.amount]);
    const original = await boxesOf(where);
    expect(original).toEqual(
      expect.arrayContaining([
        ['81', 300],
        ['66', 15.97],
      ]),
    );
    expect(await boxesOf(copy)).toEqual(original);
    // October's sale, its VAT a cent off what DATEV computes, went as booked with its code in
    // Beleginfo ("Steuercode Haben"): it comes back coded, its two rows one entry again. What
    // keeps the copy's October from tying is the balances the second file carries in (its EB rows
    // on its first day), which the copy held already from the first.
    expect(october.text).toContain('"Steuercode Haben";"USt19"');
    const refused = await books('tax', 'return', '--period', '2026-10', ...copy);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain('Torte');
    expect(refused.stderr).toContain(
      '2026-10-01 1776 Umsatzsteuer 19 % "Saldenvortrag" (no code): a posting on a VAT account carries no tax code',
    );
    const ledger = JSON.parse(
      (
        await ok(
          ...['report', 'gl', '--from', '2026-10-01', '--to', '2026-10-01', '--json'],
          ...copy,
        )
      ).stdout,
    ) as {
      report: {
        accounts: { accountCode: string; entries: { description: string; taxCode?: string }[] }[];
      };
    };
    const torte = ledger.report.accounts.flatMap((account) =>
      account.entries
        .filter((entry) => entry.description === 'Torte')
        .map((entry) => [String(account.accountCode), entry.taxCode ?? null]),
    );
    expect(torte.sort()).toEqual([
      ['1776', 'USt19'],
      ['1800', null],
      ['1800', null],
      ['8400', 'USt19'],
    ]);
  });

  it("every German code through a DATEV Buchungsstapel and back: DATEV's keys where it computes the VAT, the rest in Beleginfo, the same Voranmeldung", async () => {
    await ok('workspace', 'create', 'Handel', '--timezone', 'UTC');
    await ok('sandbox', 'workspace', 'update', 'Handel', '--custom-chart');
    const chart = [
      ['1800', 'Bank', 'Cash'],
      ['1400', 'Forderungen aus Lieferungen und Leistungen', 'Accounts Receivable'],
      ['1600', 'Verbindlichkeiten aus Lieferungen und Leistungen', 'Accounts Payable'],
      ['1776', 'Umsatzsteuer 19 %', 'Other Current Liabilities'],
      ['1576', 'Abziehbare Vorsteuer 19 %', 'Other Current Assets'],
      ['8400', 'Erlöse 19 % USt', 'Income'],
      ['8125', 'Steuerfreie innergemeinschaftliche Lieferungen', 'Income'],
      ['8120', 'Steuerfreie Umsätze (Ausfuhr)', 'Income'],
      ['8100', 'Steuerfreie Umsätze § 4 Nr. 8 ff. UStG', 'Income'],
      ['8338', 'Erlöse aus im anderen EU-Land steuerpflichtigen sonstigen Leistungen', 'Income'],
      ['8200', 'Erlöse', 'Income'],
      ['3200', 'Wareneingang', 'COGS'],
      ['4900', 'Sonstige betriebliche Aufwendungen', 'Operating Expenses'],
      ['4930', 'Bürobedarf', 'Operating Expenses'],
      ['4360', 'Versicherungen', 'Operating Expenses'],
    ] as const;
    const chartFile = chartFileOf('handel-chart.csv', chart);
    const registered = (entity: string) => germanClient('Handel', entity, chartFile);
    const where = await registered('Handel Original GmbH');
    const header =
      'date,account_code,account_name,account_type,debit,credit,entry,description,tax_code';
    const line = (
      date: string,
      code: string,
      debit: string,
      credit: string,
      entry: number,
      text: string,
      taxCode = '',
    ) => {
      const [, name, type] = chart.find(([c]) => c === code)!;
      return `${date},${code},${name},${type},${debit},${credit},${entry},${text},${taxCode}`;
    };
    await ok(
      'je',
      'import',
      file('handel-q3.csv', [
        header,
        // USt19 and VSt19: DATEV computes them (automatic 8400; key 9).
        line('2026-07-01', '1800', '119.00', '', 1, 'Verkauf'),
        line('2026-07-01', '8400', '', '100.00', 1, 'Verkauf', 'USt19'),
        line('2026-07-01', '1776', '', '19.00', 1, 'Verkauf', 'USt19'),
        line('2026-07-02', '4930', '84.03', '', 2, 'Papier', 'VSt19'),
        line('2026-07-02', '1576', '15.97', '', 2, 'Papier', 'VSt19'),
        line('2026-07-02', '1800', '', '100.00', 2, 'Papier'),
        // The rest DATEV computes nothing for: in Beleginfo.
        line('2026-07-03', '1400', '1000.00', '', 3, 'Lieferung Wien', ''),
        line('2026-07-03', '8125', '', '1000.00', 3, 'Lieferung Wien', 'IGL'),
        line('2026-07-04', '1400', '400.00', '', 4, 'Ausfuhr Zürich'),
        line('2026-07-04', '8120', '', '400.00', 4, 'Ausfuhr Zürich', 'AUS'),
        line('2026-07-05', '1400', '500.00', '', 5, 'Miete Praxis'),
        line('2026-07-05', '8100', '', '500.00', 5, 'Miete Praxis', 'FREI'),
        line('2026-07-06', '1400', '250.00', '', 6, 'Beratung Lyon'),
        line('2026-07-06', '8338', '', '250.00', 6, 'Beratung Lyon', 'EUSL'),
        line('2026-07-07', '1400', '80.00', '', 7, 'Schadenersatz'),
        line('2026-07-07', '8200', '', '80.00', 7, 'Schadenersatz', 'NSTB'),
        line('2026-07-08', '4360', '60.00', '', 8, 'Versicherung', 'FREIP'),
        line('2026-07-08', '1800', '', '60.00', 8, 'Versicherung'),
        line('2026-07-09', '3200', '2000.00', '', 9, 'Ware aus Polen', 'IGE19'),
        line('2026-07-09', '1576', '380.00', '', 9, 'Ware aus Polen', 'IGE19'),
        line('2026-07-09', '1776', '', '380.00', 9, 'Ware aus Polen', 'IGE19'),
        line('2026-07-09', '1600', '', '2000.00', 9, 'Ware aus Polen'),
        line('2026-07-10', '4900', '1000.00', '', 10, 'Software Dublin', '13bEU'),
        line('2026-07-10', '1576', '190.00', '', 10, 'Software Dublin', '13bEU'),
        line('2026-07-10', '1776', '', '190.00', 10, 'Software Dublin', '13bEU'),
        line('2026-07-10', '1600', '', '1000.00', 10, 'Software Dublin'),
        line('2026-07-11', '4900', '500.00', '', 11, 'Dachdecker', '13b'),
        line('2026-07-11', '1576', '95.00', '', 11, 'Dachdecker', '13b'),
        line('2026-07-11', '1776', '', '95.00', 11, 'Dachdecker', '13b'),
        line('2026-07-11', '1600', '', '500.00', 11, 'Dachdecker'),
        line('2026-07-12', '1576', '57.00', '', 12, 'Einfuhr Shenzhen', 'EUSt'),
        line('2026-07-12', '1800', '', '57.00', 12, 'Einfuhr Shenzhen'),
      ]),
      ...['--create-missing-accounts', ...where],
    );
    const exported = await ok(
      ...['export', path.join(home.home, 'handel-datev'), '--format', 'datev'],
      ...['--from', '2026-07-01', '--to', '2026-09-30', '--datev-consultant', '29098'],
      ...['--datev-client', '3', '--skr', '03', '--json', ...where],
    );
    const datev = (JSON.parse(exported.stdout) as { file: string }).file;
    const rows = iconv.decode(readFileSync(datev), 'windows-1252').split('\r\n').slice(2, -1);
    // The Beleginfo of the codes DATEV computes none for; the keyed rows carry none.
    expect(rows.filter((row) => row.includes('Steuercode')).length).toBe(16);
    const keyed = rows.filter((row) => !['""', '"40"'].includes(row.split(';')[8]!));
    expect(keyed.map((row) => row.split(';').slice(0, 11).join(';'))).toEqual([
      '100,00;"H";"";;;"";1800;4930;"9";0207;"2"',
    ]);
    expect(keyed.some((row) => row.includes('Steuercode'))).toBe(false);

    const copy = await registered('Handel Kopie GmbH');
    await ok(
      ...['je', 'import', datev, '--datev-vat', 'split', '--create-missing-accounts', ...copy],
      ...['--chart', chartFile],
    );
    const returnOf = async (entity: string[]) => {
      const run = await ok('tax', 'return', '--period', '2026-Q3', '--json', ...entity);
      expect(run.stderr).not.toContain('warning');
      const taxReturn = JSON.parse(run.stdout) as {
        ties: boolean;
        boxes: { box: string; amount: number }[];
      };
      expect(taxReturn.ties).toBe(true);
      return taxReturn.boxes.filter((b) => b.amount !== 0).map((b) => [b.box, b.amount]);
    };
    const original = await returnOf(where);
    expect(original).toEqual([
      ['81', 100],
      ['81.tax', 19],
      ['41', 1000],
      ['43', 400],
      ['48', 500],
      ['21', 250],
      ['45', 80],
      ['89', 2000],
      ['89.tax', 380],
      ['46', 1000],
      ['47', 190],
      ['84', 500],
      ['85', 95],
      ['66', 15.97],
      ['61', 380],
      ['62', 57],
      ['67', 285],
      // 19 + 380 + 190 + 95 due, 15.97 + 380 + 57 + 285 reclaimed.
      ['83', -53.97],
    ]);
    expect(await returnOf(copy)).toEqual(original);
    // Each code on the same accounts with the same amounts (a line DATEV's rows split in two,
    // as a Buchungsstapel pairs one debit with one credit, comes back as two of its code).
    const codedLines = async (entity: string[]) => {
      const detail = JSON.parse(
        (await ok('tax', 'return', '--period', '2026-Q3', '--detail', '--json', ...entity)).stdout,
      ) as {
        boxes: {
          box: string;
          postings: { accountCode: string; taxCode: string; net: number; vat: number }[];
        }[];
      };
      const sums = new Map<string, number>();
      for (const box of detail.boxes)
        for (const p of box.postings) {
          const key = `${box.box} ${p.taxCode} ${String(p.accountCode)}`;
          sums.set(key, Math.round(((sums.get(key) ?? 0) + p.net + p.vat) * 100) / 100);
        }
      return Object.fromEntries([...sums].sort());
    };
    expect(await codedLines(copy)).toEqual(await codedLines(where));
  });

  it("Germany's charts keep each rate's VAT on its own account: a code names its account, the Voranmeldung counts it, and a bank line posts to it", async () => {
    await ok('workspace', 'create', 'Konditoreien', '--timezone', 'UTC');
    await ok('sandbox', 'workspace', 'update', 'Konditoreien', '--custom-chart');
    const vatAccounts = chartFileOf('mond-vat.csv', [
      ['1771', 'Umsatzsteuer 7 %', 'Other Current Liabilities'],
      ['1776', 'Umsatzsteuer 19 %', 'Other Current Liabilities'],
      ['1571', 'Abziehbare Vorsteuer 7 %', 'Other Current Assets'],
      ['1576', 'Abziehbare Vorsteuer 19 %', 'Other Current Assets'],
    ]);
    const at = await germanClient('Konditoreien', 'Konditorei Mond GmbH', vatAccounts);
    // As SKR03 books them (and as `--datev-vat split` posts tax keys 2 and 8): the 7 % VAT on
    // 1771 and 1571, the 19 % on 1776.
    const header =
      'date,account_code,account_name,account_type,debit,credit,entry,description,tax_code';
    await ok(
      'je',
      'import',
      file('mond-q3.csv', [
        header,
        '2026-07-03,1800,Bank,Cash,107.00,,1,Kuchen außer Haus,',
        '2026-07-03,8300,Erlöse 7 % USt,Income,,100.00,1,Kuchen außer Haus,USt7',
        '2026-07-03,1771,Umsatzsteuer 7 %,Other Current Liabilities,,7.00,1,Kuchen außer Haus,USt7',
        '2026-07-04,1800,Bank,Cash,238.00,,2,Torte mit Lieferung,',
        '2026-07-04,8400,Erlöse 19 % USt,Income,,200.00,2,Torte mit Lieferung,USt19',
        '2026-07-04,1776,Umsatzsteuer 19 %,Other Current Liabilities,,38.00,2,Torte mit Lieferung,USt19',
        '2026-07-05,3300,Wareneingang 7 %,COGS,50.00,,3,Mehl,VSt7',
        '2026-07-05,1571,Abziehbare Vorsteuer 7 %,Other Current Assets,3.50,,3,Mehl,VSt7',
        '2026-07-05,1800,Bank,Cash,,53.50,3,Mehl,',
      ]),
      ...['--create-missing-accounts', ...at],
    );
    const returnOf = async () => {
      const run = await ok('tax', 'return', '--period', '2026-Q3', '--json', ...at);
      const taxReturn = JSON.parse(run.stdout) as {
        ties: boolean;
        vatAccountsMovement: number;
        boxes: { box: string; amount: number; formAmount: number }[];
      };
      const box = (id: string) => taxReturn.boxes.find((b) => b.box === id)!.amount;
      return { run, taxReturn, box };
    };
    // Before the codes name their accounts, 1771 and 1571 are no VAT accounts of the entity:
    // their VAT would be counted as net. The return says so, naming each entry, before any
    // filing (it used to print Kz 86 as 107.00 in silence).
    const unknown = await returnOf();
    expect(unknown.run.stderr).toContain(
      '2026-07-03 8300 Erlöse 7 % USt "Kuchen außer Haus" (USt7): VAT 0.00 is not 7 % of the net 107.00 (7.49)',
    );
    expect(unknown.run.stderr).toContain(
      "books: warning: 2 entries' VAT is not the code's rate of the net (named above): a receipt's own VAT, or VAT on an account that is not a VAT account of the entity or its code (books tax code update CODE --output-account A)",
    );

    const named = await ok('tax', 'code', 'update', 'USt7', '--output-account', '1771', ...at);
    expect(named.stdout).toMatch(/^VAT due on\s+1771 Umsatzsteuer 7 %$/m);
    await ok('tax', 'code', 'update', 'VSt7', '--input-account', '1571', ...at);
    // VAT reclaimed is never kept where VAT due is.
    const crossed = await books('tax', 'code', 'update', 'VSt19', '--input-account', '1771', ...at);
    expect(crossed.code).toBe(1);
    expect(crossed.stderr).toContain('keeps VAT due: VAT due and VAT reclaimable are kept apart');
    const moved = await books(
      ...['tax', 'setup', '--country', 'DE', '--output-account', '1571'],
      ...['--input-account', '1576', ...at],
    );
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('outputAccountId: a tax code keeps its VAT reclaimed there');

    // A bank line of flour at 7 %: its VAT on 1571, the code's account.
    await ok(
      'sandbox',
      'feed',
      'connect',
      '--bank',
      'Sparkasse',
      '--account',
      'Sparkasse Giro:bank',
      ...at,
    );
    await ok(
      'transactions',
      'import',
      'Sparkasse Giro',
      file('mond-giro.csv', [
        'Date,Description,Amount,Reference',
        '2026-07-10,MUEHLE GMBH,-21.40,M1',
      ]),
      ...at,
    );
    await ok('transactions', 'categorize', 'M1', '--account', '3300', '--tax-code', 'VSt7', ...at);
    const ledger = JSON.parse(
      (await ok(...['report', 'gl', '--from', '2026-07-10', '--to', '2026-07-10', '--json'], ...at))
        .stdout,
    ) as { report: { accounts: { accountCode: string; entries: unknown[] }[] } };
    expect(
      ledger.report.accounts
        .filter((a) => a.entries.length > 0)
        .map((a) => String(a.accountCode))
        .sort(),
    ).toEqual(['1571', '1801', '3300']);

    const known = await returnOf();
    expect(known.run.stderr).not.toContain('warning');
    expect(known.taxReturn.ties).toBe(true);
    expect(known.box('86')).toBe(100);
    expect(known.box('81')).toBe(200);
    expect(known.box('66')).toBe(3.5 + 1.4);
    // Every VAT account's movement: 7.00 + 38.00 due, 3.50 + 1.40 reclaimed.
    expect(known.taxReturn.vatAccountsMovement).toBe(40.1);
    expect(known.box('83')).toBe(40.1);

    // With the codes' accounts SKR03's own, DATEV computes the 7 % too: the sale on 8300 and the
    // flour on 3300 (automatic 7 % accounts) are gross rows without a key, as DATEV books them.
    const exported = await ok(
      ...['export', path.join(home.home, 'mond-datev'), '--format', 'datev'],
      ...['--from', '2026-07-01', '--to', '2026-09-30', '--datev-consultant', '29098'],
      ...['--datev-client', '2', '--skr', '03', '--json', ...at],
    );
    const datevRows = iconv
      .decode(readFileSync((JSON.parse(exported.stdout) as { file: string }).file), 'windows-1252')
      .split('\r\n')
      .slice(2, -1)
      .map((row) => row.split(';').slice(0, 11).join(';'))
      .filter((row) => !row.endsWith('"EB"'));
    expect(datevRows).toEqual([
      '107,00;"S";"";;;"";1800;8300;"";0307;"1"',
      '238,00;"S";"";;;"";1800;8400;"";0407;"2"',
      '53,50;"H";"";;;"";1800;3300;"";0507;"3"',
      '21,40;"H";"";;;"";1801;3300;"";1007;"4"',
    ]);
    // Read back into a copy that keeps its codes' VAT on the same accounts: the same Voranmeldung.
    const copy = await germanClient('Konditoreien', 'Konditorei Kopie', vatAccounts);
    await ok('tax', 'code', 'update', 'USt7', '--output-account', '1771', ...copy);
    await ok('tax', 'code', 'update', 'VSt7', '--input-account', '1571', ...copy);
    await ok(
      ...['je', 'import', (JSON.parse(exported.stdout) as { file: string }).file],
      ...['--datev-vat', 'split', '--create-missing-accounts', ...copy],
      ...[
        '--chart',
        file('mond-chart.csv', [
          'code,name,type',
          '1800,Bank,Cash',
          '1801,Sparkasse Giro,Cash',
          '8300,Erlöse 7 % USt,Income',
          '8400,Erlöse 19 % USt,Income',
          '3300,Wareneingang 7 %,COGS',
          '1771,Umsatzsteuer 7 %,Other Current Liabilities',
          '1776,Umsatzsteuer 19 %,Other Current Liabilities',
          '1571,Abziehbare Vorsteuer 7 %,Other Current Assets',
          '1576,Abziehbare Vorsteuer 19 %,Other Current Assets',
        ]),
      ],
    );
    const boxes = async (entity: string[]) =>
      (
        JSON.parse(
          (await ok('tax', 'return', '--period', '2026-Q3', '--json', ...entity)).stdout,
        ) as {
          boxes: { box: string; amount: number }[];
        }
      ).boxes.map((b) => [b.box, b.amount]);
    const read = await ok('tax', 'return', '--period', '2026-Q3', ...copy);
    expect(read.stderr).not.toContain('warning');
    expect(await boxes(copy)).toEqual(await boxes(at));
  });

  it("QuickBooks' and Xero's reports with their tax column: the codes mapped by --tax-codes, and the return ties", async () => {
    await ok('use', '-w', 'Harbour Café Ltd', '-e', 'Harbour Café Ltd');
    await ok('sandbox', 'entity', 'create', 'Harbour Reports', '-w', 'Harbour Café Ltd');
    const where = ['-e', 'Harbour Reports'];
    await ok('tax', 'setup', '--country', 'GB', ...where);
    const xero = file('xero-july.csv', [
      'Account Transactions',
      'Harbour Reports',
      'For the period 1 July 2026 to 31 July 2026',
      '',
      'Date,Source,Description,Reference,Debit,Credit,Running Balance,Gross,VAT,Tax Rate',
      'Business Bank Account (090),,,,,,,,,',
      '03 Jul 2026,Receive Money,Catering,RM-1,"1,200.00",,"1,200.00","1,200.00",0.00,',
      '10 Jul 2026,Spend Money,Staples,SM-1,,120.00,"1,080.00",-120.00,0.00,',
      'Total Business Bank Account (090),,,,"1,200.00",120.00,,,,',
      'Sales (200),,,,,,,,,',
      '03 Jul 2026,Receive Money,Catering,RM-1,,"1,000.00","-1,000.00","-1,200.00",-200.00,20% (VAT on Income)',
      'Total Sales (200),,,,0.00,"1,000.00",,,,',
      'Office Supplies (429),,,,,,,,,',
      '10 Jul 2026,Spend Money,Staples,SM-1,100.00,,100.00,120.00,20.00,20% (VAT on Expenses)',
      'Total Office Supplies (429),,,,100.00,0.00,,,,',
      'VAT on Sales (2000),,,,,,,,,',
      '03 Jul 2026,Receive Money,Catering,RM-1,,200.00,-200.00,,,20% (VAT on Income)',
      'Total VAT on Sales (2000),,,,0.00,200.00,,,,',
      'VAT on Purchases (2010),,,,,,,,,',
      '10 Jul 2026,Spend Money,Staples,SM-1,20.00,,20.00,,,20% (VAT on Expenses)',
      'Total VAT on Purchases (2010),,,,20.00,0.00,,,,',
    ]);
    const chart = file('xero-chart.csv', [
      'code,name,type',
      '090,Business Bank Account,Cash',
      '200,Sales,Income',
      '429,Office Supplies,Operating Expenses',
    ]);
    const importXero = [
      ...['je', 'import', xero, '--chart', chart, '--create-missing-accounts', ...where],
    ];
    const unmapped = await books(...importXero);
    expect(unmapped.code).toBe(3);
    expect(unmapped.stderr).toContain('tax code "20% (VAT on Income)" is not a code of the entity');
    const map = file('xero-codes.csv', [
      'theirs,ours',
      '20% (VAT on Income),S',
      '20% (VAT on Expenses),SP',
    ]);
    await ok(...importXero, '--tax-codes', map);
    // QuickBooks Desktop (UK) with its VAT Code column: the preset's own codes, no map needed.
    await ok(
      'je',
      'import',
      file('qb-august.csv', [
        ',,Harbour Reports,,,,,,,,,,',
        ',,Transaction Detail by Date,,,,,,,,,,',
        ',,Type,Date,Num,Name,Memo,Account,Clr,Split,VAT Code,Amount,Balance',
        ',,Sales Receipt,03/08/2026,11,Walk-in,Export,Business Bank Account,,Sales,,300.00,',
        ',,,,,,Export,Sales,,Business Bank Account,Z,-300.00,',
        ',TOTAL,,,,,,,,,,0.00,',
      ]),
      ...['--date-format', 'DD/MM/YYYY', ...where],
    );
    const taxReturn = JSON.parse(
      (await ok('tax', 'return', '--period', '2026-Q3', '--json', ...where)).stdout,
    ) as { boxes: { box: string; formAmount: number }[]; ties: boolean };
    expect(taxReturn.ties).toBe(true);
    expect(Object.fromEntries(taxReturn.boxes.map((b) => [b.box, b.formAmount]))).toMatchObject({
      '1': 200,
      '4': 20,
      '6': 1300,
      '7': 100,
    });
  });

  it('cash against accrual: an invoice counts when issued, its VAT under the cash scheme when paid; --strict refuses uncoded lines', async () => {
    await ok('use', '-w', 'Harbour Café Ltd', '-e', 'Harbour Café Ltd');
    await ok('sandbox', 'entity', 'create', 'Harbour Cash', '-w', 'Harbour Café Ltd');
    const where = ['-e', 'Harbour Cash'];
    await ok('sandbox', 'entity', 'open-accrual', 'Harbour Cash');
    await ok('tax', 'setup', '--country', 'GB', ...where);
    const header = 'date,account,account_type,debit,credit,entry,description,tax_code';
    // Invoiced on 28 September (the accrual ledger), paid on 5 October (the cash ledger).
    await ok(
      ...['je', 'import', '--basis', 'accrual', '--create-missing-accounts', ...where],
      file('invoice.csv', [
        header,
        '2026-09-28,Debtors,Accounts Receivable,120.00,,1,Invoice 1,',
        '2026-09-28,Sales,Income,,100.00,1,Invoice 1,S',
        '2026-09-28,VAT on Sales,Other Current Liabilities,,20.00,1,Invoice 1,S',
        '2026-10-05,Bank,Cash,120.00,,2,Invoice 1 paid,',
        '2026-10-05,Debtors,Accounts Receivable,,120.00,2,Invoice 1 paid,',
      ]),
    );
    await ok(
      ...['je', 'import', '--basis', 'cash', '--create-missing-accounts', ...where],
      file('receipt.csv', [
        header,
        '2026-10-05,Bank,Cash,120.00,,3,Invoice 1 paid,',
        '2026-10-05,Sales,Income,,100.00,3,Invoice 1 paid,S',
        '2026-10-05,VAT on Sales,Other Current Liabilities,,20.00,3,Invoice 1 paid,S',
        '2026-10-06,Bank Charges,Operating Expenses,5.00,,4,Bank charges,',
        '2026-10-06,Bank,Cash,,5.00,4,Bank charges,',
      ]),
    );
    const box1 = async (period: string, basis: string) =>
      (
        JSON.parse(
          (await ok('tax', 'return', '--period', period, '--basis', basis, '--json', ...where))
            .stdout,
        ) as { boxes: { box: string; formAmount: number }[] }
      ).boxes.find((b) => b.box === '1')!.formAmount;
    expect([await box1('2026-Q3', 'accrual'), await box1('2026-Q4', 'accrual')]).toEqual([20, 0]);
    expect([await box1('2026-Q3', 'cash'), await box1('2026-Q4', 'cash')]).toEqual([0, 20]);
    // The bank charges carry no code: counted, and refused with --strict.
    const counted = await ok('tax', 'return', '--period', '2026-Q4', '--basis', 'cash', ...where);
    expect(counted.stderr).toContain(
      '; 1 income or expense line carries no tax code (--detail lists the coded, --strict refuses)',
    );
    const strict = await books(
      ...['tax', 'return', '--period', '2026-Q4', '--basis', 'cash', '--strict', ...where],
    );
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('2026-10-06 ');
    expect(strict.stderr).toContain('"Bank charges": no tax code');
    expect(strict.stderr).toContain(
      'books: the return from 2026-10-01 to 2026-12-31 is refused: 1 income or expense line carries no tax code (--strict)',
    );
  });
});
