import { isProfitAndLoss } from '../../api/index.js';
import { addDays, type CalendarDay } from '../../core/calendar.js';
import { absCents, addCents, sidesOf, ZERO_CENTS } from '../../core/money.js';
import { addMonths } from '../../core/periods.js';
import { ratePercentOn, vatLinesByCode, type AuditBooks, type AuditEntry } from '../audit/books.js';
import {
  compactDay,
  cut,
  decimal,
  entryDescription,
  holdsEntries,
  xmlField,
  xmlText,
  type AuditFileWriter,
} from '../audit/writer.js';

/**
 * XML Auditfile Financieel 3.2 (`XmlAuditfileFinancieel3.2.xsd`, namespace
 * `http://www.auditfiles.nl/XAF/3.2`), UTF-8, elements in the schema's order, texts cut to the
 * 2017 lengths (a name, an account's description 100):
 *
 * - `header`: the fiscal year(s) the range lies in (`2025`, or `2025-2026` for a year across
 *   two), the range as `startDate`/`endDate`, EUR unless `--currency`;
 * - `company`: the KvK number (`--org-number`) when given, the name, `NL`; `taxRegIdent` the
 *   VAT number of the entity's tax setting (empty without one); `vatCodes`, the entity's tax codes where it keeps them,
 *   each naming the VAT accounts the file's chart holds;
 * - `generalLedger`: every account with a balance or a posting, `accTp` `B` for the balance
 *   sheet and `P` for profit and loss by its type's class; no RGS code (the 2017 rules put RGS in
 *   `taxonomy` under a taxonomy reference the platform has no way to know; `accTp` is what every
 *   reader reads);
 * - `periods`: the months of the range, numbered 1, 2, …, each transaction pointing at its own;
 * - `openingBalance`: on the range's first day, the balance-sheet accounts as they stand the day
 *   before and the earlier years' result on 0500 Overige reserves (or `--retained-earnings`),
 *   its lines' count and totals;
 * - `transactions`: the count and sums of every line, then a journal per kind of posting — `M`
 *   memoriaal (journal entries), `B` bank (bank transactions), `O` opening balances — their
 *   transactions in date order, `nr` the entry's number over the file, `docRef` the same; a
 *   coded line its `vat` (see `vatsOf`).
 */

const JOURNALS: { id: string; description: string; type: string; sources: readonly string[] }[] = [
  { id: 'M', description: 'Memoriaal', type: 'M', sources: ['manual', 'migration'] },
  { id: 'B', description: 'Bank', type: 'B', sources: ['transaction'] },
  { id: 'O', description: 'Openingsbalans', type: 'O', sources: ['opening_balance'] },
];

/** The months of the range, clipped to it, numbered from 1. */
function periodsOf(books: AuditBooks) {
  const periods: { number: number; startDate: CalendarDay; endDate: CalendarDay }[] = [];
  let start = books.from;
  while (start <= books.to) {
    const monthEnd = addDays(addMonths(`${start.slice(0, 7)}-01`, 1), -1);
    const endDate = monthEnd < books.to ? monthEnd : books.to;
    periods.push({ number: periods.length + 1, startDate: start, endDate });
    start = addDays(endDate, 1);
  }
  return periods;
}

export const xafWriter: AuditFileWriter = {
  format: 'xaf',
  title: 'XML Auditfile Financieel 3.2',
  encoding: 'utf-8',
  charset: 'XAF (UTF-8)',
  currency: 'EUR',
  retainedEarnings: () => ({ code: '0500', name: 'Overige reserves' }),
  oneFiscalYear: false,
  needsOrgNumber: false,
  // The Toelichting gives a name eight positions: the range's last day.
  fileName: (books) => `${compactDay(books.to)}.xaf`,
  refusal(books) {
    const long = books.accounts.find((a) => [...a.code].length > 35);
    if (long) return `account code ${long.code} is longer than XAF's 35 characters`;
    const months = periodsOf(books).length;
    return months > 999
      ? `XAF numbers at most 999 periods: the range has ${months} months`
      : undefined;
  },
  async write(books, put, text, options) {
    const t = xmlField(text);
    const periods = periodsOf(books);
    const years = new Set([books.fiscalYear.startDate.slice(0, 4), books.to.slice(0, 4)]);
    const fiscalYear = [...years].sort().join('-');
    let head =
      `<?xml version="1.0" encoding="UTF-8"?>\n<auditfile xmlns="http://www.auditfiles.nl/XAF/3.2">\n` +
      `  <header>\n` +
      `    <fiscalYear>${cut(fiscalYear, 9)}</fiscalYear>\n` +
      `    <startDate>${books.from}</startDate>\n` +
      `    <endDate>${books.to}</endDate>\n` +
      `    <curCode>${options.currency}</curCode>\n` +
      `    <dateCreated>${options.createdOn}</dateCreated>\n` +
      `    <softwareDesc>${t(options.software.name, 50)}</softwareDesc>\n` +
      `    <softwareVersion>${t(options.software.version, 20)}</softwareVersion>\n` +
      `  </header>\n` +
      `  <company>\n` +
      (options.orgNumber ? `    <companyIdent>${options.orgNumber}</companyIdent>\n` : '') +
      `    <companyName>${t(books.entity.name, 100)}</companyName>\n` +
      `    <taxRegistrationCountry>NL</taxRegistrationCountry>\n` +
      `    <taxRegIdent>${t(books.vatNumber ?? '', 30)}</taxRegIdent>\n` +
      `    <generalLedger>\n`;
    for (const account of books.accounts)
      head +=
        `      <ledgerAccount>\n` +
        `        <accID>${t(account.code, 35)}</accID>\n` +
        `        <accDesc>${t(account.name, 100)}</accDesc>\n` +
        `        <accTp>${isProfitAndLoss(account.class) ? 'P' : 'B'}</accTp>\n` +
        `      </ledgerAccount>\n`;
    head += `    </generalLedger>\n`;
    if (books.taxCodes?.length) {
      // The VAT accounts named where the file holds them (the schema's keys refer to its chart).
      const held = (code: string | undefined) =>
        code && books.accountByCode.has(code) ? code : undefined;
      head += `    <vatCodes>\n`;
      for (const code of books.taxCodes) {
        const toPay = held(code.outputAccount ?? books.vatAccounts?.output);
        const toClaim = held(code.inputAccount ?? books.vatAccounts?.input);
        head +=
          `      <vatCode>\n` +
          `        <vatID>${t(code.code, 35)}</vatID>\n` +
          `        <vatDesc>${t(code.name, 999)}</vatDesc>\n` +
          (toPay ? `        <vatToPayAccID>${t(toPay, 35)}</vatToPayAccID>\n` : '') +
          (toClaim ? `        <vatToClaimAccID>${t(toClaim, 35)}</vatToClaimAccID>\n` : '') +
          `      </vatCode>\n`;
      }
      head += `    </vatCodes>\n`;
    }
    head += `    <periods>\n`;
    for (const period of periods)
      head +=
        `      <period>\n` +
        `        <periodNumber>${period.number}</periodNumber>\n` +
        `        <periodDesc>${period.startDate.slice(0, 7)}</periodDesc>\n` +
        `        <startDatePeriod>${period.startDate}</startDatePeriod>\n` +
        `        <endDatePeriod>${period.endDate}</endDatePeriod>\n` +
        `      </period>\n`;
    head += `    </periods>\n`;
    await put(head);

    if (books.openings.length > 0) {
      let debit = ZERO_CENTS;
      let credit = ZERO_CENTS;
      let lines = '';
      books.openings.forEach(({ code, amount }, index) => {
        const side = sidesOf(amount);
        debit = addCents(debit, side.debit);
        credit = addCents(credit, side.credit);
        lines +=
          `      <obLine>\n` +
          `        <nr>${index + 1}</nr>\n` +
          `        <accID>${t(code, 35)}</accID>\n` +
          `        <amnt>${decimal(side.debit || side.credit)}</amnt>\n` +
          `        <amntTp>${side.debit > 0 ? 'D' : 'C'}</amntTp>\n` +
          `      </obLine>\n`;
      });
      await put(
        `    <openingBalance>\n` +
          `      <opBalDate>${books.from}</opBalDate>\n` +
          `      <opBalDesc>Beginbalans</opBalDesc>\n` +
          `      <linesCount>${books.openings.length}</linesCount>\n` +
          `      <totalDebit>${decimal(debit)}</totalDebit>\n` +
          `      <totalCredit>${decimal(credit)}</totalCredit>\n` +
          lines +
          `    </openingBalance>\n`,
      );
    }

    await put(
      `    <transactions>\n` +
        `      <linesCount>${books.totals.lines}</linesCount>\n` +
        `      <totalDebit>${decimal(books.totals.debit)}</totalDebit>\n` +
        `      <totalCredit>${decimal(books.totals.credit)}</totalCredit>\n`,
    );
    const periodOfMonth = new Map(periods.map((p) => [p.startDate.slice(0, 7), p.number]));
    for (const journal of JOURNALS) {
      if (!holdsEntries(books, journal.sources)) continue;
      await put(
        `      <journal>\n        <jrnID>${journal.id}</jrnID>\n        <desc>${journal.description}</desc>\n        <jrnTp>${journal.type}</jrnTp>\n`,
      );
      for await (const entry of books.entries())
        if (journal.sources.includes(entry.source))
          await put(transaction(entry, periodOfMonth.get(entry.date.slice(0, 7))!, t, books));
      await put(`      </journal>\n`);
    }
    await put(`    </transactions>\n  </company>\n</auditfile>\n`);
  },
};

/**
 * A coded line's `vat`s: its code, the code's rate on the entry's day, and — on the code's first
 * line of the entry — each VAT line the entry posts under the code (on the entity's VAT
 * accounts) as a vatAmnt of its side: one for a sale or a purchase, two for a reverse charge;
 * else a 0.00 of the line's own side. The VAT lines carry none (as Unit4 Multivers writes them);
 * a reader pairs each with its vatAmnt, as books' does.
 */
function vatsOf(entry: AuditEntry, books: AuditBooks): Map<AuditEntry['lines'][number], string> {
  const written = new Map<AuditEntry['lines'][number], string>();
  const vatAccountCodes = books.vatAccountCodes ?? new Set<string>();
  const codes = new Map((books.taxCodes ?? []).map((code) => [code.code, code]));
  const vatLines = vatLinesByCode(entry, vatAccountCodes);
  const told = new Set<string>();
  for (const line of entry.lines) {
    if (!line.taxCode || vatAccountCodes.has(line.code)) continue;
    const taxCode = codes.get(line.taxCode);
    const percent = taxCode ? ratePercentOn(taxCode, entry.date) : 0;
    const amounts = told.has(line.taxCode) ? [] : (vatLines.get(line.taxCode) ?? []);
    told.add(line.taxCode);
    const own = line.debit > 0 ? 'D' : 'C';
    written.set(
      line,
      (amounts.length > 0 ? amounts : [undefined])
        .map(
          (vat) =>
            `            <vat>\n` +
            `              <vatID>${xmlText(line.taxCode!)}</vatID>\n` +
            `              <vatPerc>${percent.toFixed(3)}</vatPerc>\n` +
            `              <vatAmnt>${decimal(vat === undefined ? ZERO_CENTS : absCents(vat))}</vatAmnt>\n` +
            `              <vatAmntTp>${vat === undefined ? own : vat < 0 ? 'C' : 'D'}</vatAmntTp>\n` +
            `            </vat>\n`,
        )
        .join(''),
    );
  }
  return written;
}

function transaction(
  entry: AuditEntry,
  period: number,
  t: (value: string, length: number) => string,
  books: AuditBooks,
): string {
  const vats = vatsOf(entry, books);
  const description = entryDescription(entry);
  let xml =
    `        <transaction>\n` +
    `          <nr>${entry.number}</nr>\n` +
    `          <desc>${t(description, 9999)}</desc>\n` +
    `          <periodNumber>${period}</periodNumber>\n` +
    `          <trDt>${entry.date}</trDt>\n`;
  entry.lines.forEach((line, index) => {
    const debit = line.debit > 0;
    xml +=
      `          <trLine>\n` +
      `            <nr>${index + 1}</nr>\n` +
      `            <accID>${t(line.code, 35)}</accID>\n` +
      `            <docRef>${entry.number}</docRef>\n` +
      `            <effDate>${entry.date}</effDate>\n` +
      `            <desc>${t(line.description.trim() || description, 9999)}</desc>\n` +
      `            <amnt>${decimal(debit ? line.debit : line.credit)}</amnt>\n` +
      `            <amntTp>${debit ? 'D' : 'C'}</amntTp>\n` +
      (vats.get(line) ?? '') +
      `          </trLine>\n`;
  });
  return `${xml}        </transaction>\n`;
}
