import type { TaxReturn } from '../api/index.js';

type BoxPosting = NonNullable<TaxReturn['boxes'][number]['postings']>[number];

/** A return as it is read: its figures (boxes without postings), then each posting, by box. */
export type TaxReturnEvent =
  | { kind: 'figures'; taxReturn: Omit<TaxReturn, 'boxes'> }
  | { kind: 'box'; box: Omit<TaxReturn['boxes'][number], 'postings'> }
  | { kind: 'posting'; box: string; posting: BoxPosting };

const FIGURES = [
  'entityId',
  'country',
  'startDate',
  'endDate',
  'basis',
  'net',
  'declaredVat',
  'vatAccountsMovement',
  'ties',
  'problems',
  'uncoded',
] as const;
const BOX_FIELDS = ['box', 'label', 'amount', 'formAmount'] as const;

/**
 * Reads a return with `detail` (`{ …figures, boxes: [{ …, postings: [...] }] }`) as its pieces
 * arrive, holding one posting at a time: the figures once every one has come (the platform
 * writes them before the boxes), each box's fields as it begins, then its postings.
 */
export async function* readTaxReturn(
  pieces: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<TaxReturnEvent> {
  const { JSONParser } = await import('@streamparser/json');
  const parser = new JSONParser({
    paths: [
      ...FIGURES.map((field) => `$.${field}`),
      ...BOX_FIELDS.map((field) => `$.boxes.*.${field}`),
      '$.boxes.*.postings.*',
    ],
    keepStack: false,
  });
  let pending: TaxReturnEvent[] = [];
  const figures: Record<string, unknown> = {};
  let figuresSent = false;
  let box: Record<string, unknown> = {};
  let boxIndex: unknown;
  let boxSent = false;
  const sendFigures = () => {
    if (figuresSent) return;
    figuresSent = true;
    pending.push({ kind: 'figures', taxReturn: figures as Omit<TaxReturn, 'boxes'> });
  };
  const sendBox = () => {
    if (boxSent || boxIndex === undefined) return;
    boxSent = true;
    pending.push({ kind: 'box', box: box as Omit<TaxReturn['boxes'][number], 'postings'> });
  };
  parser.onValue = ({ value, key, stack }) => {
    if (stack.length === 1) {
      figures[key as string] = value;
      return;
    }
    sendFigures();
    const index = stack[2]?.key;
    if (index !== boxIndex) {
      sendBox();
      boxIndex = index;
      box = {};
      boxSent = false;
    }
    if (stack.length === 4) {
      sendBox();
      pending.push({ kind: 'posting', box: String(box.box), posting: value as BoxPosting });
    } else {
      box[key as string] = value;
    }
  };
  for await (const piece of pieces) {
    parser.write(piece);
    yield* pending;
    pending = [];
  }
  if (!parser.isEnded) parser.end();
  sendFigures();
  sendBox();
  yield* pending;
}
