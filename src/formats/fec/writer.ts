import type { CalendarDay } from '../../core/calendar.js';
import { sidesOf } from '../../core/money.js';
import { type AuditBooks, type AuditLine } from '../audit/books.js';
import { compactDay, decimalComma, type AuditFileWriter } from '../audit/writer.js';

/**
 * The French Fichier des Écritures Comptables (article A47 A-1 LPF, table VII: companies under
 * commercial accounting), as the DGFiP's validator (Test Compta Demat) reads it:
 *
 * - named `<SIREN>FEC<closing date>.txt` (the fiscal year's last day); one fiscal year;
 * - the 18 columns in order, their names on the first line, separated by a tab; CR LF; UTF-8
 *   (which XII 1° allows), so no text is lost; a tab, a line break or a `|` inside a text (which
 *   the validator refuses in a tab-separated file) becomes a space or `/`;
 * - amounts with a decimal comma, no grouping, in `Debit` and `Credit` (the side not used
 *   `0,00`); dates `AAAAMMJJ`; lines of a zero amount are not written (the validator alerts on
 *   a line with neither side);
 * - the carried-forward balances (à-nouveaux, journal `AN`) first, as entry 1, dated the range's
 *   first day: balance-sheet accounts, and the earlier years' result on `110` Report à nouveau
 *   (`119` when it is a loss), or `--retained-earnings`;
 * - then every entry in date order, `EcritureNum` 2, 3, … on a continuous sequence (1, 2, …
 *   without carried-forward balances), `PieceRef` the same number, `PieceDate` and `ValidDate`
 *   the entry's date (the platform keeps no voucher date nor validation date); journals `OD`
 *   (journal entries), `BQ` (bank transactions), `AN` (opening balances);
 * - `EcritureLib` the line's description, else the entry's memo, else what the entry is;
 *   `CompAuxNum`, `CompAuxLib`, `EcritureLet`, `DateLet`, `Montantdevise`, `Idevise` empty (the
 *   platform keeps no sub-ledgers, lettering or foreign amounts).
 */

const COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
];

const JOURNALS: Record<string, [string, string]> = {
  manual: ['OD', 'Opérations diverses'],
  migration: ['OD', 'Opérations diverses'],
  transaction: ['BQ', 'Banque'],
  opening_balance: ['AN', 'À nouveaux'],
};

const LABELS: Record<string, string> = {
  manual: 'Écriture',
  migration: 'Écriture reprise',
  transaction: 'Opération bancaire',
  opening_balance: "Solde d'ouverture",
};

export const fecWriter: AuditFileWriter = {
  format: 'fec',
  title: 'FEC (article A47 A-1)',
  encoding: 'utf-8',
  charset: 'the FEC (UTF-8)',
  forbidden: { characters: '|', replacement: '/' },
  currency: 'EUR',
  retainedEarnings: (_options, carried) =>
    carried > 0
      ? { code: '119', name: 'Report à nouveau (solde débiteur)' }
      : { code: '110', name: 'Report à nouveau (solde créditeur)' },
  oneFiscalYear: true,
  needsOrgNumber: true,
  fileName: (books, options) =>
    `${options.orgNumber}FEC${compactDay(books.fiscalYear.endDate)}.txt`,
  async write(books, put, text) {
    await put(`${COLUMNS.join('\t')}\r\n`);
    const nameOf = (code: string) => text.text(books.accountByCode.get(code)?.name ?? code);
    const line = (
      journal: [string, string],
      number: number,
      date: CalendarDay,
      { code, debit, credit }: Omit<AuditLine, 'description'>,
      label: string,
    ) =>
      [
        journal[0],
        journal[1],
        String(number),
        compactDay(date),
        text.text(code),
        nameOf(code),
        '',
        '',
        String(number),
        compactDay(date),
        label,
        decimalComma(debit),
        decimalComma(credit),
        '',
        '',
        compactDay(date),
        '',
        '',
      ].join('\t') + '\r\n';

    let offset = 0;
    if (books.openings.length > 0) {
      offset = 1;
      let lines = '';
      for (const { code, amount: balance } of books.openings) {
        const label =
          code === books.retainedEarnings.code && books.retainedEarnings.amount !== 0
            ? 'Report à nouveau'
            : 'À nouveaux';
        lines += line(
          JOURNALS.opening_balance!,
          1,
          books.from,
          { code, ...sidesOf(balance) },
          label,
        );
      }
      await put(lines);
    }
    for await (const entry of books.entries()) {
      const journal = JOURNALS[entry.source] ?? JOURNALS.manual!;
      const memo = text.text(entry.memo.trim());
      const fallback = memo || `${LABELS[entry.source] ?? 'Écriture'} ${entry.number + offset}`;
      let lines = '';
      for (const posting of entry.lines)
        lines += line(
          journal,
          entry.number + offset,
          entry.date,
          posting,
          text.text(posting.description.trim()) || fallback,
        );
      await put(lines);
    }
  },
  notes: (books: AuditBooks) =>
    books.openings.length > 0
      ? [
          `FEC: the balances carried forward to ${books.from} are entry 1 (journal AN), as article A47 A-1 asks`,
        ]
      : [],
};
