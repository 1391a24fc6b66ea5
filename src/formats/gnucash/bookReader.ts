import { listed } from '../../core/names.js';
import { count, readExport, type LedgerFormatDefinition } from '../format.js';
import { newBookFacts, type BookFacts } from './book.js';
import { readGnuCashSqlite } from './bookSqlite.js';
import { readGnuCashXml } from './bookXml.js';

/*
 * The GnuCash book itself (`.gnucash`), told by its first bytes: gzip-compressed XML (GnuCash's
 * default), plain XML (`<gnc-v2>`), or SQLite (`SQLite format 3`). book.ts says how it is read.
 */

const isGzip = (head: string) => head.startsWith('\x1f\x8b');
const isSqlite = (head: string) => head.startsWith('SQLite format 3\0');
/** `<gnc-v2>` after the XML declaration and any comments GnuCash or a person put first. */
const isBookXml = (head: string) =>
  /^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<gnc(?:-v2[\s>]|>\s*<version>)/.test(
    head,
  );

/**
 * A SQLite database is read as a GnuCash book (no other format books reads is one): one that
 * is not says so, naming the tables it lacks.
 */
export const looksLikeGnuCashBook = (head: string) =>
  isGzip(head) || isBookXml(head) || isSqlite(head);

export const gnucashBook: LedgerFormatDefinition = {
  name: 'gnucash-book',
  title: 'GnuCash book (.gnucash: XML, gzip or not, or SQLite)',
  detect: (head) => looksLikeGnuCashBook(head),
  toldBy: 'read as a GnuCash book: its first bytes are gzip, <gnc-v2> or SQLite',
  encodingSaid: false,
  read: (file, head, options, result) => {
    const kind: BookFacts['kind'] = isSqlite(head)
      ? 'SQLite'
      : isGzip(head)
        ? 'gzip-compressed XML'
        : 'XML';
    const facts = newBookFacts(kind);
    const given = { ...(options.currency !== undefined && { currency: options.currency }) };
    return readExport<BookFacts>(
      result,
      (report, onLine, onEnd) => {
        const end = (hash: string) => onEnd(hash, facts);
        return kind === 'SQLite'
          ? readGnuCashSqlite(file, given, facts, report, onLine, end)
          : readGnuCashXml(file, kind !== 'XML', given, facts, report, onLine, end);
      },
      (f) => [
        `GnuCash book (${f.kind}): ${count(f.accounts, 'account', 'accounts')}, ${count(f.transactions, 'transaction', 'transactions')} of ${count(f.splits, 'split', 'splits')}, in ${f.currency ?? 'no currency'}${options.currency === undefined ? " (the book's: most of its accounts')" : ' (--currency)'}; accounts by full name, typed by their GnuCash type`,
        f.voided > 0 &&
          `GnuCash: ${count(f.voided, 'voided transaction', 'voided transactions')} left out`,
        f.templates > 0 &&
          `GnuCash: ${count(f.templates, "scheduled transactions' template", "scheduled transactions' templates")} left out (they are not postings)`,
        f.otherCurrency > 0 &&
          `GnuCash: ${count(f.otherCurrency, 'transaction', 'transactions')} in another currency than ${f.currency}, valued at the rate its splits in ${f.currency} show`,
        f.otherCommodity > 0 &&
          `GnuCash: ${count(f.otherCommodity, 'split', 'splits')} of accounts in another commodity than ${f.currency} (shares, another currency), posted at ${f.otherCommodity === 1 ? 'its' : 'their'} value, ${f.otherCommodity === 1 ? 'its' : 'their'} quantity in ${f.otherCommodity === 1 ? 'its' : 'their'} description`,
        f.zeroSplits > 0 && `GnuCash: ${count(f.zeroSplits, 'split', 'splits')} of zero left out`,
        f.hidden.size > 0 &&
          `GnuCash: ${count(f.hidden.size, 'hidden account holds', 'hidden accounts hold')} postings, imported: ${listed([...f.hidden])}`,
        f.placeholders.size > 0 &&
          `GnuCash: ${count(f.placeholders.size, 'placeholder account holds', 'placeholder accounts hold')} postings, imported: ${listed([...f.placeholders])}`,
        f.zonedDays > 0 &&
          `GnuCash: ${count(f.zonedDays, 'posted date', 'posted dates')} kept at a local midnight (before GnuCash 2.6.12) read as days in ${f.timeZone} (this machine's time zone, as GnuCash shows them)`,
      ],
    );
  },
};
