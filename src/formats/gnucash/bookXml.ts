import { readXml } from '../common/xmlStream.js';
import type { LedgerEntry, Problem } from '../ledgerCsv.js';
import {
  BookLedger,
  parseNumeric,
  type BookAccount,
  type BookCommodity,
  type BookFacts,
  type BookSplit,
  type BookTransaction,
} from './book.js';

/*
 * A GnuCash book saved as XML (`<gnc-v2>`, gzip-compressed as GnuCash saves it by default, or
 * not), streamed: its accounts (`gnc:account`: `act:name`, `act:id`, `act:type`, `act:parent`,
 * `act:code`, `act:commodity`, the `placeholder` and `hidden` slots), then each transaction
 * (`gnc:transaction`: `trn:currency`, `trn:num`, `trn:date-posted`, `trn:description`, the
 * `void-reason` slot, its `trn:split`s with `split:value`, `split:quantity`, `split:account`,
 * `split:memo`) handed on as it closes, never the book whole. What stands inside
 * `gnc:template-transactions` (the scheduled transactions' templates) is counted and left out;
 * prices, budgets, scheduled transactions and the business objects are not the ledger's.
 *
 * The posted day is the date GnuCash wrote (`2016-01-01 10:59:00 +0000`, or a local midnight
 * with its offset, `2016-01-01 00:00:00 +0100`): the day the user entered.
 */

type Element = readonly string[];

/** The element names under the book, without their namespaces. */
const at = (path: Element, ...names: string[]) =>
  path.length >= names.length &&
  names.every((name, i) => path[path.length - names.length + i] === name);

export async function* readGnuCashXml(
  file: string,
  gzip: boolean,
  options: { currency?: string },
  facts: BookFacts,
  report: (problem: Problem) => void,
  onLine: (line: number) => void,
  onEnd: (hash: string) => void,
): AsyncGenerator<LedgerEntry> {
  const ledger = new BookLedger(facts, report);
  const ready: LedgerEntry[] = [];
  let inTemplates = false;
  let account: BookAccount | undefined;
  let transaction: BookTransaction | undefined;
  let split: (Partial<BookSplit> & { line: number }) | undefined;
  let commodity: Partial<BookCommodity> = {};
  let slotKey = '';
  let chosen = false;
  const choose = () => {
    if (chosen) return;
    chosen = true;
    ledger.chooseCurrency(options.currency);
  };

  const elements = {
    open(path: Element, _attributes: Readonly<Record<string, string>>, line: number) {
      const name = path[path.length - 1]!;
      if (path.length === 1) {
        if (name !== 'gnc-v2')
          throw Object.assign(
            new Error(
              name === 'gnc'
                ? 'a GnuCash 1.x book (<gnc>): open it in GnuCash 2 or later and save it, then import that'
                : `its root is <${name}>, not a GnuCash book's <gnc-v2>`,
            ),
            { line },
          );
        return;
      }
      if (name === 'template-transactions') inTemplates = true;
      else if (name === 'account' && path[path.length - 2] !== 'split' && path.length <= 4)
        account = {
          id: '',
          name: '',
          type: '',
          parent: undefined,
          code: '',
          commodity: undefined,
          placeholder: false,
          hidden: false,
        };
      else if (name === 'transaction' && path.length <= 4) {
        choose();
        transaction = {
          id: '',
          line,
          date: '',
          number: '',
          description: '',
          currency: undefined,
          voided: false,
          splits: [],
        };
      } else if (name === 'split' && transaction) split = { line };
      else if (name === 'commodity' || name === 'currency') commodity = {};
    },
    close(path: Element, text: string, line: number) {
      onLine(line);
      const name = path[path.length - 1]!;
      if (name === 'template-transactions') {
        inTemplates = false;
        return;
      }
      if (account) {
        if (at(path, 'account', 'name')) account.name = text;
        else if (at(path, 'account', 'id')) account.id = text;
        else if (at(path, 'account', 'type')) account.type = text;
        else if (at(path, 'account', 'parent')) account.parent = text;
        else if (at(path, 'account', 'code')) account.code = text;
        else if (at(path, 'commodity', 'space')) commodity.space = text;
        else if (at(path, 'commodity', 'id')) commodity.id = text;
        else if (at(path, 'account', 'commodity'))
          account.commodity = { space: commodity.space ?? '', id: commodity.id ?? '' };
        else if (at(path, 'slot', 'key')) slotKey = text;
        else if (at(path, 'slot', 'value') && path.length === 6) {
          if (slotKey === 'placeholder') account.placeholder = text === 'true';
          if (slotKey === 'hidden') account.hidden = text === 'true';
        } else if (name === 'account' && path.length <= 4) {
          ledger.addAccount(account, inTemplates);
          account = undefined;
        }
        return;
      }
      if (!transaction) return;
      if (split) {
        if (at(path, 'split', 'value')) split.value = parseNumeric(text);
        else if (at(path, 'split', 'quantity')) split.quantity = parseNumeric(text);
        else if (at(path, 'split', 'account')) split.account = text;
        else if (at(path, 'split', 'memo')) split.memo = text;
        else if (name === 'split') {
          if (!split.value || !split.quantity || !split.account) {
            report({
              fileLine: split.line,
              message: 'a split without its value, quantity or account',
            });
          } else
            transaction.splits.push({
              account: split.account,
              value: split.value,
              quantity: split.quantity,
              memo: split.memo ?? '',
              line: split.line,
            });
          split = undefined;
        }
        return;
      }
      if (at(path, 'transaction', 'id')) transaction.id = text;
      else if (at(path, 'transaction', 'num')) transaction.number = text;
      else if (at(path, 'transaction', 'description')) transaction.description = text;
      else if (at(path, 'currency', 'space')) commodity.space = text;
      else if (at(path, 'currency', 'id')) commodity.id = text;
      else if (at(path, 'transaction', 'currency'))
        transaction.currency = { space: commodity.space ?? '', id: commodity.id ?? '' };
      else if (at(path, 'date-posted', 'date')) {
        const day = /^(\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
        if (day) transaction.date = day;
        else report({ fileLine: line, message: `the posted date "${text}" is not a date` });
      } else if (at(path, 'date-posted', 'gdate')) transaction.date = text;
      else if (at(path, 'slot', 'key')) slotKey = text;
      else if (at(path, 'slot', 'value') && path.length === 6 && slotKey === 'void-reason')
        transaction.voided = true;
      else if (name === 'transaction' && path.length <= 4) {
        const done = transaction;
        transaction = undefined;
        if (inTemplates) {
          facts.templates += 1;
          return;
        }
        if (done.date === '') return;
        const entry = ledger.entryOf(done);
        if (entry) ready.push(entry);
      }
    },
  };

  let hash = '';
  try {
    for await (const _ of readXml(file, undefined, elements, (digest) => (hash = digest), {
      gzip,
    })) {
      if (ready.length > 0) {
        yield* ready;
        ready.length = 0;
      }
    }
  } catch (error) {
    const line = (error as { line?: number }).line;
    if (line !== undefined && !(error as { kind?: string }).kind) {
      report({ fileLine: line, message: (error as Error).message });
      return;
    }
    throw error;
  }
  choose();
  yield* ready;
  onEnd(hash);
}
