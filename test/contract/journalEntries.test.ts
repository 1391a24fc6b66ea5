import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JournalEntrySchema } from '../../src/api/index.js';
import { openEmbeddedPlatform } from '../../src/platform/embedded.js';
import { createEntity, type TestEntity } from '../helpers/ledger.js';
import {
  createOrganization,
  errorOf,
  startServer,
  type TestServer,
  MISSING_ID,
} from '../helpers/server.js';

describe('journal entries', () => {
  let server: TestServer;
  let books: TestEntity;
  let entries: string;
  let cash: any;
  let sales: any;
  let rent: any;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    books = await createEntity(server, { timezone: 'America/New_York' });
    entries = `${books.base}/journal-entries`;
    cash = await books.account('Checking', 'Cash');
    sales = await books.account('Sales', 'Income');
    rent = await books.account('Rent', 'Operating Expenses');
  });

  const lock = (lockDate: string | null) =>
    server.request('PATCH', `/sandbox/v1/entities/${books.entityId}`, { body: { lockDate } });

  describe('create', () => {
    it('answers the documented shape, amounts exact to the cent', async () => {
      const response = await books.post({
        date: '2026-01-15',
        memo: 'January takings',
        lines: [
          { accountId: cash.id, debitAmount: 1234.56, creditAmount: null, description: 'deposit' },
          { accountId: sales.id, creditAmount: 1234.56, debitAmount: 0 },
        ],
      });
      expect(response.status).toBe(201);
      expect(response.body.journalEntry).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        entityId: books.entityId,
        date: '2026-01-15T05:00:00.000Z',
        dateOnly: '2026-01-15',
        ledgerBasis: 'cash',
        memo: 'January takings',
        lines: [
          {
            accountId: cash.id,
            accountCode: 1000,
            accountName: 'Checking',
            classIds: [],
            debitAmount: 1234.56,
            creditAmount: null,
            description: 'deposit',
            memo: 'January takings',
          },
          {
            accountId: sales.id,
            accountCode: 4000,
            accountName: 'Sales',
            classIds: [],
            debitAmount: null,
            creditAmount: 1234.56,
            description: '',
            memo: 'January takings',
          },
        ],
        sourceType: 'manual',
      });
      const read = await server.request('GET', `${entries}/${response.body.journalEntry.id}`);
      expect(read.body.journalEntry).toEqual(response.body.journalEntry);
    });

    it('lands a New York date at 05:00 UTC before the DST change and 04:00 after it', async () => {
      const before = await books.post(books.entry('2026-03-07', cash.id, sales.id, 1));
      const after = await books.post(books.entry('2026-03-09', cash.id, sales.id, 1));
      const autumn = await books.post(books.entry('2026-11-02', cash.id, sales.id, 1));
      expect(before.body.journalEntry.date).toBe('2026-03-07T05:00:00.000Z');
      expect(after.body.journalEntry.date).toBe('2026-03-09T04:00:00.000Z');
      expect(autumn.body.journalEntry.date).toBe('2026-11-02T05:00:00.000Z');
    });

    it('writes the date in the workspace time zone (Guam: the previous UTC day)', async () => {
      const guam = await createEntity(server, { timezone: 'Pacific/Guam' });
      const a = await guam.account('Checking', 'Cash');
      const b = await guam.account('Sales', 'Income');
      const response = await guam.post(guam.entry('2026-01-01', a.id, b.id, 5));
      expect(response.body.journalEntry).toMatchObject({
        date: '2025-12-31T14:00:00.000Z',
        dateOnly: '2026-01-01',
      });
    });

    it('balances with many lines to the cent (no float drift)', async () => {
      const lines = [
        ...Array.from({ length: 10 }, () => ({ accountId: rent.id, debitAmount: 0.1 })),
        { accountId: cash.id, creditAmount: 1 },
      ];
      expect((await books.post({ date: '2026-01-02', lines })).status).toBe(201);
      const sevenths = [
        { accountId: rent.id, debitAmount: 0.29 },
        { accountId: rent.id, debitAmount: 4.35 },
        { accountId: cash.id, creditAmount: 4.64 },
      ];
      expect((await books.post({ date: '2026-01-02', lines: sevenths })).status).toBe(201);
    });

    it('accepts 500 lines and refuses 501 or 1', async () => {
      const many = (n: number) => [
        ...Array.from({ length: n - 1 }, () => ({ accountId: rent.id, debitAmount: 1 })),
        { accountId: cash.id, creditAmount: n - 1 },
      ];
      expect((await books.post({ date: '2026-01-03', lines: many(500) })).status).toBe(201);
      const tooMany = await books.post({ date: '2026-01-03', lines: many(501) });
      expect(errorOf(tooMany)).toEqual({
        status: 400,
        message: 'body.lines must NOT have more than 500 items',
        traceMatches: true,
      });
      const one = await books.post({
        date: '2026-01-03',
        lines: [{ accountId: cash.id, debitAmount: 0 }],
      });
      expect(errorOf(one)).toEqual({
        status: 400,
        message: 'body.lines must NOT have fewer than 2 items',
        traceMatches: true,
      });
    });

    it.each([
      [
        'an unbalanced entry',
        [
          { a: 'cash', debitAmount: 100.1 },
          { a: 'sales', creditAmount: 100 },
        ],
        'lines do not balance: debits 100.10, credits 100.00',
      ],
      [
        'both sides positive',
        [
          { a: 'cash', debitAmount: 5, creditAmount: 5 },
          { a: 'sales', creditAmount: 0 },
        ],
        'lines[0] must have exactly one positive side: a debitAmount or a creditAmount, the other null or 0',
      ],
      [
        'neither side',
        [{ a: 'cash' }, { a: 'sales', creditAmount: 0, debitAmount: null }],
        'lines[0] must have exactly one positive side: a debitAmount or a creditAmount, the other null or 0',
      ],
      [
        'a negative amount',
        [
          { a: 'cash', debitAmount: -5 },
          { a: 'sales', creditAmount: -5 },
        ],
        'lines[0].debitAmount must not be negative',
      ],
      [
        'three decimals',
        [
          { a: 'cash', debitAmount: 1.005 },
          { a: 'sales', creditAmount: 1.005 },
        ],
        'lines[0].debitAmount must have at most 2 decimals',
      ],
      [
        'a huge amount',
        [
          { a: 'cash', debitAmount: 1e15 },
          { a: 'sales', creditAmount: 1e15 },
        ],
        'lines[0].debitAmount must not exceed 999,999,999,999.99',
      ],
      [
        'a string amount',
        [
          { a: 'cash', debitAmount: '5' },
          { a: 'sales', creditAmount: 5 },
        ],
        'body.lines[0].debitAmount must be number or null',
      ],
      [
        'an unknown account',
        [
          { a: MISSING_ID, debitAmount: 5 },
          { a: 'sales', creditAmount: 5 },
        ],
        'lines[0].accountId must name an account of the entity',
      ],
    ])('answers 400 for %s', async (_case, lines, message) => {
      const ids: Record<string, string> = { cash: cash.id, sales: sales.id };
      const body = {
        date: '2026-01-10',
        lines: lines.map(({ a, ...rest }) => ({ accountId: ids[a as string] ?? a, ...rest })),
      };
      const response = await books.post(body);
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });

    it('answers 400 for an account of another entity, or an archived one', async () => {
      const other = await createEntity(server);
      const foreign = await other.account('Foreign Cash', 'Cash');
      const response = await books.post(books.entry('2026-01-10', foreign.id, sales.id, 5));
      expect(response.body.message).toBe('lines[0].accountId must name an account of the entity');
      await server.request('POST', `${books.base}/chart-of-accounts/${rent.id}/disable`);
      const archived = await books.post(books.entry('2026-01-10', rent.id, cash.id, 5));
      expect(errorOf(archived)).toEqual({
        status: 400,
        message: 'lines[0].accountId names an archived account',
        traceMatches: true,
      });
    });

    it('takes classes of the workspace, one per root', async () => {
      const classes = `/platform/v1/workspaces/${books.workspaceId}/classes`;
      const region = (await server.request('POST', classes, { body: { label: 'Region' } })).body
        .class;
      const west = (
        await server.request('POST', classes, { body: { label: 'West', parentClassId: region.id } })
      ).body.class;
      const east = (
        await server.request('POST', classes, { body: { label: 'East', parentClassId: region.id } })
      ).body.class;
      const dept = (await server.request('POST', classes, { body: { label: 'Bakery' } })).body
        .class;
      const ok = await books.post({
        date: '2026-01-11',
        lines: [
          { accountId: rent.id, debitAmount: 10, classIds: [west.id, dept.id] },
          { accountId: cash.id, creditAmount: 10 },
        ],
      });
      expect(ok.status).toBe(201);
      expect(ok.body.journalEntry.lines[0].classIds).toEqual([west.id, dept.id]);
      const twoOfRoot = await books.post({
        date: '2026-01-11',
        lines: [
          { accountId: rent.id, debitAmount: 10, classIds: [west.id, east.id] },
          { accountId: cash.id, creditAmount: 10 },
        ],
      });
      expect(errorOf(twoOfRoot)).toEqual({
        status: 400,
        message: 'lines[0].classIds holds more than one class of the same root',
        traceMatches: true,
      });
      const otherWorkspace = await createEntity(server);
      const foreignClass = (
        await server.request(
          'POST',
          `/platform/v1/workspaces/${otherWorkspace.workspaceId}/classes`,
          { body: { label: 'Elsewhere' } },
        )
      ).body.class;
      const foreign = await books.post({
        date: '2026-01-11',
        lines: [
          { accountId: rent.id, debitAmount: 10 },
          { accountId: cash.id, creditAmount: 10, classIds: [foreignClass.id] },
        ],
      });
      expect(errorOf(foreign)).toEqual({
        status: 400,
        message: 'lines[1].classIds[0] must name a class of the workspace',
        traceMatches: true,
      });

      // Deleting a class removes its assignments from lines.
      await server.request('DELETE', `${classes}/${west.id}`);
      const read = await server.request('GET', `${entries}/${ok.body.journalEntry.id}`);
      expect(read.body.journalEntry.lines[0].classIds).toEqual([dept.id]);
    });

    it('limits the memo to 1000 characters', async () => {
      expect(
        (
          await books.post(
            books.entry('2026-01-12', cash.id, sales.id, 1, { memo: 'm'.repeat(1000) }),
          )
        ).status,
      ).toBe(201);
      const response = await books.post(
        books.entry('2026-01-12', cash.id, sales.id, 1, { memo: 'm'.repeat(1001) }),
      );
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'body.memo must NOT have more than 1000 characters',
        traceMatches: true,
      });
    });

    it.each([
      [{ date: undefined }, 'body.date is required'],
      [{ date: '2026-02-30' }, 'body.date must be a valid date (YYYY-MM-DD)'],
      [{ date: '2026-01-01T00:00:00Z' }, 'body.date must be a valid date (YYYY-MM-DD)'],
      [{ date: '2026-01-01', ledgerBasis: 'tax' }, 'body.ledgerBasis must be one of cash, accrual'],
    ])('answers 400 for %j', async (fields, message) => {
      const body = { ...books.entry('2026-01-01', cash.id, sales.id, 1), ...fields };
      const response = await books.post(body);
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });
  });

  describe('ledger basis', () => {
    it('refuses the accrual ledger until it is opened, then keeps the bases apart', async () => {
      const closed = await books.post(
        books.entry('2026-02-01', cash.id, sales.id, 7, { ledgerBasis: 'accrual' }),
      );
      expect(errorOf(closed)).toEqual({
        status: 400,
        message: 'ledgerBasis: the accrual ledger of this entity is not open',
        traceMatches: true,
      });
      expect((await server.request('GET', `${entries}?ledgerBasis=accrual`)).status).toBe(400);

      await server.request('POST', `/sandbox/v1/entities/${books.entityId}/ledgers/accrual/open`);
      const accrual = (
        await books.post(
          books.entry('2026-02-01', cash.id, sales.id, 7, { ledgerBasis: 'accrual' }),
        )
      ).body.journalEntry;
      const cashEntry = (await books.post(books.entry('2026-02-01', cash.id, sales.id, 8))).body
        .journalEntry;
      expect(accrual.ledgerBasis).toBe('accrual');

      expect((await server.request('GET', `${entries}/${accrual.id}`)).status).toBe(404);
      expect(
        (await server.request('GET', `${entries}/${accrual.id}?ledgerBasis=accrual`)).status,
      ).toBe(200);
      expect(
        (await server.request('GET', `${entries}/${cashEntry.id}?ledgerBasis=accrual`)).status,
      ).toBe(404);
      expect(
        (await server.request('PATCH', `${entries}/${accrual.id}`, { body: { memo: 'x' } })).status,
      ).toBe(404);
      expect(
        (await server.request('DELETE', `${entries}/${accrual.id}?ledgerBasis=cash`)).status,
      ).toBe(404);

      const cashList = await server.request('GET', entries);
      expect(cashList.body.data.map((e: any) => e.id)).toEqual([cashEntry.id]);
      const accrualList = await server.request('GET', `${entries}?ledgerBasis=accrual`);
      expect(accrualList.body.data.map((e: any) => e.id)).toEqual([accrual.id]);
      expect(
        (await server.request('DELETE', `${entries}/${accrual.id}?ledgerBasis=accrual`)).status,
      ).toBe(200);
    });
  });

  describe('lock date', () => {
    it('answers 409 on the lock date and 201 the day after', async () => {
      await lock('2026-03-31');
      const onLock = await books.post(books.entry('2026-03-31', cash.id, sales.id, 1));
      expect(errorOf(onLock)).toEqual({
        status: 409,
        message: 'date 2026-03-31 is on or before the lock date 2026-03-31',
        traceMatches: true,
      });
      expect((await books.post(books.entry('2026-01-01', cash.id, sales.id, 1))).status).toBe(409);
      expect((await books.post(books.entry('2026-04-01', cash.id, sales.id, 1))).status).toBe(201);
    });

    it('guards updates when the stored or the new date is closed, and deletes in the closed period', async () => {
      const march = (await books.post(books.entry('2026-03-15', cash.id, sales.id, 1))).body
        .journalEntry;
      const may = (await books.post(books.entry('2026-05-15', cash.id, sales.id, 1))).body
        .journalEntry;
      await lock('2026-03-31');
      const storedClosed = await server.request('PATCH', `${entries}/${march.id}`, {
        body: { date: '2026-06-01' },
      });
      expect(errorOf(storedClosed)).toEqual({
        status: 409,
        message: 'the entry is dated 2026-03-15, on or before the lock date 2026-03-31',
        traceMatches: true,
      });
      expect(
        (await server.request('PATCH', `${entries}/${march.id}`, { body: { memo: 'late note' } }))
          .status,
      ).toBe(409);
      const newClosed = await server.request('PATCH', `${entries}/${may.id}`, {
        body: { date: '2026-03-31' },
      });
      expect(errorOf(newClosed)).toEqual({
        status: 409,
        message: 'date 2026-03-31 is on or before the lock date 2026-03-31',
        traceMatches: true,
      });
      expect(
        (await server.request('PATCH', `${entries}/${may.id}`, { body: { date: '2026-04-01' } }))
          .status,
      ).toBe(200);
      expect((await server.request('DELETE', `${entries}/${march.id}`)).status).toBe(409);
      await lock(null);
      expect((await server.request('DELETE', `${entries}/${march.id}`)).status).toBe(200);
    });
  });

  describe('update', () => {
    it('touches only the fields sent; lines replace the whole set', async () => {
      const entry = (
        await books.post(books.entry('2026-04-10', cash.id, sales.id, 50, { memo: 'original' }))
      ).body.journalEntry;
      const moved = await server.request('PATCH', `${entries}/${entry.id}`, {
        body: { date: '2026-04-12' },
      });
      expect(moved.status).toBe(200);
      expect(moved.body.journalEntry).toEqual({
        ...entry,
        date: '2026-04-12T04:00:00.000Z',
        dateOnly: '2026-04-12',
      });

      const relined = await server.request('PATCH', `${entries}/${entry.id}`, {
        body: {
          lines: [
            { accountId: rent.id, debitAmount: 20, description: 'split' },
            { accountId: cash.id, debitAmount: 30 },
            { accountId: sales.id, creditAmount: 50 },
          ],
        },
      });
      expect(
        relined.body.journalEntry.lines.map((l: any) => [
          l.accountName,
          l.debitAmount,
          l.creditAmount,
          l.description,
        ]),
      ).toEqual([
        ['Rent', 20, null, 'split'],
        ['Checking', 30, null, ''],
        ['Sales', null, 50, ''],
      ]);
      expect(relined.body.journalEntry.memo).toBe('original');

      const cleared = await server.request('PATCH', `${entries}/${entry.id}`, {
        body: { memo: null },
      });
      expect(cleared.body.journalEntry.memo).toBeNull();
      expect(cleared.body.journalEntry.lines.every((l: any) => l.memo === '')).toBe(true);
      expect((await server.request('GET', `${entries}/${entry.id}`)).body.journalEntry).toEqual(
        cleared.body.journalEntry,
      );
    });

    it('refuses unbalanced lines and changes nothing', async () => {
      const entry = (await books.post(books.entry('2026-04-10', cash.id, sales.id, 50))).body
        .journalEntry;
      const response = await server.request('PATCH', `${entries}/${entry.id}`, {
        body: {
          lines: [
            { accountId: cash.id, debitAmount: 50 },
            { accountId: sales.id, creditAmount: 49.99 },
          ],
        },
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'lines do not balance: debits 50.00, credits 49.99',
        traceMatches: true,
      });
      expect((await server.request('GET', `${entries}/${entry.id}`)).body.journalEntry).toEqual(
        entry,
      );
    });
  });

  describe('delete', () => {
    it('removes the entry and its postings', async () => {
      const entry = (await books.post(books.entry('2026-04-10', rent.id, cash.id, 50))).body
        .journalEntry;
      expect(
        (await server.request('DELETE', `${books.base}/chart-of-accounts/${rent.id}`)).status,
      ).toBe(409);
      const response = await server.request('DELETE', `${entries}/${entry.id}`);
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect((await server.request('GET', `${entries}/${entry.id}`)).status).toBe(404);
      // No posting is left on the account: it can now be deleted.
      expect(
        (await server.request('DELETE', `${books.base}/chart-of-accounts/${rent.id}`)).status,
      ).toBe(200);
    });
  });

  describe('list', () => {
    it('filters by inclusive dates and orders by date, then creation, most recent first', async () => {
      const ids: Record<string, string> = {};
      for (const [name, date] of [
        ['a', '2026-01-31'],
        ['b', '2026-02-01'],
        ['c', '2026-02-01'],
        ['d', '2026-02-28'],
        ['e', '2026-03-01'],
      ]) {
        ids[name!] = (
          await books.post(books.entry(date!, cash.id, sales.id, 1, { memo: name }))
        ).body.journalEntry.id;
      }
      const all = await server.request('GET', entries);
      expect(all.body.data.map((e: any) => e.memo)).toEqual(['e', 'd', 'c', 'b', 'a']);
      const february = await server.request(
        'GET',
        `${entries}?startDate=2026-02-01&endDate=2026-02-28`,
      );
      expect(february.body.data.map((e: any) => e.memo)).toEqual(['d', 'c', 'b']);
      expect(february.body.pagination).toEqual({ limit: 100, offset: 0, total: 3 });
      const page = await server.request('GET', `${entries}?startDate=2026-02-01&limit=2&offset=1`);
      expect(page.body.data.map((e: any) => e.memo)).toEqual(['d', 'c']);
      expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
      expect(february.body.data[0].lines).toHaveLength(2);
    });

    it('pages read on from where the last ended only while nothing changed, in this process or another', async () => {
      for (let day = 1; day <= 25; day += 1) {
        const date = `2026-01-${String(day).padStart(2, '0')}`;
        await books.post(books.entry(date, cash.id, sales.id, 1, { memo: `a${day}` }));
        await books.post(books.entry(date, cash.id, sales.id, 1, { memo: `b${day}` }));
      }
      const memos = async (limit: number, offset: number) => {
        const page = await server.request('GET', `${entries}?limit=${limit}&offset=${offset}`);
        return { memos: page.body.data.map((e: any) => e.memo), total: page.body.pagination.total };
      };
      const pages = async () => {
        const read: string[] = [];
        for (let offset = 0; offset < 60; offset += 20)
          read.push(...(await memos(20, offset)).memos);
        return read;
      };
      const whole = (await memos(100, 0)).memos;
      expect(whole).toHaveLength(50);
      expect(await pages()).toEqual(whole);
      // A write between pages: offsets mean the list as it is now.
      await memos(20, 0);
      await books.post(books.entry('2026-01-30', cash.id, sales.id, 1, { memo: 'late' }));
      expect((await memos(20, 20)).memos).toEqual((await memos(100, 0)).memos.slice(20, 40));
      expect((await memos(20, 20)).total).toBe(51);
      // A write by another process on the same file (the embedded CLI beside `books serve`).
      await memos(20, 0);
      const other = await openEmbeddedPlatform({
        database: server.databaseFile,
        orgToken: server.orgToken,
        rateLimitPerSecond: 0,
      });
      try {
        const response = await other.dispatch({
          method: 'POST',
          path: entries,
          headers: {
            authorization: `Bearer ${server.orgToken}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(books.entry('2026-01-31', cash.id, sales.id, 1, { memo: 'other' })),
        });
        expect(response.status).toBe(201);
      } finally {
        await other.close();
      }
      const now = (await memos(100, 0)).memos;
      expect(now[0]).toBe('other');
      expect((await memos(20, 20)).memos).toEqual(now.slice(20, 40));
      expect((await memos(20, 20)).total).toBe(52);
    });

    it.each([
      ['startDate=2026-03-01&endDate=2026-02-01', 'startDate must not be after endDate'],
      ['startDate=2026-13-01', 'query.startDate must be a valid date (YYYY-MM-DD)'],
      ['endDate=yesterday', 'query.endDate must be a valid date (YYYY-MM-DD)'],
      ['ledgerBasis=tax', 'query.ledgerBasis must be one of cash, accrual'],
      ['limit=101', 'query.limit must be <= 100'],
    ])('answers 400 for %s', async (query, message) => {
      const response = await server.request('GET', `${entries}?${query}`);
      expect(errorOf(response)).toEqual({ status: 400, message, traceMatches: true });
    });
  });

  describe('bulk create', () => {
    it('creates up to 100 entries, answering in request order', async () => {
      const journalEntries = Array.from({ length: 100 }, (_, i) =>
        books.entry(`2026-05-${String((i % 28) + 1).padStart(2, '0')}`, cash.id, sales.id, i + 1, {
          memo: `#${i}`,
        }),
      );
      const response = await server.request('POST', `${entries}/bulk`, {
        body: { journalEntries },
      });
      expect(response.status).toBe(201);
      expect(response.body.data.map((e: any) => e.memo)).toEqual(journalEntries.map((e) => e.memo));
      expect(response.body.data[99].lines[0].debitAmount).toBe(100);
      expect((await server.request('GET', `${entries}?limit=1`)).body.pagination.total).toBe(100);
    });

    it('answers each entry exactly as the schema describes it, and as a GET reads it', async () => {
      // These routes answer through JSON.stringify, not the schema's serializer (which drops
      // unlisted properties): the presenter alone decides what is in an answer.
      const response = await server.request('POST', `${entries}/bulk`, {
        body: { journalEntries: [books.entry('2026-05-01', cash.id, sales.id, 12.5)] },
      });
      const [created] = response.body.data;
      expect(Object.keys(created)).toEqual(Object.keys(JournalEntrySchema.properties));
      // A line's optional taxCode is there only when the line carries one.
      const line = JournalEntrySchema.properties.lines.items;
      expect(Object.keys(created.lines[0])).toEqual(
        Object.keys(line.properties).filter((key) => (line.required as string[]).includes(key)),
      );
      const read = await server.request('GET', `${entries}/${created.id}`);
      expect(read.body).toEqual({ journalEntry: created });
    });

    it('is atomic: one invalid entry → 400 naming it, and nothing written', async () => {
      const journalEntries = [
        books.entry('2026-05-01', cash.id, sales.id, 1),
        books.entry('2026-05-02', cash.id, sales.id, 2),
        {
          date: '2026-05-03',
          lines: [
            { accountId: cash.id, debitAmount: 3 },
            { accountId: sales.id, creditAmount: 2 },
          ],
        },
      ];
      const response = await server.request('POST', `${entries}/bulk`, {
        body: { journalEntries },
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'journalEntries[2].lines do not balance: debits 3.00, credits 2.00',
        traceMatches: true,
      });
      expect((await server.request('GET', entries)).body.pagination.total).toBe(0);
    });

    it('names schema errors by index too', async () => {
      const journalEntries = [
        books.entry('2026-05-01', cash.id, sales.id, 1),
        { date: 'May 2', lines: [] },
      ];
      const response = await server.request('POST', `${entries}/bulk`, {
        body: { journalEntries },
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'body.journalEntries[1].date must be a valid date (YYYY-MM-DD)',
        traceMatches: true,
      });
    });

    it('is atomic on a lock conflict too (409)', async () => {
      await lock('2026-04-30');
      const response = await server.request('POST', `${entries}/bulk`, {
        body: {
          journalEntries: [
            books.entry('2026-05-01', cash.id, sales.id, 1),
            books.entry('2026-04-30', cash.id, sales.id, 1),
          ],
        },
      });
      expect(errorOf(response)).toEqual({
        status: 409,
        message: 'journalEntries[1].date 2026-04-30 is on or before the lock date 2026-04-30',
        traceMatches: true,
      });
      expect((await server.request('GET', entries)).body.pagination.total).toBe(0);
    });

    it('answers 400 for more than 100 entries and writes nothing', async () => {
      const journalEntries = Array.from({ length: 101 }, () =>
        books.entry('2026-05-01', cash.id, sales.id, 1),
      );
      const response = await server.request('POST', `${entries}/bulk`, {
        body: { journalEntries },
      });
      expect(errorOf(response)).toEqual({
        status: 400,
        message: 'body.journalEntries must NOT have more than 100 items',
        traceMatches: true,
      });
      expect((await server.request('GET', entries)).body.pagination.total).toBe(0);
    });

    it('replays an idempotent bulk request instead of writing twice', async () => {
      const body = {
        journalEntries: [
          books.entry('2026-05-01', cash.id, sales.id, 1),
          books.entry('2026-05-02', cash.id, sales.id, 2),
        ],
      };
      const headers = { 'idempotency-key': `batch-${books.entityId}-1` };
      const first = await server.request('POST', `${entries}/bulk`, { body, headers });
      const second = await server.request('POST', `${entries}/bulk`, { body, headers });
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.body).toEqual(first.body);
      expect((await server.request('GET', entries)).body.pagination.total).toBe(2);
    });
  });

  it("reads another organization's entries as 404", async () => {
    const entry = (await books.post(books.entry('2026-04-10', cash.id, sales.id, 50))).body
      .journalEntry;
    const { token } = await createOrganization(server);
    expect((await server.request('GET', entries, { token })).status).toBe(404);
    expect((await server.request('GET', `${entries}/${entry.id}`, { token })).status).toBe(404);
    expect(
      (await server.request('PATCH', `${entries}/${entry.id}`, { token, body: { memo: 'x' } }))
        .status,
    ).toBe(404);
    expect((await server.request('DELETE', `${entries}/${entry.id}`, { token })).status).toBe(404);
    expect(
      (
        await server.request('POST', entries, {
          token,
          body: books.entry('2026-04-10', cash.id, sales.id, 1),
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await server.request('POST', `${entries}/bulk`, {
          token,
          body: { journalEntries: [books.entry('2026-04-10', cash.id, sales.id, 1)] },
        })
      ).status,
    ).toBe(404);
  });
});

describe('opening balances (sandbox)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('posts balanced opening balances, refusing unbalanced ones and closed periods', async () => {
    const books = await createEntity(server);
    const cash = await books.account('Checking', 'Cash');
    const equity = await books.account('Opening Equity', 'Equity');
    const path = `/sandbox/v1/entities/${books.entityId}/opening-balances`;
    const created = await server.request('POST', path, {
      body: {
        date: '2025-12-31',
        lines: [
          { accountId: cash.id, debitAmount: 2500.75 },
          { accountId: equity.id, creditAmount: 2500.75 },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.openingBalance).toMatchObject({
      entityId: books.entityId,
      date: '2025-12-31',
      lines: [
        { accountId: cash.id, debitAmount: 2500.75, creditAmount: null },
        { accountId: equity.id, debitAmount: null, creditAmount: 2500.75 },
      ],
    });
    const unbalanced = await server.request('POST', path, {
      body: {
        date: '2025-12-31',
        lines: [
          { accountId: cash.id, debitAmount: 1 },
          { accountId: equity.id, creditAmount: 2 },
        ],
      },
    });
    expect(errorOf(unbalanced)).toEqual({
      status: 400,
      message: 'lines do not balance: debits 1.00, credits 2.00',
      traceMatches: true,
    });
    await server.request('PATCH', `/sandbox/v1/entities/${books.entityId}`, {
      body: { lockDate: '2025-12-31' },
    });
    const locked = await server.request('POST', path, {
      body: {
        date: '2025-12-31',
        lines: [
          { accountId: cash.id, debitAmount: 1 },
          { accountId: equity.id, creditAmount: 1 },
        ],
      },
    });
    expect(locked.status).toBe(409);
    // Opening balances are not journal entries.
    expect(
      (await server.request('GET', `${books.base}/journal-entries`)).body.pagination.total,
    ).toBe(0);
  });
});
