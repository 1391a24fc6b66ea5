import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/cli/clock.js';
import { CommandContext } from '../../src/cli/context.js';
import { workProgress } from '../../src/cli/terminal/progress.js';
import { chooseNewEntity, temporaryHome } from '../helpers/cli.js';
import { runCli } from '../helpers/cliInProcess.js';

/** A clock that moves `stepMs` each time it is read, and whose sleeps take no time. */
function steppingClock(stepMs: number): Clock & { readings: number } {
  let at = Date.parse('2026-11-25T09:00:00Z');
  const clock = {
    readings: 0,
    now: () => {
      clock.readings += 1;
      at += stepMs;
      return new Date(at);
    },
    sleep: async () => {},
  };
  return clock;
}

const PLAIN_LINE =
  /^books: importing ([\d,]+) of 2,501 entries \(\d+%\), [\d,]+ entries\/s(, about (\d+ min )?\d+ s left)?$/;

describe('workProgress', () => {
  const context = (tty: boolean, clock: Clock) => {
    const stderr = Object.assign(new PassThrough(), { isTTY: tty });
    let written = '';
    stderr.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const io = {
      stdout: new PassThrough(),
      stderr,
      stdin: new PassThrough(),
      env: {},
      argv: [],
      stopSignal: new Promise<NodeJS.Signals>(() => undefined),
    };
    return { ctx: new CommandContext(io, {}, { clock }), written: () => written };
  };
  const measure = (done: number) => ({ done, total: 60, unit: 'pages' });

  it('writes a line when 10 s of the clock have gone since the start or the last line', () => {
    const clock = steppingClock(1_000);
    const { ctx, written } = context(false, clock);
    const progress = workProgress(ctx, 'auto', { doing: 'copying', measure, bar: () => 'bar' });
    for (let done = 1; done <= 60; done += 1) progress.show!(done);
    progress.end();
    // Shown at 1 s, 2 s, … 60 s after the start.
    expect(written().split('\n')).toEqual([
      'books: copying 10 of 60 pages (17%), 1 pages/s, about 50 s left',
      'books: copying 20 of 60 pages (33%), 1 pages/s, about 40 s left',
      'books: copying 30 of 60 pages (50%), 1 pages/s, about 30 s left',
      'books: copying 40 of 60 pages (67%), 1 pages/s, about 20 s left',
      'books: copying 50 of 60 pages (83%), 1 pages/s, about 10 s left',
      'books: copying 60 of 60 pages (100%), 1 pages/s',
      '',
    ]);
  });

  it('rewrites one line on a terminal, and writes nothing with none', () => {
    const terminal = context(true, steppingClock(1_000));
    const bar = workProgress(terminal.ctx, 'auto', { doing: 'x', measure, bar: (n) => `at ${n}` });
    bar.show!(1);
    bar.show!(2);
    bar.end();
    expect(terminal.written()).toBe('\r  at 1   \r  at 2   \n');
    const silent = context(true, steppingClock(1_000));
    expect(workProgress(silent.ctx, 'none', { doing: 'x', measure, bar: () => '' }).show).toBe(
      undefined,
    );
  });
});

/** Long work in a CI log (stderr not a terminal), the embedded platform, in-process. */
describe('progress in a log and the reconciliation in a pipe', () => {
  const home = temporaryHome();
  let file: string;

  beforeAll(async () => {
    for (const args of chooseNewEntity('Progress', 'Progress Co')) {
      expect((await runCli(args, { env: home.env })).code).toBe(0);
    }
    file = path.join(home.home, 'ledger.csv');
    // 2,501 entries (26 batches); the last two make a balance of -17,828.24 and one of 17,828.24.
    const rows = Array.from(
      { length: 2_499 },
      (_, i) => `${i + 1},2025-06-01,Checking,Cash,0.01\n${i + 1},2025-06-01,Sales,Income,-0.01\n`,
    );
    rows.push(
      '2500,2025-06-02,Checking,Cash,17803.25\n2500,2025-06-02,Sales,Income,-17803.25\n',
      '2501,2025-06-03,Fees,Expense,67.37\n2501,2025-06-03,Checking,Cash,-67.37\n',
    );
    writeFileSync(file, `entry,date,account,account_type,amount\n${rows.join('')}`);
  });
  afterAll(() => home.cleanup());

  const importOnce = async (
    entity: string,
    flags: string[],
    tty = false,
    command = 'je import',
  ) => {
    for (const args of chooseNewEntity(`W ${entity}`, entity)) {
      expect((await runCli(args, { env: home.env })).code).toBe(0);
    }
    const clock = steppingClock(4_000);
    const args = [...command.split(' '), file, '--create-missing-accounts', ...flags];
    const result = await runCli(args, {
      env: home.env,
      tty,
      services: { clock },
    });
    expect(result.code, result.stderr).toBe(0);
    return { ...result, clock };
  };

  it('writes a plain line of done, total, rate and time left every 10 s of a migration, and no bar', async () => {
    const { stderr, clock } = await importOnce('Logged', ['--no-wait'], false, 'migrate run');
    expect(stderr).toContain('finalizing the accounting migration');
    expect(stderr).not.toMatch(/\r|ETA/);
    const lines = stderr.split('\n').filter((line) => line.startsWith('books: importing'));
    for (const line of lines) expect(line).toMatch(PLAIN_LINE);
    // The clock moved 4 s a reading; a line at most every 10 s of it, and at least one a batch
    // once 10 s have gone by (each batch reads the clock at least once).
    const elapsedSeconds = (clock.readings * 4_000) / 1000;
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines.length).toBeLessThanOrEqual(Math.floor(elapsedSeconds / 10));
    const done = lines.map((line) => Number(PLAIN_LINE.exec(line)![1]!.replace(/,/g, '')));
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.every((n) => n > 0 && (n % 100 === 0 || n === 2_501))).toBe(true);
  });

  it('writes no progress with --progress none, and lines, not a bar, with plain on a terminal', async () => {
    const none = await importOnce('Silent', ['--progress', 'none']);
    expect(none.stderr).not.toMatch(/importing|\r/);
    const noneOnTerminal = await importOnce('Silent TTY', ['--progress', 'none'], true);
    expect(noneOnTerminal.stderr).not.toMatch(/importing|\r|ETA/);
    const plain = await importOnce('Plain TTY', ['--progress', 'plain'], true);
    expect(plain.stderr).not.toMatch(/\r|ETA/);
    expect(plain.stderr.split('\n').filter((line) => PLAIN_LINE.test(line)).length).toBeGreaterThan(
      0,
    );
  });

  it('at a terminal, keeps a line per phase, and a message never runs on from a bar', async () => {
    const { stderr } = await importOnce('Bars', [], true);
    const lines = stderr.split('\n');
    const last = (line: string) => line.split('\r').at(-1)!;
    const checking = lines.find((line) => line.includes('\r  checking '));
    expect(last(checking!)).toMatch(
      /^ {2}checking .*ledger\.csv {2}2,000 entries {2}[\d,]+ entries\/s {3}$/,
    );
    const sending = lines.find((line) => line.includes('\r  2501/2501 entries'));
    expect(last(sending!)).toMatch(/^ {2}2501\/2501 entries {2}\d+ entries\/s {2}ETA 0s {3}$/);
    for (const line of lines) if (line.includes('books:')) expect(line).not.toContain('\r');
    expect(lines.indexOf(checking!)).toBeLessThan(lines.indexOf(sending!));
  });

  it('refuses an unknown --progress before it reads anything', async () => {
    const result = await runCli(['je', 'import', file, '--progress', 'fancy'], { env: home.env });
    expect(result).toMatchObject({
      code: 2,
      stderr: 'books: --progress must be auto, plain or none, not "fancy"\n',
    });
  });

  it('pipes the reconciliation table with plain numbers: no thousands, never a quote', async () => {
    const { stdout } = await importOnce('Piped', ['--progress', 'none']);
    expect(stdout).not.toContain("'");
    expect(stdout.split('\n')).toEqual([
      'File account\tPlatform account\tFile\tPlatform\tDifference',
      '"Checking"\t1000 "Checking"\t17760.87\t17760.87\t0.00',
      '"Sales"\t4000 "Sales"\t-17828.24\t-17828.24\t0.00',
      '"Fees"\t6000 "Fees"\t67.37\t67.37\t0.00',
      '',
    ]);
    const csv = await importOnce('Piped CSV', ['--progress', 'none', '-o', 'csv']);
    expect(csv.stdout).toContain('"""Sales""","4000 ""Sales""",-17828.24,-17828.24,0.00\n');
  });
});
