import type { AccountType } from '../../api/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { addCents, negateCents, ZERO_CENTS, type Cents } from '../../core/money.js';
import {
  auditAmount,
  auditLine,
  balancedEntry,
  checkStatedCount,
  checkStatedTotal,
  newAuditFacts,
  openingEntry,
  type AuditAccount,
  type AuditFacts,
  type StatedFigure,
} from './auditFile.js';
import type { LedgerEntry, LedgerLine, Problem } from './ledgerCsv.js';
import { readXml } from './xmlStream.js';

/**
 * The Dutch XML Auditfile Financieel (XAF 3.x), as Exact Online, AFAS, Twinfield and others write
 * it: one XML document, read as a stream.
 *
 * - The chart is `generalLedger/ledgerAccount`: accID (the code), accDesc, accTp (B balance
 *   sheet, P profit and loss) and leadReference, the account's code in the Referentie
 *   GrootboekSchema (RGS), which types it (`BLim…` cash, `BEiv…` equity, `WOmz…` revenue…).
 * - An entry is a `transactions/journal/transaction`, named by jrnID and nr (numbers repeat
 *   across journals), dated trDt; each trLine an `amnt` with `amntTp` D or C.
 * - `openingBalance/obLine`s are one entry on opBalDate (else the header's startDate).
 * - The file checks the import: `linesCount`, `totalDebit` and `totalCredit` of the transactions
 *   and of the opening balance.
 */

/** RGS (Referentie GrootboekSchema) codes: the type of each prefix; the longest that fits wins. */
const RGS_TYPES: [string, AccountType][] = [
  ['BIva', 'Intangible Assets'],
  ['BMva', 'Fixed Assets'],
  ['BVas', 'Fixed Assets'],
  ['BFva', 'Investments'],
  ['BVrd', 'Inventory'],
  ['BVor', 'Other Current Assets'],
  ['BVorDeb', 'Accounts Receivable'],
  ['BVorOva', 'Prepaid Expenses'],
  ['BEff', 'Investments'],
  ['BLim', 'Cash'],
  ['BEiv', 'Equity'],
  ['BVrz', 'Other Liabilities'],
  ['BLas', 'Long-Term Loans'],
  ['BSch', 'Other Current Liabilities'],
  ['BSchCre', 'Accounts Payable'],
  ['BSchKol', 'Short-Term Loans'],
  ['BSchSal', 'Payroll Liabilities'],
  ['BSchBep', 'Payroll Liabilities'],
  ['WOmz', 'Income'],
  ['WOvb', 'Other Income'],
  ['WKpr', 'COGS'],
  ['WPer', 'Operating Expenses'],
  ['WAfs', 'Operating Expenses'],
  ['WBed', 'Operating Expenses'],
  ['WWvv', 'Other Expenses'],
  ['WFbe', 'Other Expenses'],
  ['WFbeOrb', 'Other Income'],
  ['WFbeRbb', 'Other Income'],
  ['WBel', 'Tax Expenses'],
  ['WBww', 'Other Expenses'],
  ['WNer', 'Other Expenses'],
];
const RGS_BY_LENGTH = [...RGS_TYPES].sort((a, b) => b[0].length - a[0].length);

/** The type an RGS code stands for. */
export function rgsType(reference: string): AccountType | undefined {
  return RGS_BY_LENGTH.find(([prefix]) => reference.startsWith(prefix))?.[1];
}

/**
 * Without an RGS code: the classes of the Dutch decimal chart (rekeningschema) that name one
 * type, when the account's accTp agrees — 3 inventory (B), 4 costs, 7 cost of sales, 8 revenue
 * (P). Classes 0, 1, 2 and 9 hold accounts of several types: left untyped.
 */
export function dutchClassType(code: string, balanceSheet: boolean): AccountType | undefined {
  const type = (
    { '3': 'Inventory', '4': 'Operating Expenses', '7': 'COGS', '8': 'Income' } as const
  )[code.charAt(0)];
  return type === undefined || (type === 'Inventory') !== balanceSheet ? undefined : type;
}

/** The first bytes show an XAF file: its root is an auditfile in the auditfiles.nl namespace. */
export const looksLikeXaf = (head: string) =>
  /<(\w+:)?auditfile\b[^>]*auditfiles\.nl\/XAF/i.test(head);

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
  let account: (AuditAccount & { balanceSheet?: boolean }) | undefined;
  let journal = '';
  let transaction: { nr: string; date: string; description: string; fileLine: number } | undefined;
  let lines: LedgerLine[] = [];
  let line: Record<string, string> & { fileLine?: string } = {};
  let openingDay = '';
  let openingSent = false;
  let hash = '';

  const accountOf = (code: string): Pick<AuditAccount, 'code' | 'name' | 'type'> =>
    accounts.get(code) ?? { code, name: code, type: undefined };
  const tally = (section: string, cents: Cents) => {
    const sum = made.get(section) ?? { lines: 0, debit: ZERO_CENTS, credit: ZERO_CENTS };
    sum.lines += 1;
    if (cents > 0) sum.debit = addCents(sum.debit, cents);
    else sum.credit = addCents(sum.credit, negateCents(cents));
    made.set(section, sum);
  };
  /** A line's debit-positive amount: `amnt` with `amntTp` D or C. */
  const signed = (fileLine: number): Cents | undefined => {
    const cents = auditAmount(line.amnt ?? '', fileLine, 'amnt', report);
    if (cents === undefined) return undefined;
    const side = (line.amntTp ?? '').toUpperCase();
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
      open(path, _attributes, fileLine) {
        const name = path.at(-1)!;
        const parent = path.at(-2);
        if (name === 'ledgerAccount' && parent === 'generalLedger') {
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
          else if (name === 'leadReference') account.type = rgsType(text);
          else if (name === 'accTp') account.balanceSheet = text.toUpperCase() === 'B';
        } else if (account && name === 'ledgerAccount') {
          const { balanceSheet, ...described } = account;
          accounts.set(described.code, {
            ...described,
            name: described.name || described.code,
            type: described.type ?? dutchClassType(described.code, balanceSheet ?? false),
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
        } else if (transaction && parent === 'transaction' && name !== 'trLine') {
          if (name === 'nr') transaction.nr = text;
          else if (name === 'trDt') transaction.date = text;
          else if (name === 'desc') transaction.description = text;
        } else if (name === 'transaction' && transaction) {
          facts.transactions += 1;
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
    checkStatedCount(`${section} linesCount`, figures.linesCount, sums.lines, report);
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
