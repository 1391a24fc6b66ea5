import { newReadResult, readLedger, type ReadOptions } from '../../src/formats/reader.js';

/** Reads a ledger file whole: its entries, its problems as `line: message` by line, its notes. */
export async function readLedgerFile(file: string, options: ReadOptions = {}) {
  const result = newReadResult();
  const entries = [];
  for await (const entry of readLedger(file, options, result)) entries.push(entry);
  const problems = [...result.problems]
    .sort((a, b) => a.fileLine - b.fileLine)
    .map((p) => `${p.fileLine}: ${p.message}`);
  return { entries, problems, notes: result.notes, result };
}
