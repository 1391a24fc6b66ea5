import {
  detectDelimiter,
  eachRecord,
  parseRecords,
  parseRecordsOnWorker,
} from '../common/csvRecords.js';
import {
  count,
  datesSaid,
  encodingShown,
  firstLineOf,
  isReadFailure,
  zeroWhole,
  type LedgerFormatDefinition,
  type ReadOptions,
  type ReadResult,
} from '../format.js';
import {
  EntryGrouper,
  isProblem,
  isZeroLine,
  LedgerFormatError,
  mapColumns,
  readLine,
  reportProblem,
  type DateFormat,
  type LedgerEntry,
  type LineFormat,
  type Problem,
  dateOrderOrProblem,
  dayMonthOrder,
  slashedPair,
  ZeroEntries,
} from '../ledgerCsv.js';

/** The CSV general ledger of cli.md: the default, when no other format's signs are there. */
export const books: LedgerFormatDefinition = {
  name: 'books',
  title: 'books CSV general ledger',
  toldBy: 'read as a books CSV general ledger',
  fromSheet: true,
  encodingSaid: false,
  read: (file, head, options, result) => readBooksCsv(file, head, options, result),
};

const DELIMITER_NAMES: Record<string, string> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
  '|': 'pipes',
};

/**
 * The order of day and month of a file's `a/b/year` dates, told over the whole file (one more
 * pass, made only when such a date is met without `--date-format`).
 */
async function dateOrderOfColumn(
  file: string,
  encoding: string | undefined,
  column: number,
  usual: DateFormat | undefined,
): Promise<DateFormat | { problem: string }> {
  const pairs: [number, number][] = [];
  let example: string | undefined;
  let header = true;
  for await (const { record } of eachRecord(
    file,
    { encoding },
    () => {},
    () => {},
  )) {
    if (header) {
      header = false;
      continue;
    }
    const text = record[column] ?? '';
    const pair = slashedPair(text);
    if (pair) {
      pairs.push(pair);
      example ??= text.trim();
    }
  }
  return dateOrderOrProblem(dayMonthOrder(pairs), example, usual);
}

/** `books`: the CSV general ledger of cli.md. */
async function* readBooksCsv(
  file: string,
  /** Its first 4 kB. */
  head: string,
  options: ReadOptions,
  result: ReadResult,
): AsyncGenerator<LedgerEntry> {
  let hash = '';
  const chunks = (options.parseOnWorker ? parseRecordsOnWorker : parseRecords)(
    file,
    { encoding: options.encoding },
    (digest) => (hash = digest),
  );
  const ready: LedgerEntry[] = [];
  const report = (problem: Problem) => reportProblem(result, problem);
  let grouper: EntryGrouper | undefined;
  let columns: ReturnType<typeof mapColumns> | undefined;
  let zeroLines = 0;
  const zeroEntries = new ZeroEntries();
  const format: LineFormat = {
    dateFormat: options.dateFormat ?? 'YYYY-MM-DD',
    decimalComma: options.decimalComma ?? false,
  };
  /** Whether the order of a/b/year dates is known (given, or told over the file). */
  let orderKnown = options.dateFormat !== undefined;
  let dates =
    options.dateFormat === undefined
      ? datesSaid('YYYY-MM-DD')
      : `${options.dateFormat} (--date-format)`;
  let reading: string | undefined;
  try {
    for await (const { records, lines } of chunks) {
      for (let i = 0; i < records.length; i += 1) {
        const record = records[i]!;
        const line = lines[i]!;
        result.lines = line;
        if (!columns) {
          try {
            columns = mapColumns(record, options.map);
          } catch (error) {
            if (!(error instanceof LedgerFormatError)) throw error;
            report({ fileLine: line, message: error.message });
            return;
          }
          grouper = new EntryGrouper(
            columns.entry !== undefined,
            (entry) => ready.push(entry),
            report,
          );
          const mapped = Object.entries(columns)
            .map(
              ([field, index]) =>
                `${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} ← "${record[index]!.trim()}"`,
            )
            .join(', ');
          reading = `${encodingShown(head, options.encoding)}, fields separated by ${DELIMITER_NAMES[detectDelimiter(firstLineOf(head))]}, amounts with a decimal ${format.decimalComma ? 'comma (--decimal-comma)' : 'point'}; columns ${mapped}`;
          continue;
        }
        if (record.every((field) => field.trim() === '')) continue;
        if (!orderKnown && slashedPair(record[columns.date!] ?? '')) {
          orderKnown = true;
          const found = await dateOrderOfColumn(
            file,
            options.encoding,
            columns.date!,
            options.usualDateFormat,
          );
          if (typeof found !== 'string') {
            report({ fileLine: 1, message: found.problem });
            return;
          }
          format.dateFormat = found;
          dates = `${found} (told over the whole file)`;
        }
        const ledgerLine = readLine(record, line, columns, format);
        if (isZeroLine(ledgerLine)) {
          zeroLines += 1;
          zeroEntries.line(ledgerLine.entry, true);
          continue;
        }
        if (isProblem(ledgerLine)) report(ledgerLine);
        else {
          zeroEntries.line(ledgerLine.entry, false);
          grouper!.add(ledgerLine);
        }
      }
      yield* ready;
      ready.length = 0;
    }
    grouper?.finish();
    yield* ready;
    if (!columns) report({ fileLine: 1, message: 'the file is empty: a header row is required' });
    zeroEntries.finish();
    if (reading) result.notes.push(`read as a books CSV: ${reading}; dates ${dates}`);
    if (zeroLines > 0) {
      result.notes.push(
        `${count(zeroLines, 'line', 'lines')} of zero left out${zeroWhole(zeroEntries.count, 'entry', 'entries')}`,
      );
    }
  } catch (error) {
    if (!isReadFailure(error)) throw error;
    report({ fileLine: error.lines ?? result.lines + 1, message: error.message });
  }
  result.hash = hash;
}
