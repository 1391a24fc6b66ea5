import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readGeneralLedger,
  readGeneralLedgerLines,
  type GeneralLedgerEvent,
} from '../../src/client/generalLedgerStream.js';
import { buildGoldenLedger } from '../helpers/goldenLedger.js';
import { piecesOf } from '../helpers/pieces.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The general ledger asked for as lines (NDJSON, what books' own commands read it as: the
 * reconciliation after an import, `report gl`) and as the spec's JSON document: the same report,
 * account by account, entry by entry; the reader of the lines fed them cut anywhere.
 */
describe('the general ledger as lines', () => {
  let server: TestServer;
  let path: string;

  beforeAll(async () => {
    server = await startServer();
    const { base } = await buildGoldenLedger(server);
    path = `${base}/reports/general-ledger?startDate=2026-01-01&endDate=2026-03-31`;
  });
  afterAll(() => server.close());

  const events = async (reader: AsyncGenerator<GeneralLedgerEvent>) => {
    const all: GeneralLedgerEvent[] = [];
    for await (const event of reader) all.push(event);
    return all;
  };

  it('answers NDJSON when asked, the JSON document otherwise, with the same accounts and entries', async () => {
    const document = await server.request('GET', path);
    expect(document.status, document.text).toBe(200);
    expect(document.headers.get('content-type')).toMatch(/^application\/json/);
    const lines = await server.request('GET', path, {
      headers: { accept: 'application/x-ndjson, application/json;q=0.9' },
    });
    expect(lines.status, lines.text).toBe(200);
    expect(lines.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const [first, ...rest] = lines.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const { accounts, ...report } = (document.body as { report: { accounts: unknown[] } }).report;
    expect(first).toEqual({ report });
    expect(accounts.length).toBeGreaterThan(3);
    const rebuilt: Record<string, unknown>[] = [];
    for (const line of rest) {
      if (line.account) rebuilt.push({ ...(line.account as object), entries: [] });
      else if (line.entry) (rebuilt.at(-1)!.entries as unknown[]).push(line.entry);
      else rebuilt.at(-1)!.closingBalance = line.closingBalance;
    }
    expect(rebuilt).toEqual(accounts);

    const fromDocument = await events(readGeneralLedger(piecesOf(document.text, 1 << 20)));
    for (const size of [1, 5, 64, 1 << 20])
      expect(await events(readGeneralLedgerLines(piecesOf(lines.text, size)))).toEqual(
        fromDocument,
      );
  });
});
