import type { DatevVat, Skr } from '../options.js';
import { isCalendarDay } from '../../core/calendar.js';
import { negateCents, subtractCents, taxIncluded, taxOnNet, type Cents } from '../../core/money.js';
import { auditAmount, auditLine, newAuditFacts, type AuditFacts } from '../common/auditFile.js';
import { eachRecord, firstMegabyte, isUtf8Start } from '../common/csvRecords.js';
import type { LedgerEntry, LedgerLine, Problem } from '../ledgerCsv.js';
import {
  AUTOMATIC,
  AUTOMATIC_OFF,
  SELF_ASSESSED_KEYS,
  skrType,
  STATED_CODE,
  TAX_KEYS,
  VAT_ACCOUNTS,
} from './skr.js';
import { count, readExport, type LedgerFormatDefinition } from '../format.js';

/**
 * A DATEV "Buchungsstapel" (the DATEV format, EXTF or DTVF, category 21), as DATEV and the
 * programs that write for German tax advisers export it.
 *
 * - Line 1 is the header: format, version, category (21, else refused by name), the fiscal
 *   year's start, the period (Datum vom, Datum bis), the currency, the SKR (chart) when given.
 *   Line 2 names the columns; then one booking a row.
 * - Accounts are numbers without their leading zeros: the header's Sachkontenlänge (4 to 8)
 *   gives a G/L account its digits (`85` is 0085 at length 4) and makes a number one digit longer
 *   a personal account (Personenkonto): debtors from 1·10ⁿ to 7·10ⁿ−1 (10000–69999 at length 4),
 *   creditors from 7·10ⁿ (70000–99999), typed receivable and payable. A Buchungsstapel names no
 *   account: each is named by its number, and `--chart` (the client's chart) names and types
 *   them by that number.
 * - Text fields are quoted, a quote inside doubled; DATEV's own sample writes `" "Text" "`,
 *   which DATEV reads: such a field is read as the text between its outer quotes, and said.
 * - A booking: `Umsatz` (unsigned, decimal comma) between `Konto` and `Gegenkonto`, `S` when
 *   Konto is debited, `H` when credited; `Belegdatum` is TTMM, its year the one that puts it in
 *   the header's period (a fiscal year across two calendar years reads right). A row in a foreign
 *   currency (`WKZ Umsatz` not the header's) posts its `Basis-Umsatz`.
 * - Windows-1252 unless the bytes are UTF-8 (or `--encoding`).
 * - What DATEV would post beside the row — the VAT of a tax key (`BU-Schlüssel`), of an
 *   automatic account of the SKR, a `Skonto` — is not in the file. Such rows are problems unless
 *   `--datev-vat gross` (each row as written, counted) or `--datev-vat split` (the VAT of keys 2,
 *   3, 8, 9 and of the 7 % and 19 % automatic revenue and purchase accounts of SKR03 and SKR04
 *   — 5 % and 16 % from July to December 2020 — posted to that SKR's VAT accounts; Berichtigungsschlüssel 2 reverses the row, 4 turns the
 *   automatic off; keys 19 and 94 post 19 % of the net owed and reclaimed, `SELF_ASSESSED_KEYS`).
 *   Any other key, or a Skonto, stays a problem.
 * - A code books wrote in Beleginfo (`STATED_CODE`: "Steuercode Soll" the code of the line
 *   debited, "Steuercode Haben" the one credited) goes back on its line, and the rows of that
 *   document (Belegfeld 1 and day, consecutive) are one entry again.
 * - Types by the SKR03 or SKR04 classes (`--skr`, else the header's), of the account's first
 *   four digits.
 */

export type { DatevVat, Skr } from '../options.js';

export interface DatevOptions {
  encoding?: string;
  datevVat?: DatevVat;
  skr?: Skr;
}

/** The first bytes show a DATEV file: `"EXTF";` or `"DTVF";` and a version. */
export const looksLikeDatev = (head: string) => /^(\xef\xbb\xbf)?"?(EXTF|DTVF)"?;\d+;/.test(head);

const column = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The day of `ttmm` within the period from `from` to `to` (YYYY-MM-DD). */
export function datevDay(ttmm: string, from: string, to: string): string | undefined {
  const text = ttmm.trim().padStart(4, '0');
  if (!/^\d{4}$/.test(text)) return undefined;
  const [day, month] = [text.slice(0, 2), text.slice(2, 4)];
  for (const year of new Set([from.slice(0, 4), to.slice(0, 4)])) {
    const candidate = `${year}-${month}-${day}`;
    if (isCalendarDay(candidate) && candidate >= from && candidate <= to) return candidate;
  }
  return undefined;
}

/** `YYYYMMDD` as YYYY-MM-DD. */
const headerDay = (text: string | undefined) => {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec((text ?? '').trim());
  const day = match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
  return day && isCalendarDay(day) ? day : undefined;
};

/**
 * An account number as the file writes it, at the header's Sachkontenlänge: a G/L account
 * (`kind` `gl`, padded to its length), a debtor or a creditor (one digit longer); or why not.
 */
export function datevAccount(
  text: string,
  length: number | undefined,
): { code: string; kind: 'gl' | 'debtor' | 'creditor' } | { problem: string } {
  const digits = text.trim();
  if (!/^\d{1,9}$/.test(digits))
    return { problem: `account "${text}" is not an account number (digits, at most 9)` };
  if (length === undefined) return { code: digits, kind: 'gl' };
  if (digits.length <= length) return { code: digits.padStart(length, '0'), kind: 'gl' };
  if (digits.length === length + 1 && digits.charAt(0) !== '0')
    return { code: digits, kind: digits.charAt(0) < '7' ? 'debtor' : 'creditor' };
  return {
    problem: `account ${digits} has ${digits.length} digits: at the header's Sachkontenlänge ${length}, a G/L account has at most ${length} and a personal account ${length + 1}`,
  };
}

export interface DatevFacts extends AuditFacts {
  /** Rows posted as written under `--datev-vat gross` that carried a key, a Skonto, or an automatic account. */
  grossRows: number;
  /** VAT lines `--datev-vat split` posted. */
  vatLines: number;
  skr: Skr | undefined;
  encoding: string;
  /** The header's Sachkontenlänge, when it gives one (4 to 8). */
  accountLength: number | undefined;
  /** Personal accounts (debtors, creditors) the bookings name. */
  personalAccounts: Set<string>;
  /** Fields written `" "Text" "` (quotes not doubled), read as DATEV reads them. */
  strayQuotes: number;
}

/** The entries of a DATEV Buchungsstapel; problems go to `report`. */
export async function* readDatev(
  file: string,
  options: DatevOptions,
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: DatevFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const encoding =
    options.encoding ?? (isUtf8Start(firstMegabyte(file)) ? 'utf-8' : 'windows-1252');
  const facts: DatevFacts = {
    ...newAuditFacts(),
    grossRows: 0,
    vatLines: 0,
    skr: options.skr,
    encoding,
    accountLength: undefined,
    personalAccounts: new Set(),
    strayQuotes: 0,
  };
  let header: string[] | undefined;
  let names: Map<string, number> | undefined;
  /** The booking read last, held while the next row may belong to its entry. */
  let pending: Booking | undefined;
  /** The column each field prefix names (the first whose name starts so). */
  const columnOf = new Map<string, number | undefined>();
  let period: { from: string; to: string } | undefined;
  let currency = '';
  let hash = '';
  for await (const { record, fileLine } of eachRecord(
    file,
    { encoding, delimiter: ';', relaxQuotes: true },
    onLine,
    (digest) => (hash = digest),
  )) {
    if (!header) {
      header = record;
      const category = (record[2] ?? '').trim();
      if (category !== '21') {
        report({
          fileLine,
          message: `a DATEV file of category ${category} (${record[3] ?? '?'}): books reads category 21, Buchungsstapel (bookings)`,
        });
        return;
      }
      const from = headerDay(record[14]);
      const to = headerDay(record[15]);
      if (!from || !to) {
        report({
          fileLine,
          message: 'the DATEV header lacks its period (Datum vom, Datum bis: YYYYMMDD)',
        });
        return;
      }
      period = { from, to };
      const length = Number((record[13] ?? '').trim());
      facts.accountLength =
        Number.isInteger(length) && length >= 4 && length <= 8 ? length : undefined;
      currency = (record[21] ?? '').trim();
      const skr = (record[26] ?? '').trim().padStart(2, '0');
      facts.skr ??= skr === '03' || skr === '04' ? skr : undefined;
      facts.firstDay = from;
      continue;
    }
    if (!names) {
      names = new Map();
      record.forEach((name, at) => {
        const key = column(name);
        if (!names!.has(key)) names!.set(key, at);
      });
      const missing = ['umsatz', 'sollhaben', 'konto', 'gegenkonto', 'belegdatum'].filter(
        (wanted) => ![...names!.keys()].some((key) => key.startsWith(wanted)),
      );
      if (missing.length > 0) {
        report({ fileLine, message: `the DATEV column names lack ${missing.join(', ')}` });
        return;
      }
      continue;
    }
    if (record.every((field) => field.trim() === '')) continue;
    const field = (prefix: string) => {
      let at = columnOf.get(prefix);
      if (!columnOf.has(prefix)) {
        at = [...names!].find(([key]) => key.startsWith(prefix))?.[1];
        columnOf.set(prefix, at);
      }
      const value = at === undefined ? '' : (record[at] ?? '').trim();
      // A field csv-parse left quoted: `" "Text" "`, DATEV's own undoubled quotes.
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
        facts.strayQuotes += 1;
        return value.slice(1, -1).trim();
      }
      return value;
    };
    facts.transactions += 1;
    for (const booking of bookingOf(fileLine, field)) {
      // The rows of one document (Belegfeld 1, day) are one entry again where one of them
      // carries a code books wrote (Beleginfo): books' own entry of several rows.
      if (
        pending?.document !== undefined &&
        booking.document === pending.document &&
        (pending.coded || booking.coded)
      ) {
        pending.entry.lines.push(...booking.entry.lines);
        pending.coded = true;
        continue;
      }
      if (pending) yield pending.entry;
      pending = booking;
    }
  }
  if (pending) yield pending.entry;
  onEnd(hash, facts);

  /** A row's booking, its document (Belegfeld 1 and day), and whether it states a code. */
  interface Booking {
    entry: LedgerEntry;
    document: string | undefined;
    coded: boolean;
  }

  function* bookingOf(
    fileLine: number,
    field: (prefix: string) => string,
  ): Generator<Booking, void> {
    const date = datevDay(field('belegdatum'), period!.from, period!.to);
    if (!date) {
      report({
        fileLine,
        message: `Belegdatum "${field('belegdatum')}" is not a day (TTMM) of the file's period ${period!.from} to ${period!.to}`,
      });
      return;
    }
    const foreign = field('wkzumsatz') !== '' && currency !== '' && field('wkzumsatz') !== currency;
    const amountText = foreign ? field('basisumsatz') : field('umsatz');
    const amount = auditAmount(
      amountText,
      fileLine,
      foreign ? 'Basis-Umsatz' : 'Umsatz',
      report,
      true,
    );
    if (amount === undefined) return;
    const sign = field('sollhaben').toUpperCase();
    if (sign !== 'S' && sign !== 'H') {
      report({ fileLine, message: `Soll/Haben-Kennzeichen "${sign}" is neither S nor H` });
      return;
    }
    if (field('konto') === '' || field('gegenkonto') === '') {
      report({ fileLine, message: 'Konto or Gegenkonto is empty' });
      return;
    }
    const kontoRead = datevAccount(field('konto'), facts.accountLength);
    const gegenkontoRead = datevAccount(field('gegenkonto'), facts.accountLength);
    for (const read of [kontoRead, gegenkontoRead])
      if ('problem' in read) report({ fileLine, message: read.problem });
    if ('problem' in kontoRead || 'problem' in gegenkontoRead) return;
    const konto = kontoRead.code;
    const gegenkonto = gegenkontoRead.code;
    for (const read of [kontoRead, gegenkontoRead])
      if (read.kind !== 'gl') facts.personalAccounts.add(read.code);
    const kinds = new Map([
      [konto, kontoRead.kind],
      [gegenkonto, gegenkontoRead.kind],
    ]);
    facts.lines += 2;
    if (amount === 0) {
      facts.zeroLines += 2;
      return;
    }
    const key = field('buschlussel');
    const skonto = field('skonto');
    const skr = facts.skr;
    const automatic = skr
      ? ((AUTOMATIC[skr][konto] !== undefined ? konto : undefined) ??
        (AUTOMATIC[skr][gegenkonto] !== undefined ? gegenkonto : undefined))
      : undefined;
    // Key 40 (Berichtigungsschlüssel 4, tax key 0) turns the automatic off: the row is all.
    const asWritten = key === AUTOMATIC_OFF;
    const implied = [
      key !== '' && !asWritten && `BU-Schlüssel ${key}`,
      skonto !== '' && `Skonto ${skonto}`,
      automatic !== undefined && !asWritten && `automatic account ${automatic} (SKR${skr})`,
    ].filter(Boolean) as string[];
    const text = field('buchungstext');
    const reference = field('belegfeld1');
    const entry = `${reference || 'row'} (line ${fileLine})`;
    const side = {
      fileLine,
      date,
      entry,
      description: text,
      memo: [reference, text].filter(Boolean).join(' ').slice(0, 1000),
    };
    const account = (code: string) => {
      const kind = kinds.get(code);
      return {
        code,
        name: code,
        type:
          kind === 'debtor'
            ? ('Accounts Receivable' as const)
            : kind === 'creditor'
              ? ('Accounts Payable' as const)
              : skrType(code, skr),
      };
    };
    // Konto debited (S) or credited (H), Gegenkonto the other side.
    const kontoCents = (sign === 'S' ? amount : negateCents(amount)) as Cents;
    let lines: LedgerLine[] = [
      auditLine(side, account(konto), kontoCents),
      auditLine(side, account(gegenkonto), negateCents(kontoCents)),
    ];
    if (implied.length > 0) {
      if (options.datevVat === undefined) {
        report({
          fileLine,
          message: `${implied.join(', ')}: DATEV would post more than the row (VAT, a discount) and the file does not carry it; pass --datev-vat gross to post each row as written, or --datev-vat split to post the VAT of tax keys 2, 3, 8, 9, 19 and 94 and of the automatic accounts`,
        });
        return;
      }
      if (options.datevVat === 'gross') {
        facts.grossRows += 1;
      } else {
        const split = splitVat(key, skonto, automatic, skr, konto, gegenkonto);
        if (typeof split === 'string') {
          report({
            fileLine,
            message: `${split}: --datev-vat split posts only tax keys 2, 3, 8, 9 (with Berichtigungsschlüssel 2 or 4), 19 and 94, and the 7 % and 19 % automatic accounts; post this row by hand, or use --datev-vat gross`,
          });
          return;
        }
        if (split.reversed)
          lines = lines.map((l) => ({
            ...l,
            debitCents: l.creditCents,
            creditCents: l.debitCents,
          }));
        if (split.vat) {
          // The account the tax is on keeps the net; the VAT account takes the tax, same side.
          const taxed = lines.find((l) => l.accountCode === split.vat!.on)!;
          const gross = subtractCents(taxed.debitCents, taxed.creditCents);
          const tax = taxIncluded(gross, rateOnDay(split.vat.rate, date));
          const net = subtractCents(gross, tax);
          // Both carry the tax code of books' German preset the key means (USt19, VSt7, …).
          const taxCode = `${split.vat.side}${split.vat.rate}`;
          lines = lines.map((l) =>
            l === taxed ? { ...auditLine(side, account(l.accountCode!), net), taxCode } : l,
          );
          lines.push({ ...auditLine(side, account(split.vat.account), tax), taxCode });
          facts.vatLines += 1;
        }
        if (split.selfAssessed) {
          // The net stays as it is; its VAT is owed and reclaimed at once: reclaimed on its side,
          // owed against it, at the key's rate of the net.
          const { rate, code: taxCode, output, input, on } = split.selfAssessed;
          const taxed = lines.find((l) => l.accountCode === on)!;
          const net = subtractCents(taxed.debitCents, taxed.creditCents);
          const tax = taxOnNet(net, rateOnDay(rate, date));
          lines = lines.map((l) => (l === taxed ? { ...l, taxCode } : l));
          lines.push({ ...auditLine(side, account(input), tax), taxCode });
          lines.push({ ...auditLine(side, account(output), negateCents(tax)), taxCode });
          facts.vatLines += 1;
        }
      }
    }
    // A code DATEV computes no key for, as books writes it: the line debited's and credited's.
    const stated: { debit?: string; credit?: string } = {};
    for (let n = 1; n <= 8; n += 1) {
      const art = field(`beleginfoart${n}`);
      const code = field(`beleginfoinhalt${n}`);
      if (code === '') continue;
      if (art === STATED_CODE.debit) stated.debit = code;
      else if (art === STATED_CODE.credit) stated.credit = code;
    }
    if (stated.debit !== undefined || stated.credit !== undefined)
      lines = lines.map((l) => {
        const code = l.debitCents > 0 ? stated.debit : stated.credit;
        return code === undefined || l.taxCode ? l : { ...l, taxCode: code };
      });
    yield {
      entry: { fileLine, entry, date, memo: side.memo, lines },
      document: reference === '' ? undefined : `${reference} ${date}`,
      coded: stated.debit !== undefined || stated.credit !== undefined,
    };
  }
}

/**
 * The rate a tax key or automatic account of 19 % or 7 % meant on a day: 16 % and 5 % from
 * 1 July to 31 December 2020 (Zweites Corona-Steuerhilfegesetz), as DATEV posted them.
 */
export function rateOnDay(rate: 7 | 19, day: string): number {
  if (day >= '2020-07-01' && day <= '2020-12-31') return rate === 19 ? 16 : 5;
  return rate;
}

/**
 * What `--datev-vat split` posts for a row: the VAT (its rate, its account, the account it is
 * on) and whether the row reverses; or why it cannot.
 */
function splitVat(
  key: string,
  skonto: string,
  automatic: string | undefined,
  skr: Skr | undefined,
  konto: string,
  gegenkonto: string,
):
  | {
      reversed: boolean;
      vat?: { rate: 7 | 19; side: 'USt' | 'VSt'; account: string; on: string };
      selfAssessed?: { rate: 19; code: string; output: string; input: string; on: string };
    }
  | string {
  if (skonto !== '') return `Skonto ${skonto}`;
  if (skr === undefined) return 'no SKR (the header names none: pass --skr 03 or --skr 04)';
  const owed = SELF_ASSESSED_KEYS[key];
  if (owed)
    return {
      reversed: false,
      selfAssessed: { rate: owed.rate, code: owed.code, ...owed.accounts[skr], on: gegenkonto },
    };
  // A key of two digits: a Berichtigungsschlüssel (2 reversal, 4 automatic off), then the tax key.
  const correction = key.length === 2 ? key.charAt(0) : '';
  const taxKey = key.length === 2 ? key.charAt(1) : key;
  if (key.length > 2 || (correction !== '' && correction !== '2' && correction !== '4'))
    return `BU-Schlüssel ${key}`;
  const reversed = correction === '2';
  if (correction === '4') return { reversed };
  const rule =
    taxKey !== '' && taxKey !== '0'
      ? TAX_KEYS[taxKey]
      : automatic !== undefined
        ? AUTOMATIC[skr][automatic]
        : undefined;
  if (rule === undefined) return taxKey === '0' ? { reversed } : `BU-Schlüssel ${key}`;
  // A tax key belongs to the Gegenkonto (unless that is the money side: then the Konto); an
  // automatic account carries its own.
  const on = automatic ?? (TAX_KEYS[taxKey] && gegenkonto !== '' ? gegenkonto : konto);
  return {
    reversed,
    vat: {
      rate: rule.rate,
      side: rule.side,
      account: VAT_ACCOUNTS[skr][`${rule.side} ${rule.rate}`],
      on,
    },
  };
}

/** DATEV's Buchungsstapel (EXTF or DTVF, category 21; header versions 510 and 700). */
export const datev: LedgerFormatDefinition = {
  name: 'datev',
  title: 'DATEV Buchungsstapel',
  detect: (head) => looksLikeDatev(head),
  toldBy: 'read as a DATEV Buchungsstapel: its first line is an EXTF header',
  encodingSaid: false,
  read: (file, _head, options, result) =>
    readExport<DatevFacts>(
      result,
      (...hooks) =>
        readDatev(
          file,
          {
            encoding: options.encoding,
            ...(options.datevVat !== undefined && { datevVat: options.datevVat }),
            ...(options.skr !== undefined && { skr: options.skr }),
          },
          ...hooks,
        ),
      (facts) => [
        `DATEV: ${count(facts.transactions, 'booking', 'bookings')}, ${facts.encoding}; accounts typed by ${facts.skr ? `SKR${facts.skr}` : 'nothing (no SKR: --skr 03 or 04, or --chart)'}`,
        facts.accountLength !== undefined &&
          `DATEV: Sachkontenlänge ${facts.accountLength}: G/L accounts written with ${facts.accountLength} digits (leading zeros put back)${facts.personalAccounts.size > 0 ? `; ${count(facts.personalAccounts.size, 'personal account', 'personal accounts')} (${facts.accountLength + 1} digits) typed by DATEV's ranges, debtors receivable and creditors payable` : ''}`,
        `DATEV: a Buchungsstapel names no account: each is named by its number${options.chartFile === undefined ? ' (--chart names them)' : ''}`,
        facts.strayQuotes > 0 &&
          `DATEV: ${count(facts.strayQuotes, 'field', 'fields')} written with quotes not doubled (\`" "Text" "\`, as DATEV's own writer leaves them) read as DATEV reads them: the text between the outer quotes`,
        facts.grossRows > 0 &&
          `DATEV: ${count(facts.grossRows, 'row', 'rows')} with a tax key, a Skonto or an automatic account posted as written (--datev-vat gross): the VAT DATEV would post beside them is not posted`,
        facts.vatLines > 0 &&
          `DATEV: the VAT of ${count(facts.vatLines, 'row', 'rows')} posted to the VAT accounts of SKR${facts.skr} (--datev-vat split)`,
        facts.zeroLines > 0 &&
          `DATEV: ${count(facts.zeroLines / 2, 'booking', 'bookings')} of zero left out`,
      ],
    ),
};
