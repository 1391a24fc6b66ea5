/** A text's bytes in pieces of `size` bytes, as a stream may deliver it (a character cut too). */
export async function* piecesOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}
