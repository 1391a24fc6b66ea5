import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profitAndLossStatement, terminalStatement } from '../../src/cli/render/statements.js';
import { CLASS_OF_TYPE } from '../../src/platform/domain/accounts.js';
import { generateLedger, toHledgerJournal } from '../helpers/generatedLedger.js';
import { cents, postGeneratedLedger } from '../helpers/postGenerated.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Parses hledger's CSV (every field quoted). */
function csv(text: string): string[][] {
  return text
    .trim()
    .split('\n')
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"')));
}

const codeOf = (hledgerAccount: string) => /:(\d+) /.exec(hledgerAccount)?.[1];

/**
 * The same generated ledger in our platform and in hledger (Debian's, installed by .ci/run):
 * the trial balance and the monthly profit and loss must agree to the cent.
 */
/** hledger is optional: .ci/run installs it; without it, the cross-check says why it did not run. */
const hledgerInstalled = spawnSync('hledger', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hledgerInstalled) {
  console.warn(
    'skipped: the hledger cross-check needs hledger on the PATH (apt-get install hledger; see the README)',
  );
}

describe.skipIf(!hledgerInstalled)('peer cross-check with hledger', () => {
  let server: TestServer;
  let base: string;
  let journal: string;
  let dir: string;

  beforeAll(async () => {
    server = await startServer();
    const ledger = generateLedger({
      seed: 7,
      count: 2000,
      firstDay: '2025-01-01',
      days: 540,
      accrualShare: 0.25,
    });
    const posted = await postGeneratedLedger(server, ledger);
    base = posted.base;
    dir = mkdtempSync(path.join(os.tmpdir(), 'books-hledger-'));
    journal = path.join(dir, 'ledger.journal');
    writeFileSync(
      journal,
      toHledgerJournal(
        ledger,
        posted.accounts.map((a) => a.code),
        (type) => CLASS_OF_TYPE[type],
      ),
    );
  }, 120_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const hledger = (...args: string[]) =>
    csv(
      execFileSync('hledger', ['-f', journal, ...args, '-O', 'csv', '--flat'], {
        encoding: 'utf8',
      }),
    );

  it('trial balance at the end of each quarter matches `hledger balance`', async () => {
    // As the trial balance reads (local-platform.md § Reports): balance-sheet accounts from the
    // first posting, revenues and expenses from the start of the (calendar) fiscal year of the
    // column's end, and the years before in one Retained Earnings row (code "").
    const results = (account: string) => /^(revenues|expenses):/.test(account);
    const balances = (...range: string[]) => {
      const byAccount = new Map<string, number>();
      for (const [account, balance] of hledger('balance', ...range).slice(1))
        if (codeOf(account!)) byAccount.set(account!, cents(Number(balance)));
      return byAccount;
    };
    for (const end of ['2025-03-31', '2025-09-30', '2026-06-23']) {
      const response = await server.request(
        'GET',
        `${base}/reports/trial-balance?startDate=2025-01-01&endDate=${end}`,
      );
      const ours = new Map<string, number>(
        response.body.report.rows.map((r: any) => [
          r.accountCode,
          cents(r.debit) - cents(r.credit),
        ]),
      );
      const exclusiveEnd = new Date(Date.parse(`${end}T00:00:00Z`) + 86_400_000)
        .toISOString()
        .slice(0, 10);
      const yearStart = `${end.slice(0, 4)}-01-01`;
      const atEnd = balances('-e', exclusiveEnd);
      const beforeYear = balances('-e', yearStart);
      const theirs = new Map<string, number>();
      let retained = 0;
      for (const [account, balance] of atEnd) {
        const before = results(account) ? (beforeYear.get(account) ?? 0) : 0;
        retained += before;
        if (balance - before !== 0) theirs.set(codeOf(account)!, balance - before);
      }
      if (retained !== 0) theirs.set('', retained);
      // Past the first year's end, the years before are the Retained Earnings row.
      expect(theirs.has('')).toBe(end >= '2026-01-01');
      expect(theirs.size).toBeGreaterThan(20);
      expect(Object.fromEntries(ours)).toEqual(Object.fromEntries(theirs));
    }
  });

  it('monthly profit and loss matches `hledger incomestatement -M`', async () => {
    const response = await server.request(
      'GET',
      `${base}/reports/profit-and-loss?startDate=2025-01-01&endDate=2026-06-30&groupBy=month`,
    );
    const report = response.body.report;
    expect(report.periods).toHaveLength(18);
    const ours = new Map<string, number[]>();
    for (const section of report.sections) {
      for (const line of section.lines) ours.set(line.accountCode, line.amountsByPeriod.map(cents));
    }
    const rows = hledger('incomestatement', '-M', '-E', '-b', '2025-01-01', '-e', '2026-07-01');
    const theirs = new Map<string, number[]>();
    let net: number[] = [];
    for (const [label, ...values] of rows.slice(2)) {
      const code = codeOf(label!);
      if (code)
        theirs.set(
          code,
          values.map((v) => cents(Number(v || 0))),
        );
      if (label === 'Net:') net = values.map((v) => cents(Number(v || 0)));
    }
    // hledger lists accounts without activity in the range as rows of zeros.
    for (const [code, values] of theirs) if (values.every((v) => v === 0)) theirs.delete(code);
    expect(Object.fromEntries(ours)).toEqual(Object.fromEntries(theirs));
    expect(
      report.sections.find((s: any) => s.section === 'netIncome').totalsByPeriod.map(cents),
    ).toEqual(net);
  });
  it('the monthly profit and loss at a terminal takes no more lines than `hledger is -M`', async () => {
    const response = await server.request(
      'GET',
      `${base}/reports/profit-and-loss?startDate=2025-01-01&endDate=2025-06-30&groupBy=month`,
    );
    const ours = terminalStatement(profitAndLossStatement(response.body.report), {
      entity: 'Generated',
      color: false,
      width: 200,
    });
    const theirs = execFileSync(
      'hledger',
      ['-f', journal, 'incomestatement', '-M', '-b', '2025-01-01', '-e', '2025-07-01', '--flat'],
      { encoding: 'utf8' },
    );
    const count = (text: string) => text.trimEnd().split('\n').length;
    console.log(`P&L by month at a terminal: books ${count(ours)} lines, hledger ${count(theirs)}`);
    expect(count(ours)).toBeLessThanOrEqual(count(theirs));
  });
});
