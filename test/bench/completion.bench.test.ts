import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import { BOOKS_BIN, temporaryHome } from '../helpers/cli.js';

const ACCOUNTS = 1_000;
const RUNS = 20;

/**
 * A Tab at the shell: `books __complete` as the bash script calls it, for the accounts of an
 * entity with 1,000 of them (the local platform), with the names' cache warm and cold. The
 * target: 300 ms a completion with the cache warm. Also the floor: node starting and exiting
 * with nothing to do.
 */
it(`completes an account name among ${ACCOUNTS.toLocaleString('en-US')}`, () => {
  const home = temporaryHome();
  try {
    const books = (...args: string[]) => {
      const started = performance.now();
      const result = spawnSync(process.execPath, [BOOKS_BIN, ...args], {
        env: home.env,
        encoding: 'utf8',
      });
      if (result.status !== 0) throw new Error(`books ${args.join(' ')}: ${result.stderr}`);
      return { ms: performance.now() - started, stdout: result.stdout };
    };
    books('workspace', 'create', 'Bench Books');
    books('sandbox', 'entity', 'create', 'Bench Co', '-w', 'Bench Books');
    books('use', '-w', 'Bench Books', '-e', 'Bench Co');
    const chart = ['code,name,type'];
    for (let i = 0; i < ACCOUNTS; i += 1) {
      chart.push(`${10000 + i},Account ${String(i).padStart(4, '0')},Operating Expenses`);
    }
    const file = path.join(home.home, 'chart.csv');
    writeFileSync(file, `${chart.join('\n')}\n`);
    books('coa', 'import', file, '--renumber');

    const complete = () => books('__complete', 'bash', '--line', 'books coa get Account\\ 01');
    const cold = complete();
    const warm = Array.from({ length: RUNS }, complete).map((r) => r.ms);
    const offered = complete().stdout.trim().split('\n').length - 1;
    if (offered !== 100) throw new Error(`expected Account 0100 to 0199 offered, got ${offered}`);
    const floor = Array.from({ length: RUNS }, () => {
      const started = performance.now();
      spawnSync(process.execPath, ['-e', '0']);
      return performance.now() - started;
    });
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const p95 = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
    console.log(
      [
        `completion of an account among ${ACCOUNTS} (${offered} offered), ${RUNS} runs:`,
        `  cache warm: median ${median(warm).toFixed(0)} ms, p95 ${p95(warm).toFixed(0)} ms (target ≤ 300 ms)`,
        `  cache cold (the platform asked): ${cold.ms.toFixed(0)} ms`,
        `  floor (node -e 0): median ${median(floor).toFixed(0)} ms`,
      ].join('\n'),
    );
  } finally {
    home.cleanup();
  }
}, 120_000);
