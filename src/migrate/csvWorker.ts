import { parentPort, workerData } from 'node:worker_threads';
import {
  CHUNKS_AHEAD,
  parseRecords,
  Signal,
  type CsvThreadMessage,
  type ReadFailure,
} from './csvRecords.js';

/**
 * The CSV thread of `parseRecordsOnWorker`: parses the file and posts its records a chunk at a
 * time, never more than CHUNKS_AHEAD chunks ahead of the reader, which asks for each next one.
 */
const { file, delimiter } = workerData as { file: string; delimiter: string };
const port = parentPort!;
let credit = CHUNKS_AHEAD;
const asked = new Signal();
port.on('message', () => {
  credit += 1;
  asked.notify();
});
const post = (message: CsvThreadMessage) => port.postMessage(message);

try {
  for await (const chunk of parseRecords(file, delimiter, (hash) => post({ kind: 'end', hash }))) {
    while (credit === 0) await asked.wait();
    credit -= 1;
    post({ kind: 'records', chunk });
  }
} catch (error) {
  const { code, lines, message } = error as ReadFailure;
  post({ kind: 'failed', failure: { code, lines, message } });
}
port.close();
