import type {
  CreateJournalEntryBody,
  JournalEntry,
  LedgerBasis,
  UpdateJournalEntryBody,
} from '../../../api/index.js';
import { isCalendarDay } from '../../../core/calendar.js';
import { InvalidAmountError, parseAmountText } from '../../../core/money.js';
import type { CommandContext } from '../../context.js';
import { parseDateOption } from '../../dates.js';
import { UsageError } from '../../exitCodes.js';
import { confirmDestructive } from '../../confirm.js';
import { listLimit } from '../../output.js';
import { displayAmount, plainAmount } from '../../render/statements.js';

export interface EntryDraft {
  date: string;
  ledgerBasis: LedgerBasis;
  memo?: string;
  /** Lines by account reference (id, code or name), amounts in cents. */
  lines: { account: string; side: 'debit' | 'credit'; cents: number }[];
}

function basis(text: string | undefined): LedgerBasis {
  if (text === undefined || text === 'cash' || text === 'accrual')
    return (text ?? 'cash') as LedgerBasis;
  throw new UsageError(`--basis must be cash or accrual, not "${text}"`);
}

/** `--debit ACCOUNT=AMOUNT` and `--credit ACCOUNT=AMOUNT`, each repeatable. */
export function parseCreate(flags: {
  date?: string;
  memo?: string;
  basis?: string;
  debit?: string[];
  credit?: string[];
  decimalComma?: boolean;
}): EntryDraft {
  if (!flags.date || !isCalendarDay(flags.date))
    throw new UsageError('--date is required, as YYYY-MM-DD');
  const lines = (['debit', 'credit'] as const).flatMap((side) =>
    (flags[side] ?? []).map((text) => {
      const at = text.lastIndexOf('=');
      if (at <= 0) throw new UsageError(`--${side} takes ACCOUNT=AMOUNT, not "${text}"`);
      try {
        const amount = text.slice(at + 1);
        const cents = parseAmountText(amount, { decimalComma: flags.decimalComma });
        if (cents === null || cents <= 0)
          throw new InvalidAmountError(`"${amount.trim()}" must be a positive amount`);
        return { account: text.slice(0, at), side, cents };
      } catch (error) {
        if (error instanceof InvalidAmountError)
          throw new UsageError(`--${side} ${text}: the amount ${error.message}`);
        throw error;
      }
    }),
  );
  if (lines.length < 2)
    throw new UsageError(
      'an entry needs at least two lines: --debit ACCOUNT=AMOUNT --credit ACCOUNT=AMOUNT',
    );
  return {
    date: flags.date,
    ledgerBasis: basis(flags.basis),
    ...(flags.memo !== undefined && { memo: flags.memo }),
    lines,
  };
}

const summary = (entry: JournalEntry, amount: (n: number | null) => string): [string, string][] => [
  ['id', entry.id],
  ['date', entry.dateOnly],
  ['basis', entry.ledgerBasis],
  ['memo', entry.memo ?? ''],
  ...entry.lines.map((l, i): [string, string] => [
    `line ${i + 1}`,
    `${l.accountCode} ${l.accountName}  ${l.debitAmount !== null ? `Dr ${amount(l.debitAmount)}` : `Cr ${amount(l.creditAmount)}`}`,
  ]),
];

export async function create(ctx: CommandContext, draft: EntryDraft): Promise<void> {
  const entityId = await ctx.entityId();
  const api = await ctx.api();
  const body: CreateJournalEntryBody = {
    date: draft.date,
    ledgerBasis: draft.ledgerBasis,
    ...(draft.memo !== undefined && { memo: draft.memo }),
    lines: [],
  };
  for (const line of draft.lines) {
    const accountId = await ctx.accountId(entityId, line.account);
    body.lines.push({
      accountId,
      [line.side === 'debit' ? 'debitAmount' : 'creditAmount']: line.cents / 100,
    });
  }
  const { journalEntry } = await api.journalEntries.create(entityId, body);
  ctx.wrote(`created journal entry ${journalEntry.id} dated ${journalEntry.dateOnly}`);
  ctx.output.record(summary(journalEntry, displayAmount), { journalEntry });
}

export async function list(
  ctx: CommandContext,
  flags: { from?: string; to?: string; basis?: string; limit?: string; all?: boolean },
): Promise<void> {
  const entityId = await ctx.entityId();
  const limit = listLimit(flags, ctx.output.isTTY);
  const entries = await (
    await ctx.api()
  ).journalEntries.all(
    entityId,
    {
      ledgerBasis: basis(flags.basis),
      ...(flags.from && { startDate: parseDateOption(flags.from, 'from') }),
      ...(flags.to && { endDate: parseDateOption(flags.to, 'to') }),
    },
    limit,
  );
  const amount = ctx.output.format === 'table' && ctx.output.isTTY ? displayAmount : plainAmount;
  const total = (e: JournalEntry) =>
    e.lines.reduce((sum, l) => sum + Math.round((l.debitAmount ?? 0) * 100), 0) / 100;
  await ctx.output.table(
    [
      { header: 'Date', value: (e) => e.dateOnly },
      { header: 'Memo', value: (e) => e.memo ?? '' },
      { header: 'Lines', value: (e) => String(e.lines.length), align: 'right' },
      { header: 'Amount', value: (e) => amount(total(e)), align: 'right' },
      { header: 'Source', value: (e) => e.sourceType },
      { header: 'ID', value: (e) => e.id },
    ],
    entries,
  );
}

export async function get(
  ctx: CommandContext,
  id: string,
  flags: { basis?: string },
): Promise<void> {
  const result = await (
    await ctx.api()
  ).journalEntries.get(await ctx.entityId(), id, basis(flags.basis));
  ctx.output.record(
    summary(result.journalEntry, ctx.output.isTTY ? displayAmount : plainAmount),
    result,
  );
}

export async function remove(
  ctx: CommandContext,
  id: string,
  flags: { basis?: string },
): Promise<void> {
  const entityId = await ctx.entityId();
  await confirmDestructive(ctx, `Delete journal entry ${id}?`);
  await (await ctx.api()).journalEntries.delete(entityId, id, basis(flags.basis));
  ctx.wrote(`deleted journal entry ${id}`);
}

/** `je update ID [--date D] [--memo M | --clear-memo] [--debit A=N ... --credit A=N ...]` */
export async function update(
  ctx: CommandContext,
  id: string,
  flags: {
    date?: string;
    memo?: string;
    clearMemo?: boolean;
    basis?: string;
    debit?: string[];
    credit?: string[];
    decimalComma?: boolean;
  },
): Promise<void> {
  const body: UpdateJournalEntryBody = {};
  if (flags.date !== undefined) {
    if (!isCalendarDay(flags.date)) throw new UsageError('--date must be YYYY-MM-DD');
    body.date = flags.date;
  }
  if (flags.memo !== undefined) body.memo = flags.memo;
  if (flags.clearMemo) body.memo = null;
  const entityId = await ctx.entityId();
  if (flags.debit?.length || flags.credit?.length) {
    // New lines replace the whole set, as the API does.
    const draft = parseCreate({
      date: '2000-01-01',
      debit: flags.debit,
      credit: flags.credit,
      decimalComma: flags.decimalComma,
    });
    body.lines = [];
    for (const line of draft.lines) {
      const accountId = await ctx.accountId(entityId, line.account);
      body.lines.push({
        accountId,
        [line.side === 'debit' ? 'debitAmount' : 'creditAmount']: line.cents / 100,
      });
    }
  }
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      'nothing to change: pass --date, --memo, --clear-memo, or new --debit/--credit lines',
    );
  }
  const { journalEntry } = await (
    await ctx.api()
  ).journalEntries.update(entityId, id, body, basis(flags.basis));
  ctx.wrote(`updated journal entry ${journalEntry.id}`);
  ctx.output.record(summary(journalEntry, displayAmount), { journalEntry });
}
