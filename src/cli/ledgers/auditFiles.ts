import { LEDGER_BASES, type LedgerBasis } from '../../api/index.js';
import type { CalendarDay } from '../../core/calendar.js';
import { fiscalYearOf, rangeOfWord, type FiscalYearStart } from '../../core/periods.js';
import { AUDIT_FORMATS, type AuditFormat } from '../../formats/audit/writer.js';
import { SKRS } from '../../formats/options.js';
import { flagNames, oneOf, text } from '../command.js';
import type { CommandContext } from '../context.js';
import { localDay, parseDateRange } from '../terminal/dates.js';
import { ExitCode, UsageError, UserError } from '../exitCodes.js';
import { directoryToWrite } from '../config/paths.js';
import { booksVersion } from '../version.js';

/*
 * `books export DIR --format fec|saft|xaf|sie|datev`: the options the audit files take, checked
 * before any request, and the export itself (src/migrate/export/auditFile.ts; the writers in src/formats).
 */

export const EXPORT_FORMATS = ['books', ...AUDIT_FORMATS] as const;

export const auditFileOptions = {
  basis: text(
    '--basis <basis>',
    'the ledger an audit file holds: cash or accrual (default: accrual where it is open)',
    { choices: LEDGER_BASES },
  ),
  orgNumber: text(
    '--org-number <number>',
    "the company's number: FEC's SIREN, SAF-T's organisation number (both required), XAF's KvK number, SIE's organisationsnummer",
  ),
  contact: text('--contact <name>', "SAF-T's contact person, first and last name (required)"),
  phone: text('--phone <number>', "SAF-T's contact telephone (required)"),
  datevConsultant: text('--datev-consultant <n>', "DATEV's Beraternummer (required for datev)"),
  datevClient: text('--datev-client <n>', "DATEV's Mandantennummer (required for datev)"),
  skr: text('--skr <chart>', "DATEV's standard chart the header names: 03 or 04", {
    choices: SKRS,
  }),
  retainedEarnings: text(
    '--retained-earnings <account>',
    "the equity account for earlier years' results (default: the format's usual one)",
    { names: 'account' },
  ),
  currency: text('--currency <code>', "ISO 4217 (default: the format's country's)"),
} as const;

type AuditFlags = {
  -readonly [K in keyof typeof auditFileOptions]?: string | undefined;
};

interface Flags extends AuditFlags {
  directory: string;
  format: string;
  from?: string | undefined;
  to?: string | undefined;
  concurrency: number;
}

const FOR_FORMAT: Record<keyof AuditFlags, readonly AuditFormat[]> = {
  basis: ['fec', 'saft', 'xaf', 'sie', 'datev'],
  orgNumber: ['fec', 'saft', 'xaf', 'sie'],
  contact: ['saft'],
  phone: ['saft'],
  datevConsultant: ['datev'],
  datevClient: ['datev'],
  skr: ['datev'],
  retainedEarnings: ['fec', 'saft', 'xaf', 'sie', 'datev'],
  currency: ['fec', 'saft', 'xaf', 'sie', 'datev'],
};

/** The export format asked for; an audit file's options given to another format are refused. */
export function exportFormat(flags: { format: string } & AuditFlags) {
  const format = oneOf('--format', flags.format, EXPORT_FORMATS);
  for (const key of Object.keys(FOR_FORMAT) as (keyof AuditFlags)[]) {
    if (flags[key] === undefined) continue;
    const formats = FOR_FORMAT[key];
    if (format === 'books' || !formats.includes(format))
      throw new UsageError(
        `${flagNames(auditFileOptions[key].flags)[0]} is for --format ${formats.join(', ').replace(/, (?=[^,]*$)/, ' or ')}${format === 'books' ? ' (books exports both ledgers, whole)' : ''}`,
      );
  }
  return format;
}

/**
 * Writes the audit file: identifiers checked first, then the range (one fiscal year for the FEC,
 * SIE and DATEV; from its first day for SIE), then the books read and written.
 */
export async function exportAuditFile(ctx: CommandContext, format: AuditFormat, flags: Flags) {
  const writers = await import('../../migrate/export/auditFile.js');
  const { identifiers, BadIdentifier } = writers;
  const writer = writers.AUDIT_WRITERS[format];
  const usage = <T>(check: () => T): T => {
    try {
      return check();
    } catch (error) {
      if (error instanceof BadIdentifier) throw new UsageError(error.message);
      throw error;
    }
  };
  const required = (value: string | undefined, flag: string, what: string) => {
    if (value === undefined || value.trim() === '')
      throw new UsageError(`${writer.title} needs ${what}: give ${flag}`);
    return value;
  };
  const orgNumber = usage(() => {
    const given =
      writer.needsOrgNumber || flags.orgNumber !== undefined
        ? required(
            flags.orgNumber,
            '--org-number',
            format === 'fec' ? "the company's SIREN" : "the company's organisation number",
          )
        : undefined;
    if (given === undefined) return undefined;
    switch (format) {
      case 'fec':
        return identifiers.siren(given);
      case 'saft':
        return identifiers.norwegianOrganisationNumber(given);
      case 'xaf':
        return identifiers.kvkNumber(given);
      default:
        return identifiers.swedishOrganisationNumber(given);
    }
  });
  const contact =
    format === 'saft'
      ? personName(required(flags.contact, '--contact', 'a contact person'))
      : undefined;
  const phone =
    format === 'saft' ? required(flags.phone, '--phone', 'a contact telephone') : undefined;
  const datev =
    format === 'datev'
      ? usage(() => ({
          consultant: identifiers.datevNumber(
            required(flags.datevConsultant, '--datev-consultant', 'the Beraternummer'),
            'consultant',
          ),
          client: identifiers.datevNumber(
            required(flags.datevClient, '--datev-client', 'the Mandantennummer'),
            'client',
          ),
          skr: oneOf('--skr', flags.skr ?? '03', SKRS),
        }))
      : undefined;
  const currency = (flags.currency ?? writer.currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    throw new UsageError(
      `--currency is an ISO 4217 code of three letters, not "${flags.currency}"`,
    );
  if (flags.basis !== undefined) oneOf('--basis', flags.basis, LEDGER_BASES);
  // Dates given as days are checked before any request; year words need the fiscal year.
  parseDateRange(flags, ctx.today());
  const directory = directoryToWrite(flags.directory);

  const { workspace, entity } = await ctx.chosenEntity();
  const api = await ctx.api();
  const fiscalYearStart = await ctx.fiscalYearStart(entity.id);
  const range = auditRange(ctx, flags, fiscalYearStart, writer);
  const basis = await ledgerOf(ctx, entity.id, flags.basis);
  let retainedEarnings;
  if (flags.retainedEarnings !== undefined) {
    const account = await ctx.account(entity.id, flags.retainedEarnings);
    if (account.class !== 'Equity')
      throw new UsageError(
        `--retained-earnings must be an equity account: ${account.code} "${account.name}" is ${writers.withArticle(account.type)} account`,
      );
    retainedEarnings = { code: account.code, name: account.name };
  }
  const { timezone } = (await api.workspaces.get(workspace.id)).workspace;
  const createdAt = ctx.clock.now();
  try {
    const outcome = await writers.writeAuditFile(
      api,
      { workspace: { ...workspace, timezone }, entity },
      {
        directory,
        format,
        ...range,
        basis,
        fiscalYearStart,
        retainedEarnings,
        concurrency: flags.concurrency,
        options: {
          orgNumber,
          contact,
          phone,
          datev,
          currency,
          createdAt,
          createdOn: localDay(createdAt),
          software: { name: 'books', version: booksVersion() },
        },
      },
      { note: (note) => ctx.output.note(`books: ${note}`) },
    );
    for (const note of outcome.notes) ctx.output.note(`books: ${note}`);
    ctx.wrote(
      `exported ${entity.name}'s ${basis} ledger from ${outcome.from} to ${outcome.to} as ${writer.title}: ${outcome.entries.toLocaleString('en-US')} entries, ${outcome.lines.toLocaleString('en-US')} lines, ${outcome.accounts} accounts`,
    );
    if (ctx.output.json) ctx.output.printJson(outcome);
    else ctx.output.write(`${outcome.file}\n`);
    return ExitCode.Success;
  } catch (error) {
    if (
      error instanceof writers.NothingToExport ||
      error instanceof writers.UnusableAccount ||
      error instanceof writers.UnwritableBooks ||
      error instanceof writers.ExportDisagrees
    )
      throw new UserError(error.message, ExitCode.Refused);
    throw error;
  }
}

/** `"Kari Nordmann"` → first and last name (SAF-T wants both). */
function personName(given: string) {
  const words = given.trim().split(/\s+/);
  if (words.length < 2)
    throw new UsageError(`--contact is a first and a last name, not "${given}"`);
  return { firstName: words.slice(0, -1).join(' '), lastName: words.at(-1)! };
}

/**
 * The range: as given; without `--from` and `--to`, the last whole fiscal year; with one of
 * them, the fiscal year it falls in completes the other. The FEC, SIE and DATEV hold one fiscal
 * year at most (SIE from its first day).
 */
function auditRange(
  ctx: CommandContext,
  flags: { from?: string | undefined; to?: string | undefined },
  fiscalYearStart: FiscalYearStart,
  writer: { title: string; oneFiscalYear: boolean; fromFiscalYearStart?: boolean },
): { from: CalendarDay; to: CalendarDay } {
  const given = parseDateRange(flags, ctx.today(), fiscalYearStart);
  let from = given.startDate;
  let to = given.endDate;
  if (from === undefined && to === undefined) {
    const last = rangeOfWord('last-year', ctx.today(), fiscalYearStart);
    ({ startDate: from, endDate: to } = last);
    ctx.output.note(
      `books: the last fiscal year, ${from} to ${to} (--from and --to for another range)`,
    );
  }
  from ??= fiscalYearOf(to!, fiscalYearStart).startDate;
  to ??= fiscalYearOf(from, fiscalYearStart).endDate;
  if (writer.oneFiscalYear) {
    const year = fiscalYearOf(from, fiscalYearStart);
    if (to > year.endDate)
      throw new UsageError(
        `${writer.title} holds one fiscal year, and ${from} to ${to} runs past the end of the one from ${year.startDate} to ${year.endDate}: export each fiscal year in a file of its own`,
      );
    if (writer.fromFiscalYearStart && from !== year.startDate)
      throw new UsageError(
        `${writer.title} holds a fiscal year from its first day: --from ${year.startDate}, not ${from}`,
      );
  }
  return { from, to };
}

/** `--basis`, else the accrual ledger where the platform says it is open, else cash. */
async function ledgerOf(
  ctx: CommandContext,
  entityId: string,
  given: string | undefined,
): Promise<LedgerBasis> {
  if (given !== undefined) return given as LedgerBasis;
  const open = await ctx.accrualLedgerOpen(entityId);
  const basis = open ? 'accrual' : 'cash';
  ctx.output.note(
    `books: the ${basis} ledger (${open ? 'the accrual ledger is open' : open === false ? 'the accrual ledger is not open' : 'the platform does not say whether the accrual ledger is open'}; --basis for the other)`,
  );
  return basis;
}
