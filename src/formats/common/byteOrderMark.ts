/**
 * The UTF-16 a file's byte order mark names (`FF FE` little-endian, `FE FF` big-endian), which
 * Windows writes for "Unicode" (Excel's "Unicode Text" among them); none without one.
 */
export function utf16Of(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}
