import path from 'node:path';
import iconv from 'iconv-lite';
import { dayOption } from '../../terminal/dates.js';
import type { ImportRequest } from '../../../migrate/import/index.js';
import { DATE_FORMATS, parseMapOption, type DateFormat } from '../../../formats/ledgerCsv.js';
import { LEDGER_FORMATS, parseCodeRanges, type LedgerFormat } from '../../../formats/options.js';
import { argument, defineCommand, flag, text } from '../../command.js';
import { readFileSync } from 'node:fs';
import { ExitCode, UsageError, UserError } from '../../exitCodes.js';
import { importWith } from '../../ledgers/importing.js';
import { basisOption } from './shared.js';
import { progressMode, progressOptions } from '../../terminal/progress.js';

/** The flags a CSV general ledger import takes (je import, migrate run). */
export interface ImportFlags {
  format?: string | undefined;
  chart?: string | undefined;
  codeRanges?: string | undefined;
  writeChart?: string | undefined;
  currency?: string | undefined;
  offsetAccount?: string | undefined;
  basis?: string | undefined;
  dryRun?: boolean | undefined;
  map?: string | undefined;
  dateFormat?: string | undefined;
  decimalComma?: boolean | undefined;
  encoding?: string | undefined;
  sheet?: string | undefined;
  openingDate?: string | undefined;
  openingBalances?: boolean | undefined;
  datevVat?: string | undefined;
  skr?: string | undefined;
  concurrency?: string | undefined;
  receipt?: string | undefined;
  createMissingAccounts?: boolean | undefined;
  taxCodes?: string | undefined;
}

/** The options a CSV general ledger import takes (je import, migrate run). */
export const importOptions = {
  format: text(
    '--format <name>',
    `the export's format: ${LEDGER_FORMATS.join(', ')} (auto: told by its first line)`,
    { default: 'auto', choices: LEDGER_FORMATS },
  ),
  chart: text(
    '--chart <file>',
    'a CSV code,name,type giving the codes and types of accounts the export leaves untyped',
  ),
  currency: text(
    '--currency <code>',
    'keep the lines in this currency of a file that holds several',
  ),
  writeChart: text(
    '--write-chart <file>',
    "write the file's accounts as read (code,name,type; blanks to fill) for --chart",
  ),
  codeRanges: text(
    '--code-ranges <digits=type,...>',
    'types by the leading digits of account codes, e.g. 1=asset,2=liability,4=income',
  ),
  offsetAccount: text(
    '--offset-account <account>',
    'the other side of every row of a single-sided report (a nominal ledger excerpt)',
  ),
  dryRun: flag('--dry-run', 'check the file only; send nothing'),
  map: text(
    '--map <target=Header,...>',
    "map this file's headers to ours, e.g. account=GL Account,amount=Net",
  ),
  dateFormat: text(
    '--date-format <format>',
    'YYYY-MM-DD (the default), MM/DD/YYYY or DD/MM/YYYY; a GnuCash export: told by its dates',
    { choices: ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY'] },
  ),
  decimalComma: flag('--decimal-comma', 'amounts write decimals with a comma: 1.234,56'),
  encoding: text(
    '--encoding <name>',
    "the file's encoding when not UTF-8: windows-1252, latin1, utf-16le, ...",
  ),
  openingDate: text(
    '--opening-date <date>',
    "the day an IIF chart's OBAMOUNTs (opening balances) stand at (YYYY-MM-DD)",
  ),
  openingBalances: flag(
    '--opening-balances',
    "post an IIF chart's OBAMOUNTs as an opening entry though the file has transactions",
  ),
  datevVat: text(
    '--datev-vat <how>',
    'DATEV rows whose tax key, Skonto or automatic account imply VAT: gross (as written) or split',
    { choices: ['gross', 'split'] },
  ),
  skr: text('--skr <chart>', "a DATEV file's chart when its header names none: 03 or 04", {
    choices: ['03', '04'],
  }),
  sheet: text('--sheet <name>', 'the sheet of an .xlsx workbook to read (else its first)'),
  taxCodes: text(
    '--tax-codes <file>',
    "a CSV theirs,ours mapping the file's tax codes to the entity's (books tax codes)",
    { names: 'file' },
  ),
  concurrency: text('--concurrency <n>', 'batches in flight', { default: '4' }),
  receipt: text('--receipt <file>', 'write, per file entry, the id of the journal entry it became'),
  ...progressOptions,
  createMissingAccounts: flag(
    '--create-missing-accounts',
    'create accounts the chart lacks (type from account_type: a type, or asset, liability, equity, income, expense)',
  ),
} as const;

export function parseImport(file: string, flags: ImportFlags): ImportRequest {
  if (flags.basis !== undefined && flags.basis !== 'cash' && flags.basis !== 'accrual') {
    throw new UsageError(`--basis must be cash or accrual, not "${flags.basis}"`);
  }
  if (flags.format !== undefined && !(LEDGER_FORMATS as readonly string[]).includes(flags.format)) {
    throw new UsageError(
      `--format must be one of ${LEDGER_FORMATS.join(', ')}, not "${flags.format}"`,
    );
  }
  if (
    flags.dateFormat !== undefined &&
    !(DATE_FORMATS as readonly string[]).includes(flags.dateFormat)
  ) {
    throw new UsageError(`--date-format must be one of ${DATE_FORMATS.join(', ')}`);
  }
  if (flags.encoding !== undefined && !iconv.encodingExists(flags.encoding)) {
    throw new UsageError(
      `--encoding: "${flags.encoding}" is not an encoding books knows (utf-8, utf-16le, windows-1252, latin1, iso-8859-15, macintosh, cp850, ...)`,
    );
  }
  if (flags.openingDate !== undefined) dayOption('--opening-date', flags.openingDate);
  if (flags.datevVat !== undefined && flags.datevVat !== 'gross' && flags.datevVat !== 'split')
    throw new UsageError(`--datev-vat must be gross or split, not "${flags.datevVat}"`);
  if (flags.skr !== undefined && flags.skr !== '03' && flags.skr !== '04')
    throw new UsageError(`--skr must be 03 or 04, not "${flags.skr}"`);
  const concurrency = Number(flags.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
    throw new UsageError('--concurrency must be 1 to 16');
  let codeRanges;
  try {
    codeRanges = flags.codeRanges === undefined ? undefined : parseCodeRanges(flags.codeRanges);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let map;
  try {
    map = parseMapOption(flags.map);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return {
    file: path.resolve(file),
    basis: flags.basis === 'accrual' ? 'accrual' : 'cash',
    dryRun: Boolean(flags.dryRun),
    read: {
      format: (flags.format ?? 'auto') as LedgerFormat,
      ...(flags.chart !== undefined && { chartFile: path.resolve(flags.chart) }),
      ...(codeRanges && { codeRanges }),
      ...(flags.offsetAccount !== undefined && { offsetAccount: flags.offsetAccount.trim() }),
      ...(flags.currency !== undefined && { currency: flags.currency.trim().toUpperCase() }),
      map,
      ...(flags.dateFormat !== undefined && { dateFormat: flags.dateFormat as DateFormat }),
      // Given only when the flag is: a reader that tells the decimal mark over its file (GnuCash's)
      // must not be told "a point" by its absence.
      ...(flags.decimalComma && { decimalComma: true }),
      ...(flags.encoding !== undefined && { encoding: flags.encoding }),
      ...(flags.sheet !== undefined && { sheet: flags.sheet }),
      ...(flags.openingDate !== undefined && { openingDate: flags.openingDate }),
      ...(flags.openingBalances && { openingBalances: true }),
      ...(flags.datevVat !== undefined && { datevVat: flags.datevVat as 'gross' | 'split' }),
      ...(flags.skr !== undefined && { skr: flags.skr as '03' | '04' }),
    },
    concurrency,
    ...(flags.receipt && { receipt: path.resolve(flags.receipt) }),
    ...(flags.writeChart && { writeChart: path.resolve(flags.writeChart) }),
    createMissingAccounts: Boolean(flags.createMissingAccounts),
    ...(flags.taxCodes !== undefined && { taxCodeMap: readTaxCodeMap(flags.taxCodes) }),
  };
}

/**
 * `--tax-codes FILE`: lines `theirs,ours` (or `;`-separated; a first line `theirs,ours` is a
 * header). Codes hold no separators, so the file is read as plain lines.
 */
function readTaxCodeMap(file: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new UserError(
      `--tax-codes ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
      ExitCode.InvalidFile,
    );
  }
  const map = new Map<string, string>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const cells = line.split(/[,;\t]/).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
    if (index === 0 && cells[0]?.toLowerCase() === 'theirs') return;
    const [theirs, ours] = cells;
    if (!theirs || !ours || cells.length !== 2)
      throw new UserError(
        `--tax-codes ${file}: line ${index + 1} is not theirs,ours (the file's code, the entity's)`,
        ExitCode.InvalidFile,
      );
    map.set(theirs, ours);
  });
  return map;
}

/**
 * `je import FILE.csv`: the whole file is checked first (every problem by line, exit 3, nothing
 * sent); then entries go in keyed bulk batches with a checkpoint, so running the same command
 * again after any failure sends only what is missing. Ends by reconciling the file against the
 * trial balance.
 */
export const command = defineCommand({
  summary:
    'Import a general ledger (CSV, or QuickBooks IIF) through bulk create (checked whole first; safe to rerun)',
  arguments: { file: argument('the general ledger: the books CSV, or a QuickBooks IIF export') },
  options: {
    ...importOptions,
    basis: basisOption,
  },
  examples: [
    'books je import ledger.csv --dry-run',
    'books je import ledger.csv --receipt receipt.csv',
  ],
  async run(ctx, { file, ...flags }) {
    const progress = progressMode(flags);
    await importWith(ctx, parseImport(file, flags), undefined, { progress });
    return ExitCode.Success;
  },
});
