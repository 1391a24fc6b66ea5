import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

// Random bytes are drawn from a pool refilled 4 KB at a time, as node's own randomUUID does:
// one getrandom call per id would cost more than the rest of an insert.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function random16(): Buffer {
  if (poolOffset + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/**
 * A new resource id: a uuid v7 (local-platform.md §2 allows v4 or v7). Its time-ordered prefix
 * makes every id index append-only, which keeps bulk imports fast on large ledgers; within one
 * millisecond a counter keeps ids increasing.
 */
export function newId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    counter += 1;
    if (counter > 0xfff) {
      ms += 1;
      counter = 0;
    }
  } else {
    counter = 0;
  }
  lastMs = ms;
  const bytes = random16();
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
