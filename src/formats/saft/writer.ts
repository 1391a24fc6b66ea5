import { addMonths } from '../../core/periods.js';
import { absCents, sidesOf, subtractCents, ZERO_CENTS } from '../../core/money.js';
import { vatLinesByCode, type AuditBooks, type AuditEntry } from '../audit/books.js';
import { GROUPING } from './groupings.js';
import {
  cut,
  decimal,
  entryDescription,
  holdsEntries,
  SOURCE_LABELS,
  xmlField,
  xmlText,
  type AuditFileWriter,
} from '../audit/writer.js';

/**
 * SAF-T Financial 1.30, Norway (`Norwegian_SAF-T_Financial_Schema_v_1.30.xsd`, mandatory for
 * periods from 2025): UTF-8 XML in the `urn:StandardAuditFile-Taxation-Financial:NO` namespace,
 * elements in the schema's order, texts cut to the schema's lengths.
 *
 * - `Header`: version 1.30, country NO, the company's organisation number (`--org-number`, nine
 *   digits with their check digit), its name, and the contact the schema requires (`--contact`,
 *   `--phone`); NOK unless `--currency`; the range as `SelectionStartDate`/`SelectionEndDate`.
 * - `MasterFiles/GeneralLedgerAccounts`: every account with a balance or a posting, its opening
 *   balance (the day before the range) and closing balance, each on its side; its
 *   `GroupingCategory` and `GroupingCode` from the næringsspesifikasjon list by its type
 *   (`GROUPING` below); the earlier years' result on 2050 Annen egenkapital (or
 *   `--retained-earnings`).
 * - `GeneralLedgerEntries`: the count of transactions and the sums of their debit and credit
 *   lines, then a journal per kind of posting — `GL` journal entries, `BANK` bank transactions,
 *   `OB` opening balances — each transaction in date order with its number (`TransactionID`,
 *   1, 2, … over the file), its accounting period (the month of the fiscal year, 1–12, and the
 *   year it starts in), its date as `TransactionDate`, `SystemEntryDate` and `GLPostingDate`.
 */

/** The journals, by what posted the entries. */
const JOURNALS: { id: string; description: string; sources: readonly string[] }[] = [
  { id: 'GL', description: 'Journal entries', sources: ['manual', 'migration'] },
  { id: 'BANK', description: 'Bank transactions', sources: ['transaction'] },
  { id: 'OB', description: 'Opening balances', sources: ['opening_balance'] },
];

const element = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;

type AccountingPeriod = { period: number; year: string };

/** The month of the fiscal year a day falls in (1–12), and the year the fiscal year starts in. */
function periodOf(books: AuditBooks, day: string): AccountingPeriod {
  let period = 1;
  let start = books.fiscalYear.startDate;
  // Days of a later fiscal year (a range over several) count on from its own start.
  while (day >= addMonths(start, 12)) start = addMonths(start, 12);
  while (period < 12 && day >= addMonths(start, period)) period += 1;
  return { period, year: start.slice(0, 4) };
}

export const saftWriter: AuditFileWriter = {
  format: 'saft',
  title: 'SAF-T Financial 1.30',
  encoding: 'utf-8',
  charset: 'SAF-T (UTF-8)',
  currency: 'NOK',
  retainedEarnings: () => ({ code: '2050', name: 'Annen egenkapital' }),
  oneFiscalYear: false,
  needsOrgNumber: true,
  // The name Skatteetaten's documentation recommends: <type>_<orgnr>_<created>_<n>_<of n>.xml.
  fileName: (_books, options) =>
    `Financial_${options.orgNumber}_${options.createdAt
      .toISOString()
      .replace(/[-:T]/g, '')
      .slice(0, 14)}_1_1.xml`,
  refusal(books) {
    const years = [books.from, books.to].map((day) => Number(day.slice(0, 4)));
    if (years.some((year) => year < 1970 || year > 2100))
      return `SAF-T's accounting periods run from 1970 to 2100, not ${books.from} to ${books.to}`;
    const long = books.accounts.find((a) => [...a.code].length > 70);
    return long && `account code ${long.code} is longer than SAF-T's 70 characters`;
  },
  async write(books, put, text, options) {
    const t = xmlField(text);
    const contact = options.contact!;
    // Worked out once a day: a year's entries fall on a few hundred days.
    const periods = new Map<string, AccountingPeriod>();
    const periodOfDay = (day: string) => {
      let known = periods.get(day);
      if (known === undefined) periods.set(day, (known = periodOf(books, day)));
      return known;
    };
    await put(
      `<?xml version="1.0" encoding="UTF-8"?>\n<AuditFile xmlns="urn:StandardAuditFile-Taxation-Financial:NO">\n` +
        `  <Header>\n` +
        `    <AuditFileVersion>1.30</AuditFileVersion>\n` +
        `    <AuditFileCountry>NO</AuditFileCountry>\n` +
        `    <AuditFileDateCreated>${options.createdOn}</AuditFileDateCreated>\n` +
        `    ${element('SoftwareCompanyName', options.software.name)}\n` +
        `    ${element('SoftwareID', options.software.name)}\n` +
        `    ${element('SoftwareVersion', cut(options.software.version, 18))}\n` +
        `    <Company>\n` +
        `      ${element('RegistrationNumber', options.orgNumber!)}\n` +
        `      <Name>${t(books.entity.name, 70)}</Name>\n` +
        `      <Contact>\n` +
        `        <ContactPerson>\n` +
        `          <FirstName>${t(contact.firstName, 35)}</FirstName>\n` +
        `          <LastName>${t(contact.lastName, 70)}</LastName>\n` +
        `        </ContactPerson>\n` +
        `        <Telephone>${t(options.phone!, 18)}</Telephone>\n` +
        `      </Contact>\n` +
        `    </Company>\n` +
        `    ${element('DefaultCurrencyCode', options.currency)}\n` +
        `    <SelectionCriteria>\n` +
        `      <SelectionStartDate>${books.from}</SelectionStartDate>\n` +
        `      <SelectionEndDate>${books.to}</SelectionEndDate>\n` +
        `    </SelectionCriteria>\n` +
        `    <TaxAccountingBasis>A</TaxAccountingBasis>\n` +
        `  </Header>\n`,
    );
    let master = '  <MasterFiles>\n    <GeneralLedgerAccounts>\n';
    for (const account of books.accounts) {
      const [category, code] = GROUPING[account.type];
      const opening = sidesOf(account.opening);
      const closing = sidesOf(account.closing);
      master +=
        `      <Account>\n` +
        `        <AccountID>${t(account.code, 70)}</AccountID>\n` +
        `        <AccountDescription>${t(account.name, 256)}</AccountDescription>\n` +
        `        <GroupingCategory>${category}</GroupingCategory>\n` +
        `        <GroupingCode>${code}</GroupingCode>\n` +
        `        <AccountType>GL</AccountType>\n` +
        (opening.credit > 0
          ? `        <OpeningCreditBalance>${decimal(opening.credit)}</OpeningCreditBalance>\n`
          : `        <OpeningDebitBalance>${decimal(opening.debit)}</OpeningDebitBalance>\n`) +
        (closing.credit > 0
          ? `        <ClosingCreditBalance>${decimal(closing.credit)}</ClosingCreditBalance>\n`
          : `        <ClosingDebitBalance>${decimal(closing.debit)}</ClosingDebitBalance>\n`) +
        `      </Account>\n`;
    }
    await put(`${master}    </GeneralLedgerAccounts>\n  </MasterFiles>\n`);
    await put(
      `  <GeneralLedgerEntries>\n` +
        `    <NumberOfEntries>${books.totals.entries}</NumberOfEntries>\n` +
        `    <TotalDebit>${decimal(books.totals.debit)}</TotalDebit>\n` +
        `    <TotalCredit>${decimal(books.totals.credit)}</TotalCredit>\n`,
    );
    for (const journal of JOURNALS) {
      if (!holdsEntries(books, journal.sources)) continue;
      await put(
        `    <Journal>\n      <JournalID>${journal.id}</JournalID>\n      <Description>${journal.description}</Description>\n      <Type>${journal.id}</Type>\n`,
      );
      for await (const entry of books.entries())
        if (journal.sources.includes(entry.source))
          await put(transaction(entry, periodOfDay(entry.date), t, books.vatAccountCodes));
      await put(`    </Journal>\n`);
    }
    await put(`  </GeneralLedgerEntries>\n</AuditFile>\n`);
  },
};

/**
 * A coded line's TaxInformation: its code, its base, and — on the code's first line of the entry
 * — each VAT line its entry posts under that code (on the entity's VAT accounts) as a
 * TaxAmount of its side: one for a sale or a purchase, two for a reverse charge (the VAT due and
 * the VAT reclaimed), none but a 0.00 for a zero-rated or exempt line. The VAT lines themselves
 * carry none (as Skatteetaten's own example writes them); a reader pairs each with its TaxAmount,
 * as books' does.
 */
function taxInformation(
  entry: AuditEntry,
  vatAccountCodes: ReadonlySet<string>,
): Map<AuditEntry['lines'][number], string> {
  const vatLines = vatLinesByCode(entry, vatAccountCodes);
  const written = new Map<AuditEntry['lines'][number], string>();
  const told = new Set<string>();
  for (const line of entry.lines) {
    if (!line.taxCode || vatAccountCodes.has(line.code)) continue;
    const amounts = told.has(line.taxCode) ? [] : (vatLines.get(line.taxCode) ?? []);
    told.add(line.taxCode);
    const base = decimal(absCents(subtractCents(line.debit, line.credit)));
    written.set(
      line,
      (amounts.length > 0 ? amounts : [ZERO_CENTS])
        .map((vat) => {
          const side = vat < 0 ? 'Credit' : 'Debit';
          return (
            `          <TaxInformation>\n` +
            `            <TaxCode>${xmlText(line.taxCode!)}</TaxCode>\n` +
            `            <TaxBase>${base}</TaxBase>\n` +
            `            <${side}TaxAmount><Amount>${decimal(absCents(vat))}</Amount></${side}TaxAmount>\n` +
            `          </TaxInformation>\n`
          );
        })
        .join(''),
    );
  }
  return written;
}

function transaction(
  entry: AuditEntry,
  { period, year }: AccountingPeriod,
  t: (value: string, length: number) => string,
  vatAccountCodes: ReadonlySet<string> = new Set(),
): string {
  const taxes = taxInformation(entry, vatAccountCodes);
  const label = SOURCE_LABELS[entry.source] ?? 'Journal entry';
  const description = entryDescription(entry);
  let xml =
    `      <Transaction>\n` +
    `        <TransactionID>${entry.number}</TransactionID>\n` +
    `        <Period>${period}</Period>\n` +
    `        <PeriodYear>${year}</PeriodYear>\n` +
    `        <TransactionDate>${entry.date}</TransactionDate>\n` +
    `        <VoucherType>${t(label, 70)}</VoucherType>\n` +
    `        <Description>${t(description, 256)}</Description>\n` +
    `        <SystemEntryDate>${entry.date}</SystemEntryDate>\n` +
    `        <GLPostingDate>${entry.date}</GLPostingDate>\n`;
  entry.lines.forEach((line, index) => {
    const side = line.debit > 0 ? 'Debit' : 'Credit';
    const amount = line.debit > 0 ? line.debit : line.credit;
    xml +=
      `        <Line>\n` +
      `          <RecordID>${index + 1}</RecordID>\n` +
      `          <AccountID>${t(line.code, 70)}</AccountID>\n` +
      `          <Description>${t(line.description.trim() || description, 256)}</Description>\n` +
      `          <${side}Amount><Amount>${decimal(amount)}</Amount></${side}Amount>\n` +
      (taxes.get(line) ?? '') +
      `        </Line>\n`;
  });
  return `${xml}      </Transaction>\n`;
}
