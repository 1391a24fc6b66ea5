import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { loadGeneratedBooks } from '../helpers/benchBooks.js';
import { BOOKS_BIN, serveBooks, temporaryHome, SERVE_TOKEN } from '../helpers/cli.js';

const TARGET_POSTINGS = 2_000_000;

/**
 * A figure of a process's memory in MB from Linux's /proc status (`VmHWM`: peak resident set so
 * far; `RssAnon`: resident memory of its own, not pages of files it maps), NaN where unreadable.
 */
function memoryMb(pid: number, field: 'VmHWM' | 'RssAnon'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  } catch {
    return Number.NaN;
  }
}
const peakRssMb = (pid: number) => memoryMb(pid, 'VmHWM');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
};

/**
 * Runs `books` with its stdout counted and thrown away, polling its peak RSS; resolves with the
 * time, bytes written and peak RSS.
 */
function runBooks(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ ms: number; bytes: number; peakMb: number; code: number | null }>(
    (resolve) => {
      const started = performance.now();
      const child = spawn(process.execPath, [BOOKS_BIN, ...args], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let bytes = 0;
      let peakMb = 0;
      child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
      const poll = setInterval(() => {
        const rss = peakRssMb(child.pid!);
        if (rss > peakMb) peakMb = rss;
      }, 25);
      child.on('exit', (code) => {
        clearInterval(poll);
        resolve({ ms: performance.now() - started, bytes, peakMb, code });
      });
    },
  );
}

/**
 * The general ledger of 2,000,000 postings and `je list --all` of 200,000 entries through
 * `books serve` on a file database, written by the CLI as CSV into a pipe: time, bytes, the
 * server's and the CLI's peak RSS, and the latency of `GET /platform/v1/workspaces` asked every
 * 20 ms meanwhile. Targets (printed, not asserted): both complete; each process ≤ 300 MB; the
 * concurrent request ≤ 100 ms at p99.
 */
it('the general ledger of 2,000,000 postings and je list --all, streamed', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-gl-'));
  const home = temporaryHome();
  const database = path.join(dir, 'ledger.sqlite');
  try {
    // 1. The books: ~570,000 generated entries (3.5 lines on average) over 3 years.
    await loadGeneratedBooks(
      database,
      {
        seed: 2026,
        count: 572_000,
        firstDay: '2023-01-01',
        days: 1095,
        accrualShare: 0,
      },
      { accrual: false, targetPostings: TARGET_POSTINGS },
    );

    // 2. `books serve` on the file, and the CLI against it.
    const server = await serveBooks(home, ['--db', database, '--rate-limit', '0']);
    const { baseUrl, env } = server;
    const rows: string[] = [];
    let serverAnonPeak = 0;
    const measure = async (label: string, args: string[]) => {
      const latencies: number[] = [];
      let stop = false;
      const probe = (async () => {
        while (!stop) {
          const started = performance.now();
          const response = await fetch(`${baseUrl}/platform/v1/workspaces`, {
            headers: { authorization: `Bearer ${SERVE_TOKEN}` },
          });
          await response.arrayBuffer();
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const serverPid = server.pid;
      const anonPoll = setInterval(() => {
        serverAnonPeak = Math.max(serverAnonPeak, memoryMb(serverPid, 'RssAnon'));
      }, 25);
      const run = await runBooks(args, env);
      clearInterval(anonPoll);
      stop = true;
      await probe;
      rows.push(
        `${label.padEnd(44)} exit ${run.code}  ${(run.ms / 1000).toFixed(1).padStart(6)} s  ${(run.bytes / 1e6).toFixed(0).padStart(5)} MB out  CLI peak RSS ${run.peakMb.toFixed(0).padStart(4)} MB  /workspaces meanwhile p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${latencies.length} requests)`,
      );
    };
    const where = ['-w', 'Bench', '-e', 'Bench Co'];
    await measure('books report gl, 3 years, --output csv', [
      'report',
      'gl',
      '--from',
      '2023-01-01',
      '--to',
      '2025-12-31',
      '--output',
      'csv',
      ...where,
    ]);
    await measure('books je list --all --json, 2025 (~190k entries)', [
      'je',
      'list',
      '--all',
      '--json',
      '--from',
      '2025-01-01',
      '--to',
      '2025-12-31',
      ...where,
    ]);
    rows.push(
      `books serve peak RSS ${peakRssMb(server.pid).toFixed(0)} MB, of which its own memory (RssAnon, polled) at most ${serverAnonPeak.toFixed(0)} MB`,
    );
    await server.stop();
    console.log(rows.join('\n'));
    console.log(
      'targets: both complete; server and CLI peak RSS ≤ 300 MB each; /workspaces ≤ 100 ms at p99 meanwhile',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
});
