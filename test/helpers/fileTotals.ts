import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';

/*
 * What a real export's own figures say, per account, computed in a few lines that share nothing
 * with books: what its import must make.
 */

/** Per account, the sum in cents of an IIF file's TRNS and SPL amounts (positive: debit). */
export function iifTotals(file: string): Map<string, number> {
  const columns = new Map<string, string[]>();
  const totals = new Map<string, number>();
  for (const row of readFileSync(file, 'latin1').split(/\r?\n/)) {
    const fields = row.split('\t').map((f) => f.trim().replace(/^"(.*)"$/, '$1'));
    const kind = fields[0]!;
    if (kind.startsWith('!')) columns.set(kind.slice(1), fields.slice(1));
    if (kind !== 'TRNS' && kind !== 'SPL') continue;
    const named = columns.get(kind)!;
    const account = fields[named.indexOf('ACCNT') + 1]!;
    const cents = Math.round(Number(fields[named.indexOf('AMOUNT') + 1]!.replace(/,/g, '')) * 100);
    totals.set(account, (totals.get(account) ?? 0) + cents);
  }
  for (const [account, cents] of totals) if (cents === 0) totals.delete(account);
  return totals;
}

/** Per GnuCash full account name, the sum in cents of its splits' Amount Num. */
export function gnucashTotals(file: string): Map<string, number> {
  const [header, ...rows] = parse(readFileSync(file)) as string[][];
  const account = header!.indexOf('Full Account Name');
  const amount = header!.indexOf('Amount Num.');
  const totals = new Map<string, number>();
  for (const row of rows) {
    const cents = Math.round(Number(row[amount]!.replace(/,/g, '')) * 100);
    totals.set(row[account]!, (totals.get(row[account]!) ?? 0) + cents);
  }
  for (const [name, cents] of totals) if (cents === 0) totals.delete(name);
  return totals;
}

/**
 * Per account of a nominal ledger report, its running balance where its section ends (the
 * report's own total), in cents; a name two codes share is told apart by its code.
 */
export function nominalLedgerTotals(file: string): Map<string, number> {
  const sections: { code: string; name: string; cents: number }[] = [];
  let balanceColumn = -1;
  for (const row of parse(readFileSync(file), { relax_column_count: true }) as string[][]) {
    const heading = row.map((c) => /^Account: (\S+) - (.+)$/.exec(c.trim())).find(Boolean);
    if (heading) {
      sections.push({ code: heading[1]!, name: heading[2]!.trim(), cents: 0 });
      continue;
    }
    if (row.some((c) => c.trim() === 'Balance'))
      balanceColumn = row.findIndex((c) => c.trim() === 'Balance');
    const balance = (row[balanceColumn] ?? '').trim();
    if (sections.length > 0 && balanceColumn >= 0 && /^-?[\d,]+\.\d\d$/.test(balance))
      sections.at(-1)!.cents = Math.round(Number(balance.replace(/,/g, '')) * 100);
  }
  const codes = new Map<string, number>();
  for (const s of sections)
    codes.set(s.name.toLowerCase(), (codes.get(s.name.toLowerCase()) ?? 0) + 1);
  const totals = new Map<string, number>();
  for (const s of sections) {
    if (s.cents === 0) continue;
    totals.set(
      (codes.get(s.name.toLowerCase()) ?? 0) > 1 ? `${s.name} (${s.code})` : s.name,
      s.cents,
    );
  }
  return totals;
}

/** An entity's trial balance over all time, in cents by account name (debits positive). */

/** Cents of a decimal text with a point (or, `comma`, a comma). */
export const centsOf = (text: string, comma = false) =>
  Math.round(Number((comma ? text.replace(/\./g, '').replace(',', '.') : text).trim()) * 100);

/** Adds `cents` to `name` in `totals`. */
export const add = (totals: Map<string, number>, name: string, cents: number) =>
  totals.set(name, (totals.get(name) ?? 0) + cents);

/** Drops accounts at zero: the trial balance lists none. */
export const nonZero = (totals: Map<string, number>) =>
  new Map([...totals].filter(([, cents]) => cents !== 0));

/**
 * A SAF-T file's own figures, by account name: each account's opening balance and lines (what
 * its closing balance says, where the file agrees with itself), and the opening balances' sum.
 */
export function saftTotals(file: string) {
  const text = readFileSync(file, 'utf8');
  const totals = new Map<string, number>();
  const names = new Map<string, string>();
  let openings = 0;
  const tag = (block: string, name: string) =>
    new RegExp(`<n1:${name}>([^<]*)</n1:${name}>`).exec(block)?.[1];
  const ledger = text.slice(0, text.indexOf('</n1:GeneralLedgerAccounts>'));
  for (const [block] of ledger.matchAll(/<n1:Account>[\s\S]*?<\/n1:Account>/g)) {
    const name = tag(block, 'AccountDescription')!;
    names.set(tag(block, 'AccountID')!, name);
    const opening =
      centsOf(tag(block, 'OpeningDebitBalance') ?? '0') -
      centsOf(tag(block, 'OpeningCreditBalance') ?? '0');
    openings += opening;
    add(totals, name, opening);
  }
  for (const [block] of text.matchAll(/<n1:Line>[\s\S]*?<\/n1:Line>/g)) {
    const debit = /<n1:DebitAmount>\s*<n1:Amount>([^<]*)</.exec(block)?.[1];
    const credit = /<n1:CreditAmount>\s*<n1:Amount>([^<]*)</.exec(block)?.[1];
    add(
      totals,
      names.get(tag(block, 'AccountID')!)!,
      centsOf(debit ?? '0') - centsOf(credit ?? '0'),
    );
  }
  return { totals, openings };
}

/** An XAF file's own figures, by account name: its lines, `amnt` by `amntTp`. */
export function xafTotals(file: string, encoding: BufferEncoding = 'utf8') {
  const text = readFileSync(file, encoding);
  const names = new Map<string, string>();
  for (const [, id, name] of text.matchAll(
    /<ledgerAccount>\s*<accID>([^<]*)<\/accID>\s*<accDesc>([^<]*)<\/accDesc>/g,
  ))
    names.set(id!, name!.replace(/&amp;/g, '&'));
  // A name the chart gives two codes is told apart by its code, as books names such accounts.
  const codesOf = new Map<string, number>();
  for (const name of names.values())
    codesOf.set(name.toLowerCase(), (codesOf.get(name.toLowerCase()) ?? 0) + 1);
  const nameOf = (id: string) => {
    const name = names.get(id) ?? id;
    return (codesOf.get(name.toLowerCase()) ?? 0) > 1 ? `${name} (${id})` : name;
  };
  const totals = new Map<string, number>();
  for (const [block] of text.matchAll(/<(trLine|obLine)>[\s\S]*?<\/\1>/g)) {
    const id = /<accID>([^<]*)</.exec(block)![1]!;
    const cents = centsOf(/<amnt>([^<]*)</.exec(block)![1]!);
    add(totals, nameOf(id), /<amntTp>D</.test(block) ? cents : -cents);
  }
  return totals;
}

/** Per CompteLib (a name two codes share told apart), Debit less Credit of a FEC. */
export function fecTotals(file: string) {
  const [header, ...rows] = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((row) => row.trim() !== '')
    .map((row) => row.split(/\t|\|/).map((cell) => cell.trim()));
  const at = (name: string) => header!.indexOf(name);
  const codesOf = new Map<string, Set<string>>();
  for (const row of rows)
    codesOf.set(
      row[at('CompteLib')]!,
      (codesOf.get(row[at('CompteLib')]!) ?? new Set()).add(row[at('CompteNum')]!),
    );
  const amount = (text: string | undefined) => centsOf(text || '0', (text ?? '').includes(','));
  const totals = new Map<string, number>();
  for (const row of rows) {
    const name = row[at('CompteLib')]!;
    const cents = amount(row[at('Debit')]) - amount(row[at('Credit')]);
    add(totals, codesOf.get(name)!.size > 1 ? `${name} (${row[at('CompteNum')]})` : name, cents);
  }
  return totals;
}

export function sieTotals(file: string) {
  const lines = iconv.decode(readFileSync(file), 'cp437').split(/\r?\n/);
  const names = new Map<string, string>();
  const made = new Map<string, number>();
  const stated = new Map<string, number>();
  let openings = 0;
  for (const line of lines) {
    const konto = /^#KONTO (\S+) "(.*)"/.exec(line);
    if (konto) names.set(konto[1]!, konto[2]!);
    const balance = /^#(IB|UB|RES) 0 (\S+) (\S+)/.exec(line);
    if (balance?.[1] === 'IB') {
      add(made, balance[2]!, centsOf(balance[3]!));
      openings += centsOf(balance[3]!);
    } else if (balance) stated.set(balance[2]!, centsOf(balance[3]!));
    const trans = /^#TRANS (\S+) \{[^}]*\} (\S+)/.exec(line);
    if (trans) add(made, trans[1]!, centsOf(trans[2]!));
  }
  const totals = new Map<string, number>();
  for (const [code, cents] of made) totals.set(names.get(code)!, stated.get(code) ?? cents);
  return { totals, openings };
}

/** A DATEV Buchungsstapel's own figures, by account number: Umsatz by S/H, Konto against Gegenkonto. */
export function datevTotals(file: string) {
  const rows = readFileSync(file, 'utf8').split(/\r?\n/).slice(2).filter(Boolean);
  const totals = new Map<string, number>();
  for (const row of rows) {
    const fields = row.split(';').map((f) => f.replace(/^"(.*)"$/, '$1'));
    const cents = centsOf(fields[0]!, true) * (fields[1] === 'S' ? 1 : -1);
    add(totals, fields[6]!, cents);
    add(totals, fields[7]!, -cents);
  }
  return totals;
}

/** A Wave export's own figures, by account name: its two-column debits less credits. */
export function waveTotals(file: string) {
  const [header, ...rows] = parse(readFileSync(file)) as string[][];
  const at = (name: string) => header!.indexOf(name);
  const totals = new Map<string, number>();
  for (const row of rows) {
    const debit = centsOf(row[at('Debit Amount (Two Column Approach)')] || '0');
    const credit = centsOf(row[at('Credit Amount (Two Column Approach)')] || '0');
    add(totals, row[at('Account Name')]!, debit - credit);
  }
  return totals;
}

/** A bexio journal's own figures, by account name: the base amount to Soll, from Haben. */
export function bexioTotals(file: string) {
  const [header, ...rows] = parse(readFileSync(file), { delimiter: ';' }) as string[][];
  const at = (name: string) => header!.indexOf(name);
  const totals = new Map<string, number>();
  // A name used under two codes is told apart by its code, as books names such accounts.
  const codesOf = new Map<string, Set<string>>();
  for (const row of rows)
    for (const side of [row[at('Soll')]!, row[at('Haben')]!]) {
      const [code, name] = side.split(' - ', 2) as [string, string];
      codesOf.set(name.trim(), (codesOf.get(name.trim()) ?? new Set()).add(code));
    }
  const nameOf = (account: string) => {
    const [code, name] = account.split(' - ', 2) as [string, string];
    return codesOf.get(name.trim())!.size > 1 ? `${name.trim()} (${code})` : name.trim();
  };
  for (const row of rows) {
    const cents = centsOf(row[at('Betrag in Basiswährung')]!.replace(/['\u00a0]/g, ''));
    add(totals, nameOf(row[at('Soll')]!), cents);
    add(totals, nameOf(row[at('Haben')]!), -cents);
  }
  return totals;
}

/** An Infoniqa journal's own figures, by account number: Netto by S/H. */
export function infoniqaTotals(file: string) {
  const [header, ...rows] = parse(readFileSync(file)) as string[][];
  const at = (name: string) => header!.indexOf(name);
  const totals = new Map<string, number>();
  for (const row of rows) {
    const cents = centsOf(row[at('Netto')]!);
    add(totals, row[at('Kto')]!, row[at('S/H')] === 'S' ? cents : -cents);
  }
  return totals;
}
