import path from 'node:path';
import iconv from 'iconv-lite';
import type { ImportRequest } from '../../../migrate/index.js';
import { DATE_FORMATS, parseMapOption, type DateFormat } from '../../../migrate/ledgerCsv.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, UsageError } from '../../exitCodes.js';
import { importWith } from '../../importing.js';

/** The flags a CSV general ledger import takes (je import, migrate run). */
export interface ImportFlags {
  basis?: string;
  dryRun?: boolean;
  map?: string;
  dateFormat?: string;
  decimalComma?: boolean;
  encoding?: string;
  concurrency?: string;
  receipt?: string;
  createMissingAccounts?: boolean;
}

export function parseImport(file: string, flags: ImportFlags): ImportRequest {
  if (flags.basis !== undefined && flags.basis !== 'cash' && flags.basis !== 'accrual') {
    throw new UsageError(`--basis must be cash or accrual, not "${flags.basis}"`);
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
  const concurrency = Number(flags.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
    throw new UsageError('--concurrency must be 1 to 16');
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
      map,
      dateFormat: (flags.dateFormat ?? 'YYYY-MM-DD') as DateFormat,
      decimalComma: Boolean(flags.decimalComma),
      ...(flags.encoding !== undefined && { encoding: flags.encoding }),
    },
    concurrency,
    ...(flags.receipt && { receipt: path.resolve(flags.receipt) }),
    createMissingAccounts: Boolean(flags.createMissingAccounts),
  };
}

/**
 * `je import FILE.csv`: the whole file is checked first (every problem by line, exit 3, nothing
 * sent); then entries go in keyed bulk batches with a checkpoint, so running the same command
 * again after any failure sends only what is missing. Ends by reconciling the file against the
 * trial balance.
 */
export async function run(ctx: CommandContext, request: ImportRequest): Promise<number> {
  await importWith(ctx, request);
  return ExitCode.Success;
}
