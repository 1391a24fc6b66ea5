import type { GeneralLedgerQuery, LedgerBasis } from '../../../api/index.js';
import { defineCommand, text } from '../../command.js';
import { namesFiscalYear } from '../../terminal/dates.js';
import { UsageError } from '../../exitCodes.js';
import type { GeneralLedgerEvent } from '../../../client/index.js';
import {
  GENERAL_LEDGER_FIELDS,
  generalLedgerRecord,
  generalLedgerRows,
  terminalGeneralLedger,
} from '../../render/generalLedger.js';
import { coverage, titleOf } from '../../render/statements.js';
import { indentedJson } from '../../terminal/output.js';
import { parseReportQuery, reportOptions, type ReportFlags } from './shared.js';

export function parse(
  flags: ReportFlags & { account?: string | undefined },
  asOf: string,
  fiscalStart?: string,
): GeneralLedgerQuery & { ledgerBasis: LedgerBasis; account?: string } {
  if (flags.by !== undefined) throw new UsageError('the general ledger takes no --by');
  const { startDate, endDate, ledgerBasis } = parseReportQuery(flags, asOf, fiscalStart);
  return { startDate, endDate, ledgerBasis, ...(flags.account && { account: flags.account }) };
}

export const command = defineCommand({
  summary: 'General ledger',
  options: {
    ...reportOptions,
    account: text('--account <account>', 'one account, by id, code or name'),
  },
  paged: true,
  examples: ['books report gl --from this-month --to this-month --account 1000'],
  async run(ctx, flags) {
    let { account, ...query } = parse(flags, ctx.today());
    const api = await ctx.api();
    const { entity } = await ctx.chosenEntity();
    if (namesFiscalYear(flags))
      ({ account, ...query } = parse(flags, ctx.today(), await ctx.fiscalYearStart(entity.id)));
    const accountId = account === undefined ? undefined : await ctx.accountId(entity.id, account);
    const events = await api.reports.generalLedgerEvents(entity.id, {
      ...query,
      ...(accountId && { accountId }),
    });
    // Written as it arrives, in pieces of about 64 kB: a ledger of millions of postings is never
    // whole in memory, here or on the platform.
    const out = batchedWriter((text) => ctx.output.write(text));
    const output = ctx.output;
    if (output.json) {
      await writeJson(out, { entityId: entity.id, ...query }, events);
    } else if (output.asRecords) {
      out.write(output.recordsText([GENERAL_LEDGER_FIELDS]));
      for await (const row of generalLedgerRows(events)) {
        out.write(output.recordsText([generalLedgerRecord(row)]));
      }
    } else {
      const terminal = terminalGeneralLedger({ width: output.width, color: output.color });
      out.write(`${titleOf(entity.name, 'General Ledger', coverage(query))}\n\n`);
      out.write(terminal.header());
      for await (const row of generalLedgerRows(events)) out.write(terminal.row(row));
    }
    out.flush();
  },
});

/** Collects text and hands it on in pieces of about 64 kB. */
function batchedWriter(write: (text: string) => void) {
  let buffered = '';
  return {
    write(text: string) {
      buffered += text;
      if (buffered.length >= 65_536) this.flush();
    },
    flush() {
      if (buffered !== '') write(buffered);
      buffered = '';
    },
  };
}

/** `{ report }` as `--json` prints it (two-space indents), written as the ledger arrives. */
async function writeJson(
  out: { write(text: string): void },
  spec: Record<string, string>,
  events: AsyncIterable<GeneralLedgerEvent>,
): Promise<void> {
  const fields = (value: object, depth: number) =>
    Object.entries(value)
      .map(([key, v]) => `${' '.repeat(depth)}${JSON.stringify(key)}: ${indentedJson(v, depth)},\n`)
      .join('');
  out.write(`{\n  "report": {\n${fields(spec, 4)}    "accounts": [`);
  let accounts = 0;
  let entries = 0;
  for await (const event of events) {
    if (event.kind === 'account') {
      out.write(
        `${accounts++ > 0 ? ',' : ''}\n      {\n${fields(event.account, 8)}        "entries": [`,
      );
      entries = 0;
    } else if (event.kind === 'entry') {
      out.write(`${entries++ > 0 ? ',' : ''}\n          ${indentedJson(event.entry, 10)}`);
    } else {
      out.write(
        `${entries > 0 ? '\n        ' : ''}],\n        "closingBalance": ${JSON.stringify(event.closingBalance)}\n      }`,
      );
    }
  }
  out.write(`${accounts > 0 ? '\n    ' : ''}]\n  }\n}\n`);
}
