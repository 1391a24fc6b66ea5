import { absCents, negateCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import { auditAmount, auditLine } from '../common/auditFile.js';
import { swissDate } from '../bexio/reader.js';
import { eachNamedRow, lettersOf } from '../common/csvRecords.js';
import { EntryGrouper, type LedgerEntry, type LedgerLine, type Problem } from '../ledgerCsv.js';
import { kmuType } from '../bexio/swissChart.js';
import { count, readExport, type LedgerFormatDefinition } from '../format.js';

/**
 * Infoniqa ONE 50's journal export (Switzerland): one posting a row — `Blg` the voucher, `Datum`
 * `d.m.yyyy`, `Kto` the account, `S/H` debit (Soll) or credit (Haben), `GKto` the counter-account
 * (`div` when the voucher is split), `Netto` the amount posted. On tax rows (`BTyp` 2) `Netto`
 * holds the tax and `Steuer` the base it was reckoned on: `Netto` is still what is posted.
 * `FW-Betrag`, a foreign amount, comes without its currency: left aside, counted. `SId` is the
 * row's VAT code (`USN81`): the base row's, and a tax row's where it posts the tax itself (a
 * reverse charge, BTyp 3); a tax row without one takes the code of the voucher's base row whose
 * Netto and Steuer it holds the other way round.

 *
 * A voucher's rows need not be together (the export is not sorted): they are gathered over the
 * whole file, then each voucher must balance. Accounts are typed by the Swiss SME chart.
 */

export interface InfoniqaFacts {
  vouchers: number;
  rows: number;
  zeroRows: number;
  taxRows: number;
  foreignAmounts: number;
}

/** The header of an Infoniqa journal: Blg, Kto, S/H and Netto. */
export const looksLikeInfoniqa = (headerLine: string) => {
  const names = headerLine.split(/[,;]/).map((n) => n.trim().toLowerCase());
  return ['blg', 'kto', 's/h', 'netto'].every((name) => names.includes(name));
};

/** The entries of an Infoniqa journal; problems go to `report`. */
export async function* readInfoniqa(
  file: string,
  options: { encoding?: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: InfoniqaFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const facts: InfoniqaFacts = {
    vouchers: 0,
    rows: 0,
    zeroRows: 0,
    taxRows: 0,
    foreignAmounts: 0,
  };
  const vouchers = new Map<string, LedgerLine[]>();
  const bases: { line: LedgerLine; voucher: string; base: Cents; tax?: Cents; used?: boolean }[] =
    [];
  const taxRows: { line: LedgerLine; voucher: string; tax: Cents; base?: Cents }[] = [];
  let hash = '';
  for await (const { field, fileLine } of eachNamedRow(
    file,
    { encoding: options.encoding },
    lettersOf,
    onLine,
    (digest) => (hash = digest),
  )) {
    facts.rows += 1;
    const voucher = field('blg');
    const date = swissDate(field('datum'));
    if (!date) {
      report({ fileLine, message: `Datum "${field('datum')}" is not a date (d.m.yyyy)` });
      continue;
    }
    const side = field('sh').toUpperCase();
    if (side !== 'S' && side !== 'H') {
      report({ fileLine, message: `S/H "${field('sh')}" is neither S nor H` });
      continue;
    }
    const cents = auditAmount(field('netto'), fileLine, 'Netto', report);
    if (cents === undefined) continue;
    const stated = () => {
      const steuer = auditAmount(field('steuer'), fileLine, 'Steuer', () => {});
      return steuer === undefined ? undefined : absCents(steuer);
    };
    const foreign = auditAmount(field('fwbetrag'), fileLine, 'FW-Betrag', () => {});
    if (foreign !== undefined && foreign !== ZERO_CENTS) facts.foreignAmounts += 1;
    if (field('btyp') === '2') facts.taxRows += 1;
    if (cents === ZERO_CENTS) {
      facts.zeroRows += 1;
      continue;
    }
    const code = field('kto');
    const text = [field('tx1'), field('tx2')].filter(Boolean).join(' ');
    const line = auditLine(
      { fileLine, date, entry: voucher, description: text, memo: text.slice(0, 1000) },
      { code, name: code, type: kmuType(code) },
      side === 'S' ? cents : negateCents(cents),
    );
    const taxRow = field('btyp') === '2';
    const taxCode = field('sid');
    if (taxCode) line.taxCode = taxCode;
    const held = vouchers.get(voucher) ?? [];
    if (held.length === 0) vouchers.set(voucher, held);
    held.push(line);
    // A base row states its tax in Steuer; its tax row (BTyp 2), without an SId, the base.
    if (taxCode) bases.push({ line, voucher, base: absCents(cents), tax: stated() });
    else if (taxRow) taxRows.push({ line, voucher, tax: absCents(cents), base: stated() });
  }
  // Each tax row takes the code of the voucher's base row it is the tax of: the same two
  // amounts the other way round, else the same tax.
  for (const taxRow of taxRows) {
    const ofVoucher = bases.filter((b) => b.voucher === taxRow.voucher && !b.used);
    const base =
      ofVoucher.find((b) => b.tax === taxRow.tax && b.base === taxRow.base) ??
      ofVoucher.find((b) => b.tax === taxRow.tax);
    if (!base) continue;
    base.used = true;
    taxRow.line.taxCode = base.line.taxCode;
  }
  const ready: LedgerEntry[] = [];
  const grouper = new EntryGrouper(
    true,
    (entry) => {
      facts.vouchers += 1;
      ready.push(entry);
    },
    report,
  );
  for (const lines of vouchers.values()) {
    for (const line of lines) grouper.add(line);
    yield* ready;
    ready.length = 0;
  }
  grouper.finish();
  yield* ready;
  onEnd(hash, facts);
}

/** Infoniqa ONE 50's journal (Switzerland). */
export const infoniqa: LedgerFormatDefinition = {
  name: 'infoniqa',
  title: 'Infoniqa ONE 50 journal',
  detect: (_head, firstLine) => looksLikeInfoniqa(firstLine),
  toldBy: 'read as an Infoniqa ONE 50 journal: its header has Blg, Kto, S/H and Netto',
  fromSheet: true,
  read: (file, _head, options, result) =>
    readExport<InfoniqaFacts>(
      result,
      (...hooks) => readInfoniqa(file, { encoding: options.encoding }, ...hooks),
      (facts) => [
        `Infoniqa: ${count(facts.vouchers, 'voucher', 'vouchers')}, ${count(facts.rows, 'row', 'rows')}, gathered by Blg over the whole file; Netto posted${facts.taxRows > 0 ? ` (on ${count(facts.taxRows, 'tax row', 'tax rows')}, BTyp 2, it is the tax)` : ''}; accounts typed by the Swiss SME chart (Kontenrahmen KMU)`,
        facts.foreignAmounts > 0 &&
          `Infoniqa: ${count(facts.foreignAmounts, 'FW-Betrag', 'FW-Beträge')} (a foreign amount, its currency not in the file) left aside`,
        facts.zeroRows > 0 && `Infoniqa: ${count(facts.zeroRows, 'row', 'rows')} of zero left out`,
      ],
    ),
};
