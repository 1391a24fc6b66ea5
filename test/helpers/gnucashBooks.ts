import { createWriteStream, writeFileSync } from 'node:fs';
import { gzipSync, createGzip } from 'node:zlib';
import Database from 'better-sqlite3';

/*
 * GnuCash books written as GnuCash writes them, for the reader's tests: the XML of GnuCash 2.x
 * to 5.x (`<gnc-v2>`, gzip-compressed as it saves by default, or plain) and the SQLite schema of
 * GnuCash 3.x to 5.x (its CREATE TABLE statements). A voided transaction is kept as GnuCash
 * keeps one: its splits at zero, its former amounts and the reason in slots. Scheduled
 * transactions' templates sit under the book's template root.
 */

export interface Commodity {
  space: string;
  id: string;
}

export interface GnuAccount {
  id: string;
  name: string;
  type: string;
  parent?: string;
  code?: string;
  commodity: Commodity;
  placeholder?: boolean;
  hidden?: boolean;
}

export interface GnuSplit {
  account: string;
  /** Numerator and denominator: 12345/100 is 123.45. */
  value: [number, number];
  quantity: [number, number];
  memo?: string;
}

export interface GnuTransaction {
  id: string;
  /** The posted day; `posted` overrides the moment kept (a book from before 2.6.12). */
  date: string;
  posted?: string;
  num?: string;
  description: string;
  currency: Commodity;
  voidReason?: string;
  splits: GnuSplit[];
}

export interface GnuBook {
  accounts: GnuAccount[];
  transactions: GnuTransaction[];
  /** Scheduled transactions' template accounts and transactions. */
  templates?: { accounts: GnuAccount[]; transactions: GnuTransaction[] };
}

const guid = (n: number) => n.toString(16).padStart(32, '0');
export const ROOT = guid(1);
export const TEMPLATE_ROOT = guid(2);

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const NAMESPACES = [
  'gnc',
  'act',
  'book',
  'cd',
  'cmdty',
  'price',
  'slot',
  'split',
  'sx',
  'trn',
  'ts',
  'fs',
  'bgt',
  'recurrence',
  'lot',
  'addr',
  'billterm',
  'bt-days',
  'bt-prox',
  'cust',
  'employee',
  'entry',
  'invoice',
  'job',
  'order',
  'owner',
  'taxtable',
  'tte',
  'vendor',
]
  .map((ns) => `     xmlns:${ns}="http://www.gnucash.org/XML/${ns}"`)
  .join('\n');

function accountXml(a: GnuAccount, indent = ''): string {
  const slots = [a.placeholder && ['placeholder', 'true'], a.hidden && ['hidden', 'true']].filter(
    Boolean,
  ) as [string, string][];
  return [
    `${indent}<gnc:account version="2.0.0">`,
    `${indent}  <act:name>${xml(a.name)}</act:name>`,
    `${indent}  <act:id type="guid">${a.id}</act:id>`,
    `${indent}  <act:type>${a.type}</act:type>`,
    `${indent}  <act:commodity>`,
    `${indent}    <cmdty:space>${a.commodity.space}</cmdty:space>`,
    `${indent}    <cmdty:id>${a.commodity.id}</cmdty:id>`,
    `${indent}  </act:commodity>`,
    `${indent}  <act:commodity-scu>100</act:commodity-scu>`,
    ...(a.code ? [`${indent}  <act:code>${xml(a.code)}</act:code>`] : []),
    ...(slots.length > 0
      ? [
          `${indent}  <act:slots>`,
          ...slots.map(
            ([key, value]) =>
              `${indent}    <slot>\n${indent}      <slot:key>${key}</slot:key>\n${indent}      <slot:value type="string">${value}</slot:value>\n${indent}    </slot>`,
          ),
          `${indent}  </act:slots>`,
        ]
      : []),
    ...(a.parent ? [`${indent}  <act:parent type="guid">${a.parent}</act:parent>`] : []),
    `${indent}</gnc:account>`,
  ].join('\n');
}

const numeric = ([num, denom]: [number, number]) => `${num}/${denom}`;

function transactionXml(t: GnuTransaction, indent = ''): string {
  const voided = t.voidReason !== undefined;
  const posted = t.posted ?? `${t.date} 10:59:00 +0000`;
  return [
    `${indent}<gnc:transaction version="2.0.0">`,
    `${indent}  <trn:id type="guid">${t.id}</trn:id>`,
    `${indent}  <trn:currency>`,
    `${indent}    <cmdty:space>${t.currency.space}</cmdty:space>`,
    `${indent}    <cmdty:id>${t.currency.id}</cmdty:id>`,
    `${indent}  </trn:currency>`,
    ...(t.num ? [`${indent}  <trn:num>${xml(t.num)}</trn:num>`] : []),
    `${indent}  <trn:date-posted>`,
    `${indent}    <ts:date>${posted}</ts:date>`,
    `${indent}  </trn:date-posted>`,
    `${indent}  <trn:date-entered>`,
    `${indent}    <ts:date>${t.date} 12:00:00 +0000</ts:date>`,
    `${indent}  </trn:date-entered>`,
    `${indent}  <trn:description>${xml(t.description)}</trn:description>`,
    ...(voided
      ? [
          `${indent}  <trn:slots>`,
          `${indent}    <slot>\n${indent}      <slot:key>notes</slot:key>\n${indent}      <slot:value type="string">Voided transaction</slot:value>\n${indent}    </slot>`,
          `${indent}    <slot>\n${indent}      <slot:key>trans-read-only</slot:key>\n${indent}      <slot:value type="string">Transaction Voided</slot:value>\n${indent}    </slot>`,
          `${indent}    <slot>\n${indent}      <slot:key>void-reason</slot:key>\n${indent}      <slot:value type="string">${xml(t.voidReason!)}</slot:value>\n${indent}    </slot>`,
          `${indent}  </trn:slots>`,
        ]
      : []),
    `${indent}  <trn:splits>`,
    ...t.splits.map((s, i) =>
      [
        `${indent}    <trn:split>`,
        `${indent}      <split:id type="guid">${t.id.slice(-28)}${String(i).padStart(4, '0')}</split:id>`,
        ...(s.memo ? [`${indent}      <split:memo>${xml(s.memo)}</split:memo>`] : []),
        `${indent}      <split:reconciled-state>${voided ? 'v' : 'n'}</split:reconciled-state>`,
        `${indent}      <split:value>${voided ? `0/${s.value[1]}` : numeric(s.value)}</split:value>`,
        `${indent}      <split:quantity>${voided ? `0/${s.quantity[1]}` : numeric(s.quantity)}</split:quantity>`,
        `${indent}      <split:account type="guid">${s.account}</split:account>`,
        ...(voided
          ? [
              `${indent}      <split:slots>`,
              `${indent}        <slot>\n${indent}          <slot:key>void-former-amount</slot:key>\n${indent}          <slot:value type="numeric">${numeric(s.quantity)}</slot:value>\n${indent}        </slot>`,
              `${indent}        <slot>\n${indent}          <slot:key>void-former-value</slot:key>\n${indent}          <slot:value type="numeric">${numeric(s.value)}</slot:value>\n${indent}        </slot>`,
              `${indent}      </split:slots>`,
            ]
          : []),
        `${indent}    </trn:split>`,
      ].join('\n'),
    ),
    `${indent}  </trn:splits>`,
    `${indent}</gnc:transaction>`,
  ].join('\n');
}

/** The book's XML, as GnuCash saves it (before compression). */
export function bookXml(book: GnuBook, currency: Commodity): string {
  const root: GnuAccount = { id: ROOT, name: 'Root Account', type: 'ROOT', commodity: currency };
  const templateRoot: GnuAccount = {
    id: TEMPLATE_ROOT,
    name: 'Template Root',
    type: 'ROOT',
    commodity: { space: 'template', id: 'template' },
  };
  return [
    '<?xml version="1.0" encoding="utf-8" ?>',
    `<gnc-v2\n${NAMESPACES}>`,
    '<gnc:count-data cd:type="book">1</gnc:count-data>',
    '<gnc:book version="2.0.0">',
    `<book:id type="guid">${guid(3)}</book:id>`,
    `<gnc:count-data cd:type="account">${book.accounts.length + 1}</gnc:count-data>`,
    `<gnc:count-data cd:type="transaction">${book.transactions.length}</gnc:count-data>`,
    '<gnc:commodity version="2.0.0">',
    `  <cmdty:space>${currency.space}</cmdty:space>`,
    `  <cmdty:id>${currency.id}</cmdty:id>`,
    '  <cmdty:get_quotes/>',
    '</gnc:commodity>',
    accountXml(root),
    ...book.accounts.map((a) => accountXml({ ...a, parent: a.parent ?? ROOT })),
    ...book.transactions.map((t) => transactionXml(t)),
    ...(book.templates
      ? [
          '<gnc:template-transactions>',
          accountXml(templateRoot, '  '),
          ...book.templates.accounts.map((a) =>
            accountXml({ ...a, parent: a.parent ?? TEMPLATE_ROOT }, '  '),
          ),
          ...book.templates.transactions.map((t) => transactionXml(t, '  ')),
          '</gnc:template-transactions>',
        ]
      : []),
    '</gnc:book>',
    '</gnc-v2>',
    '',
    '<!-- Local variables: -->',
    '<!-- mode: xml        -->',
    '<!-- End:             -->',
    '',
  ].join('\n');
}

export function writeBookXml(file: string, book: GnuBook, currency: Commodity, gzip: boolean) {
  const text = bookXml(book, currency);
  writeFileSync(file, gzip ? gzipSync(text) : text);
}

/** GnuCash 4.x's tables of a book (those the ledger is in; gnclock and versions as it has them). */
const SCHEMA = `
CREATE TABLE gnclock ( hostname varchar(255), pid int );
CREATE TABLE versions(table_name text(50) PRIMARY KEY NOT NULL, table_version integer NOT NULL);
CREATE TABLE books(guid text(32) PRIMARY KEY NOT NULL, root_account_guid text(32) NOT NULL, root_template_guid text(32) NOT NULL);
CREATE TABLE commodities(guid text(32) PRIMARY KEY NOT NULL, namespace text(2048) NOT NULL, mnemonic text(2048) NOT NULL, fullname text(2048), cusip text(2048), fraction integer NOT NULL, quote_flag integer NOT NULL, quote_source text(2048), quote_tz text(2048));
CREATE TABLE accounts(guid text(32) PRIMARY KEY NOT NULL, name text(2048) NOT NULL, account_type text(2048) NOT NULL, commodity_guid text(32), commodity_scu integer NOT NULL, non_std_scu integer NOT NULL, parent_guid text(32), code text(2048), description text(2048), hidden integer, placeholder integer);
CREATE TABLE transactions(guid text(32) PRIMARY KEY NOT NULL, currency_guid text(32) NOT NULL, num text(2048) NOT NULL, post_date text(19), enter_date text(19), description text(2048));
CREATE INDEX tx_post_date_index ON transactions(post_date);
CREATE TABLE splits(guid text(32) PRIMARY KEY NOT NULL, tx_guid text(32) NOT NULL, account_guid text(32) NOT NULL, memo text(2048) NOT NULL, action text(2048) NOT NULL, reconcile_state text(1) NOT NULL, reconcile_date text(19), value_num bigint NOT NULL, value_denom bigint NOT NULL, quantity_num bigint NOT NULL, quantity_denom bigint NOT NULL, lot_guid text(32));
CREATE INDEX splits_tx_guid_index ON splits(tx_guid);
CREATE INDEX splits_account_guid_index ON splits(account_guid);
CREATE TABLE slots(id integer PRIMARY KEY AUTOINCREMENT NOT NULL, obj_guid text(32) NOT NULL, name text(4096) NOT NULL, slot_type integer NOT NULL, int64_val bigint, string_val text(4096), double_val float8, timespec_val text(19), guid_val text(32), numeric_val_num bigint, numeric_val_denom bigint, gdate_val text(8));
CREATE INDEX slots_guid_index ON slots(obj_guid);
`;

/** The book as a GnuCash SQLite file. */
export function writeBookSqlite(file: string, book: GnuBook, currency: Commodity): void {
  const db = new Database(file);
  try {
    db.exec(SCHEMA);
    const insert = {
      version: db.prepare('INSERT INTO versions VALUES (?, ?)'),
      commodity: db.prepare(
        'INSERT INTO commodities VALUES (?, ?, ?, ?, NULL, 100, 0, NULL, NULL)',
      ),
      account: db.prepare('INSERT INTO accounts VALUES (?, ?, ?, ?, 100, 0, ?, ?, ?, ?, ?)'),
      transaction: db.prepare('INSERT INTO transactions VALUES (?, ?, ?, ?, ?, ?)'),
      split: db.prepare("INSERT INTO splits VALUES (?, ?, ?, ?, '', ?, NULL, ?, ?, ?, ?, NULL)"),
      slot: db.prepare(
        'INSERT INTO slots (obj_guid, name, slot_type, string_val, numeric_val_num, numeric_val_denom) VALUES (?, ?, ?, ?, ?, ?)',
      ),
    };
    for (const [table, version] of [
      ['Gnucash', 4013000],
      ['Gnucash-Resave', 19920],
      ['books', 1],
      ['commodities', 1],
      ['accounts', 1],
      ['transactions', 4],
      ['splits', 5],
      ['slots', 4],
    ] as const)
      insert.version.run(table, version);
    const commodities = new Map<string, string>();
    const commodityOf = (c: Commodity) => {
      const key = `${c.space}::${c.id}`;
      let id = commodities.get(key);
      if (id === undefined) {
        id = guid(0x1000 + commodities.size);
        commodities.set(key, id);
        insert.commodity.run(id, c.space, c.id, c.id);
      }
      return id;
    };
    db.prepare('INSERT INTO books VALUES (?, ?, ?)').run(guid(3), ROOT, TEMPLATE_ROOT);
    const account = (a: GnuAccount, parent: string | null) =>
      insert.account.run(
        a.id,
        a.name,
        a.type,
        a.type === 'ROOT' && a.id === TEMPLATE_ROOT ? null : commodityOf(a.commodity),
        parent,
        a.code ?? '',
        '',
        a.hidden ? 1 : 0,
        a.placeholder ? 1 : 0,
      );
    const transaction = (t: GnuTransaction) => {
      const voided = t.voidReason !== undefined;
      insert.transaction.run(
        t.id,
        commodityOf(t.currency),
        t.num ?? '',
        t.posted ?? `${t.date} 10:59:00`,
        `${t.date} 12:00:00`,
        t.description,
      );
      t.splits.forEach((s, i) => {
        const id = `${t.id.slice(-28)}${String(i).padStart(4, '0')}`;
        insert.split.run(
          id,
          t.id,
          s.account,
          s.memo ?? '',
          voided ? 'v' : 'n',
          voided ? 0 : s.value[0],
          s.value[1],
          voided ? 0 : s.quantity[0],
          s.quantity[1],
        );
        if (voided) {
          insert.slot.run(id, 'void-former-amount', 3, null, s.quantity[0], s.quantity[1]);
          insert.slot.run(id, 'void-former-value', 3, null, s.value[0], s.value[1]);
        }
      });
      if (voided) {
        insert.slot.run(t.id, 'notes', 4, 'Voided transaction', null, null);
        insert.slot.run(t.id, 'void-reason', 4, t.voidReason, null, null);
      }
    };
    db.transaction(() => {
      account({ id: ROOT, name: 'Root Account', type: 'ROOT', commodity: currency }, null);
      account(
        { id: TEMPLATE_ROOT, name: 'Template Root', type: 'ROOT', commodity: currency },
        null,
      );
      for (const a of book.accounts) account(a, a.parent ?? ROOT);
      for (const t of book.transactions) transaction(t);
      for (const a of book.templates?.accounts ?? []) account(a, a.parent ?? TEMPLATE_ROOT);
      for (const t of book.templates?.transactions ?? []) transaction(t);
    })();
  } finally {
    db.close();
  }
}

/**
 * A big book written as a stream of gzip-compressed XML: `transactions(n)` gives the n-th
 * transaction; the accounts come first, as GnuCash writes them.
 */
export async function writeBigBookXml(
  file: string,
  accounts: GnuAccount[],
  count: number,
  transaction: (n: number) => GnuTransaction,
  currency: Commodity,
): Promise<void> {
  const gzip = createGzip({ level: 1 });
  const out = createWriteStream(file);
  gzip.pipe(out);
  const write = (text: string) =>
    gzip.write(text) ? Promise.resolve() : new Promise<void>((r) => gzip.once('drain', r));
  const [head, tail] = bookXml({ accounts, transactions: [] }, currency).split('</gnc:book>');
  await write(head!);
  for (let n = 0; n < count; n++) await write(`${transactionXml(transaction(n))}\n`);
  await write(`</gnc:book>${tail}`);
  await new Promise<void>((resolve) => {
    out.on('finish', resolve);
    gzip.end();
  });
}
