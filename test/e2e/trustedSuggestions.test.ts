import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { birminghamPurchaseCards, type CategorizedLine } from '../helpers/categorizedData.js';
import { runBooks, serveBooks, temporaryHome } from '../helpers/cli.js';

/*
 * Suggestions a bookkeeper can trust (issue 57), through the built binary against `books serve`
 * (a SQLite file; PostgreSQL in the PostgreSQL run): a client migrated with its ledger and a
 * new client of the same firm; a conference never seen is no match of an entry the bank cleared
 * before its first statement; a reason says the strongest of the record; the firm's next client
 * hears what the migrated one decided; and `--auto`, from a migrated ledger and from categorized
 * bank lines of real card spending, takes only what is right at least 95 times in 100.
 */

interface Waiting {
  id: string;
  date: string;
  description: string;
  amount: number;
  status: string;
  suggestion: { kind: string; accountId?: string; confidence: number; reason: string } | null;
}

describe('suggestions a bookkeeper can trust (the built binary against books serve)', () => {
  let home: ReturnType<typeof temporaryHome>;
  let server: Awaited<ReturnType<typeof serveBooks>>;
  let env: NodeJS.ProcessEnv;
  let fileNumber = 0;
  const harbour = ['-w', 'Harbour Café Ltd', '-e', 'Harbour Café Ltd'];
  const quayside = ['-w', 'Quayside Deli Ltd', '-e', 'Quayside Deli Ltd'];

  beforeAll(async () => {
    home = temporaryHome();
    server = await serveBooks(home, ['--db', path.join(home.home, 'platform.sqlite')]);
    env = { ...server.env, BOOKS_RETRY_BASE_MS: '10' };
    for (const client of ['Harbour Café Ltd', 'Quayside Deli Ltd']) {
      const made = await books('workspace', 'create', client, '--timezone', 'UTC');
      expect(made.code, made.stderr).toBe(0);
      const entity = await books(
        ...['sandbox', 'entity', 'create', client, '--start-date', '2026-10-01', '-w', client],
      );
      expect(entity.code, entity.stderr).toBe(0);
    }
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  const books = (...args: string[]) => runBooks(args, env);
  const fileOf = (text: string, name: string) => {
    const file = path.join(home.home, `${++fileNumber}-${name}`);
    writeFileSync(file, text);
    return file;
  };
  const json = async (...args: string[]) => {
    const result = await books(...args, '--json');
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return JSON.parse(result.stdout);
  };
  const ok = async (...args: string[]) => {
    const result = await books(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };

  it('from a migrated ledger: a conference never seen is no match of what the bank cleared, a reason says the whole record, the next client hears the firm', async () => {
    // Harbour's ledger: two years to September. STAPLES only in the first year (older than the
    // year the migration's rules learn from), VERIZON every month, and on 25 September the
    // card's bill paid from the bank: PAYMENT TO VISA 300.00, cleared in September.
    const rows = ['date,account,account_type,debit,credit,entry,description'];
    let entry = 0;
    const add = (day: string, account: string, type: string, cents: number, text: string) => {
      entry += 1;
      const amount = (Math.abs(cents) / 100).toFixed(2);
      const [debit, credit] = cents < 0 ? [amount, ''] : ['', amount];
      rows.push(`${day},${account},${type},${debit},${credit},${entry},${text}`);
      rows.push(`${day},Barclays Current Account,Cash,${credit},${debit},${entry},${text}`);
    };
    add('2024-10-01', 'Share Capital', 'Equity', 10_000_00, 'Capital paid in');
    for (let month = 0; month < 24; month += 1) {
      const year = 2024 + Math.floor((month + 9) / 12);
      const mm = String(((month + 9) % 12) + 1).padStart(2, '0');
      add(
        `${year}-${mm}-05`,
        'Telephone',
        'Operating Expenses',
        -89_99,
        `VERIZON WIRELESS ${1000 + month}`,
      );
      if (month < 9)
        add(
          `${year}-${mm}-08`,
          'Office Supplies',
          'Operating Expenses',
          -(1500 + month * 731),
          `STAPLES ${400 + month}`,
        );
    }
    add('2026-09-25', 'Visa', 'Credit Cards', -300_00, 'PAYMENT TO VISA');
    await ok(
      'migrate',
      'run',
      fileOf(rows.join('\n'), 'harbour-ledger.csv'),
      '--create-missing-accounts',
      ...harbour,
    );
    await ok(
      'sandbox',
      'feed',
      'connect',
      '--bank',
      'Barclays',
      '--account',
      'Barclays Current Account:bank',
      ...harbour,
    );
    await ok('config', 'set', 'date-format', 'DD/MM/YYYY');
    const october = [
      'Date,Description,Amount',
      '02/10/2026,ACME ANNUAL CONFERENCE,-300.00',
      '05/10/2026,VERIZON WIRELESS 2001,-89.99',
      '08/10/2026,STAPLES 0412,-23.17',
    ].join('\n');
    await ok(
      'transactions',
      'import',
      'Barclays Current Account',
      fileOf(october, 'october.csv'),
      ...harbour,
    );

    const queue: Waiting[] = await json('transactions', 'list', '--suggest', ...harbour);
    const acme = queue.find((t) => t.description === 'ACME ANNUAL CONFERENCE')!;
    // Before: a match at 0.9 of PAYMENT TO VISA, and Enter lost the expense.
    expect(acme.suggestion?.kind).not.toBe('match');
    expect(acme.suggestion?.confidence ?? 0).toBeLessThan(0.95);
    const staples = queue.find((t) => t.description === 'STAPLES 0412')!;
    expect(staples.suggestion!.reason).toMatch(
      /^all 9 earlier STAPLES went to \d+ Office Supplies$/,
    );

    // --auto leaves the conference to a person; what it takes is right.
    const taken: { id: string; accountId: string }[] = await json(
      'transactions',
      'categorize',
      '--auto',
      ...harbour,
    );
    expect(taken.map((t) => t.id)).not.toContain(acme.id);
    const after: Waiting[] = await json(
      'transactions',
      'list',
      '--status',
      'uncategorized',
      ...harbour,
    );
    expect(after.map((t) => t.description)).toContain('ACME ANNUAL CONFERENCE');

    // Quayside, the firm's next client, has never paid Verizon: the firm's migrated ledger says.
    await ok('coa', 'create', '--name', 'Telephone', '--type', 'Operating Expenses', ...quayside);
    await ok(
      'sandbox',
      'feed',
      'connect',
      '--bank',
      'Lloyds',
      '--account',
      'Current:bank',
      ...quayside,
    );
    await ok(
      'transactions',
      'import',
      'Current',
      fileOf('Date,Description,Amount\n06/10/2026,VERIZON WIRELESS 3001,-45.00\n', 'quayside.csv'),
      ...quayside,
    );
    const [verizon]: Waiting[] = await json('transactions', 'list', '--suggest', ...quayside);
    expect(verizon!.suggestion).toMatchObject({ kind: 'account' });
    // 24 of the migrated ledger, and October's, categorized by the migration's rule.
    expect(verizon!.suggestion!.reason).toBe(
      "no earlier VERIZON WIRELESS for this client; the firm's other clients sent 25 of their 25 lines to Telephone (1 client)",
    );
    expect(verizon!.suggestion!.confidence).toBeLessThan(0.95);
  }, 120_000);

  /** A real client's card spending: its history, then a month arriving, by each path. */
  const cards = birminghamPurchaseCards();
  const history = cards.slice(0, 1500);
  const arriving = cards.slice(1500, 1800);
  const csvText = (text: string) =>
    /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  const statement = (lines: readonly CategorizedLine[], reference: string) =>
    [
      'Date,Description,Amount,Reference',
      ...lines.map(
        (line, i) =>
          `${line.day},${csvText(line.text)},${(line.amountCents / 100).toFixed(2)},${reference}-${i}`,
      ),
    ].join('\n');

  /** What --auto took, and how many of those the council posted to the same account. */
  async function autoTakes(where: string[]): Promise<{ taken: number; right: number }> {
    const waiting: Waiting[] = await json(
      'transactions',
      'list',
      '--status',
      'uncategorized',
      ...where,
    );
    const truthOf = new Map<string, string>();
    for (const line of waiting) {
      const index = arriving.findIndex(
        (a) =>
          a.text === line.description &&
          a.day === line.date &&
          a.amountCents === Math.round(line.amount * 100),
      );
      if (index >= 0) truthOf.set(line.id, arriving[index]!.accountId);
    }
    const chart: { id: string; name: string }[] = await json('coa', 'list', ...where);
    const nameOf = new Map(chart.map((a) => [a.id, a.name]));
    const taken: { id: string; accountId: string }[] = await json(
      'transactions',
      'categorize',
      '--auto',
      ...where,
    );
    const right = taken.filter((t) => truthOf.get(t.id) === nameOf.get(t.accountId)).length;
    return { taken: taken.length, right };
  }

  it.each(['a migrated ledger', 'categorized bank lines'])(
    'real card spending, its history from %s: --auto takes only what is right at least 95 times in 100',
    async (from) => {
      const client = from === 'a migrated ledger' ? 'Council Cards Ledger' : 'Council Cards Feed';
      const where = ['-w', client, '-e', client];
      await ok('workspace', 'create', client, '--timezone', 'UTC');
      await ok(
        'sandbox',
        'entity',
        'create',
        client,
        '--start-date',
        arriving[0]!.day,
        '-w',
        client,
      );
      await ok('config', 'set', 'date-format', 'YYYY-MM-DD');
      if (from === 'a migrated ledger') {
        const rows = ['date,account,account_type,amount,entry,description'];
        for (const [i, line] of history.entries()) {
          rows.push(
            `${line.day},${csvText(line.accountId)},Operating Expenses,${(-line.amountCents / 100).toFixed(2)},${i},${csvText(line.text)}`,
          );
          rows.push(
            `${line.day},Purchase Card,Credit Cards,${(line.amountCents / 100).toFixed(2)},${i},${csvText(line.text)}`,
          );
        }
        await ok(
          'migrate',
          'run',
          fileOf(rows.join('\n'), 'cards-ledger.csv'),
          '--create-missing-accounts',
          ...where,
        );
        await ok(
          'sandbox',
          'feed',
          'connect',
          '--bank',
          'Card issuer',
          '--account',
          'Purchase Card:credit_card',
          ...where,
        );
      } else {
        await ok(
          'sandbox',
          'feed',
          'connect',
          '--bank',
          'Card issuer',
          '--account',
          'Purchase Card:credit_card',
          ...where,
        );
        const chart = [
          'name,type',
          ...[...new Set(history.map((line) => line.accountId))].map(
            (name) => `${csvText(name)},Operating Expenses`,
          ),
        ];
        await ok('coa', 'import', fileOf(chart.join('\n'), 'chart.csv'), ...where);
        await ok(
          'transactions',
          'import',
          'Purchase Card',
          fileOf(statement(history, 'h'), 'cards-history.csv'),
          ...where,
        );
        const decisions = [
          'reference,account',
          ...history.map((line, i) => `h-${i},${csvText(line.accountId)}`),
        ];
        await ok(
          'transactions',
          'categorize',
          '--from',
          fileOf(decisions.join('\n'), 'decisions.csv'),
          ...where,
        );
      }
      await ok(
        'transactions',
        'import',
        'Purchase Card',
        fileOf(statement(arriving, 'a'), 'cards-month.csv'),
        ...where,
      );
      const { taken, right } = await autoTakes(where);
      // Figures of the bench (test/bench/suggestions.bench.test.ts) on the whole set; here a
      // small client, whatever it takes must be right 95 times in 100.
      // From a migrated ledger the migration's rules (local-platform.md: one per group of at
      // least two alike lines) categorize most of the month as it arrives, and --auto sees only
      // the rest (here it takes none of it); the bench measures the suggestions before them.
      expect(right).toBeGreaterThanOrEqual(Math.ceil(taken * 0.95));
      if (from === 'categorized bank lines') expect(taken).toBeGreaterThan(0);
    },
    300_000,
  );
});
