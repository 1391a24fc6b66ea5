/*
 * Ledger reports as other systems print them, written by hand from their descriptions: shared by
 * the readers' tests and by the test that reads each saved as an .xlsx workbook.
 */

/** QuickBooks Online: one Amount column, in each account's own sense; sub-accounts nest. */
export const QBO_OLDER_LAYOUT: readonly string[] = [
  'Blue Bottle Bakery',
  'General Ledger',
  'January 1-31, 2025',
  '',
  ',Date,Transaction Type,Num,Name,Memo/Description,Split,Amount,Balance',
  'Checking,,,,,,,,',
  ',01/03/2025,Deposit,,,January sales,Sales,"1,200.00","1,200.00"',
  ',01/15/2025,Expense,101,Landlord LLC,Rent,Rent,-650.00,550.00',
  ',01/20/2025,Bill Payment (Check),102,Sysco,,Accounts Payable (A/P),-300.00,250.00',
  'Total for Checking,,,,,,,$250.00,',
  'Accounts Payable (A/P),,,,,,,,',
  ',01/10/2025,Bill,B-7,Sysco,Flour,Ingredients,300.00,300.00',
  ',01/20/2025,Bill Payment (Check),102,Sysco,,Checking,-300.00,0.00',
  'Total for Accounts Payable (A/P),,,,,,,$0.00,',
  'Sales,,,,,,,,',
  ',01/03/2025,Deposit,,,January sales,Checking,"1,200.00","1,200.00"',
  'Total for Sales,,,,,,,"$1,200.00",',
  'Expenses,,,,,,,,',
  'Ingredients,,,,,,,,',
  ',01/10/2025,Bill,B-7,Sysco,Flour,Accounts Payable (A/P),300.00,300.00',
  'Total for Ingredients,,,,,,,$300.00,',
  'Rent,,,,,,,,',
  ',01/15/2025,Expense,101,Landlord LLC,Rent,Checking,650.00,650.00',
  'Total for Rent,,,,,,,$650.00,',
  'Total for Expenses,,,,,,,$950.00,',
  'TOTAL,,,,,,,"$2,400.00",',
  '',
  '"Accrual Basis Tuesday, February 4, 2025 09:12 AM GMT-08:00"',
];

/** QuickBooks Desktop: Debit and Credit, codes with " · ", Total rows. */
export const QB_DESKTOP: readonly string[] = [
  'Blue Bottle Bakery',
  'General Ledger',
  'As of January 31, 2025',
  ',,Type,Date,Num,Adj,Name,Memo,Split,Debit,Credit,Balance',
  '1000 · Checking,,,,,,,,,,,0.00',
  ',,Deposit,01/03/2025,,,,January sales,4000 · Sales,"1,200.00",,"1,200.00"',
  ',,Check,01/15/2025,101,,Landlord LLC,Rent,6000 · Rent,,650.00,550.00',
  'Total 1000 · Checking,,,,,,,,,"1,200.00",650.00,550.00',
  '4000 · Sales,,,,,,,,,,,0.00',
  ',,Deposit,01/03/2025,,,,January sales,1000 · Checking,,"1,200.00","1,200.00"',
  'Total 4000 · Sales,,,,,,,,,0.00,"1,200.00","1,200.00"',
  '6000 · Rent,,,,,,,,,,,0.00',
  ',,Check,01/15/2025,101,,Landlord LLC,Rent,1000 · Checking,650.00,,650.00',
  'Total 6000 · Rent,,,,,,,,,650.00,0.00,650.00',
  'TOTAL,,,,,,,,,"1,850.00","1,850.00",0.00',
];

/** Xero Account Transactions: codes in parentheses, named months, opening balances. */
export const XERO_ACCOUNT_TRANSACTIONS: readonly string[] = [
  'Account Transactions',
  'Demo Company (AU)',
  'For the period 1 January 2025 to 31 January 2025',
  '',
  'Date,Source,Description,Reference,Debit,Credit,Running Balance,Gross,GST',
  'Business Bank Account (090),,,,,,,,',
  'Opening Balance,,,,,,500.00,,',
  '03 Jan 2025,Receive Money,January sales,RM-1,"1,200.00",,"1,700.00","1,200.00",0.00',
  'Total Business Bank Account (090),,,,"1,200.00",0.00,,,',
  'Closing Balance,,,,,,"1,700.00",,',
  "Owner's Equity (300),,,,,,,,",
  'Opening Balance,,,,,,-500.00,,',
  "Total Owner's Equity (300),,,,0.00,0.00,,,",
  'Sales (200),,,,,,,,',
  '03 Jan 2025,Receive Money,January sales,RM-1,,"1,200.00","-1,200.00","-1,200.00",0.00',
  'Total Sales (200),,,,0.00,"1,200.00",,,',
];

/**
 * QuickBooks Online's General Ledger in its current layout, written by hand from how public
 * importers describe real exports: title rows, the `Distribution account … Split account,
 * Amount, Balance` header, a section per account headed by the account alone in the first cell,
 * `Beginning Balance` rows with the balance in the Balance column, amounts in each account's own
 * sense as `"-2,562.45"` or `(4,500.00)`, `Total for …` rows in dollars, an account QuickBooks
 * deleted, and the footer with the basis and the time of export. A loan payment is split three
 * ways (principal, interest, the bank).
 */
export const QBO_CURRENT_LAYOUT: readonly string[] = [
  'General Ledger',
  'Blue Heron Design LLC',
  'January - March, 2026',
  '',
  ',Distribution account,Transaction date,Transaction type,Num,Name,Memo/Description,Split account,Amount,Balance',
  '1000 Checking - Umpqua 5658,,,,,,,,,',
  ',Beginning Balance,,,,,,,,"90,124.79"',
  ',1000 Checking - Umpqua 5658,01/02/2026,Expense,,PennyMac,January payment,-Split-,"-2,562.45","87,562.34"',
  ',1000 Checking - Umpqua 5658,01/05/2026,Deposit,,,January sales,4000 Sales,"12,400.00","99,962.34"',
  ',1000 Checking - Umpqua 5658,01/15/2026,Expense,1041,Landlord LLC,Rent,6100 Rent,"(4,500.00)","95,462.34"',
  ',1000 Checking - Umpqua 5658,01/28/2026,Transfer,,,Close the old savings account,1500 Old Savings (deleted),"5,000.00","100,462.34"',
  ',1000 Checking - Umpqua 5658,02/02/2026,Expense,,PennyMac,February payment,-Split-,"-2,562.45","97,899.89"',
  ',1000 Checking - Umpqua 5658,02/20/2026,Credit Card Payment,,,,2000 Visa 4417,"-1,592.10","96,307.79"',
  ',1000 Checking - Umpqua 5658,02/27/2026,Deposit,,,February sales,4000 Sales,"9,875.50","106,183.29"',
  ',1000 Checking - Umpqua 5658,03/02/2026,Expense,,PennyMac,March payment,-Split-,"-2,562.45","103,620.84"',
  ',1000 Checking - Umpqua 5658,03/16/2026,Expense,1042,Landlord LLC,Rent,6100 Rent,"(4,500.00)","99,120.84"',
  'Total for 1000 Checking - Umpqua 5658,,,,,,,,"$8,996.05",',
  '1500 Old Savings (deleted),,,,,,,,,',
  ',Beginning Balance,,,,,,,,"5,000.00"',
  ',1500 Old Savings (deleted),01/28/2026,Transfer,,,Close the old savings account,1000 Checking - Umpqua 5658,"-5,000.00",0.00',
  'Total for 1500 Old Savings (deleted),,,,,,,,"-$5,000.00",',
  '1700 Equipment,,,,,,,,,',
  ',Beginning Balance,,,,,,,,"180,000.00"',
  ',1700 Equipment,02/14/2026,Credit Card Expense,,Best Buy,Laptop,2000 Visa 4417,"1,899.99","181,899.99"',
  'Total for 1700 Equipment,,,,,,,,"$1,899.99",',
  '2000 Visa 4417,,,,,,,,,',
  ',Beginning Balance,,,,,,,,"1,250.00"',
  ',2000 Visa 4417,01/20/2026,Credit Card Expense,,Office Depot,Toner,6200 Office Supplies,342.10,"1,592.10"',
  ',2000 Visa 4417,02/14/2026,Credit Card Expense,,Best Buy,Laptop,1700 Equipment,"1,899.99","3,492.09"',
  ',2000 Visa 4417,02/20/2026,Credit Card Payment,,,,1000 Checking - Umpqua 5658,"-1,592.10","1,899.99"',
  'Total for 2000 Visa 4417,,,,,,,,$649.99,',
  '2700 Loan - PennyMac,,,,,,,,,',
  ',Beginning Balance,,,,,,,,"250,000.00"',
  ',2700 Loan - PennyMac,01/02/2026,Expense,,PennyMac,January payment,-Split-,"-2,000.00","248,000.00"',
  ',2700 Loan - PennyMac,02/02/2026,Expense,,PennyMac,February payment,-Split-,"-2,010.00","245,990.00"',
  ',2700 Loan - PennyMac,03/02/2026,Expense,,PennyMac,March payment,-Split-,"-2,020.05","243,969.95"',
  'Total for 2700 Loan - PennyMac,,,,,,,,"-$6,030.05",',
  "3000 Owner's Equity,,,,,,,,,",
  ',Beginning Balance,,,,,,,,"23,874.79"',
  "Total for 3000 Owner's Equity,,,,,,,,$0.00,",
  '4000 Sales,,,,,,,,,',
  ',4000 Sales,01/05/2026,Deposit,,,January sales,1000 Checking - Umpqua 5658,"12,400.00","12,400.00"',
  ',4000 Sales,02/27/2026,Deposit,,,February sales,1000 Checking - Umpqua 5658,"9,875.50","22,275.50"',
  'Total for 4000 Sales,,,,,,,,"$22,275.50",',
  '6100 Rent,,,,,,,,,',
  ',6100 Rent,01/15/2026,Expense,1041,Landlord LLC,Rent,1000 Checking - Umpqua 5658,"4,500.00","4,500.00"',
  ',6100 Rent,03/16/2026,Expense,1042,Landlord LLC,Rent,1000 Checking - Umpqua 5658,"4,500.00","9,000.00"',
  'Total for 6100 Rent,,,,,,,,"$9,000.00",',
  '6200 Office Supplies,,,,,,,,,',
  ',6200 Office Supplies,01/20/2026,Credit Card Expense,,Office Depot,Toner,2000 Visa 4417,342.10,342.10',
  'Total for 6200 Office Supplies,,,,,,,,$342.10,',
  '6300 Interest Expense,,,,,,,,,',
  ',6300 Interest Expense,01/02/2026,Expense,,PennyMac,January payment,-Split-,562.45,562.45',
  ',6300 Interest Expense,02/02/2026,Expense,,PennyMac,February payment,-Split-,552.45,"1,114.90"',
  ',6300 Interest Expense,03/02/2026,Expense,,PennyMac,March payment,-Split-,542.40,"1,657.30"',
  'Total for 6300 Interest Expense,,,,,,,,"$1,657.30",',
  '',
  '',
  'Accrual basis Wednesday, November 25, 2026 09:12 AM GMT-08:00',
];

/** Its trial balance: per account, debits less credits in cents (Old Savings ends at zero). */
export const QBO_CURRENT_LAYOUT_BALANCES: Readonly<Record<string, number>> = {
  'Checking - Umpqua 5658': 9_912_084,
  'Old Savings (deleted)': 0,
  Equipment: 18_189_999,
  'Visa 4417': -189_999,
  'Loan - PennyMac': -24_396_995,
  "Owner's Equity": -2_387_479,
  Sales: -2_227_550,
  Rent: 900_000,
  'Office Supplies': 34_210,
  'Interest Expense': 165_730,
};

/**
 * A Sage-style "Nominal Ledger Transaction History": a title block, a section per account with a
 * column header, an opening balance row, rows with a running balance, and a footer.
 */
export const NOMINAL_HEADER =
  ',Pr.,Mod.,Reference,Details,Doc Date,Post Date,Debit,,Credit,,Balance';
export const nominalOpening = (balance: string) =>
  `,,,,Opening Balance as at :01/01/2018,,,0.00,,0.00,,${balance}`;
export const nominalRow = (
  ref: string,
  details: string,
  date: string,
  debit: string,
  credit: string,
  balance: string,
) => `,JN,GL,${ref},${details},${date},${date},${debit},,${credit},,${balance}`;

/** A nominal ledger report's lines: its title block, `lines`, its footer. */
export const nominalLedgerFile = (lines: readonly string[]): string[] => [
  ',Acme Ltd',
  'Nominal Ledger Transaction History',
  'Report Period from 01/01/2018 to 31/12/2018',
  ...lines,
  '"Printed on Wed, September 18, 2019 at 10:57"',
  'Page 1 of 1',
];

/** Three accounts, each row's other side in another section. */
export const NOMINAL_TWO_SIDED: readonly string[] = [
  ',Account: 1200 - Bank',
  NOMINAL_HEADER,
  nominalOpening('0.00'),
  nominalRow('J1', 'Takings', '15/01/2018', '"1,200.00"', '0.00', '"1,200.00"'),
  nominalRow('J2', 'Rent', '31/01/2018', '0.00', '500.00', '700.00'),
  '',
  ',Account: 4000 - Sales',
  NOMINAL_HEADER,
  nominalOpening('0.00'),
  nominalRow('J1', 'Takings', '15/01/2018', '0.00', '"1,200.00"', '"-1,200.00"'),
  '',
  ',Account: 7100 - Rent',
  NOMINAL_HEADER,
  nominalOpening('0.00'),
  nominalRow('J2', 'Rent', '31/01/2018', '500.00', '0.00', '500.00'),
  nominalRow('J3', 'Nothing', '31/01/2018', '0.00', '0.00', '500.00'),
];

/** A books CSV general ledger (cli.md): entries, codes, names, types, classes. */
export const BOOKS_LEDGER: readonly string[] = [
  'entry,date,account_code,account_name,account_type,debit,credit,memo,classes',
  'J-1,2026-01-05,1000,Checking,asset,"1,200.00",,January sales,',
  'J-1,2026-01-05,4000,Sales,income,,"1,200.00",January sales,Retail',
  'J-2,2026-01-15,6100,Rent,expense,650.00,,"Rent, January",',
  'J-2,2026-01-15,1000,Checking,asset,,650.00,"Rent, January",',
  'J-3,2026-01-31,6200,Bank fees,expense,0.35,,Fees,',
  'J-3,2026-01-31,1000,Checking,asset,,0.35,Fees,',
];
