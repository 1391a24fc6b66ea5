import { parentPort, workerData } from 'node:worker_threads';
import {
  CHUNKS_AHEAD,
  CsvReadError,
  parseRecords,
  Signal,
  type CsvThreadMessage,
  type TextOptions,
} from './csvRecords.js';

/**
 * The CSV thread of `parseRecordsOnWorker`: parses the file and posts its records a chunk at a
 * time, never more than CHUNKS_AHEAD chunks ahead of the reader, which asks for each next one.
 */
const { file, options } = workerData as { file: string; options: TextOptions };
const port = parentPort!;
let credit = CHUNKS_AHEAD;
const asked = new Signal();
port.on('message', () => {
  credit += 1;
  asked.notify();
});
const post = (message: CsvThreadMessage) => port.postMessage(message);

try {
  for await (const chunk of parseRecords(file, options, (hash) => post({ kind: 'end', hash }))) {
    while (credit === 0) await asked.wait();
    credit -= 1;
    post({ kind: 'records', chunk });
  }
} catch (error) {
  // A file error (ENOENT, EACCES) is the reader's to word: it is passed on as it is.
  if (!(error instanceof CsvReadError)) throw error;
  const { kind, code, lines, message } = error;
  post({ kind: 'failed', failure: { kind, code, lines, message } });
}
port.close();
