import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { loadGeneratedBooks } from '../helpers/benchBooks.js';
import { serveBooks, temporaryHome } from '../helpers/cli.js';
import { benchFigures, cpuSecondsOf, timed } from '../helpers/benchProcesses.js';

const ENTRIES = 440_000;

/**
 * Books' safety work on a big ledger: `books db check` and `books db backup` of a file of
 * 440,000 entries (about 1.5M postings, both ledgers), then `books export` of it and `books
 * import` into a new entity through `books serve` on that file at its default rate limit (100
 * requests/s: the CLI paces itself to it), each command's time and peak memory. Prints figures;
 * asserts nothing about speed.
 */
it('db check, db backup, export and import of 440,000 entries', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'books-bench-safety-'));
  const home = temporaryHome();
  const database = path.join(dir, 'books.sqlite');
  const { say, printAll } = benchFigures();
  try {
    const { entity, postings } = await loadGeneratedBooks(
      database,
      {
        seed: 440,
        count: ENTRIES,
        firstDay: '2024-01-01',
        days: 730,
        accrualShare: 0.5,
      },
      { accrual: true, say },
    );

    const check = timed(['db', 'check', '--db', database], home.env);
    say(
      `db check: ${check.seconds.toFixed(1)} s for ${postings.toLocaleString('en-US')} postings (${((check.seconds * 1_000_000) / postings).toFixed(1)} s a million; target ≤ 10 s), peak ${check.peakRssMb.toFixed(0)} MB`,
    );
    const backup = timed(
      ['db', 'backup', path.join(dir, 'backup.sqlite'), '--db', database],
      home.env,
    );
    say(
      `db backup (copy and its check): ${backup.seconds.toFixed(1)} s, peak ${backup.peakRssMb.toFixed(0)} MB`,
    );

    const server = await serveBooks(home, ['--db', database], { asGiven: true });
    try {
      const exported = path.join(dir, 'export');
      const serveCpu = cpuSecondsOf(server.pid);
      const exportRun = timed(['export', exported, '-e', entity.id, '--json'], server.env);
      const exportServeCpu = cpuSecondsOf(server.pid) - serveCpu;
      const { manifest } = JSON.parse(exportRun.stdout);
      const exportedEntries =
        manifest.counts.journalEntries.cash + manifest.counts.journalEntries.accrual;
      say(
        `export: ${exportedEntries.toLocaleString('en-US')} entries in ${exportRun.seconds.toFixed(1)} s (${Math.round(exportedEntries / exportRun.seconds).toLocaleString('en-US')} entries/s; target ≤ 60 s), CLI peak ${exportRun.peakRssMb.toFixed(0)} MB (target ≤ 200), serve CPU ${exportServeCpu.toFixed(1)} s; ${Math.ceil(exportedEntries / 100).toLocaleString('en-US')} pages at 100 requests/s take ${(Math.ceil(exportedEntries / 100) / 100).toFixed(0)} s alone`,
      );

      const workspace = await server.api('POST', '/platform/v1/workspaces', { name: 'Moved' });
      const workspaceId = workspace.body.workspace.id;
      await server.api('PATCH', `/sandbox/v1/workspaces/${workspaceId}`, {
        customChartOfAccounts: true,
      });
      const copy = await server.api('POST', `/sandbox/v1/workspaces/${workspaceId}/entities`, {
        name: 'Bench Co (moved)',
      });
      const importCpu = cpuSecondsOf(server.pid);
      const importRun = timed(
        ['import', exported, '-w', workspaceId, '-e', copy.body.entity.id, '--json'],
        server.env,
      );
      const importServeCpu = cpuSecondsOf(server.pid) - importCpu;
      const { trialBalances } = JSON.parse(importRun.stdout);
      say(
        `import: ${exportedEntries.toLocaleString('en-US')} entries in ${importRun.seconds.toFixed(1)} s (${Math.round(exportedEntries / importRun.seconds).toLocaleString('en-US')} entries/s; target ≤ 60 s), CLI peak ${importRun.peakRssMb.toFixed(0)} MB, serve CPU ${importServeCpu.toFixed(1)} s; trial balances ${trialBalances.every((t: { matches: boolean }) => t.matches) ? 'the same' : 'DIFFER'}`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
  printAll();
}, 1_800_000);
