import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { it } from 'vitest';
import { BOOKS_BIN, chooseNewEntity, serveBooks, temporaryHome } from '../helpers/cli.js';

/** Rounds of the commands, each round running every command once, in turn. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
/**
 * Another build's bin/books.cjs (an earlier commit's checkout, built): each of its commands runs
 * in the same rounds, labelled "before", for a before and after measured side by side.
 */
const BEFORE_BIN = process.env.BENCH_BEFORE_BIN;

const LEDGER = [
  'entry,date,account,account_type,debit,credit,description',
  ...Array.from({ length: 50 }, (_, i) => {
    const day = `2026-0${(i % 9) + 1}-1${i % 10}`;
    return `E${i},${day},Checking,Cash,${100 + i}.00,,Sale ${i}\nE${i},${day},Sales,Income,,${100 + i}.00,Sale ${i}`;
  }),
].join('\n');

/**
 * The command floor: each command that reads little, on the embedded platform (a small book:
 * 50 entries) and against `books serve` on loopback, beside `node -e 0`, in alternated rounds
 * (one run of each command a round) so that the machine's load falls on all alike. Prints each
 * command's median and its ratio to `node -e 0`; asserts nothing. Targets: 1.5× for the commands,
 * 1.2× for --version, --help and completion. Beside them, the limit: the same read with books
 * taken away (Node, better-sqlite3, the data file opened, one query, its rows printed).
 */
it('the command floor: books commands against node -e 0, alternated', async () => {
  const home = temporaryHome();
  const served = temporaryHome();
  const server = await serveBooks(served);
  try {
    const books = (args: string[], env = home.env) => {
      const result = spawnSync(process.execPath, [BOOKS_BIN, ...args], { env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`books ${args.join(' ')}: ${result.stderr}`);
    };
    const file = path.join(home.home, 'ledger.csv');
    writeFileSync(file, `${LEDGER}\n`);
    for (const env of [home.env, server.env]) {
      for (const args of chooseNewEntity('Floor', 'Floor Co')) books(args, env);
      books(['je', 'import', file, '--create-missing-accounts', '--quiet'], env);
    }
    const tb = ['report', 'tb', '--from', '2026-01-01', '--to', '2026-12-31'];
    const bare = path.join(home.home, 'bare.cjs');
    writeFileSync(
      bare,
      `const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
const db = new Database(${JSON.stringify(path.join(home.env.XDG_DATA_HOME!, 'books', 'platform.sqlite'))});
const rows = db.prepare('SELECT * FROM workspaces').all();
process.stdout.write(rows.map((row) => Object.values(row).join('\\t')).join('\\n') + '\\n');
`,
    );
    const commands: [string, string[], NodeJS.ProcessEnv, number | undefined][] = [
      ['node -e 0', ['-e', '0'], home.env, undefined],
      ['the limit: a bare read of the file', [bare], home.env, undefined],
      ['books --version', [BOOKS_BIN, '--version'], home.env, 1.2],
      ['books --help', [BOOKS_BIN, '--help'], home.env, 1.2],
      ['books report pl --help', [BOOKS_BIN, 'report', 'pl', '--help'], home.env, 1.2],
      [
        'completion (books coa <Tab>)',
        [BOOKS_BIN, '__complete', 'bash', '--line', 'books coa '],
        home.env,
        1.2,
      ],
      ['books workspace list', [BOOKS_BIN, 'workspace', 'list'], home.env, 1.5],
      ['books coa list', [BOOKS_BIN, 'coa', 'list'], home.env, 1.5],
      ['books report tb (50 entries)', [BOOKS_BIN, ...tb], home.env, 1.5],
      ['books transactions list', [BOOKS_BIN, 'transactions', 'list'], home.env, 1.5],
      ['books workspace list, remote', [BOOKS_BIN, 'workspace', 'list'], server.env, 1.5],
      ['books report tb, remote', [BOOKS_BIN, ...tb], server.env, 1.5],
    ];
    if (BEFORE_BIN) {
      for (const [label, args, env, target] of commands.slice(2)) {
        commands.push([`${label} (before)`, [BEFORE_BIN, ...args.slice(1)], env, target]);
      }
    }
    const times = commands.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round += 1) {
      commands.forEach(([label, args, env], i) => {
        const started = performance.now();
        const result = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
        if (result.status !== 0) throw new Error(`${label} exited ${result.status}`);
        times[i]!.push(performance.now() - started);
      });
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const floor = median(times[0]!);
    console.log(
      [
        `median of ${ROUNDS} alternated rounds; target: the ratio to node -e 0`,
        ...commands.map(([label, , , target], i) => {
          const ms = median(times[i]!);
          return `${label.padEnd(36)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / floor).toFixed(2)}×${target === undefined ? '' : `  (target ${target}×)`}`;
        }),
      ].join('\n'),
    );
  } finally {
    await server.stop();
    served.cleanup();
    home.cleanup();
  }
});
