import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTaxReturn, type TaxReturnEvent } from '../../src/client/taxReturnStream.js';
import { postingJson } from '../../src/platform/engine/tax.js';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { piecesOf } from '../helpers/pieces.js';

/**
 * A return with every posting behind each box, asked for as lines (NDJSON, what `books tax
 * return --detail` reads) and as the JSON document: the same return and the same postings in the
 * same order, whatever the descriptions hold; and the client's reader, fed the lines cut
 * anywhere (inside a line, inside a character), gives them back as they were.
 */
describe('the VAT return with --detail, as lines', () => {
  let server: TestServer;
  let ledger: TestEntity;
  let query: string;
  const awkward = [
    'Invoice "7" \\ paid',
    'Line\nbreak and\ttab',
    'Café — ünïcode 😀',
    'U+2028 \u2028 and U+2029 \u2029',
    '=SUM(A1)',
  ];

  beforeAll(async () => {
    server = await startServer();
    ledger = await createEntity(server);
    const bank = await ledger.account('Bank', 'Cash');
    const sales = await ledger.account('Sales', 'Income');
    const costs = await ledger.account('Stationery "A4"', 'Operating Expenses');
    const output = await ledger.account('VAT on Sales', 'Other Current Liabilities');
    const input = await ledger.account('VAT on Purchases', 'Other Current Assets');
    const setup = await server.request(
      'POST',
      `/sandbox/v1/entities/${ledger.entityId}/tax-setting`,
      {
        body: { country: 'GB', outputAccountId: output.id, inputAccountId: input.id },
      },
    );
    expect(setup.status, setup.text).toBe(200);
    for (const [i, description] of awkward.entries()) {
      const purchase = i % 2 === 1;
      const net = 100 + i;
      const vat = net / 5;
      const response = await ledger.post({
        date: `2026-07-0${i + 1}`,
        memo: description,
        lines: [
          purchase
            ? { accountId: bank.id, creditAmount: net + vat }
            : { accountId: bank.id, debitAmount: net + vat },
          purchase
            ? { accountId: costs.id, debitAmount: net, taxCode: 'SP', description }
            : { accountId: sales.id, creditAmount: net, taxCode: 'S', description },
          purchase
            ? { accountId: input.id, debitAmount: vat, taxCode: 'SP', description }
            : { accountId: output.id, creditAmount: vat, taxCode: 'S', description },
        ],
      });
      expect(response.status, response.text).toBe(201);
    }
    query = `/sandbox/v1/entities/${ledger.entityId}/tax-return?startDate=2026-07-01&endDate=2026-09-30&detail=true`;
  });
  afterAll(() => server.close());

  it('answers NDJSON: the return without postings, then a line per posting with its box, as the document has them', async () => {
    const document = await server.request('GET', query);
    expect(document.status, document.text).toBe(200);
    expect(document.headers.get('content-type')).toMatch(/^application\/json/);
    const lines = await server.request('GET', query, {
      headers: { accept: 'application/x-ndjson' },
    });
    expect(lines.status, lines.text).toBe(200);
    expect(lines.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(lines.text.endsWith('\n')).toBe(true);
    const [first, ...rest] = lines.text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const taxReturn = document.body as {
      boxes: { box: string; postings: Record<string, unknown>[] }[];
    };
    expect(first).toEqual({
      ...taxReturn,
      boxes: taxReturn.boxes.map(({ postings: _postings, ...box }) => box),
    });
    const behind = taxReturn.boxes.flatMap((box) =>
      box.postings.map((posting) => ({ box: box.box, ...posting })),
    );
    expect(rest).toEqual(behind);
    // Every description came back as written, on each of its two coded lines.
    expect(
      behind.map((posting) => (posting as { description?: string }).description).sort(),
    ).toEqual([...awkward, ...awkward].sort());
    expect(taxReturn.boxes.map((box) => [box.box, box.postings.length])).toEqual([
      ['1', 3],
      ['2', 0],
      ['3', 0],
      ['4', 2],
      ['5', 0],
      ['6', 3],
      ['7', 2],
      ['8', 0],
      ['9', 0],
    ]);
  });

  it("the client's reader gives the same return back from lines cut anywhere", async () => {
    const lines = await server.request('GET', query, {
      headers: { accept: 'application/x-ndjson' },
    });
    const document = (await server.request('GET', query)).body as {
      boxes: { box: string; postings: unknown[] }[];
    };
    const length = new TextEncoder().encode(lines.text).length;
    for (const size of [1, 3, 7, 64, length]) {
      const events: TaxReturnEvent[] = [];
      for await (const event of readTaxReturn(piecesOf(lines.text, size))) events.push(event);
      const [figures, ...after] = events;
      expect(figures?.kind).toBe('figures');
      const rebuilt: { box: string; postings: unknown[] }[] = [];
      for (const event of after) {
        if (event.kind === 'box') rebuilt.push({ ...event.box, postings: [] });
        if (event.kind === 'postings') {
          expect(rebuilt.at(-1)?.box).toBe(event.box);
          rebuilt
            .at(-1)!
            .postings.push(
              ...event.postings.map(
                ({ box: _box, ...posting }: Record<string, unknown>) => posting,
              ),
            );
        }
      }
      expect({ ...(figures as { taxReturn: object }).taxReturn, boxes: rebuilt }).toEqual(document);
    }
  });

  it('writes a posting as JSON.stringify would write the object', () => {
    for (const description of [...awkward, '', 'a'.repeat(500)])
      for (const [netCents, vatCents] of [
        [12345, 2469],
        [-1, 0],
        [0, -7],
        [1, 10],
        [9_007_199_254_740, 99],
      ] as const) {
        const posting = {
          entryId: '0192f5d0-0000-7000-8000-000000000001',
          day: '2026-07-01',
          accountCode: '4000 "x"',
          accountName: 'Sales\u2028',
          taxCode: 'S',
          description,
          netCents,
          vatCents,
        };
        expect(postingJson(posting)).toBe(
          JSON.stringify({
            journalEntryId: posting.entryId,
            date: posting.day,
            accountCode: posting.accountCode,
            accountName: posting.accountName,
            taxCode: posting.taxCode,
            description,
            net: netCents / 100,
            vat: vatCents / 100,
          }),
        );
      }
  });
});
