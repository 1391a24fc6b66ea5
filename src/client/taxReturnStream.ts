import type { TaxReturn } from '../api/index.js';
import { ndjsonLines } from './ndjson.js';

type BoxPosting = NonNullable<TaxReturn['boxes'][number]['postings']>[number];

/**
 * A return as it is read: its figures (boxes without postings), then each box's postings in
 * runs as they arrive (a run: postings of one box from one piece of the answer).
 */
export type TaxReturnEvent =
  | { kind: 'figures'; taxReturn: Omit<TaxReturn, 'boxes'> }
  | { kind: 'box'; box: Omit<TaxReturn['boxes'][number], 'postings'> }
  | { kind: 'postings'; box: string; postings: BoxPosting[] };

/**
 * Reads a return with `detail` as lines (`NDJSON_TYPE`) as they arrive, holding one
 * piece of the answer at a time: the figures (the first line), each box's fields as its first
 * posting comes (and those of boxes without postings after the last), then its postings.
 */
export async function* readTaxReturn(
  pieces: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<TaxReturnEvent> {
  let boxes: Omit<TaxReturn['boxes'][number], 'postings'>[] | undefined;
  let announced = 0;
  const eventsOf = (lines: readonly string[]): TaxReturnEvent[] => {
    const events: TaxReturnEvent[] = [];
    let run: Extract<TaxReturnEvent, { kind: 'postings' }> | undefined;
    for (const line of lines) {
      if (line === '') continue;
      if (!boxes) {
        const { boxes: its, ...figures } = JSON.parse(line) as TaxReturn;
        boxes = its;
        events.push({ kind: 'figures', taxReturn: figures });
        continue;
      }
      // The posting as it came, its `box` with it (read, not copied without it: they are many).
      const posting = JSON.parse(line) as BoxPosting & { box: string };
      if (run?.box !== posting.box) {
        // Boxes come in the return's order: those before this one (without postings) and it.
        while (announced < boxes.length && boxes[announced - 1]?.box !== posting.box)
          events.push({ kind: 'box', box: boxes[announced++]! });
        run = { kind: 'postings', box: posting.box, postings: [] };
        events.push(run);
      }
      run.postings.push(posting);
    }
    return events;
  };
  for await (const lines of ndjsonLines(pieces)) yield* eventsOf(lines);
  while (boxes && announced < boxes.length) yield { kind: 'box', box: boxes[announced++]! };
}
