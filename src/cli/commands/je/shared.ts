import {
  LEDGER_BASES,
  type JournalEntry,
  type JournalLineInput,
  type LedgerBasis,
} from '../../../api/index.js';
import { dayOption } from '../../terminal/dates.js';
import {
  centsToAmount,
  InvalidAmountError,
  parseAmountText,
  type Cents,
} from '../../../core/money.js';
import { flag, repeatable, text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { UsageError } from '../../exitCodes.js';
import { displayAmount, plainAmount } from '../../render/statements.js';

/** `--basis`: the ledger an entry is in. */
export const basisOption = text('--basis <basis>', 'cash or accrual', {
  default: 'cash',
  choices: LEDGER_BASES,
});

/** The line options of `je create` and `je update`. */
export const lineOptions = {
  debit: repeatable(
    '--debit <account=amount>',
    'a debit line (repeatable); account by code, name or id',
  ),
  credit: repeatable('--credit <account=amount>', 'a credit line (repeatable)'),
  decimalComma: flag('--decimal-comma', 'amounts write decimals with a comma: 1.234,56'),
} as const;

export interface EntryDraft {
  date: string;
  ledgerBasis: LedgerBasis;
  memo?: string;
  /** Lines by account reference (id, code or name), amounts in cents. */
  lines: { account: string; side: 'debit' | 'credit'; cents: Cents }[];
}

export function parseBasis(text: string | undefined): LedgerBasis {
  if (text === undefined || text === 'cash' || text === 'accrual')
    return (text ?? 'cash') as LedgerBasis;
  throw new UsageError(`--basis must be cash or accrual, not "${text}"`);
}

/** `--debit ACCOUNT=AMOUNT` and `--credit ACCOUNT=AMOUNT`, each repeatable. */
export function parseCreate(flags: {
  date?: string | undefined;
  memo?: string | undefined;
  basis?: string | undefined;
  debit?: string[] | undefined;
  credit?: string[] | undefined;
  decimalComma?: boolean | undefined;
}): EntryDraft {
  if (!flags.date) throw new UsageError("--date is required: the entry's day, YYYY-MM-DD");
  dayOption('--date', flags.date);
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
    ledgerBasis: parseBasis(flags.basis),
    ...(flags.memo !== undefined && { memo: flags.memo }),
    lines,
  };
}

/** A draft's lines as the API takes them, each account resolved by the one rule of names. */
export async function linesOf(
  ctx: CommandContext,
  entityId: string,
  draft: EntryDraft,
): Promise<JournalLineInput[]> {
  const lines: JournalLineInput[] = [];
  for (const line of draft.lines) {
    const accountId = await ctx.accountId(entityId, line.account);
    const amount = centsToAmount(line.cents);
    lines.push({ accountId, [line.side === 'debit' ? 'debitAmount' : 'creditAmount']: amount });
  }
  return lines;
}

/**
 * An entry as `field value` lines: amounts grouped (1,234.50) on a terminal, plain (1234.50) in
 * a pipe, as every command that shows an entry writes them.
 */
export const entryFields = (ctx: CommandContext, entry: JournalEntry): [string, string][] => {
  const amount = ctx.output.isTTY ? displayAmount : plainAmount;
  return [
    ['id', entry.id],
    ['date', entry.dateOnly],
    ['basis', entry.ledgerBasis],
    ['memo', entry.memo ?? ''],
    ...entry.lines.map((l, i): [string, string] => [
      `line ${i + 1}`,
      `${l.accountCode} ${l.accountName}  ${l.debitAmount !== null ? `Dr ${amount(l.debitAmount)}` : `Cr ${amount(l.creditAmount)}`}`,
    ]),
  ];
};
