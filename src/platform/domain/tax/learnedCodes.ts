/*
 * The tax code a client's history gives an account: what a bookkeeper who categorizes a line
 * to Office Supplies would code it, having coded the client's office supplies at 20 % before.
 */

/** How many of an account's lines carry a code (`null`: none). */
export interface CodeUse {
  accountId: string;
  taxCode: string | null;
  lines: number;
}

/** An account's usual code: the code, its lines, and all the account's lines. */
export interface UsualCode {
  taxCode: string;
  lines: number;
  of: number;
}

/** At least this many lines of the code, and this share of all the account's lines. */
export const USUAL_CODE_LINES = 3;
export const USUAL_CODE_SHARE = 0.8;

/**
 * Each account's usual code: the code most of its lines carry, where it is at least
 * `USUAL_CODE_SHARE` of all its lines (uncoded ones counted: an account often posted without a
 * code has none) and at least `USUAL_CODE_LINES` lines; `usable` keeps the codes the entity may
 * post (not archived).
 */
export function usualCodes(
  use: readonly CodeUse[],
  usable: (code: string) => boolean,
): Map<string, UsualCode> {
  const byAccount = new Map<string, { all: number; codes: Map<string, number> }>();
  for (const row of use) {
    const account = byAccount.get(row.accountId) ?? { all: 0, codes: new Map() };
    account.all += row.lines;
    if (row.taxCode !== null)
      account.codes.set(row.taxCode, (account.codes.get(row.taxCode) ?? 0) + row.lines);
    byAccount.set(row.accountId, account);
  }
  const usual = new Map<string, UsualCode>();
  for (const [accountId, { all, codes }] of byAccount) {
    const [taxCode, lines] =
      [...codes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [];
    if (taxCode === undefined || lines === undefined || !usable(taxCode)) continue;
    if (lines >= USUAL_CODE_LINES && lines >= USUAL_CODE_SHARE * all)
      usual.set(accountId, { taxCode, lines, of: all });
  }
  return usual;
}

/** What a suggestion's reason says of the code: `; coded SP as 12 of 12 earlier lines on it`. */
export const usualCodeReason = (usual: UsualCode) =>
  `; coded ${usual.taxCode} as ${usual.lines === usual.of ? `all ${usual.of}` : `${usual.lines} of ${usual.of}`} earlier lines on it`;
