import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { runBooks, serveBooks, spawnBooks, SERVE_TOKEN, temporaryHome } from '../helpers/cli.js';
import { killableServer } from '../helpers/crashSweep.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhookReceiver.js';

type Served = Awaited<ReturnType<typeof serveBooks>>;

/** A keyed or plain request to one process, its answer parsed. */
async function call(
  server: { baseUrl: string },
  method: string,
  url: string,
  body?: unknown,
  options: { key?: string; token?: string } = {},
) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? SERVE_TOKEN}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(options.key !== undefined && { 'idempotency-key': options.key }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as any,
  };
}

/** A workspace, an entity and two accounts, made through `server`. */
async function books(server: { baseUrl: string }) {
  const { workspace } = (await call(server, 'POST', '/platform/v1/workspaces', { name: 'Two' }))
    .body;
  const { entity } = (
    await call(server, 'POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
      name: 'Shared Co',
    })
  ).body;
  const base = `/platform/v1/entities/${entity.id}`;
  const [bank, sales] = (
    await call(server, 'POST', `${base}/chart-of-accounts/bulk`, {
      accounts: [
        { name: 'Bank', type: 'Cash' },
        { name: 'Sales', type: 'Income' },
      ],
    })
  ).body.data as { id: string }[];
  return { workspace, entity, base, bank: bank!, sales: sales! };
}

/** Batch `n`: `size` two-line entries, every one to the bank account; the same for the same n. */
function batch(n: number, size: number, bank: string, sales: string) {
  return {
    journalEntries: Array.from({ length: size }, (_, i) => {
      const amount = ((((n * size + i) * 7919) % 90_000) + 100) / 100;
      return {
        date: `2025-03-${String((i % 28) + 1).padStart(2, '0')}`,
        memo: `batch ${n} entry ${i}`,
        lines: [
          { accountId: bank, debitAmount: amount },
          { accountId: sales, creditAmount: amount },
        ],
      };
    }),
  };
}

const centsOf = (body: ReturnType<typeof batch>) =>
  body.journalEntries.reduce((sum, e) => sum + Math.round(e.lines[0]!.debitAmount! * 100), 0);

async function trialBalance(server: { baseUrl: string }, base: string) {
  const { report } = (
    await call(
      server,
      'GET',
      `${base}/reports/trial-balance?startDate=2025-01-01&endDate=2025-12-31`,
    )
  ).body;
  return report as { rows: { accountName: string; debit: number; credit: number }[] };
}

/** Tries again once when the connection was reset (its process died). */
async function retryingNetwork<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch {
    return request();
  }
}

async function entryCount(server: { baseUrl: string }, base: string): Promise<number> {
  return (await call(server, 'GET', `${base}/journal-entries?limit=1`)).body.pagination.total;
}

describe(`two books serve processes over one database (${TEST_BACKEND})`, () => {
  let home: ReturnType<typeof temporaryHome>;
  const running: Served[] = [];
  let receiver: WebhookReceiver | undefined;
  beforeEach(() => {
    home = temporaryHome();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop()));
    await receiver?.close();
    receiver = undefined;
    home.cleanup();
  });

  const two = async (extra: string[] = []) => {
    const db = path.join(home.home, 'shared.sqlite');
    const flags = ['--db', db, '--rate-limit', '0', ...extra];
    const first = await serveBooks(home, flags);
    running.push(first);
    const second = await serveBooks(home, flags);
    running.push(second);
    return [first, second] as const;
  };

  it('claims a key once: the same key sent to both at once writes once, and both answers name the same entries', async () => {
    const [a, b] = await two();
    const { base, bank, sales } = await books(a);
    for (let n = 0; n < 20; n += 1) {
      const body = batch(n, 20, bank.id, sales.id);
      const key = `both-${n}`;
      const send = async (server: Served) => {
        for (;;) {
          const answer = await call(server, 'POST', `${base}/journal-entries/bulk`, body, { key });
          // A request still running elsewhere with the key: the retry replays its answer.
          if (answer.status === 409) continue;
          return answer;
        }
      };
      const [fromA, fromB] = await Promise.all([send(a), send(b)]);
      expect(fromA.status).toBe(201);
      expect(fromB.status).toBe(201);
      const ids = (answer: typeof fromA) => answer.body.data.map((e: { id: string }) => e.id);
      expect(ids(fromA)).toEqual(ids(fromB));
    }
    expect(await entryCount(a, base)).toBe(20 * 20);
    expect(await entryCount(b, base)).toBe(20 * 20);
  });

  it('keeps every balance exact under concurrent keyed bulk writes through both, all to one account', async () => {
    const [a, b] = await two();
    const { base, bank, sales } = await books(a);
    const batches = 40;
    let next = 0;
    let expectedCents = 0;
    const worker = async (server: Served) => {
      for (let n = next++; n < batches; n = next++) {
        const body = batch(n, 50, bank.id, sales.id);
        expectedCents += centsOf(body);
        const answer = await call(server, 'POST', `${base}/journal-entries/bulk`, body, {
          key: `concurrent-${n}`,
        });
        expect(answer.status).toBe(201);
      }
    };
    await Promise.all([a, b, a, b, a, b].map(worker));
    expect(await entryCount(b, base)).toBe(batches * 50);
    for (const server of [a, b]) {
      const lines = (await trialBalance(server, base)).rows;
      const bankLine = lines.find((line) => line.accountName === 'Bank')!;
      const salesLine = lines.find((line) => line.accountName === 'Sales')!;
      expect(Math.round(bankLine.debit * 100)).toBe(expectedCents);
      expect(Math.round(salesLine.credit * 100)).toBe(expectedCents);
    }
  });

  it('keeps je list --all and the streamed general ledger exact while the other process writes and deletes', async () => {
    const [a, b] = await two();
    const { base, entity, bank, sales } = await books(a);
    for (let n = 0; n < 30; n += 1) {
      const answer = await call(
        a,
        'POST',
        `${base}/journal-entries/bulk`,
        batch(n, 100, bank.id, sales.id),
      );
      expect(answer.status).toBe(201);
    }
    // About 107 entries a day over March: every page of 100 ends inside a day.
    const before = (await runBooks(['je', 'list', '--all', '--json', '-e', entity.id], a.env))
      .stdout;
    const stored = (JSON.parse(before) as { id: string }[]).map((e) => e.id);
    expect(stored).toHaveLength(3000);

    // Meanwhile, through the other process: entries added on every day of the month, and
    // entries already listed deleted, each pushing the later pages one way or the other.
    const deleted = new Set<string>();
    let n = 1000;
    const whileWriting = async <T>(reading: () => Promise<T>) => {
      let writing = true;
      const writer = (async () => {
        while (writing) {
          n += 1;
          await call(b, 'POST', `${base}/journal-entries/bulk`, batch(n, 5, bank.id, sales.id));
          const victim = stored[(n * 37) % stored.length]!;
          deleted.add(victim);
          await call(b, 'DELETE', `${base}/journal-entries/${victim}`);
        }
      })();
      try {
        return await reading();
      } finally {
        writing = false;
        await writer;
      }
    };

    const listed = await whileWriting(async () => {
      const result = await runBooks(['je', 'list', '--all', '--json', '-e', entity.id], a.env);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as { id: string; dateOnly: string }[];
    });
    expect(deleted.size).toBeGreaterThan(0);
    const ids = listed.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const kept = new Set(ids);
    expect(stored.filter((id) => !deleted.has(id) && !kept.has(id))).toEqual([]);
    for (let i = 1; i < listed.length; i += 1) {
      expect(listed[i]!.dateOnly <= listed[i - 1]!.dateOnly).toBe(true);
    }

    // The general ledger streamed meanwhile: each account's balances run from its opening to its
    // closing through the entries it shows, and the bank shows every entry not deleted once.
    const ledger = await whileWriting(async () => {
      const answer = await call(
        a,
        'GET',
        `${base}/reports/general-ledger?startDate=2025-01-01&endDate=2025-12-31`,
      );
      expect(answer.status).toBe(200);
      return answer.body.report as {
        accounts: {
          accountName: string;
          openingBalance: number;
          closingBalance: number;
          entries: {
            balance: number;
            debitAmount: number | null;
            creditAmount: number | null;
            journalEntryId: string;
          }[];
        }[];
      };
    });
    const cents = (amount: number | null) => Math.round((amount ?? 0) * 100);
    for (const account of ledger.accounts) {
      let balance = cents(account.openingBalance);
      for (const entry of account.entries) {
        const moved = cents(entry.balance) - balance;
        expect(Math.abs(moved)).toBe(
          Math.abs(cents(entry.debitAmount) - cents(entry.creditAmount)),
        );
        balance = cents(entry.balance);
      }
      expect(cents(account.closingBalance)).toBe(balance);
    }
    const bankIds = ledger.accounts
      .find((account) => account.accountName === 'Bank')!
      .entries.map((entry) => entry.journalEntryId);
    expect(new Set(bankIds).size).toBe(bankIds.length);
    const inBank = new Set(bankIds);
    expect(stored.filter((id) => !deleted.has(id) && !inBank.has(id))).toEqual([]);
  }, 60_000);

  it('delivers each webhook once, whichever process raised it and whichever sends it', async () => {
    receiver = await startReceiver();
    const [a, b] = await two(['--webhook-schedule', '0,1,1']);
    const { workspace } = await books(a);
    const endpoint = await call(a, 'POST', '/sandbox/v1/webhook-endpoints', {
      url: receiver.url,
    });
    expect(endpoint.status).toBe(201);
    const connections: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const entity = (
        await call(a, 'POST', `/sandbox/v1/workspaces/${workspace.id}/entities`, {
          name: `Feed ${i}`,
        })
      ).body.entity;
      const connection = await call(
        a,
        'POST',
        `/sandbox/v1/entities/${entity.id}/bank-feed-connections`,
        { bankName: `Bank ${i}`, accounts: [{ name: `Checking ${i}`, kind: 'bank' }] },
      );
      connections.push(connection.body.connection.id);
    }
    await Promise.all(
      connections.map((id, i) =>
        call(i % 2 === 0 ? a : b, 'POST', `/sandbox/v1/bank-feed-connections/${id}/break`, {
          errorCode: 'disconnected',
        }),
      ),
    );
    await receiver.waitFor(10, 15_000);
    // A second's wait for any duplicate a second process would send.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const ids = receiver.deliveries.map((d) => d.headers['webhook-id']);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
  });

  it('meets one auth-failure limit for wrong tokens spread over both', async () => {
    const [a, b] = await two(['--auth-failure-limit', '4']);
    const wrong = 'books_org_wrong_0000000000000000000000000000000000';
    const statuses = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push(
        (
          await call(i % 2 === 0 ? a : b, 'GET', '/platform/v1/workspaces', undefined, {
            token: wrong,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    // The right token is never held back.
    expect((await call(b, 'GET', '/platform/v1/workspaces')).status).toBe(200);
  });

  it('keeps the books across a restart of both', async () => {
    const [a, b] = await two();
    const { base, bank, sales } = await books(a);
    await call(b, 'POST', `${base}/journal-entries/bulk`, batch(1, 10, bank.id, sales.id), {
      key: 'before-restart',
    });
    await Promise.all(running.splice(0).map((server) => server.stop()));
    const [c, d] = await two();
    expect(await entryCount(c, base)).toBe(10);
    const replay = await call(
      d,
      'POST',
      `${base}/journal-entries/bulk`,
      batch(1, 10, bank.id, sales.id),
      { key: 'before-restart' },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await entryCount(d, base)).toBe(10);
  });
});

describe(`a process killed with SIGKILL mid-import, its keys retried on the other (${TEST_BACKEND})`, () => {
  let home: ReturnType<typeof temporaryHome>;
  beforeEach(() => {
    home = temporaryHome();
  });
  afterEach(() => home.cleanup());

  it('loses nothing acknowledged and doubles nothing', async () => {
    const db = path.join(home.home, 'killed.sqlite');
    const doomed = killableServer(home.env, db, SERVE_TOKEN);
    const survivor = killableServer(home.env, db, SERVE_TOKEN);
    await doomed.start();
    await survivor.start();
    try {
      const { workspace } = (
        await doomed.call('POST', '/platform/v1/workspaces', '{"name":"Killed"}')
      ).body;
      const { entity } = (
        await doomed.call(
          'POST',
          `/sandbox/v1/workspaces/${workspace.id}/entities`,
          '{"name":"Half Co"}',
        )
      ).body;
      const base = `/platform/v1/entities/${entity.id}`;
      const [bank, sales] = (
        await doomed.call(
          'POST',
          `${base}/chart-of-accounts/bulk`,
          JSON.stringify({
            accounts: [
              { name: 'Bank', type: 'Cash' },
              { name: 'Sales', type: 'Income' },
            ],
          }),
        )
      ).body.data as { id: string }[];
      const batches = 30;
      const body = (n: number) => JSON.stringify(batch(n, 50, bank!.id, sales!.id));
      // Four at a time into the doomed process; it is killed after the tenth answer.
      let next = 0;
      let answers = 0;
      const send = async () => {
        while (next < batches) {
          const n = next++;
          try {
            const answer = await doomed.call(
              'POST',
              `${base}/journal-entries/bulk`,
              body(n),
              `k-${n}`,
            );
            expect(answer.status).toBe(201);
            if (++answers === 10) doomed.kill('SIGKILL');
          } catch (error) {
            if ((error as Error).name === 'AssertionError') throw error;
            return; // the process is gone
          }
        }
      };
      await Promise.all([send(), send(), send(), send()]);
      await doomed.stopped();
      // Every key again, on the survivor: written once, or replayed.
      let expectedCents = 0;
      for (let n = 0; n < batches; n += 1) {
        const answer = await survivor.call(
          'POST',
          `${base}/journal-entries/bulk`,
          body(n),
          `k-${n}`,
        );
        expect(answer.status).toBe(201);
        expectedCents += centsOf(JSON.parse(body(n)));
      }
      const total = (await survivor.call('GET', `${base}/journal-entries?limit=1`)).body.pagination
        .total;
      expect(total).toBe(batches * 50);
      const { report } = (
        await survivor.call(
          'GET',
          `${base}/reports/trial-balance?startDate=2025-01-01&endDate=2025-12-31`,
        )
      ).body;
      expect(Math.round(report.totals.debit * 100)).toBe(expectedCents);
    } finally {
      doomed.kill('SIGKILL');
      survivor.kill('SIGTERM');
      await Promise.all([doomed.stopped(), survivor.stopped()]);
    }
  }, 60_000);
});

describe(`books serve --workers 2 (${TEST_BACKEND})`, () => {
  let home: ReturnType<typeof temporaryHome>;
  beforeEach(() => {
    home = temporaryHome();
  });
  afterEach(() => home.cleanup());

  it('serves one port from two processes, replaces one that dies, and stops them all', async () => {
    const server = await serveBooks(home, [
      '--db',
      path.join(home.home, 'workers.sqlite'),
      '--workers',
      '2',
      '--rate-limit',
      '0',
    ]);
    try {
      const workers = () =>
        execFileSync('pgrep', ['-P', String(server.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .filter(Boolean)
          .map(Number);
      expect(workers()).toHaveLength(2);
      const { base, bank, sales } = await books(server);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          call(server, 'POST', `${base}/journal-entries/bulk`, batch(n, 10, bank.id, sales.id), {
            key: `w-${n}`,
          }),
        ),
      );
      expect(answers.every((answer) => answer.status === 201)).toBe(true);
      // One process dies: another takes its place. (A connection the dead one held is reset,
      // as a client of any server sees when a process dies; the client retries.)
      const [victim] = workers();
      process.kill(victim!, 'SIGKILL');
      for (
        let wait = 0;
        wait < 200 && (workers().includes(victim!) || workers().length < 2);
        wait += 1
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(workers()).toHaveLength(2);
      expect(workers()).not.toContain(victim);
      for (let i = 0; i < 4; i += 1) {
        expect(await retryingNetwork(() => entryCount(server, base))).toBe(200);
      }
      expect((await call(server, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
      expect((await call(server, 'GET', '/readyz')).body).toEqual({ status: 'ready' });
    } finally {
      await server.stop();
    }
    expect(() => execFileSync('pgrep', ['-P', String(server.pid)])).toThrow();
  });

  it('says a database it cannot use once, and exits 1', async () => {
    const damaged = path.join(home.home, 'damaged.sqlite');
    writeFileSync(damaged, 'not a database, whatever its name says'.repeat(200));
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const run = spawnBooks(
        [
          'serve',
          '--workers',
          '2',
          '--db',
          TEST_BACKEND === 'postgres' ? 'postgres://books:books@127.0.0.1:1/none' : damaged,
          '--port',
          '0',
        ],
        home.env,
      );
      void run.result.then(({ code, stderr }) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^books: cannot use the database /);
  });
});
