import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { utf16Of } from '../common/byteOrderMark.js';
import { InvalidAmountError, type Cents } from '../../core/money.js';
import { overlongRun, overlongText } from '../common/bounds.js';
import { statementBytes } from '../common/statementText.js';
import {
  bankAmount,
  compactOrIsoDay,
  entriesPeriod,
  UnreadableStatement,
  type BankStatement,
  type StatementCheck,
  type StatementEntry,
  type StatementFormatDefinition,
} from '../statement.js';

/**
 * OFX, the statements American, Canadian and Australian banks and card issuers give for
 * download (QFX is Quicken's OFX with a few `INTU.` elements more): version 1 (SGML: a header of
 * `KEY:VALUE` lines, elements whose values are not closed) and version 2 (XML, an `<?OFX …?>`
 * header; some banks still leave values unclosed there too, so one tolerant reading serves both).
 *
 * - Each `STMTRS` (a bank account: `BANKACCTFROM/ACCTID`) or `CCSTMTRS` (a credit card:
 *   `CCACCTFROM/ACCTID`) is a statement: its currency `CURDEF`, its period `DTSTART`–`DTEND`
 *   (the days as the bank wrote them), its closing balance `LEDGERBAL/BALAMT`. OFX states no
 *   opening balance.
 * - Each `STMTTRN` is an entry: `TRNAMT` already signed as money in or out of the account (a
 *   card purchase is negative), `DTPOSTED` the booking day, `DTAVAIL` the value day, `FITID`
 *   the bank's reference (`CHECKNUM` said in the text), `NAME` or `PAYEE/NAME` the other
 *   party, `MEMO` the text. A correction (`CORRECTACTION` `REPLACE` or `DELETE` of a
 *   `CORRECTFITID`) replaces or removes the entry it names.
 * - Investment statements (`INVSTMTRS`) are not bank statements: said and left out.
 * - The header's `CHARSET` (1252, ISO-8859-1) or `ENCODING` (UTF-8), or the XML declaration's,
 *   decodes the bytes; `--encoding` overrides.
 */

export const looksLikeOfx = (head: string) =>
  /^\s*(\xef\xbb\xbf)?\s*OFXHEADER\s*:/i.test(head) ||
  /<\?OFX\b/i.test(head) ||
  /^\s*(\xef\xbb\xbf)?\s*<OFX>/i.test(head);

interface Token {
  kind: 'open' | 'close';
  name: string;
  /** An element's value: the text after its tag, up to the next tag. */
  value: string;
  line: number;
}

/** The tags of an OFX body, SGML or XML, each with the text that follows it. */
function* tokens(text: string): Generator<Token> {
  let line = 1;
  let at = text.indexOf('<');
  const countLines = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) line += 1;
  };
  countLines(0, Math.max(at, 0));
  while (at >= 0) {
    const end = text.indexOf('>', at);
    if (end < 0) throw new UnreadableStatement('the file ends inside a tag: it is cut short', line);
    const tag = text.slice(at + 1, end).trim();
    const next = text.indexOf('<', end + 1);
    const value = text.slice(end + 1, next < 0 ? text.length : next);
    const tagLine = line;
    countLines(at, next < 0 ? text.length : next);
    at = next;
    if (tag.startsWith('?') || tag.startsWith('!')) continue;
    if (tag.startsWith('/'))
      yield { kind: 'close', name: tag.slice(1).trim().toUpperCase(), value: '', line: tagLine };
    else
      yield {
        kind: 'open',
        name: tag.split(/\s/)[0]!.toUpperCase(),
        value: unescape(value.trim()),
        line: tagLine,
      };
  }
}

const unescape = (value: string) =>
  value
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&nbsp;', ' ')
    .replaceAll('&amp;', '&');

/** Aggregates: elements that hold others, never a value. */
const AGGREGATES = new Set([
  'OFX',
  'SIGNONMSGSRSV1',
  'SONRS',
  'STATUS',
  'FI',
  'BANKMSGSRSV1',
  'STMTTRNRS',
  'STMTRS',
  'CREDITCARDMSGSRSV1',
  'CCSTMTTRNRS',
  'CCSTMTRS',
  'BANKACCTFROM',
  'CCACCTFROM',
  'BANKACCTTO',
  'CCACCTTO',
  'BANKTRANLIST',
  'STMTTRN',
  'PAYEE',
  'LEDGERBAL',
  'AVAILBAL',
  'BALLIST',
  'BAL',
  'CURRENCY',
  'ORIGCURRENCY',
  'INVSTMTMSGSRSV1',
  'INVSTMTTRNRS',
  'INVSTMTRS',
  'MKTGINFO',
]);

interface Transaction {
  line: number;
  fields: Map<string, string>;
  payeeName: string | undefined;
}

function decode(bytes: Buffer, encoding: string | undefined, checks: StatementCheck[]): string {
  if (encoding !== undefined) {
    if (!iconv.encodingExists(encoding))
      throw new UnreadableStatement(`--encoding ${encoding} is not an encoding books knows`);
    return iconv.decode(bytes, encoding);
  }
  const utf16 = utf16Of(bytes);
  if (utf16) return iconv.decode(bytes, utf16).replace(/^\uFEFF/, '');
  const head = bytes.subarray(0, 1024).toString('latin1');
  const declared = /encoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
  const sgmlEncoding = /^\s*ENCODING\s*:\s*(\S+)/im.exec(head)?.[1];
  const charset = /^\s*CHARSET\s*:\s*(\S+)/im.exec(head)?.[1];
  if (bytes.indexOf(0) >= 0)
    throw new UnreadableStatement('it holds NUL bytes: this is not a text file');
  if (declared && !/^utf-?8$/i.test(declared) && iconv.encodingExists(declared))
    return iconv.decode(bytes, declared);
  if ((sgmlEncoding && /utf-?8/i.test(sgmlEncoding)) || isUtf8(bytes))
    return bytes.toString('utf8');
  const named =
    charset === '1252'
      ? 'windows-1252'
      : charset && /8859-1|latin/i.test(charset)
        ? 'latin1'
        : undefined;
  if (named === undefined)
    checks.push({
      line: 1,
      message: 'OFX: the file is not UTF-8 and names no character set: read as Windows-1252',
    });
  return iconv.decode(bytes, named ?? 'windows-1252');
}

export const ofx: StatementFormatDefinition = {
  name: 'ofx',
  title: 'OFX/QFX',
  detect: looksLikeOfx,
  async read(file, options) {
    const checks: StatementCheck[] = [];
    const text = decode(await statementBytes(file), options.encoding, checks).replace(
      /^\uFEFF/,
      '',
    );
    if (!/<OFX>/i.test(text))
      throw new UnreadableStatement('it has an OFX header but no <OFX> body');
    // OFX may be one line; what runs a million characters between two tags is refused.
    const overlong = overlongRun(text, '<');
    if (overlong !== undefined)
      throw new UnreadableStatement(
        overlongText('OFX: a value (the characters between two tags)'),
        overlong,
      );
    const statements: BankStatement[] = [];
    const stack: string[] = [];
    let statement: (BankStatement & { byFitid: Map<string, number> }) | undefined;
    let transaction: Transaction | undefined;
    let closedOfx = false;
    const inside = (name: string) => stack.includes(name);
    for (const token of tokens(text)) {
      if (token.kind === 'close') {
        const index = stack.lastIndexOf(token.name);
        if (index < 0) continue; // the closing tag of a value (OFX 2), or one never opened
        const closed = stack.splice(index);
        if (closed.includes('STMTTRN') && transaction && statement) {
          addTransaction(statement, transaction, checks);
          transaction = undefined;
        }
        if ((closed.includes('STMTRS') || closed.includes('CCSTMTRS')) && statement) {
          statements.push(finish(statement));
          statement = undefined;
        }
        if (closed.includes('OFX')) closedOfx = true;
        continue;
      }
      const name = token.name;
      if (AGGREGATES.has(name) || (token.value === '' && !LEAVES.has(name))) {
        stack.push(name);
        if (name === 'STMTRS' || name === 'CCSTMTRS') {
          statement = {
            account: null,
            currency: null,
            from: null,
            to: null,
            opening: null,
            closing: null,
            entries: [],
            card: name === 'CCSTMTRS',
            line: token.line,
            byFitid: new Map(),
          };
        } else if (name === 'STMTTRN' && statement) {
          transaction = { line: token.line, fields: new Map(), payeeName: undefined };
        } else if (name === 'INVSTMTRS') {
          checks.push({
            line: token.line,
            message: 'OFX: an investment statement (INVSTMTRS) is not a bank statement: left out',
          });
        }
        continue;
      }
      // A value.
      if (transaction && inside('STMTTRN')) {
        if (name === 'NAME' && inside('PAYEE')) transaction.payeeName = token.value;
        else if (!transaction.fields.has(name)) transaction.fields.set(name, token.value);
      } else if (statement) {
        if (name === 'CURDEF') statement.currency = token.value.toUpperCase();
        else if (name === 'ACCTID' && (inside('BANKACCTFROM') || inside('CCACCTFROM')))
          statement.account = token.value.trim();
        else if (name === 'DTSTART' && inside('BANKTRANLIST'))
          statement.from = compactOrIsoDay(token.value) ?? null;
        else if (name === 'DTEND' && inside('BANKTRANLIST'))
          statement.to = compactOrIsoDay(token.value) ?? null;
        else if (name === 'BALAMT' && inside('LEDGERBAL'))
          statement.closing = amountOf(token.value, token.line);
      }
    }
    if (statement !== undefined || stack.includes('STMTTRN'))
      throw new UnreadableStatement('the file ends inside a statement: it is cut short');
    if (!closedOfx && stack.length > 0)
      checks.push({ line: 1, message: 'OFX: the file ends without </OFX>' });
    return { format: 'ofx', statements, checks };
  },
};

/** Elements that hold a value even when it is empty (`<MEMO>` with nothing after it). */
const LEAVES = new Set([
  'MEMO',
  'NAME',
  'CHECKNUM',
  'REFNUM',
  'FITID',
  'PAYEEID',
  'SIC',
  'ACCTKEY',
  'BANKID',
  'BRANCHID',
]);

function amountOf(text: string, line: number): Cents {
  try {
    // Some banks write a decimal comma (`-12,50`): a comma with no point is one.
    const normalized = /^[+-]?\d*,\d+$/.test(text.trim())
      ? text.trim().replace(',', '.')
      : text.trim();
    return bankAmount(normalized, { signed: true });
  } catch (error) {
    if (!(error instanceof InvalidAmountError)) throw error;
    throw new UnreadableStatement(`OFX: ${error.message}`, line);
  }
}

function addTransaction(
  statement: BankStatement & { byFitid: Map<string, number> },
  transaction: Transaction,
  checks: StatementCheck[],
): void {
  const f = transaction.fields;
  const correctAction = f.get('CORRECTACTION')?.toUpperCase();
  const corrected = f.get('CORRECTFITID');
  if (correctAction === 'DELETE' && corrected !== undefined) {
    const index = statement.byFitid.get(corrected);
    if (index === undefined)
      checks.push({
        line: transaction.line,
        message: `OFX: a correction deletes FITID ${corrected}, which the file does not hold`,
      });
    else statement.entries[index] = { ...statement.entries[index]!, status: 'info' };
    return;
  }
  const posted = compactOrIsoDay(f.get('DTPOSTED') ?? '');
  if (posted === undefined)
    throw new UnreadableStatement(
      `OFX: a transaction has no posting day (DTPOSTED "${f.get('DTPOSTED') ?? ''}")`,
      transaction.line,
    );
  const amountText = f.get('TRNAMT');
  if (amountText === undefined)
    throw new UnreadableStatement('OFX: a transaction has no amount (TRNAMT)', transaction.line);
  const name = (transaction.payeeName ?? f.get('NAME') ?? '').trim();
  const memo = (f.get('MEMO') ?? '').trim();
  const check = f.get('CHECKNUM')?.trim();
  const entry: StatementEntry = {
    bookingDate: posted,
    valueDate: compactOrIsoDay(f.get('DTAVAIL') ?? '') ?? null,
    amount: amountOf(amountText, transaction.line),
    reference: f.get('FITID')?.trim() || f.get('REFNUM')?.trim() || null,
    counterparty: name || null,
    description: [check ? `check ${check}` : '', memo && memo !== name ? memo : name]
      .filter(Boolean)
      .join(': '),
    status: 'booked',
    line: transaction.line,
  };
  if (correctAction === 'REPLACE' && corrected !== undefined && statement.byFitid.has(corrected)) {
    statement.entries[statement.byFitid.get(corrected)!] = {
      ...statement.entries[statement.byFitid.get(corrected)!]!,
      status: 'info',
    };
  }
  const fitid = f.get('FITID')?.trim();
  if (fitid) {
    if (statement.byFitid.has(fitid))
      checks.push({
        line: transaction.line,
        message: `OFX: FITID ${fitid} is given to two transactions`,
      });
    statement.byFitid.set(fitid, statement.entries.length);
  }
  statement.entries.push(entry);
}

function finish(statement: BankStatement & { byFitid: Map<string, number> }): BankStatement {
  const { byFitid: _byFitid, ...rest } = statement;
  // Entries a correction replaced or deleted are not the bank's any more.
  const entries = rest.entries.filter((e) => e.status !== 'info');
  const ofEntries = entriesPeriod(entries);
  return { ...rest, entries, from: rest.from ?? ofEntries.from, to: rest.to ?? ofEntries.to };
}
