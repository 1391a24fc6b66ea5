import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import type { BankStatement } from '../../src/formats/statement.js';
import { readStatementFile } from '../../src/formats/statements.js';

/*
 * Real bank statements (test/fixtures/statements, their sources in SOURCES.md), each read to its
 * own balances: the figures this test takes from the file's text alone — MT940's :60F:/:62F:,
 * camt's OPBD (or PRCD) and CLBD, BAI2's 010 and 015, OFX's LEDGERBAL, QIF's opening balance
 * record, the old and new balance records of CODA (1, 8), Norma 43 (11, 33) and CFONB (01, 07)
 * — and, where a statement states both balances, its entries making the closing from
 * the opening, or the reader saying by how much they do not.
 */

const ROOT = new URL('../fixtures/statements/', import.meta.url).pathname;
const filesOf = (folder: string) =>
  readdirSync(path.join(ROOT, folder))
    .sort()
    .map((name) => path.join(folder, name));

/** A decimal as these files write it (`1234,56`, `1234,`, `-12.50`) in cents. */
const cents = (text: string, decimal: ',' | '.') => {
  const [whole = '0', fraction = ''] = text.replace(/^[+-]/, '').split(decimal);
  const value = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return text.startsWith('-') ? -value : value;
};

/** Each statement's stated opening and closing, from the file's text alone. */
function statedBalances(
  folder: string,
  text: string,
): { opening: number | null; closing: number | null }[] {
  switch (folder) {
    case 'mt940': {
      const found: { opening: number | null; closing: number | null }[] = [];
      let continuing = false;
      for (const message of text.split(/(?=:20:)/).filter((m) => /:(60[FM]|61|62[FM]):/.test(m))) {
        const open = /:60([FM]):([CD])\d{6}[A-Z]{0,3}([\d,]+)/.exec(message);
        const close = /:62([FM]):([CD])\d{6}[A-Z]{0,3}([\d,]+)/.exec(message);
        const signed = (m: RegExpExecArray | null) =>
          m ? (m[2] === 'D' ? -1 : 1) * cents(m[3]!, ',') : null;
        if (continuing && open?.[1] === 'M') found.at(-1)!.closing = signed(close);
        else found.push({ opening: signed(open), closing: signed(close) });
        continuing = close?.[1] === 'M';
      }
      return found;
    }
    case 'camt':
      return [...text.matchAll(/<(?:\w+:)?(Stmt|Rpt|Ntfctn)>([\s\S]*?)<\/(?:\w+:)?\1>/g)].map(
        ([, kind, body]) => {
          const balances = (codes: string) =>
            [
              ...body!.matchAll(
                new RegExp(
                  `<Cd>(${codes})</Cd>[\\s\\S]*?<Amt[^>]*>([\\d.]+)</Amt>\\s*<CdtDbtInd>(\\w+)`,
                  'g',
                ),
              ),
            ].map((m) => (m[3] === 'DBIT' ? -1 : 1) * cents(m[2]!, '.'));
          // A report within the day (camt.052) without a closing balance: its last interim one.
          const closing =
            balances('CLBD')[0] ?? (kind === 'Rpt' ? balances('ITBD').at(-1) : undefined);
          return { opening: balances('OPBD|PRCD')[0] ?? null, closing: closing ?? null };
        },
      );
    case 'bai2':
      return [...text.matchAll(/(?:^|\s)03,[^,]*,[^,]*,([^/]*)\/([\s\S]*?)(?:^|\s)49,/g)].map(
        ([, rest, body]) => {
          // BAI2 amounts are whole cents already (12345 is 123.45), signed where balances.
          const amount = (code: string) => {
            const m = new RegExp(`(?:^|,)${code},([+-]?\\d+)`).exec(rest!);
            return m ? Number(m[1]!) : null;
          };
          if (amount('010') !== null || amount('015') !== null)
            return { opening: amount('010'), closing: amount('015') };
          // No ledger balances: the available ones (040/045), where the entries tie them.
          const moved = [...body!.matchAll(/(?:^|\s)16,(\d{3}),(\d+)/g)].reduce(
            (sum, [, code, cents]) => {
              const type = Number(code);
              const sign =
                type < 400 || (type >= 920 && type < 960) ? 1 : type < 700 || type >= 960 ? -1 : 0;
              return sum + sign * Number(cents);
            },
            0,
          );
          const [opening, closing] = [amount('040'), amount('045')];
          return opening !== null && closing !== null && opening + moved === closing
            ? { opening, closing }
            : { opening: null, closing: null };
        },
      );
    case 'coda':
    case 'norma43':
    case 'cfonb120': {
      // Fixed positions, as each standard gives them: the old balance record opens a statement
      // and the new balance record closes it.
      const records = text.split(/\r\n|\n/).filter((line) => line.trim() !== '');
      const [open, close] = { coda: ['1', '8'], norma43: ['11', '33'], cfonb120: ['01', '07'] }[
        folder
      ];
      const at = (line: string, from: number, to: number) => line.slice(from - 1, to);
      const balance = (line: string, opening: boolean) => {
        if (folder === 'coda') {
          const [sign, from] = opening ? [43, 44] : [42, 43];
          const value = Number(at(line, from, from + 14)) / 10;
          return at(line, sign, sign) === '1' ? -value : value;
        }
        if (folder === 'norma43') {
          const [key, from] = opening ? [33, 34] : [59, 60];
          const value = Number(at(line, from, from + 13));
          return at(line, key, key) === '1' ? -value : value;
        }
        const amount = at(line, 91, 104);
        const last = amount.at(-1)!;
        const negative = '}JKLMNOPQR'.indexOf(last);
        const digit = negative >= 0 ? negative : '{ABCDEFGHI'.indexOf(last);
        const units = Number(`${amount.slice(0, 13)}${digit}`);
        const value = units * 10 ** (2 - Number(at(line, 20, 20)));
        return negative >= 0 ? -value : value;
      };
      const found: { opening: number | null; closing: number | null }[] = [];
      for (const line of records) {
        if (line.startsWith(open!) && (folder !== 'coda' || /^1[0-3]/.test(line)))
          found.push({ opening: balance(line, true), closing: null });
        else if (line.startsWith(close!)) found.at(-1)!.closing = balance(line, false);
      }
      return found;
    }
    case 'ofx':
      return [...text.matchAll(/<(CC)?STMTRS>([\s\S]*?)<\/(CC)?STMTRS>/g)].map(([, , body]) => {
        const m = /<LEDGERBAL>\s*<BALAMT>\s*([-\d.]+)/.exec(body!);
        return { opening: null, closing: m ? cents(m[1]!, '.') : null };
      });
    default: {
      const m = /POpening Balance/.test(text)
        ? /\nT([-\d.,]+)\n(?:C.*\n)?POpening Balance/.exec(text)
        : null;
      return [{ opening: m ? cents(m[1]!.replace(/,/g, ''), '.') : null, closing: null }];
    }
  }
}

const booked = (s: BankStatement) =>
  s.entries.filter((e) => e.status === 'booked').reduce((n, e) => n + e.amount, 0);

describe.each(['mt940', 'camt', 'bai2', 'ofx', 'qif', 'coda', 'norma43', 'cfonb120'])(
  '%s',
  (folder) => {
    it.each(filesOf(folder))('%s reads to its own balances', async (name) => {
      const file = path.join(ROOT, name);
      const bytes = readFileSync(file);
      const text = iconv.decode(
        bytes,
        /[\x80-\xff]/.test(bytes.toString('latin1')) && !bytes.toString('utf8').includes('\uFFFD')
          ? 'utf8'
          : 'latin1',
      );
      const read = await readStatementFile(file);
      expect(read.format).toBe(folder);
      const stated = statedBalances(folder, text);
      const statements = read.statements;
      expect(statements.length).toBeGreaterThan(0);
      expect(statements.map((s) => ({ opening: s.opening, closing: s.closing }))).toEqual(stated);
      const said = read.checks.map((c) => c.message).join('\n');
      for (const statement of statements) {
        if (statement.opening === null || statement.closing === null) continue;
        const made = statement.opening + booked(statement);
        if (made === statement.closing)
          expect(said).not.toContain(`make ${(made / 100).toFixed(2)}`);
        else expect(said).toMatch(/but the closing balance is/);
      }
      for (const statement of statements)
        for (const entry of statement.entries) {
          expect(entry.bookingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(Number.isSafeInteger(entry.amount)).toBe(true);
        }
    });
  },
);
