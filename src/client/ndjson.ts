/**
 * NDJSON (one JSON value a line) as it arrives: the whole lines of each piece, a line cut by a
 * piece's end kept for the next (a character cut there too), the last line at the end.
 */
export async function* ndjsonLines(
  pieces: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const piece of pieces) {
    const text =
      rest + (typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
    const lines = text.split('\n');
    rest = lines.pop()!;
    if (lines.length > 0) yield lines;
  }
  const last = rest + decoder.decode();
  if (last !== '') yield [last];
}
