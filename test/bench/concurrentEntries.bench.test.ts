import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { freshPostgresDatabase } from '../helpers/backend.js';
import { cpuSoFar } from '../helpers/benchProcesses.js';
import { benchClient } from '../helpers/benchClient.js';
import { serveBooks, temporaryHome } from '../helpers/cli.js';
import { startReceiver } from '../helpers/webhookReceiver.js';

const CLIENTS = 32;
const ENTRIES = Number(process.env.BOOKS_BENCH_ENTRIES ?? 8_000);
/** Bank feeds broken during each phase: each raises one webhook message. */
const BREAKS = 20;

/**
 * Single two-line journal entries, each a keyed request, from 32 clients to `books serve` with
 * two processes (`--workers 2`) on one database: over a chart of 1,000 accounts, then with every
 * entry posting to one bank account (its daily sum the one row they all update). Meanwhile bank
 * feeds are broken through the API, each raising a webhook that a receiver counts. After each
 * phase: the entries are counted (none doubled, none lost), the account sums checked to the
 * cent, and every message delivered exactly once. Prints entries/s and each process class's CPU
 * per entry. Asserts nothing about speed.
 */
it('single two-line entries from two processes, over 1,000 accounts and all to one', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-entries-'));
  const home = temporaryHome();
  const postgres = await freshPostgresDatabase();
  const lines: string[] = [];
  try {
    for (const [name, flags] of [
      ['SQLite, one process', ['--db', path.join(dir, 'one.sqlite')]],
      ['SQLite, --workers 2', ['--db', path.join(dir, 'two.sqlite'), '--workers', '2']],
      ['PostgreSQL, --workers 2', ['--db', postgres.url, '--workers', '2']],
    ] as const) {
      lines.push(`${name}:`, ...(await phases(home, [...flags, '--rate-limit', '0'])), '');
    }
    console.log(
      [
        ...lines,
        'targets: on PostgreSQL with two processes ≥ 1,000 entries/s over 1,000 accounts, ≥ 500/s all to one account; 0 duplicates, 0 lost webhook messages',
      ].join('\n'),
    );
  } finally {
    await postgres.drop();
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
});

async function phases(home: ReturnType<typeof temporaryHome>, flags: string[]) {
  const receiver = await startReceiver();
  const server = await serveBooks(home, [...flags, '--webhook-schedule', '0,1,1'], {
    asGiven: true,
  });
  const client = benchClient(server.baseUrl, CLIENTS);
  const call = client.call;
  const out: string[] = [];
  try {
    const { workspace } = (await call('POST', '/platform/v1/workspaces', { name: 'Entries' })).body;
    const { entity } = (
      await call('POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, { name: 'Busy Co' })
    ).body;
    const base = `/platform/v1/entities/${entity.id}`;
    const accounts: { id: string; name: string }[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      const created = await call('POST', `${base}/chart-of-accounts/bulk`, {
        accounts: Array.from({ length: 100 }, (_, i) => ({
          name: `Expense ${batch * 100 + i}`,
          type: 'Operating Expenses',
        })),
      });
      accounts.push(...created.body.data);
    }
    const bank = (await call('POST', `${base}/chart-of-accounts`, { name: 'Bank', type: 'Cash' }))
      .body.account as { id: string };
    await call('POST', '/sandbox/v1/webhook-endpoints', { url: receiver.url });
    const connections: string[] = [];
    for (let i = 0; i < 3 * BREAKS; i += 1) {
      const connection = await call(
        'POST',
        `/sandbox/v1/entities/${entity.id}/bank-feed-connections`,
        {
          bankName: `Bank ${i}`,
          accounts: [{ name: `Feed ${i}`, kind: 'bank' }],
        },
      );
      connections.push(connection.body.connection.id);
    }

    let phase = 0;
    /** Each account's net (debits − credits) in cents, as sent and answered 201. */
    const net = new Map<string, number>();
    const run = async (label: string, count: number, oneAccount: boolean, measured: boolean) => {
      phase += 1;
      let next = 0;
      let refused = 0;
      const cpuBefore = cpuSoFar(server.pid);
      const breaks = connections.splice(0, BREAKS);
      const from = performance.now();
      const loop = async () => {
        for (let i = next++; i < count; i = next++) {
          // One break in every count / BREAKS entries, through whichever process answers.
          if (i % Math.floor(count / BREAKS) === 0 && breaks.length > 0) {
            await call('POST', `/sandbox/v1/bank-feed-connections/${breaks.pop()}/break`, {
              errorCode: 'disconnected',
            });
          }
          const debit = accounts[(i * 7) % accounts.length]!;
          const credit = oneAccount ? bank : accounts[(i * 13 + 1) % accounts.length]!;
          const cents = 100 + ((i * 7919) % 90_000);
          const answer = await call(
            'POST',
            `${base}/journal-entries`,
            {
              date: '2025-06-15',
              lines: [
                { accountId: debit.id, debitAmount: cents / 100 },
                { accountId: credit.id, creditAmount: cents / 100 },
              ],
            },
            `phase-${phase}-${i}`,
          );
          if (answer.status !== 201) refused += 1;
          else {
            net.set(debit.id, (net.get(debit.id) ?? 0) + cents);
            net.set(credit.id, (net.get(credit.id) ?? 0) - cents);
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, loop));
      const seconds = (performance.now() - from) / 1000;
      const cpuAfter = cpuSoFar(server.pid);
      if (!measured) return;
      out.push(
        `  ${label}: ${(count / seconds).toFixed(0)} entries/s (${count} in ${seconds.toFixed(1)} s, ${refused} refused); CPU an entry: serve ${(((cpuAfter.serve - cpuBefore.serve) / count) * 1000).toFixed(2)} ms, PostgreSQL ${(((cpuAfter.postgres - cpuBefore.postgres) / count) * 1000).toFixed(2)} ms`,
      );
    };
    await run('warm-up', 2_000, false, false);
    await run('over 1,000 accounts', ENTRIES, false, true);
    await run('every entry to one account', ENTRIES, true, true);

    // Every key answered once: the entries, each retried key replayed, the sums to the cent.
    const total = (await call('GET', `${base}/journal-entries?limit=1`)).body.pagination.total;
    const { report } = (
      await call('GET', `${base}/reports/trial-balance?startDate=2025-01-01&endDate=2025-12-31`)
    ).body;
    const names = new Map([...accounts, { ...bank, name: 'Bank' }].map((a) => [a.id, a.name]));
    const byName = new Map<string, number>(
      report.rows.map((row: { accountName: string; debit: number; credit: number }) => [
        row.accountName,
        Math.round(row.debit * 100) - Math.round(row.credit * 100),
      ]),
    );
    const wrong = [...net].filter(([id, cents]) => (byName.get(names.get(id)!) ?? 0) !== cents);
    const retried = await call(
      'POST',
      `${base}/journal-entries`,
      {
        date: '2025-06-15',
        lines: [
          { accountId: accounts[0]!.id, debitAmount: 1 },
          { accountId: accounts[1]!.id, creditAmount: 1 },
        ],
      },
      'phase-2-0',
    );
    await receiver.waitFor(3 * BREAKS, 30_000).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const messages = receiver.deliveries.map((d) => d.headers['webhook-id']);
    const expectedEntries = 2_000 + 2 * ENTRIES;
    out.push(
      `  entries in the books: ${total} of ${expectedEntries} sent (${total - expectedEntries} doubled or lost); ${wrong.length} accounts off the cents sent; a retried key: ${retried.headers['idempotent-replayed'] === 'true' ? 'replayed' : retried.status}`,
      `  webhook messages: ${messages.length} delivered, ${new Set(messages).size} distinct, of ${3 * BREAKS} raised`,
    );
    return out;
  } finally {
    await client.close();
    await server.stop();
    await receiver.close();
  }
}
