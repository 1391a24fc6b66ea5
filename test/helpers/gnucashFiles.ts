/*
 * GnuCash "Export Transactions to CSV" files written as GnuCash writes them, for a language and
 * a locale: its column names (GnuCash's translations), its dates (the locale's `d_fmt`, or one
 * of GnuCash's own date formats), its amounts (xaccSPrintAmount: the locale's monetary decimal
 * point, thousands separator and grouping, and where the sign goes), in each layout GnuCash has
 * had. The locales' facts are glibc's (LC_MONETARY, LC_TIME of each), written here as figures.
 */

export interface LocaleFacts {
  /** glibc's `d_fmt`, or GnuCash's US, UK, CE or ISO date format. */
  dateFormat: string;
  decimalPoint: string;
  thousandsSeparator: string;
  /** `3` (groups of three), `3;2` (India: three, then twos). */
  grouping: '3' | '3;2';
  /** Where the minus goes: 0 brackets, 1 before, 2 after (glibc's n_sign_posn). */
  signPosition: 0 | 1 | 2 | 3 | 4;
  symbol: string;
  symbolBefore: boolean;
  /** Abbreviated month names, for a `%b` date format. */
  months?: string[];
}

/** Decimals a currency's amounts have in GnuCash (its ISO 4217 fraction): the yen none. */
const fractionOf = (currency: string) => (['JPY', 'KRW', 'VND'].includes(currency) ? 0 : 2);

/** Columns by their English names; `columnNames` gives the language's. */
export type Column =
  | 'Date'
  | 'Transaction ID'
  | 'Number'
  | 'Description'
  | 'Notes'
  | 'Commodity/Currency'
  | 'Void Reason'
  | 'Action'
  | 'Memo'
  | 'Full Account Name'
  | 'Account Name'
  | 'Amount With Sym'
  | 'Amount Num.'
  | 'Value With Sym'
  | 'Value Num.'
  | 'Reconcile'
  | 'Reconcile Date'
  | 'Rate/Price'
  | 'Full Category Path'
  | 'Transaction Type'
  | 'Second Date'
  | 'Category'
  | 'Row Type'
  | 'Commodity Mnemonic'
  | 'Commodity Namespace';

/** 4.x and 5.x: every row complete, with the values. */
const LAYOUT_4X: Column[] = [
  'Date',
  'Transaction ID',
  'Number',
  'Description',
  'Notes',
  'Commodity/Currency',
  'Void Reason',
  'Action',
  'Memo',
  'Full Account Name',
  'Account Name',
  'Amount With Sym',
  'Amount Num.',
  'Value With Sym',
  'Value Num.',
  'Reconcile',
  'Reconcile Date',
  'Rate/Price',
];

export const LAYOUTS: Record<string, Column[]> = {
  '4.x': LAYOUT_4X,
  /** 3.x: the transaction's fields on its first split only, no values. */
  '3.x': LAYOUT_4X.filter((c) => c !== 'Value With Sym' && c !== 'Value Num.'),
  /** "Use simple layout" (4.x): a row per transaction. */
  simple: [
    'Date',
    'Account Name',
    'Number',
    'Description',
    'Full Category Path',
    'Reconcile',
    'Amount With Sym',
    'Amount Num.',
    'Value With Sym',
    'Value Num.',
    'Rate/Price',
  ],
  /** 2.6: a T row, then an S row per split. */
  '2.6': [
    'Date',
    'Transaction Type',
    'Second Date',
    'Account Name',
    'Number',
    'Description',
    'Notes',
    'Memo',
    'Full Category Path',
    'Category',
    'Row Type',
    'Action',
    'Reconcile',
    'Amount With Sym',
    'Commodity Mnemonic',
    'Commodity Namespace',
    'Amount Num.',
    'Rate/Price',
  ],
};
export type Layout = keyof typeof LAYOUTS;

export interface Split {
  account: string;
  /** In the transaction's currency, in cents. */
  value: number;
  memo?: string;
  /** A split in another commodity: its quantity (in hundredths) and mnemonic. */
  quantity?: { hundredths: number; commodity: string };
}

export interface Transaction {
  id: string;
  day: string;
  description: string;
  notes?: string;
  currency: string;
  voidReason?: string;
  splits: Split[];
}

/** An amount as xaccSPrintAmount prints it in the locale, with or without the symbol. */
export function localeAmount(
  cents: number,
  locale: LocaleFacts,
  symbol?: string,
  decimals = 2,
): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  let whole = String(Math.floor(abs / 100));
  const fraction = decimals === 0 ? '' : String(abs % 100).padStart(2, '0');
  const groups: string[] = [];
  let first = true;
  while (whole.length > 3 || (!first && locale.grouping === '3;2' && whole.length > 2)) {
    const size = first || locale.grouping === '3' ? 3 : 2;
    if (whole.length <= size) break;
    groups.unshift(whole.slice(-size));
    whole = whole.slice(0, -size);
    first = false;
  }
  groups.unshift(whole);
  const number = `${groups.join(locale.thousandsSeparator)}${fraction && `${locale.decimalPoint}${fraction}`}`;
  const withSymbol =
    symbol === undefined
      ? number
      : locale.symbolBefore
        ? `${symbol}${number}`
        : `${number}\u00a0${symbol}`;
  if (!negative) return withSymbol;
  switch (locale.signPosition) {
    case 0:
      return `(${withSymbol})`;
    case 2:
      return `${withSymbol}-`;
    case 4:
      return symbol !== undefined && locale.symbolBefore ? `${symbol}-${number}` : `-${withSymbol}`;
    default:
      return `-${withSymbol}`;
  }
}

/** A day as the locale's (or GnuCash's) date format writes it. */
export function localeDate(day: string, locale: LocaleFacts): string {
  const [y, m, d] = day.split('-');
  const months = locale.months ?? [];
  return locale.dateFormat
    .replace('%Y', y!)
    .replace('%y', y!.slice(2))
    .replace('%m', m!)
    .replace('%-m', String(Number(m)))
    .replace('%d', d!)
    .replace('%-d', String(Number(d)))
    .replace('%e', String(Number(d)).padStart(2, ' '))
    .replace('%b', months[Number(m) - 1] ?? '');
}

const csvCell = (text: string) => (/[",\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * A GnuCash transaction export: the header in the language's names (English where
 * `names` has none), each transaction as the layout writes it; the simple layout writes the
 * transaction from its first split's account.
 */
export function gnucashCsv(
  transactions: readonly Transaction[],
  options: {
    layout: Layout;
    locale: LocaleFacts;
    names?: Partial<Record<Column, string>>;
    splitTransaction?: string;
    delimiter?: string;
  },
): string {
  const { layout, locale } = options;
  const columns = LAYOUTS[layout]!;
  const delimiter = options.delimiter ?? ',';
  const cell = (text: string) =>
    delimiter === ',' ? csvCell(text) : text.includes(delimiter) ? `"${text}"` : text;
  const lines = [columns.map((c) => cell(options.names?.[c] ?? c)).join(delimiter)];
  const row = (values: Partial<Record<Column, string>>) =>
    lines.push(columns.map((c) => cell(values[c] ?? '')).join(delimiter));
  const symbolOf = (currency: string) =>
    currency === 'EUR' ? '€' : currency === 'USD' ? '$' : currency;
  const shortName = (account: string) => account.split(':').at(-1)!;
  for (const t of transactions) {
    const date = localeDate(t.day, locale);
    const symbol = symbolOf(t.currency);
    const decimals = fractionOf(t.currency);
    const money = (cents: number, sym?: string) => localeAmount(cents, locale, sym, decimals);
    if (layout === 'simple') {
      const [mine, ...others] = t.splits;
      row({
        Date: date,
        'Account Name': mine!.account,
        Description: t.description,
        'Full Category Path':
          others.length === 1
            ? others[0]!.account
            : (options.splitTransaction ?? '-- Split Transaction --'),
        Reconcile: 'n',
        'Amount With Sym': money(mine!.value, symbol),
        'Amount Num.': money(mine!.value),
        'Value With Sym': money(mine!.value, symbol),
        'Value Num.': money(mine!.value),
        'Rate/Price': `1${locale.decimalPoint}00`,
      });
      continue;
    }
    if (layout === '2.6') {
      row({
        Date: date,
        'Account Name': shortName(t.splits[0]!.account),
        Description: t.description,
        Notes: t.notes ?? '',
        'Full Category Path':
          t.splits.length === 2 ? t.splits[1]!.account : '-- Split Transaction --',
        'Row Type': 'T',
        Reconcile: 'n',
        'Commodity Mnemonic': t.currency,
        'Commodity Namespace': 'CURRENCY',
      });
      for (const s of t.splits) {
        const amount = s.quantity ? s.quantity.hundredths : t.voidReason ? 0 : s.value;
        row({
          Notes: t.voidReason ?? '',
          Memo: s.memo ?? '',
          'Full Category Path': s.account,
          Category: shortName(s.account),
          'Row Type': 'S',
          Reconcile: t.voidReason ? 'v' : 'n',
          'Amount With Sym': s.quantity
            ? localeAmount(amount, locale, s.quantity.commodity)
            : money(amount, symbol),
          'Commodity Mnemonic': s.quantity?.commodity ?? t.currency,
          'Commodity Namespace': s.quantity ? 'NASDAQ' : 'CURRENCY',
          'Amount Num.': s.quantity ? localeAmount(amount, locale) : money(amount),
          'Rate/Price': s.quantity
            ? priceText(s.value, s.quantity.hundredths, locale)
            : `1${locale.decimalPoint}00`,
        });
      }
      continue;
    }
    t.splits.forEach((s, index) => {
      const full = layout === '4.x' || index === 0;
      const amount = s.quantity ? s.quantity.hundredths : s.value;
      row({
        ...(full && {
          Date: date,
          'Transaction ID': t.id,
          Description: t.description,
          Notes: t.notes ?? '',
          'Commodity/Currency': `CURRENCY::${t.currency}`,
          'Void Reason': t.voidReason ?? '',
        }),
        Memo: s.memo ?? '',
        'Full Account Name': s.account,
        'Account Name': shortName(s.account),
        'Amount With Sym': s.quantity
          ? localeAmount(amount, locale, s.quantity.commodity)
          : money(amount, symbol),
        'Amount Num.': s.quantity ? localeAmount(amount, locale) : money(amount),
        'Value With Sym': money(s.value, symbol),
        'Value Num.': money(s.value),
        Reconcile: 'n',
        'Rate/Price': s.quantity
          ? priceText(s.value, s.quantity.hundredths, locale)
          : `1${locale.decimalPoint}00`,
      });
    });
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A share price as GnuCash prints it: the value over the quantity, to six decimals at most. */
function priceText(valueCents: number, quantityHundredths: number, locale: LocaleFacts): string {
  const price = Math.abs(valueCents / quantityHundredths);
  return String(Number(price.toFixed(6))).replace('.', locale.decimalPoint);
}

const NNBSP = '\u202f';
const NBSP = '\u00a0';

/** glibc's LC_MONETARY and LC_TIME of each locale (as of Debian 12's locales 2.36). */
export const LOCALES: Record<string, LocaleFacts> = {
  de_DE: {
    dateFormat: '%d.%m.%Y',
    decimalPoint: ',',
    thousandsSeparator: '.',
    grouping: '3',
    signPosition: 1,
    symbol: '€',
    symbolBefore: false,
  },
  fr_FR: {
    dateFormat: '%d/%m/%Y',
    decimalPoint: ',',
    thousandsSeparator: NNBSP,
    grouping: '3',
    signPosition: 1,
    symbol: '€',
    symbolBefore: false,
  },
  es_ES: {
    dateFormat: '%d/%m/%y',
    decimalPoint: ',',
    thousandsSeparator: '.',
    grouping: '3',
    signPosition: 1,
    symbol: '€',
    symbolBefore: false,
  },
  nl_NL: {
    dateFormat: '%d-%m-%y',
    decimalPoint: ',',
    thousandsSeparator: '.',
    grouping: '3',
    signPosition: 4,
    symbol: '€',
    symbolBefore: true,
  },
  sv_SE: {
    dateFormat: '%Y-%m-%d',
    decimalPoint: ',',
    thousandsSeparator: NNBSP,
    grouping: '3',
    signPosition: 1,
    symbol: 'kr',
    symbolBefore: false,
  },
  ja_JP: {
    dateFormat: '%Y年%m月%d日',
    decimalPoint: '.',
    thousandsSeparator: ',',
    grouping: '3',
    signPosition: 4,
    symbol: '￥',
    symbolBefore: true,
  },
  pt_PT: {
    dateFormat: '%d/%m/%Y',
    decimalPoint: ',',
    thousandsSeparator: '.',
    grouping: '3',
    signPosition: 1,
    symbol: '€',
    symbolBefore: false,
  },
  pt_BR: {
    dateFormat: '%d/%m/%Y',
    decimalPoint: ',',
    thousandsSeparator: '.',
    grouping: '3',
    signPosition: 1,
    symbol: 'R$',
    symbolBefore: true,
  },
  uk_UA: {
    dateFormat: '%d.%m.%y',
    decimalPoint: ',',
    thousandsSeparator: NNBSP,
    grouping: '3',
    signPosition: 1,
    symbol: 'грн.',
    symbolBefore: false,
  },
  hi_IN: {
    dateFormat: '%-d/%-m/%y',
    decimalPoint: '.',
    thousandsSeparator: ',',
    grouping: '3;2',
    signPosition: 1,
    symbol: '₹',
    symbolBefore: true,
  },
  he_IL: {
    dateFormat: '%d/%m/%y',
    decimalPoint: '.',
    thousandsSeparator: ',',
    grouping: '3',
    signPosition: 2,
    symbol: '₪',
    symbolBefore: true,
  },
  lv_LV: {
    dateFormat: '%Y.%m.%d.',
    decimalPoint: ',',
    thousandsSeparator: NBSP,
    grouping: '3',
    signPosition: 3,
    symbol: '€',
    symbolBefore: true,
  },
  cs_CZ: {
    dateFormat: '%-d.%-m.%Y',
    decimalPoint: ',',
    thousandsSeparator: NBSP,
    grouping: '3',
    signPosition: 1,
    symbol: 'Kč',
    symbolBefore: false,
  },
  nb_NO: {
    dateFormat: '%d. %b %Y',
    decimalPoint: ',',
    thousandsSeparator: NBSP,
    grouping: '3',
    signPosition: 4,
    symbol: 'kr',
    symbolBefore: true,
    months: [
      'jan.',
      'feb.',
      'mars',
      'april',
      'mai',
      'juni',
      'juli',
      'aug.',
      'sep.',
      'okt.',
      'nov.',
      'des.',
    ],
  },
  ko_KR: {
    dateFormat: '%Y년 %m월 %d일',
    decimalPoint: '.',
    thousandsSeparator: ',',
    grouping: '3',
    signPosition: 4,
    symbol: '₩',
    symbolBefore: true,
  },
  zh_CN: {
    dateFormat: '%Y年%m月%d日',
    decimalPoint: '.',
    thousandsSeparator: ',',
    grouping: '3',
    signPosition: 4,
    symbol: '￥',
    symbolBefore: true,
  },
  de_CH: {
    dateFormat: '%d.%m.%Y',
    decimalPoint: '.',
    thousandsSeparator: '\u2019',
    grouping: '3',
    signPosition: 4,
    symbol: 'CHF',
    symbolBefore: true,
  },
  /** GnuCash's own US date format, and a locale that brackets what is negative. */
  en_US_brackets: {
    dateFormat: '%m/%d/%Y',
    decimalPoint: '.',
    thousandsSeparator: ',',
    grouping: '3',
    signPosition: 0,
    symbol: '$',
    symbolBefore: true,
  },
};

/** GnuCash 4.13's column names, as its gnucash.mo of each language has them. */
export const GNUCASH_413_NAMES: Record<
  string,
  { names: Partial<Record<Column, string>>; split: string }
> = {
  de: {
    names: {
      Date: 'Datum',
      'Transaction ID': 'BuchungsID',
      Number: 'Nummer',
      Description: 'Beschreibung',
      Notes: 'Bemerkungen',
      'Commodity/Currency': 'Währung/Wertpapier',
      'Void Reason': 'Stornierungsbegründung',
      Action: 'Aktion',
      Memo: 'Buchungstext',
      'Full Account Name': 'Volle Kontobezeichnung',
      'Account Name': 'Kontobezeichnung',
      'Amount With Sym': 'Wert mit Symbol',
      'Amount Num.': 'Wert numerisch',
      Reconcile: 'Abgleichen',
      'Reconcile Date': 'Datum des Abgleichs',
      'Rate/Price': 'Kurs/Preis',
      'Full Category Path': 'Voller Kategorie-Pfad',
    },
    split: '-- Mehrteilige Buchung --',
  },
  fr: {
    names: {
      'Transaction ID': 'Id de la transaction',
      Number: 'Numéro',
      'Commodity/Currency': 'Bien/Devise',
      'Void Reason': 'Raison invalide',
      Memo: 'Mémo',
      'Full Account Name': 'Le nom complet du compte',
      'Account Name': 'Nom du compte',
      'Amount With Sym': 'Compte avec symbole',
      'Amount Num.': 'Montant (num.)',
      Reconcile: 'Rapprocher',
      'Reconcile Date': 'Date de rapprochement',
      'Rate/Price': 'Taux/Prix',
      'Full Category Path': 'Le chemin complet de la catégorie',
    },
    split: '-- Transaction répartie --',
  },
  es: {
    names: {
      Date: 'Fecha',
      'Transaction ID': 'ID Transacción',
      Number: 'Número',
      Description: 'Descripción',
      Notes: 'Anotaciones',
      'Commodity/Currency': 'Acción/Moneda',
      'Void Reason': 'Razón vacío',
      Action: 'Operación',
      Memo: 'Memorándum',
      'Full Account Name': 'Nombre Completo de Cuenta',
      'Account Name': 'Nombre de Cuenta',
      'Amount With Sym': 'Cantidad con Sym',
      'Amount Num.': 'Num. Cantidad.',
      Reconcile: 'Conciliar',
      'Reconcile Date': 'Fecha Conciliada',
      'Rate/Price': 'Tipo/Precio',
      'Full Category Path': 'Ruta Categoría Completa',
    },
    split: '-- Transacción Desglosada --',
  },
  nl: {
    names: {
      Date: 'Datum',
      'Transaction ID': 'Boeking ID',
      Number: 'Nummer',
      Description: 'Omschrijving',
      Notes: 'Toelichting',
      'Commodity/Currency': 'Effect/valuta/munt',
      'Void Reason': 'Reden voor storno',
      Action: 'Actie',
      'Full Account Name': 'Volledige rekeningnaam',
      'Account Name': 'Rekeningnaam',
      'Amount With Sym': 'Bedrag met sym',
      'Amount Num.': 'Bedrag num.',
      Reconcile: 'Afstemmen',
      'Reconcile Date': 'Datum van afstemming',
      'Rate/Price': 'Koers/prijs',
      'Full Category Path': 'Volledig categoriepad',
    },
    split: '-- Meerdere tegenrekeningen --',
  },
  sv: {
    names: {
      Date: 'Datum',
      'Transaction ID': 'Transaktions-ID',
      Number: 'Nummer',
      Description: 'Beskrivning',
      Notes: 'Anteckningar',
      'Commodity/Currency': 'Produkt/valuta',
      'Void Reason': 'Annulleringsskäl',
      Action: 'Åtgärd',
      Memo: 'Minnesanteckning',
      'Full Account Name': 'Fullständigt kontonamn',
      'Account Name': 'Kontonamn',
      'Amount With Sym': 'Belopp med sym',
      'Amount Num.': 'Belopp num.',
      Reconcile: 'Stäm av',
      'Reconcile Date': 'Avstämningsdatum',
      'Rate/Price': 'Kurs/pris',
      'Full Category Path': 'Fullständig kategorisökväg',
    },
    split: '-- Delad transaktion --',
  },
  ja: {
    names: {
      Date: '日付',
      'Transaction ID': '取引 ID',
      Number: '番号',
      Description: '説明',
      Notes: '備考',
      'Commodity/Currency': '商品・通貨',
      'Void Reason': '無効理由',
      Action: 'アクション',
      Memo: '摘要',
      'Full Account Name': '勘定科目フルネーム',
      'Account Name': '勘定科目名',
      'Amount With Sym': '記号付き金額',
      'Amount Num.': '金額数値',
      Reconcile: '照合',
      'Reconcile Date': '照合日',
      'Rate/Price': 'レート/金額',
      'Full Category Path': 'カテゴリーのフルパス',
    },
    split: '-- スプリット取引 --',
  },
  pt: {
    names: {
      Date: 'Data',
      'Transaction ID': 'Id de transacção',
      Number: 'Número',
      Description: 'Descrição',
      Notes: 'Notas',
      'Commodity/Currency': 'Mercadoria/Moeda',
      'Void Reason': 'Motivo para anular',
      Action: 'Acção',
      Memo: 'Nota',
      'Full Account Name': 'Nome completo de conta',
      'Account Name': 'Nome da conta',
      'Amount With Sym': 'Valor com símbolo',
      'Amount Num.': 'Montante nº.',
      Reconcile: 'Reconciliar',
      'Reconcile Date': 'Data de reconciliação',
      'Rate/Price': 'Taxa/Preço',
      'Full Category Path': 'Caminho completo de categoria',
    },
    split: '-- Transacção com parcelas --',
  },
};
