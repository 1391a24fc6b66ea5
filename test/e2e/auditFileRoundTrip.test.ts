import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalances, runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';

/*
 * Real exports of the five audit formats, each imported into a workspace that keeps codes and
 * written again in its own format by `books export --format`, then that file imported into a
 * fresh entity: the same figures, account by account, under the same codes. The shared exports
 * are read from ../shared/realworld/files (skipped, saying so, where they are not); the ones kept
 * with the tests always run.
 */

const REALWORLD =
  process.env.BOOKS_REALWORLD_DIR ??
  path.resolve(import.meta.dirname, '../../../shared/realworld/files');
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/realworld');
const shared = existsSync(REALWORLD);
if (!shared)
  console.warn(
    `skipped: the shared real exports are not at ${REALWORLD} (the project's ../shared/realworld/files; or set BOOKS_REALWORLD_DIR)`,
  );

interface RoundTrip {
  file: string;
  /** How the real file is read (as the readers' own tests read it). */
  importFlags: string[];
  format: string;
  from: string;
  to: string;
  exportFlags: string[];
}

const REAL: RoundTrip[] = [
  {
    file: `${REALWORLD}/fec_banana-export_tab_bananaaccounting-europe.txt`,
    importFlags: [],
    format: 'fec',
    from: '2019-01-01',
    to: '2019-12-31',
    exportFlags: ['--org-number', '732829320'],
  },
  {
    file: `${REALWORLD}/saft-no_financial-example-888888888_skatteetaten.xml`,
    importFlags: ['--offset-account', 'Opening Offset'],
    format: 'saft',
    from: '2017-01-01',
    to: '2017-04-30',
    exportFlags: [
      '--org-number',
      '888888888',
      '--contact',
      'Kari Nordmann',
      '--phone',
      '22 00 00 00',
    ],
  },
  {
    file: `${REALWORLD}/exact-online_xaf32_auditfile_2016_bananaaccounting-netherlands.xml`,
    importFlags: [],
    format: 'xaf',
    from: '2016-01-01',
    to: '2016-12-31',
    exportFlags: [],
  },
  {
    file: `${REALWORLD}/sie4_bl-administration_ovningsforetaget-2017_blinfo-sie4j.se`,
    importFlags: ['--offset-account', 'Opening Offset'],
    format: 'sie',
    from: '2017-01-01',
    to: '2017-12-31',
    exportFlags: [],
  },
  {
    file: `${REALWORLD}/datev-extf_buchungsstapel_banana-export_bananaaccounting-germany.csv`,
    importFlags: ['--datev-vat', 'gross', '--skr', '03'],
    format: 'datev',
    from: '2022-01-01',
    to: '2022-12-31',
    exportFlags: ['--datev-consultant', '29098', '--datev-client', '55003'],
  },
];

const KEPT: RoundTrip[] = [
  {
    file: `${FIXTURES}/fec_banana-export_2019_bananaaccounting-europe.txt`,
    importFlags: [],
    format: 'fec',
    from: '2019-01-01',
    to: '2019-12-31',
    exportFlags: ['--org-number', '732829320'],
  },
  {
    file: `${FIXTURES}/unit4-multivers_xaf32_2017_bananaaccounting-netherlands.xml`,
    importFlags: ['--encoding', 'latin1'],
    format: 'xaf',
    from: '2017-01-01',
    to: '2017-12-31',
    exportFlags: [],
  },
  {
    file: `${FIXTURES}/banana_xaf32_no-rgs_2018_bananaaccounting-netherlands.xml`,
    importFlags: [],
    format: 'xaf',
    from: '2018-01-01',
    to: '2018-12-31',
    exportFlags: [],
  },
];

describe('real audit files, written again in their own format', () => {
  const home = temporaryHome();
  let server: Awaited<ReturnType<typeof serveBooks>>;
  const books = (...args: string[]) => runBooks(args, server.env);
  let entities = 0;

  beforeAll(async () => {
    server = await serveBooks(home);
    expect((await books('workspace', 'create', 'Round Trip')).code).toBe(0);
    const custom = await books('sandbox', 'workspace', 'update', 'Round Trip', '--custom-chart');
    expect(custom.code, custom.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    home.cleanup();
  });

  /** A fresh entity with the file imported: its id. */
  async function imported(file: string, flags: string[]): Promise<string> {
    const name = `E${(entities += 1)}`;
    const made = await books('sandbox', 'entity', 'create', name, '-w', 'Round Trip', '-o', 'json');
    expect(made.code, made.stderr).toBe(0);
    const run = await books(
      'je',
      'import',
      file,
      '--create-missing-accounts',
      '-w',
      'Round Trip',
      '-e',
      name,
      ...flags,
    );
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(made.stdout).entity.id;
  }

  /** Each account's balance over all days, by code (debits less credits, cents). */
  async function balances(entityId: string) {
    const range = 'startDate=1990-01-01&endDate=2030-12-31';
    const [tb, pl] = await Promise.all([
      server.api('GET', `/platform/v1/entities/${entityId}/reports/trial-balance?${range}`),
      server.api('GET', `/platform/v1/entities/${entityId}/reports/profit-and-loss?${range}`),
    ]);
    return Object.fromEntries(
      accountBalances(tb.body.report, pl.body.report).map((a) => [a.accountCode, a.cents]),
    );
  }

  async function roundTrip(trip: RoundTrip) {
    const first = await imported(trip.file, trip.importFlags);
    const directory = path.join(home.home, `${trip.format}-${entities}`);
    const exported = await books(
      'export',
      directory,
      '--format',
      trip.format,
      '--from',
      trip.from,
      '--to',
      trip.to,
      '-w',
      'Round Trip',
      '-e',
      first,
      ...trip.exportFlags,
      '--json',
    );
    expect(exported.code, exported.stderr).toBe(0);
    const second = await imported(JSON.parse(exported.stdout).file, []);
    const before = await balances(first);
    expect(Object.keys(before).length).toBeGreaterThan(5);
    expect(await balances(second)).toEqual(before);
  }

  it.skipIf(!shared).each(REAL)('$format: $file', (trip) => roundTrip(trip), 60_000);
  it.each(KEPT)('$format: $file', (trip) => roundTrip(trip), 60_000);
});
