import { centsToAmount, formatCents, type Cents } from '../../../core/money.js';
import {
  readStatements,
  statementFileJson,
  statementOptionsOf,
  statementReadOptions,
} from '../../statements/reading.js';
import { argument, defineCommand } from '../../command.js';
import { displayAmount, plainAmount } from '../../render/statements.js';

/**
 * `statement show FILE...`: each bank statement file as books reads it — camt.052/053/054,
 * MT940/MT942, OFX/QFX, BAI2, QIF, CODA, Norma 43, CFONB 120 or a bank's CSV, told by its
 * first bytes.
 */
export const command = defineCommand({
  summary:
    "Read bank statements (camt, MT940/942, OFX/QFX, BAI2, QIF, CODA, Norma 43, CFONB 120, a bank's CSV) as books reads them",
  arguments: {
    files: argument('one or more statement files', { names: 'file', variadic: true }),
  },
  options: statementReadOptions,
  examples: [
    'books statement show october.xml',
    'books statement show *.sta --json',
    'books statement show export.csv --map date=Buchungstag,amount=Betrag --decimal-comma',
  ],
  paged: true,
  async run(ctx, input) {
    const read = await readStatements(ctx, input.files, statementOptionsOf(input));
    if (ctx.output.json) return ctx.output.printJson(read.map(statementFileJson));
    const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
    const balance = (cents: Cents | null) => (cents === null ? '' : formatCents(cents));
    type Row = {
      file: string;
      account: string;
      entry: (typeof read)[number]['statements'][number]['entries'][number];
    };
    const rows: Row[] = [];
    for (const file of read) {
      file.statements.forEach((statement, index) => {
        const booked = statement.entries.filter((e) => e.status === 'booked').length;
        ctx.output.note(
          `books: ${file.file}: ${file.format} statement ${index + 1} of ${file.statements.length}: ${statement.account ?? '(no account)'} ${statement.currency ?? ''} ${statement.from ?? '?'} to ${statement.to ?? '?'}, opening ${balance(statement.opening) || 'not stated'}, closing ${balance(statement.closing) || 'not stated'}, ${booked} booked ${booked === 1 ? 'entry' : 'entries'}${statement.entries.length > booked ? `, ${statement.entries.length - booked} pending or for information` : ''}`,
        );
        for (const entry of statement.entries)
          rows.push({ file: file.file, account: statement.account ?? '', entry });
      });
    }
    await ctx.output.table(
      [
        { header: 'File', value: (r) => r.file },
        { header: 'Account', value: (r) => r.account },
        { header: 'Booked', value: (r) => r.entry.bookingDate },
        { header: 'Value', value: (r) => r.entry.valueDate ?? '' },
        { header: 'Amount', value: (r) => amount(centsToAmount(r.entry.amount)), align: 'right' },
        { header: 'Status', value: (r) => r.entry.status },
        { header: 'Reference', value: (r) => r.entry.reference ?? '' },
        { header: 'Counterparty', value: (r) => r.entry.counterparty ?? '' },
        { header: 'Description', value: (r) => r.entry.description },
      ],
      rows,
    );
  },
});
