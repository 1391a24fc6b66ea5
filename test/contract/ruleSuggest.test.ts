import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/clock.js';
import { suggestRules } from '../../src/core/ruleLearning.js';
import { temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';

/**
 * `books rule suggest` on a generated history whose truth is known: each vendor's account, and
 * a fixed share of its lines posted elsewhere (noise). The precision it reports on the held-out
 * lines must be that truth within a point; a vendor seen fewer times than --min-support is not
 * proposed; --apply creates each rule once.
 */
const clock: Clock = { now: () => new Date('2026-03-15T12:00:00Z'), sleep: async () => undefined };

/** Vendor, its account, and every how-many-th of its lines goes to Meals instead (0: none). */
const VENDORS: [description: string, account: string, noiseEvery: number][] = [
  ['UBER *TRIP', 'Travel', 10], // 90% precise
  ['SQ *BLUE BOTTLE', 'Meals', 0], // 100%
  ['AMZN Mktp US*', 'Supplies', 5], // 80%
];
const DAYS = 200;

function history(): string {
  const rows = ['entry,date,account,account_type,amount,description'];
  let entry = 0;
  const add = (day: string, account: string, type: string, cents: number, text: string) => {
    entry += 1;
    const amount = (cents / 100).toFixed(2);
    rows.push(`E${entry},${day},${account},${type},${amount},${text}`);
    rows.push(`E${entry},${day},Checking,Cash,-${amount},${text}`);
  };
  // A vendor seen twice only: below --min-support 3.
  add('2025-01-01', 'Repairs', 'Operating Expenses', 5000, 'RARE FIXIT CO 1');
  add('2025-01-02', 'Repairs', 'Operating Expenses', 5000, 'RARE FIXIT CO 2');
  for (let i = 0; i < DAYS; i += 1) {
    const day = new Date(Date.UTC(2025, 0, 3) + i * 86_400_000).toISOString().slice(0, 10);
    VENDORS.forEach(([description, account, noiseEvery], v) => {
      const noisy = noiseEvery > 0 && i % noiseEvery === noiseEvery - 1;
      const code = `${(i * 7 + v).toString(36).toUpperCase()}X${v}`;
      add(
        day,
        noisy ? 'Meals' : account,
        'Operating Expenses',
        1000 + i * 3 + v,
        `${description}${description.endsWith('*') ? '' : ' '}${code}`,
      );
    });
  }
  return `${rows.join('\n')}\n`;
}

describe('books rule suggest', () => {
  const home = temporaryHome();
  const run = (...args: string[]) => runCli(args, { env: home.env, services: { clock } });
  const ok = async (...args: string[]) => {
    const result = await run(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  beforeAll(async () => {
    await ok('workspace', 'create', 'Rules Books');
    await ok('sandbox', 'entity', 'create', 'Corner Shop', '-w', 'Rules Books');
    await ok('use', '-w', 'Rules Books', '-e', 'Corner Shop');
    const file = path.join(home.home, 'history.csv');
    writeFileSync(file, history());
    await ok('je', 'import', file, '--create-missing-accounts');
  }, 120_000);
  afterAll(() => home.cleanup());

  type Suggestion = {
    contains: string;
    accountName: string;
    support: number;
    heldOut: number;
    precision: number | null;
    examples: string[];
    ruleId?: string;
  };
  const suggest = async (...args: string[]) =>
    JSON.parse((await ok('rule', 'suggest', '--json', ...args)).stdout).suggestions as Suggestion[];

  it('reports each vendor’s precision on the held-out lines as the truth, within a point', async () => {
    const suggestions = await suggest();
    const of = (text: string) => suggestions.find((s) => s.contains === text)!;
    expect(suggestions.map((s) => [s.contains, s.accountName])).toEqual([
      ['amzn mktp', 'Supplies'],
      ['sq *blue bottle', 'Meals'],
      ['uber *trip', 'Travel'],
    ]);
    expect(Math.abs(of('uber *trip').precision! - 0.9)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(of('sq *blue bottle').precision! - 1)).toBeLessThanOrEqual(0.01);
    expect(Math.abs(of('amzn mktp').precision! - 0.8)).toBeLessThanOrEqual(0.01);
    // The latest 20% of 602 lines: 120, a third of them each vendor's.
    for (const s of suggestions) expect(s.heldOut).toBe(40);
    for (const s of suggestions) expect(s.examples).toHaveLength(3);
    // Below --min-support: not proposed; with it lowered, proposed.
    expect(suggestions.some((s) => s.contains.includes('rare fixit'))).toBe(false);
    expect((await suggest('--min-support', '2')).map((s) => s.contains)).toContain('rare fixit co');
    // Deterministic.
    expect(await suggest()).toEqual(suggestions);
  }, 60_000);

  it('prints a table a person reads', async () => {
    const result = await ok('rule', 'suggest');
    expect(result.stdout.split('\n')[0]).toBe(
      'When description contains\tThen account\tSupport\tPrecision\tExamples',
    );
    expect(result.stdout).toMatch(/uber \*trip\t\d+ Travel\t160\t90\.0% of 40\tUBER \*TRIP/);
    expect(result.stderr).toContain(
      'books: learned from 602 categorized lines; precision measured on the latest 20% by date',
    );
    const bad = await run('rule', 'suggest', '--min-support', '1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('books: --min-support must be a whole number ≥ 2, not "1"\n');
  }, 60_000);

  it('--apply creates each rule once, and a rerun proposes none of them again', async () => {
    const applied = await suggest('--apply');
    expect(applied).toHaveLength(3);
    for (const s of applied) expect(s.ruleId).toMatch(/^[0-9a-f-]{36}$/);
    const rules = JSON.parse((await ok('rule', 'list', '--json')).stdout);
    expect(rules).toHaveLength(3);
    expect(await suggest('--apply')).toEqual([]);
    expect(JSON.parse((await ok('rule', 'list', '--json')).stdout)).toHaveLength(3);
  }, 60_000);
});

describe('suggestRules (pure)', () => {
  it('learns from the earlier 80% and measures on the latest 20%, whatever the input order', () => {
    const lines = Array.from({ length: 10 }, (_, i) => ({
      date: `2025-01-${String(10 - i).padStart(2, '0')}`,
      description: `SHELL OIL ${i}`,
      accountId: i === 0 ? 'other' : 'fuel',
    }));
    // The latest day's line (i = 0) is held out with the next latest: one of two agrees.
    expect(suggestRules(lines, { minSupport: 3 })).toMatchObject([
      {
        contains: 'shell oil',
        accountId: 'fuel',
        support: 8,
        heldOut: 2,
        agreed: 1,
        precision: 0.5,
      },
    ]);
  });
});
