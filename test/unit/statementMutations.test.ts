import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnreadableStatement } from '../../src/formats/statement.js';
import { readStatementFile } from '../../src/formats/statements.js';

/*
 * The real statements (test/fixtures/statements) spoilt as files are spoilt — characters and
 * digits changed, cut short, a line lost, doubled, moved, a byte of another code page put in, a
 * number made fifty digits long — each read or refused in one sentence (an UnreadableStatement,
 * which the CLI says as exit 3 with the line), never an error of another kind ("a bug"); what
 * is read has whole cents and real days. Seeded: the same files every run.
 */

const ROOT = new URL('../fixtures/statements/', import.meta.url).pathname;
const FORMATS = ['mt940', 'camt', 'ofx', 'bai2', 'qif', 'coda', 'norma43', 'cfonb120'];
const MUTATIONS_PER_FILE = 120;

const directory = mkdtempSync(path.join(os.tmpdir(), 'books-mutations-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A linear congruential generator: the same spoilt files every run. */
function randomOf(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % below;
  };
}

function spoilt(bytes: Buffer, random: (below: number) => number): Buffer {
  const copy = Buffer.from(bytes);
  const kind = random(8);
  if (kind === 0 || kind === 1) {
    for (let k = 0; k <= random(5); k += 1)
      copy[random(copy.length)] = kind === 0 ? 32 + random(95) : 48 + random(10);
    return copy;
  }
  if (kind === 2) return copy.subarray(0, random(copy.length) + 1);
  const lines = copy.toString('latin1').split('\n');
  const [a, b] = [random(lines.length), random(lines.length)];
  if (kind === 3) lines.splice(a, 1);
  else if (kind === 4) lines.splice(a, 0, lines[b]!);
  else if (kind === 5) [lines[a], lines[b]] = [lines[b]!, lines[a]!];
  else if (kind === 6) {
    const at = random(lines[a]!.length + 1);
    lines[a] =
      `${lines[a]!.slice(0, at)}${String.fromCharCode(128 + random(128))}${lines[a]!.slice(at)}`;
  } else lines[a] = lines[a]!.replace(/\d+/, '9'.repeat(10 + random(40)));
  return Buffer.from(lines.join('\n'), 'latin1');
}

const isDay = (day: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);

describe.each(FORMATS)('%s, spoilt', (folder) => {
  it.each(readdirSync(path.join(ROOT, folder)).sort())(
    '%s: read or refused in one sentence',
    async (name) => {
      const bytes = readFileSync(path.join(ROOT, folder, name));
      const random = randomOf(name.length * 7919 + bytes.length);
      const wrong: string[] = [];
      for (let i = 0; i < MUTATIONS_PER_FILE; i += 1) {
        const file = path.join(directory, `${folder}-${i}-${name}`);
        writeFileSync(file, spoilt(bytes, random));
        try {
          const read = await readStatementFile(file);
          for (const statement of read.statements) {
            for (const balance of [statement.opening, statement.closing])
              if (balance !== null && !Number.isSafeInteger(balance))
                wrong.push(`${i}: balance ${balance}`);
            for (const entry of statement.entries) {
              if (!Number.isSafeInteger(entry.amount)) wrong.push(`${i}: amount ${entry.amount}`);
              if (!isDay(entry.bookingDate)) wrong.push(`${i}: day ${entry.bookingDate}`);
              if (entry.valueDate !== null && !isDay(entry.valueDate))
                wrong.push(`${i}: value day ${entry.valueDate}`);
            }
          }
        } catch (error) {
          if (!(error instanceof UnreadableStatement))
            wrong.push(`${i}: ${(error as Error).stack?.split('\n').slice(0, 2).join(' ')}`);
        } finally {
          rmSync(file);
        }
      }
      expect(wrong).toEqual([]);
    },
  );
});
