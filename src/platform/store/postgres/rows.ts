/**
 * Up to this many rows an INSERT lists them as `VALUES` (for a few rows, cheaper for the server
 * than arrays: a two-line entry's postings took 0.15 ms through `unnest`); beyond, it passes a
 * column of values as one array each (`unnest`): one statement for any count, within the
 * protocol's 65,535 parameters.
 */
const VALUES_UP_TO = 16;

/**
 * `head` (`INSERT INTO t (a, b)`) with the rows given as columns of values of PostgreSQL
 * `types`, then `tail` (an ON CONFLICT clause): the statement and its parameters.
 */
export function insertRows(
  head: string,
  types: readonly string[],
  columns: readonly (readonly unknown[])[],
  tail = '',
): [string, unknown[]] {
  const count = columns[0]?.length ?? 0;
  if (count <= VALUES_UP_TO) {
    const row = `(${types.map(() => '?').join(', ')})`;
    const params: unknown[] = [];
    for (let r = 0; r < count; r += 1) for (const column of columns) params.push(column[r]);
    return [
      `${head} VALUES ${Array.from({ length: count }, () => row).join(', ')} ${tail}`,
      params,
    ];
  }
  return [
    `${head} SELECT * FROM unnest(${types.map((type) => `?::${type}[]`).join(', ')}) ${tail}`,
    [...columns],
  ];
}
