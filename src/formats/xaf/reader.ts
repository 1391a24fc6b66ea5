import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { dutchClassType, isRgsCode, rgsKind, rgsType } from './rgs.js';
import { absCents, addCents, negateCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import {
  auditAmount,
  auditLine,
  balancedEntry,
  checkStatedCount,
  checkStatedTotal,
  codeVatLines,
  newAuditFacts,
  tallyTyped,
  openingEntry,
  type AuditAccount,
  type AuditFacts,
  type StatedFigure,
} from '../common/auditFile.js';
import type { AccountKind, LedgerEntry, LedgerLine, Problem } from '../ledgerCsv.js';
import { readXml } from '../common/xmlStream.js';
import { readAuditFile, type LedgerFormatDefinition } from '../format.js';

/**
 * The Dutch XML Auditfile Financieel (XAF 3.1, 3.2, 3.2.1 and 4.0), as Exact Online, AFAS,
 * Twinfield, Unit4 Multivers and others write it: one XML document, read as a stream. The
 * versions differ in their namespace and in elements the books do not need; the ones read here
 * are named alike in all four.
 *
 * - The chart is `generalLedger/ledgerAccount`: accID (the code), accDesc, accTp (B balance
 *   sheet, P profit and loss, M mixed) and the account's code in the Referentie
 *   GrootboekSchema (RGS) when the file gives one: 4.0's `RGScode`, 3.2's
 *   `taxonomy/entryPoint/conceptRef` (the 2017 rule), or the `leadReference`/`leadCode` many
 *   producers put it in. Its type comes from the file first: the RGS code's group (every RGS
 *   code's first four letters say what it is: `BLim…` cash, `BEiv…` equity, `WOmz…` revenue),
 *   then the classes of the Dutch decimal chart where they agree with accTp, then accTp alone
 *   (the import types the account by the side of its balance).
 * - An entry is a `transactions/journal/transaction`, named by jrnID and nr (numbers repeat
 *   across journals), dated trDt; each trLine an `amnt` with `amntTp` D or C (a line of zero
 *   may come without one, as XAF 3.1 producers write it).
 * - `openingBalance/obLine`s are one entry on opBalDate (else the header's startDate).
 * - A trLine's `vat` (vatID, vatPerc, vatAmnt, vatAmntTp; up to 99) codes the line with the
 *   first vatID whose vatAmntTp is the line's own side: the base and the VAT line of a sale are
 *   credits as its VAT is, while producers that put `vat` on every line of the entry (Banana
 *   writes it on the cash line too) give the other side, the gross, which is no base. An
 *   uncoded line the size of a stated vatAmnt then takes its code (`codeVatLines`): the VAT line
 *   Unit4 Multivers writes without one. Where a zero-rated entry's `vat` names the side of its
 *   cash line, that line is taken as the base: the file gives nothing to tell them apart.
 * - The file checks the import: `totalDebit` and `totalCredit` of the transactions and of the
 *   opening balance must be the lines' (money that disagrees stops the import); a `linesCount`
 *   that is not the number of lines is said (one producer writes the number of transactions
 *   there), and the import goes on.
 */

/** The namespace of each version; the root's tells which the file is. */
const XAF_VERSIONS: [RegExp, string][] = [
  [/auditfiles\.nl\/XAF\/3\.0/i, '3.0'],
  [/auditfiles\.nl\/XAF\/3\.1/i, '3.1'],
  [/auditfiles\.nl\/XAF\/3\.2/i, '3.2'],
  [/XmlAuditfileFinancieel3\.2\.1/i, '3.2.1'],
  [/XmlauditfileXAF_4\.0/i, '4.0'],
];

/** The first bytes show an XAF file: its root is an auditfile in an XAF namespace. */
export const looksLikeXaf = (head: string) =>
  /<(\w+:)?auditfile\b[^>]*(auditfiles\.nl\/XAF|XmlAuditfileFinancieel|XmlauditfileXAF)/i.test(
    head,
  );

/** An account as the chart describes it, before it is typed. */
interface DescribedAccount extends AuditAccount {
  accTp?: string;
  rgs?: string;
}

/** The type of a described account and what typed it, as `typedBy` tallies it. */
function typeOfXafAccount(account: DescribedAccount): {
  type?: AccountType;
  kind?: AccountKind;
  how: string;
} {
  const accTp = (account.accTp ?? '').toUpperCase();
  const stated: AccountKind | undefined =
    accTp === 'B' ? 'balance sheet' : accTp === 'P' ? 'profit and loss' : undefined;
  const rgs = account.rgs;
  if (rgs !== undefined && isRgsCode(rgs) && (stated === undefined || rgsKind(rgs) === stated)) {
    const type = rgsType(rgs);
    if (type) return { type, how: 'its RGS code' };
    return { kind: rgsKind(rgs)!, how: 'the side of its RGS code (B or W) and of its balance' };
  }
  if (stated !== undefined) {
    const type = dutchClassType(account.code, stated === 'balance sheet');
    if (type) return { type, how: 'its class of the Dutch chart, as accTp agrees' };
    return { kind: stated, how: 'accTp (B or P) and the side of its balance' };
  }
  return { how: 'nothing (accTp M or none, no RGS code)' };
}

/** The entries of an XAF file; problems go to `report`. */
export async function* readXaf(
  file: string,
  options: { encoding?: string; offsetAccount?: string },
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string, facts: AuditFacts) => void,
): AsyncGenerator<LedgerEntry> {
  const accounts = new Map<string, AuditAccount>();
  const facts = newAuditFacts();
  const ready: LedgerEntry[] = [];
  const header: Record<string, string> = {};
  /** Control figures of `transactions` and `openingBalance`, by section. */
  const control = new Map<string, Record<string, StatedFigure>>();
  const made = new Map<string, { lines: number; debit: Cents; credit: Cents }>();
  let account: DescribedAccount | undefined;
  let journal = '';
  let transaction: { nr: string; date: string; description: string; fileLine: number } | undefined;
  let lines: LedgerLine[] = [];
  let line: Record<string, string> & { fileLine?: string } = {};
  /** The `vat`s of the line being read, and the stated VAT of the entry's coded lines. */
  let vats: Record<string, string>[] = [];
  let taxes: { code: string; cents: Cents }[] = [];
  let openingDay = '';
  let openingSent = false;
  let hash = '';

  const accountOf = (code: string): AuditAccount =>
    accounts.get(code) ?? { code, name: code, type: undefined, fileLine: 0 };
  const tally = (section: string, cents: Cents) => {
    const sum = made.get(section) ?? { lines: 0, debit: ZERO_CENTS, credit: ZERO_CENTS };
    sum.lines += 1;
    if (cents > 0) sum.debit = addCents(sum.debit, cents);
    else sum.credit = addCents(sum.credit, negateCents(cents));
    made.set(section, sum);
  };
  /** A line's debit-positive amount: `amnt` with `amntTp` D or C (none for a zero). */
  const signed = (fileLine: number): Cents | undefined => {
    const cents = auditAmount(line.amnt ?? '', fileLine, 'amnt', report);
    if (cents === undefined) return undefined;
    const side = (line.amntTp ?? '').toUpperCase();
    if (side === '' && cents === 0) return ZERO_CENTS;
    if (side !== 'D' && side !== 'C') {
      report({ fileLine, message: `amntTp "${line.amntTp ?? ''}" is neither D nor C` });
      return undefined;
    }
    return side === 'D' ? cents : negateCents(cents);
  };

  for await (const _ of readXml(
    file,
    options.encoding,
    {
      open(path, attributes, fileLine) {
        const name = path.at(-1)!;
        const parent = path.at(-2);
        if (path.length === 1) {
          // The root's own namespace (`xmlns`, or the prefix it is written with) tells.
          const namespaces = Object.entries(attributes)
            .filter(([key]) => /^xmlns(:|$)/.test(key))
            .map(([, value]) => value);
          facts.version = XAF_VERSIONS.find(([pattern]) =>
            namespaces.some((namespace) => pattern.test(namespace)),
          )?.[1];
        } else if (name === 'ledgerAccount' && parent === 'generalLedger') {
          account = { code: '', name: '', type: undefined, fileLine };
        } else if (name === 'transactions') {
          // The opening balance, when there is one, comes before the transactions.
          sendOpening();
        } else if (name === 'journal' && parent === 'transactions') {
          facts.journals += 1;
          journal = '';
        } else if (name === 'transaction' && parent === 'journal') {
          transaction = { nr: '', date: '', description: '', fileLine };
          lines = [];
        } else if (name === 'trLine' || name === 'obLine') {
          line = { fileLine: String(fileLine) };
          vats = [];
        } else if (name === 'vat' && parent === 'trLine') {
          vats.push({});
        }
      },
      close(path, text, fileLine) {
        onLine(fileLine);
        const name = path.at(-1)!;
        const parent = path.at(-2);
        if (parent === 'header') {
          header[name] = text;
        } else if (account && parent === 'ledgerAccount') {
          if (name === 'accID') account.code = text;
          else if (name === 'accDesc') account.name = text;
          else if (name === 'accTp') account.accTp = text;
          else if (name === 'RGScode' || name === 'leadReference' || name === 'leadCode') {
            // 4.0's RGScode stands; an RGS code in a lead field is taken where none came yet.
            if (isRgsCode(text) && (name === 'RGScode' || account.rgs === undefined))
              account.rgs = text;
          }
        } else if (account && name === 'conceptRef' && path.includes('taxonomy')) {
          if (isRgsCode(text)) account.rgs ??= text;
        } else if (account && name === 'ledgerAccount') {
          const typed = typeOfXafAccount(account);
          tallyTyped(facts, typed.how);
          accounts.set(account.code, {
            code: account.code,
            name: account.name || account.code,
            type: typed.type,
            ...(typed.kind !== undefined && { kind: typed.kind }),
            fileLine: account.fileLine,
          });
          account = undefined;
        } else if (
          (parent === 'transactions' || parent === 'openingBalance') &&
          /^(linesCount|totalDebit|totalCredit)$/.test(name)
        ) {
          const figures = control.get(parent) ?? {};
          figures[name] = { text, line: fileLine };
          control.set(parent, figures);
        } else if (parent === 'openingBalance' && name === 'opBalDate') {
          openingDay = text;
        } else if (parent === 'journal' && name === 'jrnID') {
          journal = text;
        } else if (parent === 'vat' && path.at(-3) === 'trLine') {
          vats.at(-1)![name] = text;
        } else if (parent === 'trLine' || parent === 'obLine') {
          line[name] = text;
        } else if (name === 'obLine') {
          const at = Number(line.fileLine);
          const cents = signed(at);
          if (cents === undefined) return;
          tally('openingBalance', cents);
          const code = line.accID ?? '';
          const known = accounts.get(code) ?? { ...accountOf(code), fileLine: at };
          accounts.set(code, { ...known, opening: addCents(known.opening ?? ZERO_CENTS, cents) });
        } else if (name === 'trLine' && transaction) {
          const at = Number(line.fileLine);
          const cents = signed(at);
          facts.lines += 1;
          if (cents === undefined) return;
          tally('transactions', cents);
          if (cents === 0) {
            facts.zeroLines += 1;
            return;
          }
          const entry = `${journal} ${transaction.nr}`;
          const description = line.desc || transaction.description;
          lines.push(
            auditLine(
              {
                fileLine: at,
                date: transaction.date,
                entry,
                description,
                memo: [line.docRef, description].filter(Boolean).join(' ').slice(0, 1000),
              },
              accountOf(line.accID ?? ''),
              cents,
            ),
          );
          const side = cents > 0 ? 'D' : 'C';
          const own = vats.find((vat) => (vat.vatAmntTp ?? '').toUpperCase() === side && vat.vatID);
          if (own) {
            lines.at(-1)!.taxCode = own.vatID!;
            for (const vat of vats) {
              if (!vat.vatID) continue;
              const tax = auditAmount(vat.vatAmnt ?? '', at, 'vatAmnt', report);
              // vatAmntTp gives the side; Unit4 Multivers writes a credit note's VAT negative too.
              const size = tax === undefined ? undefined : absCents(tax);
              const debit = (vat.vatAmntTp ?? '').toUpperCase() === 'D';
              // A line of its own vat's size is the VAT line: its vat states itself, no other.
              if (size && size !== absCents(cents))
                taxes.push({ code: vat.vatID!, cents: debit ? size : negateCents(size) });
            }
          }
        } else if (transaction && parent === 'transaction' && name !== 'trLine') {
          if (name === 'nr') transaction.nr = text;
          else if (name === 'trDt') transaction.date = text;
          else if (name === 'desc') transaction.description = text;
        } else if (name === 'transaction' && transaction) {
          facts.transactions += 1;
          codeVatLines(lines, taxes);
          taxes = [];
          const entry = `${journal} ${transaction.nr}`;
          const balanced = balancedEntry(
            {
              fileLine: transaction.fileLine,
              entry,
              date: transaction.date,
              memo: transaction.description,
            },
            lines,
            fileLine,
            report,
            { dateField: 'trDt' },
          );
          if (balanced) ready.push(balanced);
          transaction = undefined;
          lines = [];
        }
      },
    },
    (digest) => (hash = digest),
  )) {
    yield* ready;
    ready.length = 0;
  }
  sendOpening();
  yield* ready;
  ready.length = 0;

  for (const section of ['transactions', 'openingBalance']) {
    const figures = control.get(section) ?? {};
    const sums = made.get(section) ?? { lines: 0, debit: ZERO_CENTS, credit: ZERO_CENTS };
    checkStatedCount(
      `${section} linesCount`,
      figures.linesCount,
      sums.lines,
      facts.contradictions,
      section === 'transactions' ? facts.transactions : undefined,
    );
    checkStatedTotal(`${section} totalDebit`, figures.totalDebit, sums.debit, report);
    checkStatedTotal(`${section} totalCredit`, figures.totalCredit, sums.credit, report);
  }
  facts.accounts = accounts.size;
  onEnd(hash, facts);

  function sendOpening() {
    if (openingSent) return;
    openingSent = true;
    const day = openingDay || header.startDate || undefined;
    facts.firstDay = day;
    if (day === undefined || !isCalendarDay(day)) return;
    const opening = openingEntry(facts, accounts.values(), day, options.offsetAccount, report);
    if (opening) ready.push(opening);
  }
}

/** The Dutch XML Auditfile Financieel, 3.1 to 4.0. */
export const xaf: LedgerFormatDefinition = {
  name: 'xaf',
  title: 'XML Auditfile Financieel (XAF)',
  detect: (head) => looksLikeXaf(head),
  toldBy: 'read as an XML Auditfile Financieel (XAF): its root is an auditfile in an XAF namespace',
  read: readAuditFile('XAF', readXaf),
};
