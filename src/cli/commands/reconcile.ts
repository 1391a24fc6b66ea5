import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LEDGER_BASES, MAX_RECONCILED_ENTRIES, type LedgerBasis } from '../../api/index.js';
import { centsToAmount, decimalToCents, InvalidAmountError, type Cents } from '../../core/money.js';
import type { BankStatement } from '../../formats/statement.js';
import type { AccountReconciliation } from '../../migrate/close/reconcile.js';
import { readStatements, statementOptionsOf, statementReadOptions } from '../statements/reading.js';
import { argument, defineCommand, flag, oneOf, text, wholeNumber } from '../command.js';
import type { CommandContext } from '../context.js';
import { ExitCode, UsageError, UserError } from '../exitCodes.js';
import { displayAmount, plainAmount } from '../render/statements.js';
import {
  bankAccountOption,
  checkStatementLink,
  closingBefore,
  fileFingerprint,
  linkAccountOption,
  reconciledStatementsOf,
  rememberReconciled,
  statementLinksOf,
  statementsOfOneAccount,
} from '../statements/links.js';
import { sameAccount } from '../../formats/statement.js';

/**
 * `reconcile ACCOUNT STATEMENT...`: a bank or card account of the chart against the bank's own
 * statements, through the API (any platform). Exit 0 when reconciled, 1 when not (naming what
 * differs), 2 for a usage error or a file that is not there, 3 for one that cannot be read.
 */
export const command = defineCommand({
  summary: "Reconcile a bank or card account to the bank's statements",
  arguments: {
    account: argument('the chart account (cash or credit card), by name, code or id', {
      names: 'account',
    }),
    files: argument(
      'its statement files (camt, MT940/942, OFX/QFX, BAI2, QIF, CODA, Norma 43, CFONB 120, CSV)',
      {
        names: 'file',
        variadic: true,
      },
    ),
  },
  options: {
    days: text('--days <n>', 'how many days apart a statement entry and its posting may be', {
      default: '3',
    }),
    basis: text('--basis <basis>', 'the ledger: cash or accrual', {
      default: 'cash',
      choices: LEDGER_BASES,
    }),
    report: text('--report <dir>', 'write the reconciliation report there, as PDF and workbook', {
      names: 'directory',
    }),
    postMissing: text(
      '--post-missing <account>',
      'post each entry missing in the books as a journal entry against this account',
      { names: 'account' },
    ),
    openingBalance: text(
      '--opening-balance <amount>',
      "a statement that states no balance: its opening balance, as the bank states it (a card's amount owed negative)",
    ),
    closingBalance: text(
      '--closing-balance <amount>',
      'a statement that states no balance: its closing balance, as the bank states it',
    ),
    link: flag('--link', 'the same as --link-account'),
    ...linkAccountOption,
    ...statementReadOptions,
    ...bankAccountOption,
  },
  examples: [
    'books reconcile Checking october.xml',
    'books reconcile 1000 2026-09.sta 2026-10.sta --days 5 --json',
    'books reconcile "Business Visa" visa-october.ofx --post-missing "Bank Charges" --report reconciliations/',
    'books reconcile Current november.csv --opening-balance 5000.00 --closing-balance 4548.80',
  ],
  async run(ctx, input) {
    const days = wholeNumber(input.days, '--days', 0, 60);
    const basis = oneOf('--basis', input.basis, LEDGER_BASES) as LedgerBasis;
    const givenOpening = balanceOption('--opening-balance', input.openingBalance);
    const givenClosing = balanceOption('--closing-balance', input.closingBalance);
    const options = statementOptionsOf(input);
    const { workspace, entity } = await ctx.chosenEntity();
    const account = await ctx.account(entity.id, input.account);
    const { links } = await statementLinksOf(ctx, entity.id);
    const files = statementsOfOneAccount(
      ctx,
      await readStatements(ctx, input.files, options),
      input.bankAccount,
      (bankAccount) =>
        Object.entries(links).some(
          ([id, l]) => sameAccount(id, bankAccount) && l.accountId === account.id,
        ),
    );
    const statements = files.flatMap((f) => f.statements);
    const dateless = statements.find((s) => s.from === null || s.to === null);
    if (dateless)
      throw new UserError(
        `${files.find((f) => f.statements.includes(dateless))!.file}: a statement with no period and no entries: nothing to reconcile`,
        ExitCode.InvalidFile,
      );
    const api = await ctx.api();
    const [chart, { workspace: full }] = await Promise.all([
      api.accounts.all(entity.id),
      api.workspaces.get(workspace.id),
    ]);
    const other =
      input.postMissing !== undefined ? await ctx.account(entity.id, input.postMissing) : undefined;
    if (other && other.id === account.id)
      throw new UsageError(
        '--post-missing names the account being reconciled: name the account the other side goes to',
      );
    await checkStatementLink(
      ctx,
      entity.id,
      account,
      chart,
      statements,
      Boolean(input.link || input.linkAccount),
    );
    const { reconcileAccount, NotABankAccount } = await import('../../migrate/close/reconcile.js');
    const fingerprints = new Map(files.map((f) => [f.file, fileFingerprint(f.file)]));
    const reconciled = await reconciledStatementsOf(ctx, entity.id);
    const statesNone = statements.every((st) => st.opening === null && st.closing === null);
    if (!statesNone && (givenOpening !== undefined || givenClosing !== undefined))
      ctx.output.note(
        'books: the statements state their balances: --opening-balance and --closing-balance are for a statement that states none, and are not used',
      );
    const first = [...statements].sort((a, b) => a.from!.localeCompare(b.from!))[0]!;
    const earlier =
      givenOpening === undefined
        ? closingBefore(reconciled, account.id, first.from!, new Set(fingerprints.values()))
        : undefined;
    const request = {
      account,
      statements,
      days,
      basis,
      timezone: full.timezone,
      workspaceId: workspace.id,
      given: {
        opening: givenOpening ?? (earlier && (earlier.closingCents as Cents)),
        closing: givenClosing,
        ...(earlier && givenOpening === undefined && { openingFrom: earlier.to }),
      },
    };
    let result: AccountReconciliation;
    try {
      result = await reconcileAccount(api, entity.id, request);
      if (other && result.missingInBooks.length > 0) {
        const { postMissing } = await import('../../migrate/close/postMissing.js');
        const ids = await postMissing(
          api,
          entity.id,
          result.missingInBooks,
          { bank: account, other },
          basis,
        );
        ctx.wrote(
          `posted ${ids.length} ${ids.length === 1 ? 'entry' : 'entries'} missing in the books against ${other.code} "${other.name}"`,
        );
        result = await reconcileAccount(api, entity.id, request);
      }
    } catch (error) {
      if (error instanceof NotABankAccount) throw new UsageError(error.message);
      throw error;
    }
    for (const note of result.notes) ctx.output.note(`books: ${note}`);
    if (input.report !== undefined)
      await writeReport(ctx, input.report, entity.name, result, basis);
    await show(ctx, result);
    if (!result.reconciled) {
      const sent = result.sentNotOnStatement.length;
      const why = [
        ...result.unproven,
        result.missingInBooks.length > 0 &&
          `${result.missingInBooks.length} statement ${result.missingInBooks.length === 1 ? 'entry is' : 'entries are'} missing in the books`,
        sent > 0 &&
          `${sent} ${sent === 1 ? 'line' : 'lines'} the bank sent, dated inside the statement, ${sent === 1 ? 'is' : 'are'} not on it: a duplicate, or another statement's (books transactions categorize ID --exclude takes a duplicate out)`,
        result.unproven.length === 0 &&
          result.difference !== 0 &&
          `a difference of ${centsToAmount(result.difference).toFixed(2)}`,
      ].filter(Boolean);
      ctx.output.note(
        `books: ${account.code} "${account.name}" does not reconcile to the statements from ${result.from} to ${result.to}: ${why.join('; ')}`,
      );
      return ExitCode.Refused;
    }
    await rememberReconciled(
      ctx,
      entity.id,
      Object.fromEntries(
        files
          .filter((f) => f.statements.length > 0)
          .map((f) => {
            const own = orderedOf(f.statements);
            return [
              fingerprints.get(f.file)!,
              {
                accountId: account.id,
                from: own[0]!.from!,
                to: own.at(-1)!.to!,
                openingCents:
                  own[0]!.from === result.from
                    ? result.bank.opening
                    : (own[0]!.opening ?? result.bank.opening),
                closingCents:
                  own.at(-1)!.to === result.to
                    ? result.bank.closing
                    : (own.at(-1)!.closing ?? result.bank.closing),
              },
            ];
          }),
      ),
    );
    await recordOnPlatform(ctx, entity.id, account.id, result);
    ctx.output.note(
      `books: ${account.code} "${account.name}" reconciles to the statements from ${result.from} to ${result.to}: ${result.matched} statement ${result.matched === 1 ? 'entry' : 'entries'} matched, ${result.notOnStatement.length} outstanding`,
    );
  },
});

/**
 * The reconciliation recorded on the platform (its sandbox control plane: a platform without
 * one keeps its own): the statements' days, the bank's balances, the entries they cleared, so
 * that its suggestions never take a cleared entry for a new bank line's match. Keyed by what it
 * records: a rerun records nothing twice.
 */
async function recordOnPlatform(
  ctx: CommandContext,
  entityId: string,
  accountId: string,
  result: AccountReconciliation,
): Promise<void> {
  const { createHash } = await import('node:crypto');
  const { unlessNotFound } = await import('../../client/index.js');
  const entryIds = [...new Set(result.matches.flatMap((m) => m.postings.map((p) => p.entryId)))]
    .filter((id) => /^[0-9a-f-]{36}$/i.test(id))
    .slice(0, MAX_RECONCILED_ENTRIES);
  const body = {
    accountId,
    startDate: result.from,
    endDate: result.to,
    openingBalance: centsToAmount(result.bank.opening),
    closingBalance: centsToAmount(result.bank.closing),
    entryIds,
  };
  const key = `reconciliation-${createHash('sha256')
    .update(`${entityId}|${JSON.stringify(body)}`)
    .digest('hex')
    .slice(0, 40)}`;
  await unlessNotFound((await ctx.api()).sandbox.recordReconciliation(entityId, body, key));
}

/** The statements of a file in the order of their days. */
const orderedOf = (statements: readonly BankStatement[]) =>
  [...statements].sort((a, b) => a.from!.localeCompare(b.from!) || a.to!.localeCompare(b.to!));

/** `--opening-balance 4,548.80`: an amount in cents (a card's owed balance is negative), or none. */
function balanceOption(flagName: string, given: string | undefined): Cents | undefined {
  if (given === undefined) return undefined;
  try {
    return decimalToCents(given.replace(/,/g, ''), { allowNegative: true });
  } catch (error) {
    if (error instanceof InvalidAmountError)
      throw new UsageError(`${flagName} ${given}: ${error.message}`);
    throw error;
  }
}

async function show(ctx: CommandContext, result: AccountReconciliation): Promise<void> {
  const { reconciliationJson, reconciliationSummary } = await import('../render/closeReports.js');
  if (ctx.output.json) return ctx.output.printJson(reconciliationJson(result));
  const amount = ctx.output.isTTY && ctx.output.format === 'table' ? displayAmount : plainAmount;
  const items = [
    ...result.missingInBooks.map((e) => ({
      kind: 'missing in books',
      date: e.bookingDate,
      amount: centsToAmount(e.amount),
      description: [e.counterparty, e.description].filter(Boolean).join(': '),
      reference: e.reference ?? '',
    })),
    ...result.sentNotOnStatement.map((p) => ({
      kind: 'sent by the bank, not on statement',
      date: p.date,
      amount: centsToAmount(p.amount),
      description: p.description || p.memo,
      reference: p.entryId,
    })),
    ...result.notOnStatement.map((p) => ({
      kind: 'not on statement',
      date: p.date,
      amount: centsToAmount(p.amount),
      description: p.description || p.memo,
      reference: p.entryId,
    })),
  ];
  if (!ctx.output.asRecords) {
    ctx.output.record(reconciliationSummary(result), null);
    if (items.length > 0) ctx.output.write('\n');
    if (items.length === 0) return;
  }
  await ctx.output.table(
    [
      { header: 'Kind', value: (i) => i.kind },
      { header: 'Date', value: (i) => i.date },
      { header: 'Amount', value: (i) => amount(i.amount), align: 'right' },
      { header: 'Description', value: (i) => i.description },
      { header: 'Reference', value: (i) => i.reference },
    ],
    items,
  );
}

/** The reconciliation report, as the firm files it: PDF and workbook, in the packs' style. */
async function writeReport(
  ctx: CommandContext,
  directory: string,
  entityName: string,
  result: AccountReconciliation,
  basis: LedgerBasis,
): Promise<void> {
  const [{ reconciliationStatement }, { writeReportPdf }, { writeReportWorkbook }, files] =
    await Promise.all([
      import('../render/closeReports.js'),
      import('../render/packPdf.js'),
      import('../render/workbook.js'),
      import('../close/reportFiles.js'),
    ]);
  const target = path.resolve(directory);
  try {
    mkdirSync(target, { recursive: true });
  } catch (error) {
    throw new UsageError(`cannot make ${directory}: ${(error as NodeJS.ErrnoException).code}`);
  }
  const preparedAt = ctx.clock.now();
  const who = ctx.io.env.USER ?? ctx.io.env.USERNAME ?? ctx.io.env.LOGNAME ?? 'books';
  const when = `${preparedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  const statement = reconciliationStatement(result, `${who}, ${when}`);
  const heading = {
    entity: entityName,
    period: `${result.from} to ${result.to}`,
    basis,
    preparedAt: when,
  };
  const base = path.join(
    target,
    `${files.fileSafe(entityName)}-${files.fileSafe(`${result.account.code}-${result.account.name}`)}-reconciliation-${result.to}`,
  );
  const sheets = [{ sheet: 'Reconciliation', statement }];
  await files.writeWhole(`${base}.xlsx`, (partial) =>
    writeReportWorkbook(partial, heading, sheets),
  );
  await files.writeWhole(`${base}.pdf`, (partial) =>
    writeReportPdf(partial, {
      heading,
      preparedAt,
      paper: files.localePaper(ctx.io.env),
      title: `Reconciliation of ${result.account.code} ${result.account.name}`,
      statements: sheets,
    }),
  );
  ctx.output.note(`books: wrote ${base}.pdf and ${base}.xlsx`);
}
