import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks, temporaryHome } from '../helpers/cli.js';

/*
 * An entity's fiscal year through the built binary on the embedded platform: set and shown by
 * `sandbox entity`, the trial balance as accountants read it, and an import whose days span a
 * fiscal year's turn, reconciled account by account — a changed line after sending still caught.
 */
describe('fiscal years, as a user meets them', () => {
  const home = temporaryHome();
  const books = (...args: string[]) => runBooks(args, home.env);
  const where = ['-w', 'Thames', '-e', 'Thames Lettings Ltd'];
  beforeAll(async () => {
    expect((await books('workspace', 'create', 'Thames', '--timezone', 'UTC')).code).toBe(0);
  });
  afterAll(() => home.cleanup());

  it('sandbox entity create/update --fiscal-year-start: shown by get; 29 February refused', async () => {
    const made = await books(
      'sandbox',
      'entity',
      'create',
      'Thames Lettings Ltd',
      '--fiscal-year-start',
      '07-01',
      '-w',
      'Thames',
    );
    expect(made.code, made.stderr).toBe(0);
    const leap = await books(
      'sandbox',
      'entity',
      'update',
      'Thames Lettings Ltd',
      '--fiscal-year-start',
      '02-29',
      '-w',
      'Thames',
    );
    expect(leap.code).toBe(2);
    expect(leap.stderr).toContain(
      '--fiscal-year-start must be a day every year has, MM-DD (04-01 for April; 29 February is not), not "02-29"',
    );
    const updated = await books(
      'sandbox',
      'entity',
      'update',
      'Thames Lettings Ltd',
      '--fiscal-year-start',
      '04-01',
      '-w',
      'Thames',
    );
    expect(updated.code, updated.stderr).toBe(0);
    const got = await books(
      'sandbox',
      'entity',
      'get',
      'Thames Lettings Ltd',
      '-w',
      'Thames',
      '--json',
    );
    expect(JSON.parse(got.stdout).entity.fiscalYearStart).toBe('04-01');
  });

  it('an import across two fiscal years reconciles; the trial balance carries the first year in Retained Earnings', async () => {
    const file = path.join(home.home, 'two-years.csv');
    writeFileSync(
      file,
      [
        'entry,date,account_code,account_name,account_type,debit,credit',
        'E1,2025-02-10,1000,Bank,Cash,1000.00,',
        'E1,2025-02-10,3000,Capital,Equity,,1000.00',
        'E2,2025-03-15,1000,Bank,Cash,500.00,',
        'E2,2025-03-15,4000,Rents received,Income,,500.00',
        'E3,2025-06-01,5000,Repairs,Operating Expenses,120.00,',
        'E3,2025-06-01,1000,Bank,Cash,,120.00',
        'E4,2025-09-30,1000,Bank,Cash,750.00,',
        'E4,2025-09-30,4000,Rents received,Income,,750.00',
        'E5,2026-04-02,1000,Bank,Cash,300.00,',
        'E5,2026-04-02,4000,Rents received,Income,,300.00',
        '',
      ].join('\n'),
    );
    const imported = await books('je', 'import', file, '--create-missing-accounts', ...where);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(
      'reconciled 4 accounts with the entries this import posted, to the cent',
    );

    // As of 2026-03-31 (the fiscal year from April 2025): FY2025's result (500) is retained.
    const tb = await books(
      'report',
      'tb',
      '--from',
      '2026-03-31',
      '--to',
      '2026-03-31',
      '-o',
      'csv',
      ...where,
    );
    expect(tb.code, tb.stderr).toBe(0);
    // The platform numbers the accounts of a standard chart: compared by name.
    const rows = (parse(tb.stdout) as string[][]).slice(1).map((r) => [r[2], r[3]]);
    expect(rows).toEqual([
      ['Bank', '2130.00'],
      ['Capital', '-1000.00'],
      ['Rents received', '-750.00'],
      ['Repairs', '120.00'],
      ['Retained Earnings', '-500.00'],
    ]);
    // The balance sheet's Retained Earnings is the same.
    const bs = await books(
      'report',
      'bs',
      '--from',
      '2026-03-31',
      '--to',
      '2026-03-31',
      '--json',
      ...where,
    );
    const equity = JSON.parse(bs.stdout).report.sections.find(
      (s: { label: string }) => s.label === 'Equity',
    );
    expect(equity.lines.find((l: { kind: string }) => l.kind === 'retained_earnings').amount).toBe(
      500,
    );

    // A line changed on the platform after sending: the rerun's reconciliation names it.
    const list = await books(
      'je',
      'list',
      '--from',
      '2025-09-30',
      '--to',
      '2025-09-30',
      '--json',
      ...where,
    );
    const [entry] = JSON.parse(list.stdout) as { id: string }[];
    const changed = await books(
      'je',
      'update',
      entry!.id,
      '--debit',
      'Bank=700',
      '--credit',
      'Rents received=700',
      ...where,
    );
    expect(changed.code, changed.stderr).toBe(0);
    const rerun = await books('je', 'import', file, '--create-missing-accounts', ...where);
    expect(rerun.code).not.toBe(0);
    expect(rerun.stderr).toContain(
      'reconciliation: 2 accounts differ between the file and the entries this import posted (2025-02-10 to 2026-04-02)',
    );
    // The reconciliation names both accounts, file against platform.
    // The income account across the fiscal year's turn is compared as a whole (file −1,550.00,
    // platform −1,500.00), not as two fiscal years' pieces.
    expect(rerun.stdout).toContain(
      '4000 "Rents received"\t4000 "Rents received"\t-1550.00\t-1500.00\t50.00',
    );
    expect(rerun.stdout).toContain('1000 "Bank"\t1000 "Bank"\t2430.00\t2380.00\t-50.00');
  });

  it('ytd and this-year are the entity’s fiscal years', async () => {
    const tb = await books(
      'report',
      'tb',
      '--from',
      'ytd',
      '--to',
      'this-year',
      '-o',
      'csv',
      ...where,
    );
    expect(tb.code, tb.stderr).toBe(0);
    const [header] = parse(tb.stdout) as string[][];
    // Today is in the fiscal year from April: it ends on a 31 March.
    expect(header!.at(-1)).toMatch(/^\d{4}-04-01\.\.\d{4}-03-31$/);
  });
});
