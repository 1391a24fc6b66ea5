import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TaxReturn } from '../../../api/index.js';
import { addDays, isCalendarDay } from '../../../core/calendar.js';
import { unlessNotFound } from '../../../client/index.js';
import type { TaxReturnEvent } from '../../../client/taxReturnStream.js';
import type { CommandContext } from '../../context.js';
import { addMonths, namedPeriod } from '../../../core/periods.js';
import { defineCommand, flag, text } from '../../command.js';
import { ExitCode, UsageError, UserError } from '../../exitCodes.js';
import { displayAmount, plainAmount } from '../../render/statements.js';
import { taxSetupOf } from './shared.js';

/** `--period`: a month 2026-07, a quarter 2026-Q3, a year 2026, or FROM..TO. */
function periodOf(given: string): { startDate: string; endDate: string } {
  const range = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(given);
  if (range && isCalendarDay(range[1]) && isCalendarDay(range[2]) && range[1]! <= range[2]!)
    return { startDate: range[1]!, endDate: range[2]! };
  const period = namedPeriod(given.toUpperCase());
  if (period) return period;
  throw new UsageError(
    `--period must be a month (2026-07), a quarter (2026-Q3), a year (2026) or FROM..TO (2026-07-01..2026-09-30), not "${given}"`,
  );
}

/**
 * The body of HMRC's Making Tax Digital "submit VAT return" request (VatReturnDeclaration):
 * boxes 1–5 in pounds and pence, box 5 the difference's size, boxes 6–9 in whole pounds.
 */
export function mtdBody(taxReturn: TaxReturn, periodKey: string) {
  const box = (id: string) => taxReturn.boxes.find((b) => b.box === id)?.formAmount ?? 0;
  return {
    periodKey,
    vatDueSales: box('1'),
    vatDueAcquisitions: box('2'),
    totalVatDue: box('3'),
    vatReclaimedCurrPeriod: box('4'),
    netVatDue: box('5'),
    totalValueSalesExVAT: box('6'),
    totalValuePurchasesExVAT: box('7'),
    totalValueGoodsSuppliedExVAT: box('8'),
    totalAcquisitionsExVAT: box('9'),
    finalised: true,
  };
}

/** When a return of a period ending on `endDate` is due, by the country's rule. */
export function dueDate(country: string, endDate: string): string {
  // The UK: one month and seven days after the period (HMRC, VAT Notice 700/12 §2.3);
  // Germany: the 10th day after the period (§ 18 Abs. 1 UStG); the Netherlands: the last
  // day of the month after it (Belastingdienst).
  if (country === 'GB') return addDays(addMonths(endDate, 1), 7);
  if (country === 'DE') return addDays(endDate, 10);
  return addMonths(endDate, 1);
}

const OUT_FORMATS = ['json', 'csv', 'xlsx', 'pdf'] as const;
type OutFormat = (typeof OUT_FORMATS)[number];

/** `--out FILE`: its format by its extension. */
function outFormatOf(file: string): OutFormat {
  const extension = path.extname(file).slice(1).toLowerCase();
  if ((OUT_FORMATS as readonly string[]).includes(extension)) return extension as OutFormat;
  throw new UsageError(
    `--out takes a file ending .json, .csv, .xlsx or .pdf (the format by its name), not "${file}"`,
  );
}

/** The return written whole to `file` in `format` (a half-written file never stands). */
async function writeReturnFile(
  ctx: CommandContext,
  file: string,
  format: OutFormat,
  taxReturn: TaxReturn,
  detail: boolean,
): Promise<void> {
  const [{ writeWhole, localePaper }, { taxReturnCsv, taxReturnStatement }] = await Promise.all([
    import('../../close/reportFiles.js'),
    import('../../render/taxReturn.js'),
  ]);
  const target = path.resolve(file);
  const { entity } = await ctx.chosenEntity();
  const preparedAt = ctx.clock.now();
  const heading = {
    entity: entity.name,
    period: `${taxReturn.startDate} to ${taxReturn.endDate}`,
    basis: taxReturn.basis,
    preparedAt: `${preparedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`,
  };
  const sheets = [{ sheet: 'VAT Return', statement: taxReturnStatement(taxReturn) }];
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    await writeWhole(target, async (partial) => {
      if (format === 'json') writeFileSync(partial, `${JSON.stringify(taxReturn, null, 2)}\n`);
      else if (format === 'csv') writeFileSync(partial, taxReturnCsv(taxReturn, detail));
      else if (format === 'xlsx') {
        const { writeReportWorkbook } = await import('../../render/workbook.js');
        await writeReportWorkbook(partial, heading, sheets);
      } else {
        const { writeReportPdf } = await import('../../render/packPdf.js');
        await writeReportPdf(partial, {
          heading,
          preparedAt,
          paper: localePaper(ctx.io.env),
          title: `${taxReturn.country} VAT return`,
          statements: sheets,
        });
      }
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new UserError(`cannot write ${file}: ${code}`, ExitCode.Refused);
  }
  ctx.wrote(`wrote the return to ${target}`);
}

type ReturnFigures = Omit<TaxReturn, 'boxes'>;

/**
 * Refuses a return that does not tie (or, with `--strict`, one with uncoded income or expense
 * lines), naming each posting in the way; with `--mark-filed`, files one that does.
 */
async function settle(
  ctx: CommandContext,
  taxReturn: ReturnFigures,
  options: {
    startDate: string;
    endDate: string;
    strict: boolean | undefined;
    markFiled: boolean | undefined;
  },
): Promise<void> {
  const { startDate, endDate } = options;
  const problems = taxReturn.problems.map(
    (p) =>
      `${p.date} ${p.accountCode} ${p.accountName} "${p.description}" (${p.taxCode ?? 'no code'}): ${p.message}`,
  );
  const refusals = [
    ...problems,
    ...(options.strict
      ? taxReturn.uncoded.map(
          (p) => `${p.date} ${p.accountCode} ${p.accountName} "${p.description}": no tax code`,
        )
      : []),
  ];
  const refused = !taxReturn.ties || (options.strict === true && taxReturn.uncoded.length > 0);
  if (refused) {
    for (const line of refusals) ctx.output.note(`  ${line}`);
    throw new UserError(
      taxReturn.ties
        ? `the return from ${startDate} to ${endDate} is refused: ${taxReturn.uncoded.length} income or expense ${taxReturn.uncoded.length === 1 ? 'line carries' : 'lines carry'} no tax code (--strict)`
        : taxReturn.vatAccountsMovement !== taxReturn.declaredVat
          ? `the return from ${startDate} to ${endDate} does not tie: the VAT accounts moved ${plainAmount(taxReturn.vatAccountsMovement)}, the coded postings declare ${plainAmount(taxReturn.declaredVat)}`
          : `the return from ${startDate} to ${endDate} does not tie: the VAT accounts moved what the coded postings declare (${plainAmount(taxReturn.declaredVat)}), but postings on them are in no box (named above)`,
      ExitCode.Refused,
    );
  }
  // It ties, yet VAT that is not its code's rate of its net (a receipt's own VAT, or a line on
  // an account the return does not know as a VAT account) is said before anything is filed.
  if (taxReturn.problems.length > 0) {
    for (const line of problems) ctx.output.note(`  ${line}`);
    ctx.output.note(
      `books: warning: ${taxReturn.problems.length} ${taxReturn.problems.length === 1 ? "entry's VAT is" : "entries' VAT is"} not the code's rate of the net (named above): a receipt's own VAT, or VAT on an account that is not a VAT account of the entity or its code (books tax code update CODE --output-account A)`,
    );
  }
  if (!options.markFiled) return;
  const api = await ctx.api();
  const { taxReturn: filed } = await api.sandbox.fileTaxReturn(taxReturn.entityId, {
    startDate,
    endDate,
    basis: taxReturn.basis,
  });
  ctx.output.note(
    `books: marked the return from ${startDate} to ${endDate} filed (${plainAmount(Math.abs(filed.net))} ${filed.net >= 0 ? 'to pay' : 'to reclaim'}): its period's coded postings are locked`,
  );
}

/** The postings behind each box as they arrive: records written at once, a table at the end. */
async function writeDetail(
  ctx: CommandContext,
  events: AsyncIterable<TaxReturnEvent>,
): Promise<void> {
  const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
  const columns: [string, (r: DetailRow) => string][] = [
    ['Box', (r) => r.box],
    ['Date', (r) => r.posting.date],
    ['Account', (r) => `${r.posting.accountCode} ${r.posting.accountName}`],
    ['Code', (r) => r.posting.taxCode ?? ''],
    ['Description', (r) => r.posting.description],
    ['Net', (r) => amount(r.posting.net)],
    ['VAT', (r) => amount(r.posting.vat)],
    ['Entry', (r) => r.posting.journalEntryId],
  ];
  const output = ctx.output;
  if (output.asRecords) {
    let text = output.recordsText([columns.map(([header]) => header)]);
    for await (const event of events) {
      if (event.kind !== 'postings') continue;
      text += output.recordsText(
        event.postings.map((posting) =>
          columns.map(([, value]) => value({ box: event.box, posting })),
        ),
      );
      if (text.length >= 65_536) {
        output.write(text);
        text = '';
        await output.drained();
      }
    }
    output.write(text);
    return;
  }
  const rows: DetailRow[] = [];
  for await (const event of events)
    if (event.kind === 'postings')
      for (const posting of event.postings) rows.push({ box: event.box, posting });
  await output.table(
    columns.map(([header, value]) => ({
      header,
      value,
      ...(header === 'Net' || header === 'VAT' ? { align: 'right' as const } : {}),
    })),
    rows,
  );
}

interface DetailRow {
  box: string;
  posting: Extract<TaxReturnEvent, { kind: 'postings' }>['postings'][number];
}

/** The last word: what is to pay or reclaim, and that it ties. */
function sayReturn(
  ctx: CommandContext,
  taxReturn: ReturnFigures,
  startDate: string,
  endDate: string,
) {
  const net = taxReturn.net;
  ctx.output.note(
    `books: ${taxReturn.country} VAT return ${startDate} to ${endDate} (${taxReturn.basis}): ${plainAmount(Math.abs(net))} ${net >= 0 ? 'to pay' : 'to reclaim'}; ties to the VAT accounts (they moved ${plainAmount(taxReturn.vatAccountsMovement)})${taxReturn.uncoded.length > 0 ? `; ${taxReturn.uncoded.length} income or expense ${taxReturn.uncoded.length === 1 ? 'line carries' : 'lines carry'} no tax code (--detail lists the coded, --strict refuses)` : ''}`,
  );
}

/** `tax return --all`: the firm's returns of a period, a row per VAT-registered entity. */
async function firmReturns(
  ctx: CommandContext,
  startDate: string,
  endDate: string,
  basis: 'accrual' | 'cash' | undefined,
): Promise<number> {
  const api = await ctx.api();
  interface FirmRow {
    workspace: string;
    entity: string;
    country: string;
    due: string;
    filed: string;
    net: number;
    ties: boolean;
  }
  const rows: FirmRow[] = [];
  for (const workspace of await api.workspaces.all()) {
    for (const entity of await api.sandbox.entities(workspace.id)) {
      const setup = await unlessNotFound(api.sandbox.taxSetting(entity.id));
      if (!setup) continue;
      const [taxReturn, filed] = await Promise.all([
        api.sandbox.taxReturn(entity.id, { startDate, endDate, ...(basis && { basis }) }),
        api.sandbox.filedTaxReturns(entity.id),
      ]);
      const filing = filed.data.find((f) => f.startDate === startDate && f.endDate === endDate);
      rows.push({
        workspace: workspace.name,
        entity: entity.name,
        country: setup.taxSetting.country,
        due: dueDate(setup.taxSetting.country, endDate),
        filed: filing ? filing.filedAt.slice(0, 10) : '',
        net: taxReturn.net,
        ties: taxReturn.ties,
      });
    }
  }
  const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
  await ctx.output.table(
    [
      { header: 'Workspace', value: (r: FirmRow) => r.workspace },
      { header: 'Entity', value: (r) => r.entity },
      { header: 'Country', value: (r) => r.country },
      { header: 'Due', value: (r) => r.due },
      { header: 'Filed', value: (r) => r.filed },
      { header: 'Net', value: (r) => amount(r.net), align: 'right' },
      { header: 'Ties', value: (r) => (r.ties ? 'yes' : 'NO') },
    ],
    rows,
  );
  const untied = rows.filter((r) => !r.ties);
  ctx.output.note(
    `books: ${rows.length} VAT-registered ${rows.length === 1 ? 'entity' : 'entities'} from ${startDate} to ${endDate}${untied.length > 0 ? `; ${untied.length} ${untied.length === 1 ? 'does' : 'do'} not tie: ${untied.map((r) => r.entity).join(', ')} (books tax return --period … -e ENTITY names why)` : '; every return ties'}`,
  );
  return untied.length > 0 ? ExitCode.Refused : ExitCode.Success;
}

/**
 * `tax return --period P`: the country's boxes from the entity's coded postings. Exit 0 when the
 * return ties to the VAT accounts; 1 when it does not, naming each posting that keeps it from
 * tying (and, with `--strict`, when an income or expense line of the period carries no code).
 */
export const command = defineCommand({
  summary: 'The VAT return of a period from the books, tied to the VAT accounts',
  options: {
    period: text('--period <period>', 'a month 2026-07, a quarter 2026-Q3, a year, or FROM..TO', {
      required: true,
    }),
    basis: text(
      '--basis <basis>',
      'accrual (as invoiced) or cash (as money moves); default: the scheme',
      {
        choices: ['accrual', 'cash'],
      },
    ),
    detail: flag('--detail', 'every posting behind each box'),
    strict: flag('--strict', 'refuse the return when an income or expense line carries no code'),
    mtd: flag('--mtd', "print the body of HMRC's Making Tax Digital VAT return (GB)"),
    periodKey: text('--period-key <key>', "HMRC's key of the obligation (with --mtd)"),
    all: flag(
      '--all',
      "the firm's view: a row per VAT-registered entity of every workspace (due, filed, net, ties)",
    ),
    markFiled: flag(
      '--mark-filed',
      'keep the return as filed and lock its coded postings (books tax returns lists them)',
    ),
    out: text(
      '--out <file>',
      'also write the return to FILE: .json, .csv, .xlsx or .pdf (with --detail, its postings)',
      { names: 'file' },
    ),
  },
  examples: [
    'books tax return --period 2026-Q3',
    'books tax return --period 2026-07 --detail',
    'books tax return --period 2026-Q3 --mtd --period-key 26A3 > return.json',
    'books tax return --period 2026-Q3 --mark-filed',
    'books tax return --period 2026-Q3 --detail --out vat-2026-q3.xlsx',
  ],
  async run(ctx, flags) {
    const { startDate, endDate } = periodOf(flags.period);
    const outFormat = flags.out === undefined ? undefined : outFormatOf(flags.out);
    if (outFormat && (flags.all || flags.mtd))
      throw new UsageError('--out writes one return: not with --all or --mtd');
    if (flags.all) {
      if (flags.mtd || flags.markFiled || flags.detail)
        throw new UsageError(
          '--all gives a row per entity: --mtd, --mark-filed and --detail are of one',
        );
      return firmReturns(ctx, startDate, endDate, flags.basis as 'accrual' | 'cash' | undefined);
    }
    if (flags.mtd && !flags.periodKey)
      throw new UsageError("--mtd needs --period-key: HMRC's key of the obligation (e.g. 26A3)");
    if (flags.periodKey !== undefined && !/^[A-Z0-9#]{4}$/i.test(flags.periodKey))
      throw new UsageError(`--period-key is four letters, digits or #, not "${flags.periodKey}"`);
    const entityId = await ctx.entityId();
    const { taxSetting } = await taxSetupOf(ctx, entityId);
    if (flags.mtd && taxSetting.country !== 'GB')
      throw new UsageError(
        `--mtd writes the UK's return; the entity files in ${taxSetting.country}`,
      );
    const api = await ctx.api();
    const basis = flags.basis ? { basis: flags.basis as 'accrual' | 'cash' } : {};
    // Every posting behind each box, read and written as it arrives (a year of a big client's
    // postings is never one document here); as JSON or into a file, the return whole.
    if (flags.detail && !ctx.output.json && !outFormat) {
      const events = await api.sandbox.taxReturnEvents(entityId, { startDate, endDate, ...basis });
      const first = await events.next();
      if (first.done || first.value.kind !== 'figures')
        throw new UserError('the platform answered no return', ExitCode.Refused);
      const figures = first.value.taxReturn;
      await settle(ctx, figures, {
        startDate,
        endDate,
        strict: flags.strict,
        markFiled: flags.markFiled,
      });
      await writeDetail(ctx, events);
      sayReturn(ctx, figures, startDate, endDate);
      return;
    }
    const taxReturn = await api.sandbox.taxReturn(entityId, {
      startDate,
      endDate,
      ...basis,
      ...(flags.detail ? { detail: true } : {}),
    });
    await settle(ctx, taxReturn, {
      startDate,
      endDate,
      strict: flags.strict,
      markFiled: flags.markFiled,
    });
    if (flags.mtd) {
      ctx.output.printJson(mtdBody(taxReturn, flags.periodKey!));
      return;
    }
    if (outFormat)
      await writeReturnFile(ctx, flags.out!, outFormat, taxReturn, flags.detail === true);
    const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
    if (flags.detail && ctx.output.json) {
      ctx.output.printJson(taxReturn);
    } else if (flags.detail) {
      // With --out: the postings of the return fetched whole for the file.
      await writeDetail(
        ctx,
        (async function* () {
          for (const box of taxReturn.boxes)
            yield { kind: 'postings' as const, box: box.box, postings: box.postings ?? [] };
        })(),
      );
    } else {
      await ctx.output.table(
        [
          { header: 'Box', value: (b: TaxReturn['boxes'][number]) => b.box },
          { header: 'Description', value: (b) => b.label },
          { header: 'Amount', value: (b) => amount(b.formAmount), align: 'right' },
        ],
        taxReturn.boxes,
        taxReturn,
      );
    }
    sayReturn(ctx, taxReturn, startDate, endDate);
  },
});
