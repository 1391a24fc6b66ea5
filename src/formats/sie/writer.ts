import { isProfitAndLoss, type AccountClass } from '../../api/index.js';
import { subtractCents, type Cents } from '../../core/money.js';
import { byCode } from '../../core/names.js';
import {
  compactDay,
  decimal,
  entryDescription,
  numbersOnly,
  type AuditFileWriter,
} from '../audit/writer.js';

/**
 * SIE 4E (SIE-Gruppen, "SIE filformat, Utgåva 4B"), the export of an accounting program to its
 * accountant: code page 437 as `#FORMAT PC8` says (a character it has not is replaced and said),
 * CR LF, every text quoted (`"` written `\"`), amounts with a point and a minus for credits.
 *
 * One fiscal year from its first day (`#RAR 0`), to its last or an earlier day (`#OMFATTN`),
 * and the year before (`#RAR -1`) when it has postings. In the specification's order: `#FLAGGA
 * 0`, `#PROGRAM`, `#FORMAT PC8`, `#GEN`, `#SIETYP 4`, `#FNAMN`, `#ORGNR` (`--org-number`, ten
 * digits with their check digit, written `NNNNNN-NNNN`) when given, `#VALUTA`, `#RAR`; the chart:
 * `#KONTO` and `#KTYP` (T assets, S liabilities and equity, K costs, I income) of every account
 * with a balance or a posting (numbers only: SIE accounts are numbers); the balances: `#IB 0`
 * and `#UB 0` of the balance accounts (and `#UB -1`), `#RES 0` of the result accounts (and `#RES
 * -1`); the earlier years' result on 2091 Balanserad vinst eller förlust (or
 * `--retained-earnings`); then a `#VER` per entry in date order, series `A`, numbered 1, 2, …,
 * its `#TRANS` lines (no object list, the voucher's date, the line's text).
 */

const KTYP: Record<AccountClass, string> = {
  Assets: 'T',
  Liabilities: 'S',
  Equity: 'S',
  Expenses: 'K',
  Income: 'I',
};

export const sieWriter: AuditFileWriter = {
  format: 'sie',
  title: 'SIE 4E',
  encoding: 'cp437',
  charset: 'SIE 4 (code page 437)',
  currency: 'SEK',
  retainedEarnings: () => ({ code: '2091', name: 'Balanserad vinst eller förlust' }),
  oneFiscalYear: true,
  fromFiscalYearStart: true,
  needsOrgNumber: false,
  fileName: (books) => `SIE4_${compactDay(books.from)}-${compactDay(books.to)}.SE`,
  refusal: (books) => numbersOnly('SIE', books),
  async write(books, put, text, options) {
    const q = (value: string) => `"${text.text(value).replaceAll('"', '\\"')}"`;
    const line = (...fields: string[]) => `${fields.join(' ')}\r\n`;
    const previous = books.previousYear;
    let head =
      line('#FLAGGA', '0') +
      line('#PROGRAM', q(options.software.name), q(options.software.version)) +
      line('#FORMAT', 'PC8') +
      line('#GEN', compactDay(options.createdOn)) +
      line('#SIETYP', '4') +
      line('#FNAMN', q(books.entity.name)) +
      (options.orgNumber ? line('#ORGNR', options.orgNumber) : '') +
      line('#VALUTA', options.currency) +
      line(
        '#RAR',
        '0',
        compactDay(books.fiscalYear.startDate),
        compactDay(books.fiscalYear.endDate),
      ) +
      (previous
        ? line('#RAR', '-1', compactDay(previous.startDate), compactDay(previous.endDate))
        : '') +
      (books.to < books.fiscalYear.endDate ? line('#OMFATTN', compactDay(books.to)) : '');

    // Every account the file names: this year's, and those only the year before has.
    const accounts = new Map(books.accounts.map((a) => [a.code, { name: a.name, class: a.class }]));
    for (const [code, account] of previous?.accounts ?? [])
      if (!accounts.has(code)) accounts.set(code, account);
    const codes = [...accounts.keys()].sort(byCode);
    for (const code of codes) {
      const account = accounts.get(code)!;
      head += line('#KONTO', code, q(account.name)) + line('#KTYP', code, KTYP[account.class]);
    }
    await put(head);

    let balances = '';
    const amount = (cents: Cents) => decimal(cents);
    for (const account of books.accounts) {
      if (isProfitAndLoss(account.class)) continue;
      const before = previous?.closing.get(account.code);
      if (before !== undefined) balances += line('#UB', '-1', account.code, amount(before));
      balances += line('#IB', '0', account.code, amount(account.opening));
      balances += line('#UB', '0', account.code, amount(account.closing));
    }
    for (const [code, cents] of [...(previous?.closing ?? [])].sort(([a], [b]) => byCode(a, b)))
      if (!books.accountByCode.has(code)) balances += line('#UB', '-1', code, amount(cents));
    for (const code of codes) {
      const result = previous?.results.get(code);
      if (result !== undefined) balances += line('#RES', '-1', code, amount(result));
    }
    for (const account of books.accounts)
      if (isProfitAndLoss(account.class))
        balances += line(
          '#RES',
          '0',
          account.code,
          amount(subtractCents(account.closing, account.opening)),
        );
    await put(balances);

    for await (const entry of books.entries()) {
      const day = compactDay(entry.date);
      const description = entryDescription(entry);
      let voucher = line('#VER', 'A', String(entry.number), day, q(description), day) + '{\r\n';
      for (const posting of entry.lines)
        voucher += line(
          '#TRANS',
          posting.code,
          '{}',
          amount(subtractCents(posting.debit, posting.credit)),
          day,
          q(posting.description.trim() || description),
        );
      await put(`${voucher}}\r\n`);
    }
  },
};
