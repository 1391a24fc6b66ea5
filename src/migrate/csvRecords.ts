import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { Parser } from 'csv-parse';

/** One input chunk's records, each with the file line it ends on. */
export interface RecordChunk {
  records: string[][];
  lines: number[];
}

/** What a CSV error carries to the reader: csv-parse's code and line, or a file error's code. */
export interface ReadFailure {
  code?: string;
  lines?: number;
  message: string;
}

/**
 * csv-parse's parser, fed a chunk at a time, handing over each chunk's records together with
 * the file line each ends on. csv-parse reports lines only through `info: true`, which copies
 * its whole info object for every record, and an object-mode stream costs a promise per
 * record: the two were 60% of the time spent reading a file. Here csv-parse calls `push` for
 * each record as it parses it, while `info.lines` is that record's.
 */
class NumberedRecords extends Parser {
  private chunk: RecordChunk = { records: [], lines: [] };

  constructor(delimiter: string) {
    super({ bom: true, delimiter, skip_empty_lines: true, relax_column_count: true });
    // A CSV error reaches the caller through `parse`, below.
    this.on('error', () => {});
  }

  override push(record: unknown): boolean {
    if (record !== null) {
      this.chunk.records.push(record as string[]);
      this.chunk.lines.push(this.info.lines);
    }
    return true;
  }

  /** Parses `bytes`, or without them the end of the input; answers csv-parse's error, if any. */
  parse(bytes?: Buffer): Promise<Error | undefined> {
    return new Promise((resolve) => {
      const done = (error?: Error | null) => resolve(error ?? undefined);
      if (bytes) this.write(bytes, done);
      else this.end(done);
    });
  }

  takeParsed(): RecordChunk {
    const chunk = this.chunk;
    this.chunk = { records: [], lines: [] };
    return chunk;
  }
}

/**
 * The records of a CSV file, a chunk's worth at a time, parsed on this thread; `onEnd` gets the
 * SHA-256 of the file's bytes once all are read. A CSV error is thrown with csv-parse's `code`
 * and `lines`, after the records before it.
 */
export async function* parseRecords(
  file: string,
  delimiter: string,
  onEnd: (hash: string) => void,
): AsyncGenerator<RecordChunk> {
  const hash = createHash('sha256');
  const input = createReadStream(file, { highWaterMark: 256 * 1024 });
  const parser = new NumberedRecords(delimiter);
  try {
    for await (const bytes of input as AsyncIterable<Buffer>) {
      hash.update(bytes);
      const failure = await parser.parse(bytes);
      // Records parsed before a CSV error are still read (and checked) before it is reported.
      yield parser.takeParsed();
      if (failure) throw failure;
    }
    const failure = await parser.parse();
    yield parser.takeParsed();
    if (failure) throw failure;
    onEnd(hash.digest('hex'));
  } finally {
    input.destroy();
  }
}

/** What the CSV thread posts: a chunk of records, the end with the file's hash, or a failure. */
export type CsvThreadMessage =
  | { kind: 'records'; chunk: RecordChunk }
  | { kind: 'end'; hash: string }
  | { kind: 'failed'; failure: ReadFailure };

/** Chunks the CSV thread may post ahead of the reader: what waits in memory stays bounded. */
export const CHUNKS_AHEAD = 4;

/** Something to wait for until `notify` is called; one waiter at a time. */
export class Signal {
  private resume: (() => void) | undefined;

  wait(): Promise<void> {
    return new Promise((resolve) => (this.resume = resolve));
  }

  notify(): void {
    const resume = this.resume;
    this.resume = undefined;
    resume?.();
  }
}

/**
 * `parseRecords` on a worker thread (csvWorker.ts), so that parsing and the reader's checks of
 * the lines run at once. The thread posts at most CHUNKS_AHEAD chunks ahead of the reader, and
 * is stopped when the reading ends, however it ends.
 */
export async function* parseRecordsOnWorker(
  file: string,
  delimiter: string,
  onEnd: (hash: string) => void,
): AsyncGenerator<RecordChunk> {
  const worker = new Worker(new URL('./csvWorker.js', import.meta.url), {
    workerData: { file, delimiter },
    // The thread keeps only a few chunks: a small young generation keeps its memory small, and
    // measured as fast as the default (48 MB) on a million-line file.
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  const messages: CsvThreadMessage[] = [];
  const arrived = new Signal();
  let stopped: Error | undefined;
  worker.on('message', (message: CsvThreadMessage) => {
    messages.push(message);
    arrived.notify();
  });
  worker.on('error', (error) => {
    stopped ??= error;
    arrived.notify();
  });
  worker.on('exit', (code) => {
    stopped ??= new Error(`the CSV reading thread stopped early (exit code ${code})`);
    arrived.notify();
  });
  try {
    for (;;) {
      while (messages.length === 0) {
        if (stopped) throw stopped;
        await arrived.wait();
      }
      const message = messages.shift()!;
      if (message.kind === 'end') {
        onEnd(message.hash);
        return;
      }
      if (message.kind === 'failed') {
        throw Object.assign(new Error(message.failure.message), message.failure);
      }
      worker.postMessage('next');
      yield message.chunk;
    }
  } finally {
    await worker.terminate();
  }
}
