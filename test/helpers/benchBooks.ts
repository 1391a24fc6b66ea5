import { createPlatform } from '../../src/platform/index.js';
import { SERVE_TOKEN } from './cli.js';
import { generateLedger, type GeneratedLedger } from './generatedLedger.js';

type Engine = Awaited<ReturnType<typeof createPlatform>>['engine'];

/** One ledger written into an entity: its chart, the opening balance (accrual), its entries. */
async function writeLedger(
  engine: Engine,
  org: string,
  entityId: string,
  ledger: GeneratedLedger,
  options: { accrual: boolean },
) {
  ledger.entries.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (options.accrual) await engine.entities.openAccrualLedger(org, entityId);
  const accounts = await engine.accounts.bulkCreate(org, entityId, ledger.accounts);
  const line = (l: { account: number; debitCents: number; creditCents: number }) => ({
    accountId: accounts[l.account]!.id,
    debitAmount: l.debitCents ? l.debitCents / 100 : null,
    creditAmount: l.creditCents ? l.creditCents / 100 : null,
    description: `Line of account ${l.account}`,
  });
  if (options.accrual) {
    await engine.openingBalances.create(org, entityId, {
      date: ledger.openingBalance.date,
      lines: ledger.openingBalance.lines.map(line),
    });
  }
  for (let start = 0; start < ledger.entries.length; start += 100) {
    await engine.journalEntries.bulkCreate(
      org,
      entityId,
      ledger.entries.slice(start, start + 100).map((e) => ({
        date: e.date,
        ledgerBasis: options.accrual ? e.basis : ('cash' as const),
        memo: e.memo,
        lines: e.lines.map(line),
      })),
    );
  }
  return accounts;
}

const postingsOf = (ledger: GeneratedLedger) =>
  ledger.entries.reduce((n, e) => n + e.lines.length, 0);

/**
 * Writes a generated ledger, in date order, straight through the engine into a database file
 * (workspace "Bench", entity "Bench Co"), for a bench to serve: its chart, with `accrual` the
 * accrual ledger and the opening balance, and every entry in bulks of 100. Returns the entity,
 * its accounts, the count of postings and the seconds it took.
 */
export async function writeGeneratedBooks(
  database: string,
  ledger: GeneratedLedger,
  options: { accrual: boolean },
) {
  const started = performance.now();
  const platform = await createPlatform({ database, orgToken: SERVE_TOKEN, rateLimitPerSecond: 0 });
  const org = platform.defaultOrganizationId;
  const { engine } = platform;
  const workspace = await engine.workspaces.create(org, { name: 'Bench', timezone: 'UTC' });
  const entity = await engine.entities.create(org, workspace.id, { name: 'Bench Co' });
  const accounts = await writeLedger(engine, org, entity.id, ledger, options);
  await platform.close();
  const postings = postingsOf(ledger);
  return { entity, accounts, postings, seconds: (performance.now() - started) / 1000 };
}

/**
 * A firm's books: one workspace ("Firm") of an entity per ledger ("Client 001", …), each
 * written as writeGeneratedBooks writes one, on the cash ledger. Says what it loaded.
 */
export async function loadGeneratedFirm(
  database: string,
  ledgers: readonly GeneratedLedger[],
  say: (line: string) => void = console.log,
) {
  const started = performance.now();
  const platform = await createPlatform({ database, orgToken: SERVE_TOKEN, rateLimitPerSecond: 0 });
  const org = platform.defaultOrganizationId;
  const { engine } = platform;
  const workspace = await engine.workspaces.create(org, { name: 'Firm', timezone: 'UTC' });
  for (const [index, ledger] of ledgers.entries()) {
    const name = `Client ${String(index + 1).padStart(3, '0')}`;
    const entity = await engine.entities.create(org, workspace.id, { name });
    await writeLedger(engine, org, entity.id, ledger, { accrual: false });
  }
  await platform.close();
  const entries = ledgers.reduce((n, l) => n + l.entries.length, 0);
  const postings = ledgers.reduce((n, l) => n + postingsOf(l), 0);
  say(
    `loaded ${ledgers.length} entities: ${entries.toLocaleString('en-US')} entries, ${postings.toLocaleString('en-US')} postings in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * A generated ledger (generateLedger) written into `database` (writeGeneratedBooks), and said:
 * `loaded N entries, M postings in S s`, with the bench's target of postings when it has one.
 */
export async function loadGeneratedBooks(
  database: string,
  generate: Parameters<typeof generateLedger>[0],
  options: { accrual: boolean; targetPostings?: number; say?: (line: string) => void },
) {
  const ledger = generateLedger(generate);
  const written = await writeGeneratedBooks(database, ledger, { accrual: options.accrual });
  const target =
    options.targetPostings === undefined
      ? ''
      : ` (target ${options.targetPostings.toLocaleString('en-US')})`;
  (options.say ?? console.log)(
    `loaded ${ledger.entries.length.toLocaleString('en-US')} entries, ${written.postings.toLocaleString('en-US')} postings${target} in ${written.seconds.toFixed(1)} s`,
  );
  return { ledger, ...written };
}
