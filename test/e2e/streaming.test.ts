import { parse } from 'csv-parse/sync';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks, temporaryHome } from '../helpers/cli.js';
import { generateLedger } from '../helpers/generatedLedger.js';
import { postGeneratedLedger } from '../helpers/postGenerated.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The general ledger and `je list --all` of a generated ledger larger than a chunk of the
 * streamed ledger (2,000 postings) and many pages of entries, through a real server on a
 * loopback port and the built binary: what streams is the whole report, in order, to the cent,
 * and the server answers other requests while it writes one. (Memory and time on 2,000,000
 * postings: `npm run bench`, test/bench/generalLedger.bench.test.ts.)
 */
describe('the general ledger and je list of a large ledger, streamed', () => {
  let server: TestServer;
  let entityId: string;
  let base: string;
  let entryCount: number;
  let postingCount: number;
  const home = temporaryHome();
  let env: NodeJS.ProcessEnv;
  const range = 'startDate=2025-01-01&endDate=2025-12-31';

  beforeAll(async () => {
    server = await startServer();
    const ledger = generateLedger({
      seed: 11,
      count: 3000,
      firstDay: '2025-01-01',
      days: 365,
      accrualShare: 0,
    });
    const posted = await postGeneratedLedger(server, ledger);
    ({ entityId, base } = posted);
    // And 2,100 takings into one account: more than a chunk of the streamed ledger.
    const [till, sales] = posted.accounts;
    for (let start = 0; start < 2100; start += 100) {
      const journalEntries = Array.from({ length: 100 }, (_, i) => ({
        date: `2025-06-${String(((start + i) % 28) + 1).padStart(2, '0')}`,
        memo: `Takings ${start + i}`,
        lines: [
          { accountId: till!.id, debitAmount: 10.01, creditAmount: null },
          { accountId: sales!.id, debitAmount: null, creditAmount: 10.01 },
        ],
      }));
      const response = await server.request('POST', `${base}/journal-entries/bulk`, {
        body: { journalEntries },
      });
      expect(response.status, response.text).toBe(201);
    }
    entryCount = ledger.entries.length + 2100;
    postingCount = ledger.entries.reduce((n, e) => n + e.lines.length, 0) + 4200;
    env = { ...home.env, BOOKS_BASE_URL: server.baseUrl, BOOKS_TOKEN: server.orgToken };
  }, 120_000);
  afterAll(async () => {
    await server.close();
    home.cleanup();
  });

  it('streams the same general ledger the platform computes whole', async () => {
    const streamed = await server.request('GET', `${base}/reports/general-ledger?${range}`);
    expect(streamed.status).toBe(200);
    const whole = await server.platform.engine.reports.generalLedger(
      server.platform.defaultOrganizationId,
      entityId,
      { startDate: '2025-01-01', endDate: '2025-12-31', ledgerBasis: 'cash' },
    );
    expect(streamed.body.report).toEqual(JSON.parse(JSON.stringify(whole)));
    const entries = whole.accounts.reduce((n, a) => n + a.entries.length, 0);
    // Larger than a chunk, with every posting of the range (and the opening balance's).
    expect(Math.max(...whole.accounts.map((a) => a.entries.length))).toBeGreaterThan(2000);
    expect(entries).toBeGreaterThanOrEqual(postingCount);
  });

  it('keeps answering other requests while a client reads a general ledger slowly', async () => {
    const response = await request(`${server.baseUrl}${base}/reports/general-ledger?${range}`, {
      headers: { authorization: `Bearer ${server.orgToken}` },
    });
    const reader = response.body[Symbol.asyncIterator]();
    const first = await reader.next();
    expect(first.done).toBe(false);
    // The ledger is not yet all written; the server answers a list meanwhile.
    const other = await server.request('GET', '/platform/v1/workspaces');
    expect(other.status).toBe(200);
    let rest = 0;
    for (let piece = await reader.next(); !piece.done; piece = await reader.next()) {
      rest += (piece.value as Buffer).length;
    }
    expect(rest).toBeGreaterThan(0);
  });

  it('books report gl writes every posting as CSV, in order, balances running', async () => {
    const result = await runBooks(
      [
        'report',
        'gl',
        '--from',
        '2025-01-01',
        '--to',
        '2025-12-31',
        '-e',
        entityId,
        '--output',
        'csv',
      ],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = parse(result.stdout) as string[][];
    // The fields are pinned in reportRecords.test.ts; here, that every posting is a row.
    expect(header).toHaveLength(7);
    const openings = rows.filter((r) => r[3] === 'Opening balance').length;
    expect(rows.filter((r) => r[3] === 'Closing balance')).toHaveLength(openings);
    expect(rows.length - 2 * openings).toBeGreaterThanOrEqual(postingCount);
    // Within each account, dates never go back.
    for (let i = 1; i < rows.length; i += 1) {
      if (rows[i]![0] === rows[i - 1]![0] && rows[i]![2] && rows[i - 1]![2]) {
        expect(rows[i]![2]! >= rows[i - 1]![2]!).toBe(true);
      }
    }
  }, 60_000);

  it('books je list --all --json writes every entry once, most recent first', async () => {
    const result = await runBooks(['je', 'list', '--all', '--json', '-e', entityId], env);
    expect(result.code, result.stderr).toBe(0);
    const entries = JSON.parse(result.stdout) as { id: string; dateOnly: string }[];
    expect(entries).toHaveLength(entryCount);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entryCount);
    for (let i = 1; i < entries.length; i += 1) {
      expect(entries[i]!.dateOnly <= entries[i - 1]!.dateOnly).toBe(true);
    }
    const csv = await runBooks(['je', 'list', '--all', '-e', entityId, '--output', 'csv'], env);
    expect(parse(csv.stdout)).toHaveLength(entryCount + 1);
  }, 60_000);
});
