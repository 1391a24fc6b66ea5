import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { Output } from '../../src/cli/terminal/output.js';

/** What `--json` prints of `value` (as a list prints, or as one value), and in how many writes. */
async function printed(value: unknown, asList = true): Promise<{ text: string; writes: number }> {
  const stdout = new PassThrough();
  let text = '';
  let writes = 0;
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    writes += 1;
  });
  const io = { stdout, stderr: new PassThrough(), env: {} } as unknown as CliIo;
  const output = new Output(io, { json: true });
  if (asList) await output.printJsonList(value);
  else output.printJson(value);
  return { text, writes };
}

describe('--json output', () => {
  it('is JSON.stringify with two spaces, whatever the value', async () => {
    const values: unknown[] = [
      [],
      {},
      null,
      'text',
      42,
      [1],
      [{ a: 1, b: [2, { c: 'x\ny' }], d: {} }, [], [[]], null, 'é ✓'],
      [undefined, () => 1, { e: undefined }],
      { list: [{ a: 1 }, { b: 2 }] },
    ];
    for (const value of values)
      for (const asList of [true, false])
        expect((await printed(value, asList)).text).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it('writes a long list a piece at a time, the same text', async () => {
    const list = Array.from({ length: 20_000 }, (_, i) => ({
      id: `txn-${i}`,
      description: `CARD PAYMENT ${i} ${'x'.repeat(60)}`,
      suggestion: i % 3 === 0 ? null : { accountId: `acc-${i % 40}`, confidence: 0.5 },
    }));
    const { text, writes } = await printed(list);
    expect(text).toBe(`${JSON.stringify(list, null, 2)}\n`);
    expect(writes).toBeGreaterThan(2);
  });
});
