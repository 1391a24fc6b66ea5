import type { GeneralLedgerEvent } from '../../client/index.js';
import { boldIf, displayAmount, fitTo, plainAmount } from './statements.js';

/** One line of the general ledger as the CLI writes it: an opening, an entry or a closing. */
export interface GeneralLedgerRow {
  accountCode: number;
  accountName: string;
  /** `YYYY-MM-DD`; empty on an opening or closing line. */
  date: string;
  description: string;
  debit: number | null;
  credit: number | null;
  balance: number;
  kind: 'opening' | 'entry' | 'closing';
}

/** The general ledger's lines as they arrive: per account its opening, entries and closing. */
export async function* generalLedgerRows(
  events: AsyncIterable<GeneralLedgerEvent>,
): AsyncGenerator<GeneralLedgerRow> {
  let account = { accountCode: 0, accountName: '' };
  for await (const event of events) {
    if (event.kind === 'account') {
      account = { accountCode: event.account.accountCode, accountName: event.account.accountName };
      yield {
        ...account,
        date: '',
        description: 'Opening balance',
        debit: null,
        credit: null,
        balance: event.account.openingBalance,
        kind: 'opening',
      };
    } else if (event.kind === 'entry') {
      const { entry } = event;
      yield {
        ...account,
        date: entry.date.slice(0, 10),
        description: entry.description || entry.memo,
        debit: entry.debitAmount,
        credit: entry.creditAmount,
        balance: entry.balance,
        kind: 'entry',
      };
    } else {
      yield {
        ...account,
        date: '',
        description: 'Closing balance',
        debit: null,
        credit: null,
        balance: event.closingBalance,
        kind: 'closing',
      };
    }
  }
}

/** The general ledger's records: account code and name apart, plain amounts. */
export const GENERAL_LEDGER_FIELDS = [
  'account_code',
  'account_name',
  'date',
  'description',
  'debit',
  'credit',
  'balance',
];

export const generalLedgerRecord = (row: GeneralLedgerRow): string[] => [
  String(row.accountCode),
  row.accountName,
  row.date,
  row.description,
  plainAmount(row.debit),
  plainAmount(row.credit),
  plainAmount(row.balance),
];

/** The width of an amount's column at a terminal: up to (999,999,999.99); larger ones push the row. */
const AMOUNT = 15;
const DATE = 10;

/**
 * The general ledger at a terminal, line by line as it arrives (no table to build first): each
 * account headed by its code and name, then its opening, dated entries and closing indented under
 * it, in columns of fixed width, descriptions cut (…) to fit the terminal.
 */
export function terminalGeneralLedger(options: { width: number; color: boolean }) {
  const bold = boldIf(options.color);
  const fit = fitTo(Math.max(20, options.width - 2 - DATE - 2 - 3 * (AMOUNT + 1)));
  const line = (date: string, text: string, amounts: string[]) =>
    `  ${date.padEnd(DATE)}  ${fit(text)}${amounts.map((a) => ` ${a.padStart(AMOUNT)}`).join('')}`.trimEnd();
  return {
    header: () => `${line('Date', 'Description', ['Debit', 'Credit', 'Balance'])}\n`,
    row(row: GeneralLedgerRow): string {
      const text = line(row.date, row.description, [
        displayAmount(row.debit),
        displayAmount(row.credit),
        displayAmount(row.balance),
      ]);
      if (row.kind === 'opening')
        return `${bold(`${row.accountCode} ${row.accountName}`)}\n${text}\n`;
      return row.kind === 'closing' ? `${bold(text)}\n` : `${text}\n`;
    },
  };
}
