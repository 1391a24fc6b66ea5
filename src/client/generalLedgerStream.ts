import type { GeneralLedgerEntry } from '../api/index.js';
import { ndjsonLines } from './ndjson.js';

/** An account of the general ledger as it starts. */
export interface GeneralLedgerAccountHead {
  accountId: string;
  accountCode: number;
  accountName: string;
  openingBalance: number;
}

/** The general ledger as it is read: each account's head, its entries, then its closing. */
export type GeneralLedgerEvent =
  | { kind: 'account'; account: GeneralLedgerAccountHead }
  | { kind: 'entry'; entry: GeneralLedgerEntry }
  | { kind: 'closing'; closingBalance: number };

const HEAD_FIELDS = ['accountId', 'accountCode', 'accountName', 'openingBalance'] as const;

/**
 * Reads a general ledger answer (`{ report: { accounts: [...] } }`) as its pieces arrive, holding
 * one entry at a time, never the report: accounts' fields and entries are picked out by path.
 * The spec lists an account's fields before its entries; a closing balance may come before or
 * after them, and is told when the account ends.
 */
export async function* readGeneralLedger(
  pieces: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<GeneralLedgerEvent> {
  // Loaded here, not with the client: only the general ledger needs it.
  const { JSONParser } = await import('@streamparser/json');
  const parser = new JSONParser({
    paths: [
      '$.report.accounts.*.entries.*',
      ...[...HEAD_FIELDS, 'closingBalance'].map((field) => `$.report.accounts.*.${field}`),
    ],
    keepStack: false,
  });
  let pending: GeneralLedgerEvent[] = [];
  let index: unknown;
  let head: Partial<GeneralLedgerAccountHead> = {};
  let headSent = false;
  let closing: number | undefined;
  const sendHead = () => {
    if (headSent) return;
    headSent = true;
    pending.push({ kind: 'account', account: head as GeneralLedgerAccountHead });
  };
  const endAccount = () => {
    if (index === undefined) return;
    sendHead();
    pending.push({ kind: 'closing', closingBalance: closing ?? 0 });
  };
  parser.onValue = ({ value, key, stack }) => {
    const accountIndex = stack[3]?.key;
    if (accountIndex !== index) {
      endAccount();
      index = accountIndex;
      head = {};
      headSent = false;
      closing = undefined;
    }
    if (stack.length === 5) {
      sendHead();
      pending.push({ kind: 'entry', entry: value as unknown as GeneralLedgerEntry });
    } else if (key === 'closingBalance') {
      closing = value as number;
    } else {
      (head as Record<string, unknown>)[key as string] = value;
    }
  };
  for await (const piece of pieces) {
    parser.write(piece);
    yield* pending;
    pending = [];
  }
  // The parser ends by itself at the close of the answer; a cut answer fails here.
  if (!parser.isEnded) parser.end();
  endAccount();
  yield* pending;
}

/**
 * Reads a general ledger written as lines (`NDJSON_TYPE`, books' own platform): the report's
 * fields, then per account `{"account":…}`, its `{"entry":…}`s and `{"closingBalance":…}`.
 */
export async function* readGeneralLedgerLines(
  pieces: AsyncIterable<string | Uint8Array>,
): AsyncGenerator<GeneralLedgerEvent> {
  let first = true;
  for await (const lines of ndjsonLines(pieces)) {
    const events: GeneralLedgerEvent[] = [];
    for (const line of lines) {
      if (line === '') continue;
      const value = JSON.parse(line) as {
        account?: GeneralLedgerAccountHead;
        entry?: GeneralLedgerEntry;
        closingBalance?: number;
      };
      if (first) {
        first = false;
        continue;
      }
      if (value.entry) events.push({ kind: 'entry', entry: value.entry });
      else if (value.account) events.push({ kind: 'account', account: value.account });
      else events.push({ kind: 'closing', closingBalance: value.closingBalance ?? 0 });
    }
    yield* events;
  }
}
