import { parse } from 'csv-parse/sync';
import type { CalendarDay } from '../../core/calendar.js';
import {
  addCents,
  formatCents,
  InvalidAmountError,
  negateCents,
  parseAmountText,
  subtractCents,
  ZERO_CENTS,
  type Cents,
} from '../../core/money.js';
import {
  csvMessage,
  detectDelimiter,
  lineCells,
  MAX_RECORD_CHARACTERS,
} from '../common/csvRecords.js';
import { decodedText } from '../common/statementText.js';
import {
  dateOrderOrProblem,
  dayMonthOrder,
  parseLedgerDate,
  slashedPair,
  type DateFormat,
} from '../ledgerCsv.js';
import {
  BANK_CSV_FIELDS,
  entriesPeriod,
  ibanWithCurrency,
  isIban,
  UnreadableStatement,
  type BankCsvField,
  type BankStatement,
  type EntryStatus,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
} from '../statement.js';

/**
 * A bank's own CSV export: a header row naming its columns (found among the first 30 lines, after
 * whatever preamble the bank writes), one movement a row. Its columns are told by their names in
 * the languages banks write them (`Date`, `Datum`, `Buchungstag`, `Fecha`, `Date d'opération`;
 * `Amount`, `Betrag`, `Bedrag`, `Importe`, `Montant`; …), or named with `--map field=Header,…`
 * (fields: date, valueDate, amount, debit, credit, side, description, counterparty, reference,
 * balance, status, currency, account). A file without a header row (ASN Bank's, many others)
 * is said to be one, and read with its columns named by number: `--map date=1,amount=11`.
 *
 * - The amount: a signed `amount`; or money out and in in two columns (`debit`/`credit`,
 *   `Withdrawals`/`Deposits`, `Soll`/`Haben`); or an unsigned amount with a column saying its
 *   side (`Af Bij`, `Soll/Haben`, `D`/`C`, `DR`/`CR`, debit/credit).
 * - Decimals: a decimal comma when the amounts are written so (`1.234,56`, `-12,50`), or
 *   `--decimal-comma`; a file whose amounts read both ways is refused, never guessed.
 * - Days: ISO, `DD.MM.YYYY`, or `a/b/year` whose order the file's days tell (one past 12), else
 *   `--date-format`; never guessed.
 * - A running balance column gives the opening balance (the first balance less its movement) and
 *   the closing balance (the last); newest-first files are turned round; a balance that its
 *   movement does not make is said. Rows a status column calls pending are kept apart.
 * - The account: an `account`/`IBAN` column, an IBAN in the preamble, or `--account`.
 */

const ALIASES: Record<BankCsvField | 'side', string[]> = {
  date: [
    'date',
    'bookingdate',
    'postingdate',
    'posteddate',
    'transactiondate',
    'datum',
    'buchungstag',
    'buchungsdatum',
    'fecha',
    'fechaoperacion',
    'fechacontable',
    'data',
    'dataoperazione',
    'datacontabile',
    'dateoperation',
    'datedoperation',
    'datecomptable',
    'boekdatum',
    'transactiedatum',
    'bokforingsdag',
    'bokforingsdatum',
    'dato',
    'bogforingsdato',
    'datadecontabilizacao',
  ],
  valueDate: [
    'valuedate',
    'valuta',
    'valutadatum',
    'wertstellung',
    'fechavalor',
    'datavaluta',
    'datedevaleur',
    'datevaleur',
    'rentedatum',
    'valutadag',
  ],
  amount: [
    'amount',
    'betrag',
    'bedrag',
    'importe',
    'importo',
    'montant',
    'belopp',
    'belob',
    'belop',
    'kwota',
    'transactionamount',
    'umsatz',
    'valor',
    'amountineur',
    'amountinusd',
    'amounteur',
    'amountusd',
    'bedrageur',
    'betrageur',
  ],
  debit: [
    'debit',
    'debitamount',
    'withdrawal',
    'withdrawals',
    'moneyout',
    'paidout',
    'soll',
    'debet',
    'cargo',
    'addebito',
    'sortie',
    'uttag',
    'ut',
  ],
  credit: [
    'credit',
    'creditamount',
    'deposit',
    'deposits',
    'moneyin',
    'paidin',
    'haben',
    'abono',
    'accredito',
    'entree',
    'insattning',
    'in',
  ],
  side: ['afbij', 'sollhaben', 'sh', 'dc', 'cd', 'debitcredit', 'creditdebit', 'drcr', 'crdr'],
  description: [
    'description',
    'details',
    'memo',
    'narrative',
    'text',
    'verwendungszweck',
    'buchungstext',
    'omschrijving',
    'mededelingen',
    'concepto',
    'descripcion',
    'descrizione',
    'libelle',
    'transactiondescription',
    'beskrivning',
    'tekst',
    'descricao',
  ],
  counterparty: [
    'payee',
    'counterparty',
    'name',
    'beneficiary',
    'payer',
    'merchant',
    'auftraggeberempfanger',
    'begunstigterzahlungspflichtiger',
    'zahlungsempfanger',
    'naamomschrijving',
    'naamtegenpartij',
    'naam',
    'empfanger',
    'auftraggeber',
    'nombre',
    'beneficiario',
    'tiers',
    'mottagare',
  ],
  reference: [
    'reference',
    'ref',
    'transactionid',
    'externalid',
    'id',
    'fitid',
    'referenz',
    'kundenreferenz',
    'bankreference',
    'referencia',
    'riferimento',
    'referentie',
    'transactionreference',
  ],
  balance: [
    'balance',
    'runningbalance',
    'saldo',
    'kontostand',
    'solde',
    'saldonachbuchung',
    'balanceafter',
    'saldonamutatie',
    'kontostandnachbuchung',
  ],
  status: ['status', 'state', 'buchungsstatus', 'estado'],
  currency: ['currency', 'wahrung', 'moneda', 'devise', 'munt', 'valuta2', 'ccy', 'curr'],
  account: [
    'account',
    'iban',
    'accountnumber',
    'kontonummer',
    'konto',
    'rekening',
    'rekeningnummer',
    'cuenta',
    'auftragskonto',
  ],
};

/** A header as compared: lower case, accents and marks gone, no spaces or punctuation. */
export const headerKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\(.*?\)/g, (inner) => inner.replace(/[()]/g, ''))
    .replace(/[\s_./\-'’"():]+/g, '');

type Columns = Partial<Record<BankCsvField | 'side', number>>;

function columnsOf(
  header: readonly string[],
  map: Partial<Record<string, string>> | undefined,
): Columns {
  const keys = header.map(headerKey);
  const columns: Columns = {};
  for (const field of [...BANK_CSV_FIELDS, 'side'] as const) {
    const mapped = map?.[field];
    if (mapped !== undefined) {
      const at = keys.indexOf(headerKey(mapped));
      if (at < 0)
        throw new UnreadableStatement(
          `--map ${field}=${mapped}: the header has no column "${mapped}" (it has ${header.join(', ')})`,
          1,
        );
      columns[field] = at;
      continue;
    }
    const at = keys.findIndex((k) => ALIASES[field].includes(k));
    if (at >= 0 && !Object.values(columns).includes(at)) columns[field] = at;
  }
  return columns;
}

/**
 * `--map` naming every column by its number (1 the first), as for a file without a header:
 * the columns, counted from 0; undefined when it names them by their headers.
 */
function numberedColumns(map: Partial<Record<string, string>> | undefined): Columns | undefined {
  const entries = Object.entries(map ?? {});
  if (entries.length === 0 || !entries.every(([, v]) => /^\d{1,3}$/.test((v ?? '').trim())))
    return undefined;
  const columns: Columns = {};
  for (const [field, value] of entries) {
    const at = Number(value) - 1;
    if (at < 0)
      throw new UnreadableStatement(`--map ${field}=${value}: columns are numbered from 1`, 1);
    columns[field as BankCsvField | 'side'] = at;
  }
  return columns;
}

/** Whether a first row is data rather than a header: a day and an amount among its cells. */
function looksLikeData(cells: readonly string[]): boolean {
  const day = cells.some((c) =>
    /^\s*(\d{4}-\d\d-\d\d|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{8})\s*$/.test(c),
  );
  const amount = cells.some((c) => /^\s*[-+]?\d[\d.,' ]*\s*$/.test(c) && /[.,]\d\d\s*$/.test(c));
  return day && amount;
}

const PENDING =
  /^(pending|vorgemerkt|authori[sz]ed|pendiente|in attesa|en attente|nicht gebucht|hold|memo)$/i;

/** A side column's word: money out, money in, or undefined. */
function sideOf(text: string): 'out' | 'in' | undefined {
  const word = text.trim().toLowerCase();
  if (
    [
      'af',
      's',
      'd',
      'dr',
      'debit',
      'debet',
      'soll',
      'out',
      'withdrawal',
      'charge',
      'cargo',
    ].includes(word)
  )
    return 'out';
  if (['bij', 'h', 'c', 'cr', 'credit', 'haben', 'in', 'deposit', 'abono'].includes(word))
    return 'in';
  return undefined;
}

export const bankCsv: StatementFormatDefinition = {
  name: 'bank-csv',
  title: "a bank's CSV",
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const text = await decodedText(file, options.encoding, checks, 'CSV');
    const lines = text.split(/\r\n|\r|\n/);
    // The header: the first of the first 30 lines that names a date and an amount.
    let headerAt = -1;
    let columns: Columns = {};
    let delimiter: string = ',';
    let preambleAccount: string | undefined;
    let mapMismatch: unknown;
    // Columns named by number (`--map date=1,amount=11`): a file without a header row.
    const numbered = numberedColumns(options.map);
    for (let i = 0; i < Math.min(lines.length, numbered ? 0 : 30); i++) {
      const line = lines[i]!;
      if (line.trim() === '') continue;
      const candidate = detectDelimiter(line);
      const cells = lineCells(line, candidate);
      if (cells === undefined) continue;
      let found: Columns = {};
      try {
        found = columnsOf(cells, options.map);
      } catch (error) {
        // A --map names columns a preamble's lines lack: said of the first line if no line
        // below it holds them.
        if (options.map) mapMismatch ??= error;
      }
      if (
        found.date !== undefined &&
        (found.amount !== undefined || found.debit !== undefined || found.credit !== undefined)
      ) {
        headerAt = i;
        columns = found;
        delimiter = candidate;
        break;
      }
      const iban = cells.map((c) => c.replace(/\s+/g, '').toUpperCase()).find((c) => isIban(c));
      preambleAccount ??= iban;
    }
    let headerless = false;
    if (headerAt < 0 && numbered) {
      const first = lines.findIndex((l) => l.trim() !== '');
      delimiter = first < 0 ? ',' : detectDelimiter(lines[first]!);
      headerAt = first < 0 ? 0 : first;
      columns = numbered;
      headerless = true;
    }
    if (headerAt < 0 && mapMismatch !== undefined) throw mapMismatch;
    if (headerAt < 0) {
      const first = lines.find((l) => l.trim() !== '');
      const cells = first === undefined ? undefined : lineCells(first, detectDelimiter(first));
      if (cells && looksLikeData(cells))
        throw new UnreadableStatement(
          `a CSV without a header row: name its columns by number, as --map date=N,amount=N[,description=N…] (its first row: ${cells.map((c, i) => `${i + 1}=${c.trim() || '""'}`).join(', ')})`,
          1,
        );
      throw new UnreadableStatement(
        'not a statement books reads: not camt, MT940/MT942, OFX/QFX, BAI2, QIF, CODA, Norma 43 or CFONB 120, and no header names a date and an amount (a bank CSV names its columns with --map date=…,amount=…)',
        1,
      );
    }
    let records: string[][];
    try {
      records = parse(lines.slice(headerAt).join('\n'), {
        delimiter,
        relax_column_count: true,
        skip_empty_lines: true,
        relax_quotes: true,
        max_record_size: MAX_RECORD_CHARACTERS,
      }) as string[][];
    } catch (error) {
      const failure = error as Error & { code?: string; lines?: number };
      throw new UnreadableStatement(`CSV: ${csvMessage(failure)}`, headerAt + (failure.lines ?? 1));
    }
    const rows = records
      .slice(headerless ? 0 : 1)
      .map((cells, i) => ({ cells, line: headerAt + (headerless ? 1 : 2) + i }));
    const cell = (row: { cells: string[] }, field: BankCsvField | 'side') =>
      columns[field] === undefined ? '' : (row.cells[columns[field]!] ?? '').trim();
    // Rows that only total or repeat the header (`Summe`, an empty amount) are not movements.
    const movements = rows.filter(
      (row) => cell(row, 'date') !== '' && row.cells.some((c) => c.trim() !== ''),
    );

    const dateFormat = dateFormatOf(
      movements.map((r) => cell(r, 'date')),
      options.dateFormat,
      options.usualDateFormat,
    );
    const decimalComma =
      options.decimalComma ??
      decimalCommaOf(
        movements.flatMap((r) => [
          cell(r, 'amount'),
          cell(r, 'debit'),
          cell(r, 'credit'),
          cell(r, 'balance'),
        ]),
      );
    /** A row that cannot be read: said with its line, the others read on. */
    class RowProblem extends Error {}
    const amount = (textValue: string, what: string): Cents | null => {
      try {
        return parseAmountText(textValue, { decimalComma });
      } catch (error) {
        if (!(error instanceof InvalidAmountError)) throw error;
        throw new RowProblem(`the ${what} ${error.message}`);
      }
    };
    const entries: (StatementEntry & { balance: Cents | null })[] = [];
    const problems: StatementCheck[] = [];
    let account = options.account ?? preambleAccount ?? null;
    let currency = options.currency ?? null;
    for (const row of movements) {
      try {
        const entry = rowEntry(row);
        if (entry) entries.push(entry);
      } catch (error) {
        if (!(error instanceof RowProblem)) throw error;
        problems.push({ line: row.line, message: error.message });
      }
    }
    function rowEntry(row: { cells: string[]; line: number }) {
      const bookingDate = parseLedgerDate(cell(row, 'date'), dateFormat);
      if (bookingDate === undefined) {
        if (/^(summe|total|totaal|saldo|balance)/i.test(cell(row, 'date'))) return undefined;
        throw new RowProblem(`date "${cell(row, 'date')}" is not a date (${dateFormat})`);
      }
      let cents: Cents;
      if (columns.amount !== undefined) {
        const written = amount(cell(row, 'amount'), 'amount');
        if (written === null) throw new RowProblem('the amount is empty');
        const side = columns.side !== undefined ? sideOf(cell(row, 'side')) : undefined;
        if (columns.side !== undefined && side === undefined)
          throw new RowProblem(`"${cell(row, 'side')}" does not say whether money went out or in`);
        const magnitude = written < 0 ? negateCents(written) : written;
        cents = side === 'out' ? negateCents(magnitude) : side === 'in' ? magnitude : written;
      } else {
        const out = amount(cell(row, 'debit'), 'debit');
        const into = amount(cell(row, 'credit'), 'credit');
        if (out === null && into === null) throw new RowProblem('the row has no amount in or out');
        const abs = (c: Cents | null) => (c === null ? ZERO_CENTS : c < 0 ? negateCents(c) : c);
        cents = subtractCents(abs(into), abs(out));
      }
      const statusText = cell(row, 'status');
      const status: EntryStatus = PENDING.test(statusText) ? 'pending' : 'booked';
      const valueDate = cell(row, 'valueDate')
        ? (parseLedgerDate(cell(row, 'valueDate'), dateFormat) ?? null)
        : null;
      if (columns.account !== undefined && cell(row, 'account') && options.account === undefined)
        account ??= ibanWithCurrency(cell(row, 'account')).account;
      if (columns.currency !== undefined && cell(row, 'currency'))
        currency ??= cell(row, 'currency').toUpperCase();
      const balanceText = cell(row, 'balance');
      return {
        bookingDate,
        valueDate,
        amount: cents,
        reference: cell(row, 'reference') || null,
        counterparty: cell(row, 'counterparty') || null,
        description: cell(row, 'description').replace(/\s+/g, ' '),
        status,
        line: row.line,
        balance:
          columns.balance !== undefined && balanceText ? amount(balanceText, 'balance') : null,
      };
    }
    // Newest first (as many banks list them): turned round, so balances run forward.
    if (entries.length > 1 && entries[0]!.bookingDate > entries.at(-1)!.bookingDate)
      entries.reverse();
    const { opening, closing } = runningBalances(entries, checks);
    const period = entriesPeriod(entries);
    const statement: BankStatement = {
      account,
      currency,
      from: period.from,
      to: period.to,
      opening,
      closing,
      entries: entries.map(({ balance: _balance, ...entry }) => entry),
      card: false,
      line: headerAt + 1,
    };
    return { format: 'bank-csv', statements: [statement], checks, problems };
  },
};

function dateFormatOf(
  texts: readonly string[],
  given: DateFormat | undefined,
  usual: DateFormat | undefined,
): DateFormat {
  if (given !== undefined) return given;
  const pairs = texts.map(slashedPair).filter((p): p is [number, number] => p !== undefined);
  const order = dateOrderOrProblem(
    dayMonthOrder(pairs),
    texts.find((t) => slashedPair(t)),
    usual,
  );
  if (typeof order === 'object') throw new UnreadableStatement(`CSV: ${order.problem}`, 1);
  return order;
}

/** Amounts written with a decimal comma (`12,50`, `1.234,56`), not a point; both: refused. */
function decimalCommaOf(texts: readonly string[]): boolean {
  let comma = false;
  let point = false;
  for (const text of texts) {
    const value = text.trim();
    if (/\d,\d{1,2}(?!\d)\s*[^\d,.]*$/.test(value) && !/\.\d{1,2}\s*[^\d]*$/.test(value))
      comma = true;
    else if (/\d\.\d{1,2}(?!\d)\s*[^\d,.]*$/.test(value)) point = true;
  }
  if (comma && point)
    throw new UnreadableStatement(
      'CSV: some amounts are written with a decimal comma and some with a point: pass --decimal-comma if commas mark decimals',
      1,
    );
  return comma;
}

/** The opening and closing balances a running balance column gives, checked row by row. */
function runningBalances(
  entries: readonly (StatementEntry & { balance: Cents | null })[],
  checks: StatementCheck[],
): { opening: Cents | null; closing: Cents | null } {
  const booked = entries.filter((e) => e.status === 'booked');
  const first = booked.find((e) => e.balance !== null);
  if (first === undefined) return { opening: null, closing: null };
  const firstIndex = booked.indexOf(first);
  let running = subtractCents(first.balance!, first.amount);
  // Movements before the first row with a balance come before it.
  for (const entry of booked.slice(0, firstIndex)) running = subtractCents(running, entry.amount);
  const opening = running;
  let said = 0;
  for (const entry of booked) {
    running = addCents(running, entry.amount);
    if (entry.balance !== null && entry.balance !== running) {
      if (said < 5)
        checks.push({
          line: entry.line,
          message: `CSV: the balance after this row is ${formatCents(entry.balance)}, its movement makes ${formatCents(running)}`,
        });
      said += 1;
      running = entry.balance;
    }
  }
  if (said > 5)
    checks.push({
      line: booked.at(-1)!.line,
      message: `CSV: and ${said - 5} more balances its movements do not make`,
    });
  const last = [...booked].reverse().find((e) => e.balance !== null)!;
  // Movements after the last balance given come after it.
  let closing = last.balance!;
  for (const entry of booked.slice(booked.indexOf(last) + 1))
    closing = addCents(closing, entry.amount);
  return { opening, closing };
}

export type { CalendarDay };
