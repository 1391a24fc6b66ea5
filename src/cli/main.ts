import { Command, CommanderError, Option } from 'commander';
import { createRequire } from 'node:module';
import type { CommandContext, GlobalOptions } from './context.js';
import type { ImportFailure } from '../migrate/errors.js';
import { ExitCode, UserError } from './exitCodes.js';
import { processIo, type CliIo } from './io.js';

const require = createRequire(import.meta.url);
const { version } = require('../../package.json') as { version: string };

type Action = (
  ctx: CommandContext,
  args: string[],
  flags: Record<string, unknown>,
) => Promise<void | number>;

/**
 * Declares the command tree. Each action loads its command module only when it runs, so
 * `books --help` and `books --version` never load the platform, SQLite or undici.
 */
export function buildProgram(
  io: CliIo,
  setExitCode: (code: number) => void,
  args: string[] = io.argv,
): Command {
  // Subcommands of a noun are declared only when the noun is named in argv: `books --help`
  // then lists the nouns without building every leaf, which keeps the cold start short.
  const named = new Set(args);
  const wants = (noun: string) => named.has(noun);
  const program = new Command('books')
    .description('Keep the books of many clients from the terminal: ledgers, reports, migrations.')
    .version(version, '-V, --version')
    .option(
      '--base-url <url>',
      'platform to talk to (else BOOKS_BASE_URL, the profile, or the local platform)',
    )
    .option('--token <token>', 'access token (else BOOKS_TOKEN or the profile)')
    .option('--profile <name>', 'saved profile to use (else BOOKS_PROFILE or the current one)')
    .option('-w, --workspace <workspace>', 'workspace, by id or exact name (else the profile)')
    .option('-e, --entity <entity>', 'entity, by id or exact name (else the profile)')
    .option('--json', 'print JSON (errors too, on stderr)')
    .option('-o, --output <format>', 'table, json or csv')
    .option('--no-color', 'no colors')
    .option('-y, --yes', 'skip confirmations')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => {
        if (!io.argv.includes('--json')) write(text);
      },
    })
    .showHelpAfterError('(run with --help for usage)');

  /** Wraps a lazily loaded action: a context per run, closed afterwards. */
  const run =
    (action: () => Promise<Action>) =>
    async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const flags = command.opts();
      const args = params.slice(0, -2).filter((p): p is string => typeof p === 'string');
      const { CommandContext } = await import('./context.js');
      const ctx = new CommandContext(io, command.optsWithGlobals<GlobalOptions>());
      try {
        const code = await (await action())(ctx, args, flags);
        if (typeof code === 'number') setExitCode(code);
      } finally {
        await ctx.close();
      }
    };
  const exemplified = new WeakSet<Command>();
  const examples = (command: Command, text: string) => {
    exemplified.add(command);
    return command.addHelpText('after', `\nExamples:\n${text}`);
  };

  // --- where it talks to -------------------------------------------------------------------
  examples(
    program
      .command('login')
      .description('Save a profile: base URL and token (checked by listing workspaces)')
      .option('--token-stdin', 'read the token from standard input')
      .action(
        run(
          async () => async (ctx, _args, flags) =>
            (await import('./commands/profiles.js')).login(ctx, {
              ...flags,
              baseUrl: ctx.options.baseUrl,
              profile: ctx.options.profile ?? 'default',
            }),
        ),
      ),
    '  echo "$TOKEN" | books login --base-url https://api.example.com --token-stdin [--profile NAME]',
  );
  program
    .command('logout')
    .description('Forget the current profile (or --profile NAME) and its token')
    .action(
      run(
        async () => async (ctx) =>
          (await import('./commands/profiles.js')).logout(ctx, ctx.options),
      ),
    );
  const profile = program.command('profile').description('Saved profiles');
  if (wants('profile')) {
    profile
      .command('list')
      .description('List profiles (tokens are never shown)')
      .action(run(async () => async (ctx) => (await import('./commands/profiles.js')).list(ctx)));
    profile
      .command('use')
      .argument('<name>')
      .description('Make a profile the current one')
      .action(
        run(
          async () =>
            async (ctx, [name]) =>
              (await import('./commands/profiles.js')).use(ctx, name!),
        ),
      );
  }

  examples(
    program
      .command('use')
      .description('Save the workspace (and entity) to use, in the current profile')
      .action(
        run(async () => async (ctx) => (await import('./commands/profiles.js')).useWorkspace(ctx)),
      ),
    '  books use --workspace "Blue Bottle Books" --entity "Main Street Bakery"',
  );
  const config = program.command('config').description('Settings and where files live');
  if (wants('config')) {
    config
      .command('path')
      .description('Where the config file and the local platform data live')
      .action(
        run(async () => async (ctx) => (await import('./commands/profiles.js')).configPath(ctx)),
      );
    config
      .command('list')
      .description('List settings')
      .action(
        run(async () => async (ctx) => (await import('./commands/profiles.js')).configList(ctx)),
      );
    config
      .command('get')
      .argument('<key>')
      .description('Print a setting')
      .action(
        run(
          async () =>
            async (ctx, [key]) =>
              (await import('./commands/profiles.js')).configGet(ctx, key!),
        ),
      );
    config
      .command('set')
      .argument('<key>')
      .argument('<value>')
      .description('Change a setting')
      .action(
        run(
          async () =>
            async (ctx, [key, value]) =>
              (await import('./commands/profiles.js')).configSet(ctx, key!, value!),
        ),
      );
  }

  program
    .command('log')
    .description('The local audit log of requests (method, path, status, trace, idempotency key)')
    .option('--limit <n>', 'how many, most recent last', '20')
    .action(
      run(
        async () => async (ctx, _args, flags) =>
          (await import('./commands/profiles.js')).log(ctx, flags),
      ),
    );

  // --- workspaces --------------------------------------------------------------------------
  const workspace = program.command('workspace').description("Workspaces: one client's books each");
  if (wants('workspace')) {
    workspace
      .command('list')
      .description('List workspaces')
      .action(run(async () => (await import('./commands/workspace/list.js')).run));
    examples(
      workspace
        .command('create')
        .argument('[name]')
        .option('--timezone <tz>', 'IANA time zone of the workspace (default America/Los_Angeles)')
        .description('Create a workspace')
        .action(
          run(async () => async (ctx, [name], flags) => {
            const { ask } = await import('./prompt.js');
            const create = await import('./commands/workspace/create.js');
            await create.run(ctx, create.parse(await ask(ctx, name, 'Workspace name'), flags));
          }),
        ),
      '  books workspace create "Blue Bottle Books" --timezone America/New_York',
    );
    workspace
      .command('get')
      .argument('<workspace>')
      .description('Show a workspace (by id or name)')
      .action(
        run(
          async () =>
            async (ctx, [w]) =>
              (await import('./commands/workspace/get.js')).run(ctx, w!),
        ),
      );
    workspace
      .command('delete')
      .argument('<workspace>')
      .description('Delete a workspace and everything in it')
      .action(
        run(
          async () =>
            async (ctx, [w]) =>
              (await import('./commands/workspace/delete.js')).run(ctx, w!),
        ),
      );
  }

  // --- chart of accounts -------------------------------------------------------------------
  const coa = program.command('coa').description('The chart of accounts of the entity');
  if (wants('coa')) {
    const coaModule = () => import('./commands/coa/accounts.js');
    coa
      .command('list')
      .option('--tree', 'show each account under its group')
      .description('List accounts, archived included')
      .action(run(async () => async (ctx, _args, flags) => (await coaModule()).list(ctx, flags)));
    coa
      .command('rename')
      .argument('<account>')
      .argument('<name>')
      .description('Rename an account')
      .action(
        run(
          async () =>
            async (ctx, [a, n]) =>
              (await coaModule()).rename(ctx, a!, n!),
        ),
      );
    coa
      .command('move')
      .argument('<account>')
      .option('--group <group>', 'the group (by id or name)')
      .option('--no-group', 'out of any group')
      .description('Put an account in a group, or take it out')
      .action(
        run(
          async () =>
            async (ctx, [a], flags) =>
              (await coaModule()).move(ctx, a!, flags),
        ),
      );
    for (const [verb, disabled, description] of [
      ['disable', true, 'Archive an account (it keeps its history)'],
      ['enable', false, 'Restore an archived account'],
    ] as const) {
      coa
        .command(verb)
        .argument('<account>')
        .description(description)
        .action(
          run(
            async () =>
              async (ctx, [a]) =>
                (await coaModule()).setDisabled(ctx, a!, disabled),
          ),
        );
    }
    examples(
      coa
        .command('merge')
        .argument('<source>')
        .argument('<target>')
        .description(
          'Merge SOURCE into TARGET (lines, categories and rules move; SOURCE is deleted)',
        )
        .action(
          run(
            async () =>
              async (ctx, [from, to]) =>
                (await coaModule()).merge(ctx, from!, to!),
          ),
        ),
      '  books coa merge "Chase Checking (old books)" "Chase Checking" --yes',
    );
    coa
      .command('delete')
      .argument('<account>')
      .description('Delete an account nothing has posted to')
      .action(
        run(
          async () =>
            async (ctx, [a]) =>
              (await coaModule()).remove(ctx, a!),
        ),
      );
    examples(
      coa
        .command('import')
        .argument('<file>')
        .description('Create accounts from a CSV file (columns name, type; optional code, group)')
        .action(
          run(
            async () =>
              async (ctx, [file]) =>
                (await coaModule()).importFile(ctx, file!),
          ),
        ),
      '  books coa import chart.csv',
    );
    examples(
      coa
        .command('create')
        .option('--name <name>', 'account name')
        .option('--type <type>', 'account type, e.g. Cash, Income, "Operating Expenses"')
        .option('--code <code>', 'code (honored on a custom chart)')
        .option('--group <group>', 'account group id')
        .description('Create an account')
        .action(
          run(async () => async (ctx, _args, flags) => {
            const accounts = await import('./commands/coa/accounts.js');
            await accounts.create(ctx, accounts.parseCreate(flags));
          }),
        ),
      '  books coa create --name "Chase Checking" --type Cash',
    );
    coa
      .command('get')
      .argument('<account>')
      .description('Show an account (by id, code or name)')
      .action(
        run(
          async () =>
            async (ctx, [a]) =>
              (await import('./commands/coa/accounts.js')).get(ctx, a!),
        ),
      );
  }

  // --- classes, rules, groups -------------------------------------------------------------
  const classes = program
    .command('class')
    .description('Classes: tracking dimensions of the workspace');
  if (wants('class')) {
    const classModule = () => import('./commands/class/classes.js');
    classes
      .command('list')
      .option('--tree', 'indent classes under their parents')
      .description('List classes, each tree under its root')
      .action(run(async () => async (ctx, _args, flags) => (await classModule()).list(ctx, flags)));
    examples(
      classes
        .command('create')
        .argument('<label>')
        .option('--parent <class>', 'parent class (by id or label); none starts a new dimension')
        .description('Create a class')
        .action(
          run(
            async () =>
              async (ctx, [label], flags) =>
                (await classModule()).create(ctx, label!, flags),
          ),
        ),
      '  books class create Region\n  books class create West --parent Region',
    );
    classes
      .command('get')
      .argument('<class>')
      .description('Show a class')
      .action(
        run(
          async () =>
            async (ctx, [c]) =>
              (await classModule()).get(ctx, c!),
        ),
      );
    classes
      .command('rename')
      .argument('<class>')
      .argument('<label>')
      .description('Rename a class')
      .action(
        run(
          async () =>
            async (ctx, [c, l]) =>
              (await classModule()).rename(ctx, c!, l!),
        ),
      );
    classes
      .command('delete')
      .argument('<class>')
      .description('Delete a class and its subtree')
      .action(
        run(
          async () =>
            async (ctx, [c]) =>
              (await classModule()).remove(ctx, c!),
        ),
      );
  }

  const rule = program.command('rule').description('Transaction rules of the workspace');
  if (wants('rule')) {
    const ruleModule = () => import('./commands/rule/rules.js');
    const collectRule = (value: string, previous: string[] = []) => [...previous, value];
    rule
      .command('list')
      .description('List rules in application order')
      .action(run(async () => async (ctx) => (await ruleModule()).list(ctx)));
    const ruleOptions = (command: Command) =>
      command
        .option(
          '--when <type=value,...>',
          'a condition (repeatable, ANDed); values ORed',
          collectRule,
        )
        .option(
          '--then <type=value>',
          'an action: account_id=ACCOUNT or class_id=CLASS (repeatable)',
          collectRule,
        )
        .option('--note <text>', 'an internal note');
    examples(
      ruleOptions(rule.command('create').description('Create a rule')).action(
        run(async () => async (ctx, _args, flags) => (await ruleModule()).create(ctx, flags)),
      ),
      '  books rule create --when description_contains=uber,lyft --when direction_is=outflow --then account_id=Travel',
    );
    rule
      .command('get')
      .argument('<id>')
      .description('Show a rule')
      .action(
        run(
          async () =>
            async (ctx, [id]) =>
              (await ruleModule()).get(ctx, id!),
        ),
      );
    ruleOptions(
      rule
        .command('update')
        .argument('<id>')
        .option('--clear-note', 'remove the note')
        .description('Change a rule (conditions and actions replace the whole set)'),
    ).action(
      run(
        async () =>
          async (ctx, [id], flags) =>
            (await ruleModule()).update(ctx, id!, flags),
      ),
    );
    rule
      .command('enable')
      .argument('<id>')
      .description('Enable a rule')
      .action(
        run(
          async () =>
            async (ctx, [id]) =>
              (await ruleModule()).update(ctx, id!, {}, false),
        ),
      );
    rule
      .command('disable')
      .argument('<id>')
      .description('Disable a rule (it is kept)')
      .action(
        run(
          async () =>
            async (ctx, [id]) =>
              (await ruleModule()).update(ctx, id!, {}, true),
        ),
      );
    rule
      .command('delete')
      .argument('<id>')
      .description('Delete a rule')
      .action(
        run(
          async () =>
            async (ctx, [id]) =>
              (await ruleModule()).remove(ctx, id!),
        ),
      );
  }

  const group = program.command('group').description('Account groups of the entity');
  if (wants('group')) {
    const groupModule = () => import('./commands/group/groups.js');
    group
      .command('list')
      .option('--tree', 'indent groups under their parents')
      .description('List groups in chart order')
      .action(run(async () => async (ctx, _args, flags) => (await groupModule()).list(ctx, flags)));
    examples(
      group
        .command('create')
        .option('--name <name>')
        .option('--type <type>', 'account type')
        .option('--parent <group>', 'parent group (by id or name)')
        .description('Create an account group')
        .action(
          run(async () => async (ctx, _args, flags) => (await groupModule()).create(ctx, flags)),
        ),
      '  books group create --name Banks --type Cash',
    );
    group
      .command('get')
      .argument('<group>')
      .description('Show a group')
      .action(
        run(
          async () =>
            async (ctx, [g]) =>
              (await groupModule()).get(ctx, g!),
        ),
      );
    group
      .command('update')
      .argument('<group>')
      .option('--name <name>')
      .option('--parent <group>', 'new parent')
      .option('--top', 'move to the top level')
      .description('Rename or move a group')
      .action(
        run(
          async () =>
            async (ctx, [g], flags) =>
              (await groupModule()).update(ctx, g!, flags),
        ),
      );
    group
      .command('delete')
      .argument('<group>')
      .description('Delete a group (its contents move up)')
      .action(
        run(
          async () =>
            async (ctx, [g]) =>
              (await groupModule()).remove(ctx, g!),
        ),
      );
  }

  // --- journal entries ---------------------------------------------------------------------
  const je = program.command('je').description('Manual journal entries of the entity');
  if (wants('je')) {
    const jeModule = () => import('./commands/je/entries.js');
    const collect = (value: string, previous: string[] = []) => [...previous, value];
    examples(
      je
        .command('create')
        .option('--date <date>', 'the entry date (YYYY-MM-DD)')
        .option(
          '--debit <account=amount>',
          'a debit line (repeatable); account by code, name or id',
          collect,
        )
        .option('--credit <account=amount>', 'a credit line (repeatable)', collect)
        .option('--memo <text>', 'memo')
        .option('--basis <basis>', 'cash or accrual', 'cash')
        .option('--decimal-comma', 'amounts write decimals with a comma: 1.234,56')
        .description('Create a balanced journal entry')
        .action(
          run(async () => async (ctx, _args, flags) => {
            const m = await jeModule();
            await m.create(ctx, m.parseCreate(flags));
          }),
        ),
      '  books je create --date 2026-01-05 --debit Checking=5000 --credit Sales=5000 --memo "January sales"',
    );
    examples(
      importOptions(je.command('import').argument('<file>'))
        .option('--basis <basis>', 'cash or accrual', 'cash')
        .description(
          'Import a CSV general ledger through bulk create (checked whole first; safe to rerun)',
        )
        .action(
          run(async () => async (ctx, [file], flags) => {
            const m = await import('./commands/je/import.js');
            return m.run(ctx, m.parseImport(file!, flags));
          }),
        ),
      '  books je import ledger.csv --dry-run\n  books je import ledger.csv --receipt receipt.csv',
    );
    je.command('list')
      .option('--from <date>', 'first day')
      .option('--to <date>', 'last day')
      .option('--basis <basis>', 'cash or accrual', 'cash')
      .option('--limit <n>', 'how many (default 30 on a terminal)')
      .option('--all', 'every entry')
      .description('List journal entries, most recent first')
      .action(run(async () => async (ctx, _args, flags) => (await jeModule()).list(ctx, flags)));
    je.command('update')
      .argument('<id>')
      .option('--date <date>', 'move the entry to this date')
      .option('--memo <text>', 'new memo')
      .option('--clear-memo', 'remove the memo')
      .option('--debit <account=amount>', 'new debit line (lines replace the whole set)', collect)
      .option('--credit <account=amount>', 'new credit line', collect)
      .option('--basis <basis>', 'cash or accrual', 'cash')
      .option('--decimal-comma', 'amounts write decimals with a comma: 1.234,56')
      .description('Change a journal entry (only what is given; new lines replace them all)')
      .action(
        run(
          async () =>
            async (ctx, [id], flags) =>
              (await jeModule()).update(ctx, id!, flags),
        ),
      );
    je.command('get')
      .argument('<id>')
      .option('--basis <basis>', 'cash or accrual', 'cash')
      .description('Show a journal entry')
      .action(
        run(
          async () =>
            async (ctx, [id], flags) =>
              (await jeModule()).get(ctx, id!, flags),
        ),
      );
    je.command('delete')
      .argument('<id>')
      .option('--basis <basis>', 'cash or accrual', 'cash')
      .description('Delete a journal entry')
      .action(
        run(
          async () =>
            async (ctx, [id], flags) =>
              (await jeModule()).remove(ctx, id!, flags),
        ),
      );
  }

  // --- reports -----------------------------------------------------------------------------
  const report = program
    .command('report')
    .description('Profit and loss, balance sheet, cash flow, trial balance, general ledger');
  if (wants('report')) {
    const reportOptions = (command: Command) =>
      command
        .option(
          '--from <date>',
          'first day: YYYY-MM-DD or this-month, last-month, this-quarter, last-quarter, this-year, last-year, ytd',
        )
        .option('--to <date>', 'last day, same forms')
        .option('--basis <basis>', 'cash or accrual', 'cash');
    for (const [name, description] of [
      ['pl', 'Profit and loss'],
      ['bs', 'Balance sheet'],
      ['cf', 'Cash flow (indirect method)'],
      ['tb', 'Trial balance'],
    ] as const) {
      examples(
        reportOptions(report.command(name).description(description))
          .option('--by <period>', 'week, month, quarter, year or total', 'total')
          .action(
            run(async () => async (ctx, _args, flags) => {
              const statement = await import('./commands/report/statement.js');
              await statement.run(ctx, name, statement.parseReportQuery(flags));
            }),
          ),
        `  books report ${name} --from 2026-01-01 --to 2026-03-31 --by month\n  books report ${name} --from last-quarter --to last-quarter --output csv > ${name}.csv`,
      );
    }
    examples(
      reportOptions(report.command('gl').description('General ledger'))
        .option('--account <account>', 'one account, by id, code or name')
        .action(
          run(async () => async (ctx, _args, flags) => {
            const gl = await import('./commands/report/gl.js');
            await gl.run(ctx, gl.parse(flags));
          }),
        ),
      '  books report gl --from this-month --to this-month --account 1000',
    );
  }

  // --- sandbox -----------------------------------------------------------------------------
  const sandbox = program
    .command('sandbox')
    .description('The sandbox control plane: organizations, entities, bank feeds, webhooks');
  if (wants('sandbox')) {
    const org = sandbox.command('org').description('Organizations (admin token)');
    org
      .command('create')
      .argument('<name>')
      .description('Create an organization and print its token')
      .action(
        run(
          async () =>
            async (ctx, [name]) =>
              (await import('./commands/sandbox/orgCreate.js')).run(ctx, name!),
        ),
      );
    const feed = sandbox
      .command('feed')
      .description('Bank feeds: connections and the transactions they bring');
    const feedModule = () => import('./commands/sandbox/feed.js');
    const collectFeed = (value: string, previous: string[] = []) => [...previous, value];
    examples(
      feed
        .command('connect')
        .option('--bank <name>', 'the bank')
        .option(
          '--account <name:kind>',
          'NAME:bank or NAME:credit_card, or a financial account id (repeatable)',
          collectFeed,
        )
        .option('--direct', 'a direct connection')
        .option('--no-integration', 'not created by the integration (its events are not sent)')
        .description(
          'Connect a bank: each new financial account gets a Cash or Credit Cards chart account',
        )
        .action(
          run(async () => async (ctx, _args, flags) => {
            const m = await feedModule();
            await m.connect(ctx, m.parseConnect(flags));
          }),
        ),
      '  books sandbox feed connect --bank Chase --account "Chase Checking:bank" --account "Chase Sapphire:credit_card"',
    );
    examples(
      feed
        .command('break')
        .argument('<connection>')
        .option('--error <code>', 'disconnected or mfa_required', 'disconnected')
        .description('Break a syncing connection (feed.connection.disconnected is recorded once)')
        .action(
          run(
            async () =>
              async (ctx, [id], flags) =>
                (await feedModule()).breakConnection(ctx, id!, flags),
          ),
        ),
      '  books sandbox feed break 0192f3c4-… --error mfa_required',
    );
    examples(
      feed
        .command('reconnect')
        .argument('<connection>')
        .description('Reconnect a broken connection')
        .action(
          run(
            async () =>
              async (ctx, [id]) =>
                (await feedModule()).reconnect(ctx, id!),
          ),
        ),
      '  books sandbox feed reconnect 0192f3c4-…',
    );
    examples(
      feed
        .command('push')
        .argument('<financial-account>')
        .argument('<file>')
        .description(
          'Push bank transactions from a CSV (date, amount, description[, external_id]); rules categorize them',
        )
        .action(
          run(
            async () =>
              async (ctx, [account, file]) =>
                (await feedModule()).push(ctx, account!, file!),
          ),
        ),
      '  books sandbox feed push 0192f3c4-… statement.csv',
    );
    const webhook = sandbox
      .command('webhook')
      .description('The webhook portal: endpoints, secrets, delivery attempts, retries');
    const webhookModule = () => import('./commands/sandbox/webhook.js');
    examples(
      webhook
        .command('add')
        .argument('<url>', 'https://…, or http:// on a loopback host')
        .option(
          '--event <type>',
          'an event type to subscribe to (repeatable; none: every type)',
          collectFeed,
        )
        .description('Add an endpoint and print its signing secret')
        .action(
          run(
            async () =>
              async (ctx, [url], flags) =>
                (await webhookModule()).add(ctx, url!, (flags.event as string[]) ?? []),
          ),
        ),
      '  books sandbox webhook add https://hooks.example.com/books --event feed.connection.disconnected\n  books sandbox webhook add http://127.0.0.1:4020/',
    );
    webhook
      .command('list')
      .description("List the organization's webhook endpoints")
      .action(run(async () => async (ctx) => (await webhookModule()).list(ctx)));
    webhook
      .command('remove')
      .argument('<endpoint>')
      .description('Remove an endpoint, its pending deliveries and its attempt log')
      .action(
        run(
          async () =>
            async (ctx, [id]) =>
              (await webhookModule()).remove(ctx, id!),
        ),
      );
    webhook
      .command('rotate')
      .argument('<endpoint>')
      .description('Rotate the signing secret (the previous one signs too for 24 hours)')
      .action(
        run(
          async () =>
            async (ctx, [id]) =>
              (await webhookModule()).rotate(ctx, id!),
        ),
      );
    webhook
      .command('attempts')
      .argument('<endpoint>')
      .option('--limit <n>', 'how many (default 30 on a terminal)')
      .option('--all', 'every attempt')
      .description('Delivery attempts of an endpoint, most recent first')
      .action(
        run(
          async () =>
            async (ctx, [id], flags) =>
              (await webhookModule()).attempts(ctx, id!, flags),
        ),
      );
    webhook
      .command('retry')
      .argument('<endpoint>')
      .argument('[message]')
      .option('--since <time>', 'every message that failed since then (date-time or date)')
      .description('Send a message again now, or every message that failed since a time')
      .action(
        run(
          async () =>
            async (ctx, [id, message], flags) =>
              (await webhookModule()).retry(ctx, id!, message, flags),
        ),
      );
    const entity = sandbox.command('entity').description('Entities of the workspace');
    const entityModule = () => import('./commands/sandbox/entity.js');
    examples(
      entity
        .command('create')
        .argument('[name]')
        .option('--start-date <date>', 'bookkeeping start date (YYYY-MM-DD)')
        .description('Create an entity in the workspace')
        .action(
          run(async () => async (ctx, [name], flags) => {
            const { ask } = await import('./prompt.js');
            await (await entityModule()).create(ctx, await ask(ctx, name, 'Entity name'), flags);
          }),
        ),
      '  books sandbox entity create "Main Street Bakery" --start-date 2026-01-01 --workspace "Blue Bottle Books"',
    );
    entity
      .command('list')
      .description('List the entities of the workspace')
      .action(run(async () => async (ctx) => (await entityModule()).list(ctx)));
    entity
      .command('get')
      .argument('[entity]')
      .description('Show an entity')
      .action(
        run(
          async () =>
            async (ctx, [e]) =>
              (await entityModule()).get(ctx, e),
        ),
      );
    entity
      .command('update')
      .argument('[entity]')
      .option('--name <name>')
      .option('--start-date <date>', 'bookkeeping start date, or none')
      .option('--lock-date <date>', 'lock date, or none')
      .description('Rename an entity or change its dates')
      .action(
        run(async () => async (ctx, [e], flags) => {
          const m = await entityModule();
          await m.update(ctx, e, m.parseUpdate(flags));
        }),
      );
    entity
      .command('lock')
      .argument('[entity]')
      .requiredOption('--date <date>', 'the lock date (YYYY-MM-DD), or none to unlock')
      .description('Close the books up to and including a date')
      .action(
        run(async () => async (ctx, [e], flags) => {
          const m = await entityModule();
          await m.update(ctx, e, m.parseUpdate({ lockDate: flags.date as string }));
        }),
      );
    entity
      .command('open-accrual')
      .argument('[entity]')
      .description('Open the accrual ledger')
      .action(
        run(
          async () =>
            async (ctx, [e]) =>
              (await entityModule()).openAccrual(ctx, e),
        ),
      );
  }

  const webhook = program
    .command('webhook')
    .description('Receive and check webhook deliveries on this machine');
  if (wants('webhook')) {
    examples(
      webhook
        .command('listen')
        .requiredOption('--secret <whsec>', "the endpoint's signing secret")
        .option('--port <port>', 'port to listen on (0: any free port)', '4020')
        .option('--host <host>', 'address to listen on', '127.0.0.1')
        .option('--forward-to <url>', 'send each genuine delivery on, unchanged, to this URL')
        .description(
          'Receive deliveries: verify, print (JSON lines with --json), deduplicate, optionally forward',
        )
        .action(async (flags, command: Command) => {
          const { listen, parseListen } = await import('./commands/webhook/listen.js');
          const json = Boolean(command.optsWithGlobals<{ json?: boolean }>().json);
          setExitCode(await listen(io, parseListen(flags, json)));
        }),
      '  books webhook listen --secret "$WEBHOOK_SECRET"\n  books webhook listen --port 4020 --secret "$WEBHOOK_SECRET" --forward-to http://localhost:3000/hooks',
    );
    examples(
      webhook
        .command('verify')
        .requiredOption('--secret <whsec>', "the endpoint's signing secret")
        .requiredOption('--headers <file>', 'the headers: a JSON object or Name: value lines')
        .requiredOption('--body <file>', 'the raw body')
        .description('Check a captured delivery: exit 0 when genuine, 3 when not')
        .action(
          run(async () => async (ctx, _args, flags) => {
            const { parseVerify, verify } = await import('./commands/webhook/verify.js');
            await verify(ctx, parseVerify(flags));
          }),
        ),
      '  books webhook verify --secret "$WEBHOOK_SECRET" --headers headers.txt --body body.json',
    );
  }

  const transactions = program
    .command('transactions')
    .description('Bank transactions of the workspace');
  if (wants('transactions')) {
    examples(
      transactions
        .command('list')
        .option('--limit <n>', 'how many (default 30 on a terminal)')
        .option('--all', 'every transaction')
        .description(
          'List bank transactions with their category, rule and status, most recent first',
        )
        .action(
          run(
            async () => async (ctx, _args, flags) =>
              (await import('./commands/sandbox/feed.js')).list(ctx, flags),
          ),
        ),
      '  books transactions list --all --output csv > transactions.csv',
    );
  }

  const migrate = program
    .command('migrate')
    .description("Move a client's history in: the accounting migration");
  if (wants('migrate')) {
    const migrateModule = () => import('./commands/migrate/migrate.js');
    examples(
      importOptions(migrate.command('run').argument('<file>'))
        .option('--no-finalize', 'leave the migration open (finalize later)')
        .option('--no-wait', 'finalize without waiting for the rules')
        .description(
          'Migrate a CSV general ledger: checked whole, sent in keyed batches, reconciled, finalized; safe to rerun',
        )
        .action(
          run(async () => async (ctx, [file], flags) => {
            const { parseImport } = await import('./commands/je/import.js');
            const request = {
              ...parseImport(file!, { ...flags, basis: 'cash' }),
              migration: { finalize: flags.finalize !== false, wait: flags.wait !== false },
            };
            return (await migrateModule()).run(ctx, request);
          }),
        ),
      '  books migrate run ledger.csv --create-missing-accounts --receipt receipt.csv\n  books migrate run ledger.csv --dry-run',
    );
    examples(
      migrate
        .command('status')
        .description('Show the accounting migration of the entity')
        .action(run(async () => async (ctx) => (await migrateModule()).status(ctx))),
      '  books migrate status --json',
    );
    examples(
      migrate
        .command('finalize')
        .option('--no-wait', 'do not wait for the rules')
        .description('Generate transaction rules from the migrated history and wait for them')
        .action(
          run(
            async () => async (ctx, _args, flags) =>
              (await migrateModule()).finalizeCommand(ctx, flags),
          ),
        ),
      '  books migrate finalize',
    );
    examples(
      migrate
        .command('merge')
        .requiredOption('--source <account>', 'the migration-time account')
        .requiredOption('--target <account>', 'the bank-feed account')
        .description(
          'Merge a migration-time account into its bank-feed account (blockers printed one per line)',
        )
        .action(
          run(
            async () => async (ctx, _args, flags) =>
              (await import('./commands/coa/accounts.js')).merge(
                ctx,
                String(flags.source),
                String(flags.target),
              ),
          ),
        ),
      '  books migrate merge --source "Chase Checking (old books)" --target "Chase Checking" --yes',
    );
  }

  // --- the local platform ------------------------------------------------------------------
  examples(
    program
      .command('demo')
      .description(
        'Build a sample firm on the local platform and migrate a year of its books (safe to rerun)',
      )
      .action(async (flags, command: Command) => {
        const { run: demo } = await import('./commands/demo.js');
        setExitCode(
          await demo(io, { color: command.optsWithGlobals<{ color?: boolean }>().color }),
        );
      }),
    '  books demo',
  );

  examples(
    program
      .command('serve')
      .description(
        'Serve the local platform over HTTP (the Platform API and the sandbox control plane)',
      )
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port to listen on (0: any free port)', '4010')
      .addOption(
        new Option(
          '--db <file>',
          'SQLite database file (default: the local platform data file)',
        ).conflicts('memory'),
      )
      .option('--memory', 'keep everything in memory')
      .option('--admin-token <token>', 'admin token of the control plane (default: random)')
      .option('--org-token <token>', 'a token for the default organization (default: a fresh one)')
      .option('--rule-generation-delay <ms>', 'delay before rule generation runs', '2000')
      .option('--webhook-schedule <s1,s2,...>', 'seconds between webhook delivery attempts')
      .option('--rate-limit <n>', 'requests per second per organization; 0 disables', '100')
      .option(
        '--exec <command>',
        'run a command with BOOKS_BASE_URL and BOOKS_TOKEN set, then stop and exit with its status',
      )
      .action(async (flags) => {
        const { parseServeOptions, runServe } = await import('./commands/serve.js');
        setExitCode(await runServe(parseServeOptions(flags, io.env), io));
      }),
    '  books serve --port 4010 --db ./books.sqlite\n  books serve --memory --port 0 --exec "npm run integration-tests"',
  );

  // Every leaf command shows examples in its --help: those not given above come from here.
  const visit = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      const subPath = [...path, sub.name()];
      if (sub.commands.length > 0) visit(sub, subPath);
      else if (!exemplified.has(sub) && sub.name() !== 'help') {
        examples(
          sub,
          (EXAMPLES[subPath.join(' ')] ?? [`books ${subPath.join(' ')}`])
            .map((e) => `  ${e}`)
            .join('\n'),
        );
      }
    }
  };
  visit(program, []);
  return program;
}

/** The options a CSV general ledger import takes (je import, migrate run). */
function importOptions(command: Command): Command {
  return command
    .option('--dry-run', 'check the file only; send nothing')
    .option(
      '--map <target=Header,...>',
      "map this file's headers to ours, e.g. account=GL Account,amount=Net",
    )
    .option('--date-format <format>', 'YYYY-MM-DD, MM/DD/YYYY or DD/MM/YYYY', 'YYYY-MM-DD')
    .option('--decimal-comma', 'amounts write decimals with a comma: 1.234,56')
    .option(
      '--encoding <name>',
      "the file's encoding when not UTF-8: windows-1252, latin1, utf-16le, ...",
    )
    .option('--concurrency <n>', 'batches in flight', '4')
    .option('--receipt <file>', 'write, per file entry, the id of the journal entry it became')
    .option(
      '--create-missing-accounts',
      'create accounts the chart lacks (type from account_type: a type, or asset, liability, equity, income, expense)',
    );
}

/** Examples for the commands whose declarations do not give their own. */
const EXAMPLES: Record<string, string[]> = {
  logout: ['books logout', 'books logout --profile staging'],
  'profile list': ['books profile list', 'books profile list --json'],
  'profile use': ['books profile use staging'],
  'config path': ['books config path'],
  'config list': ['books config list --json'],
  'config get': ['books config get editor'],
  'config set': ['books config set editor vim'],
  log: ['books log', 'books log --limit 100 --json'],
  'workspace list': ['books workspace list', 'books workspace list --output csv > workspaces.csv'],
  'workspace get': ['books workspace get "Blue Bottle Books"'],
  'workspace delete': ['books workspace delete "Old Client" --yes'],
  'coa list': ['books coa list', 'books coa list --tree'],
  'coa get': ['books coa get 1000', 'books coa get "Chase Checking" --json'],
  'coa rename': ['books coa rename 1000 "Operating Checking"'],
  'coa move': ['books coa move 1000 --group Banks', 'books coa move 1000 --no-group'],
  'coa disable': ['books coa disable "Old Savings"'],
  'coa enable': ['books coa enable "Old Savings"'],
  'coa delete': ['books coa delete "Typo Account" --yes'],
  'class list': ['books class list --tree'],
  'class get': ['books class get West'],
  'class rename': ['books class rename East Northeast'],
  'class delete': ['books class delete Region --yes'],
  'rule list': ['books rule list'],
  'rule get': ['books rule get 0192f3c4-…'],
  'rule update': ['books rule update 0192f3c4-… --when amount_greater_than=100 --clear-note'],
  'rule enable': ['books rule enable 0192f3c4-…'],
  'rule disable': ['books rule disable 0192f3c4-…'],
  'rule delete': ['books rule delete 0192f3c4-… --yes'],
  'group list': ['books group list --tree'],
  'group get': ['books group get Banks'],
  'group update': [
    'books group update Premises --parent Expenses',
    'books group update Premises --top',
  ],
  'group delete': ['books group delete Banks --yes'],
  'je list': [
    'books je list --from last-month --to last-month',
    'books je list --all --json > entries.json',
  ],
  'je get': ['books je get 0192f3c4-…'],
  'je update': ['books je update 0192f3c4-… --date 2026-02-02 --memo "Moved to February"'],
  'je delete': ['books je delete 0192f3c4-… --yes'],
  'sandbox org create': ['books sandbox org create "Ledger & Co" --token "$ADMIN_TOKEN"'],
  'sandbox entity list': ['books sandbox entity list -w "Blue Bottle Books"'],
  'sandbox entity get': ['books sandbox entity get "Main Street Bakery"'],
  'sandbox entity update': [
    'books sandbox entity update --name "Main St Bakery" --start-date 2026-01-01',
  ],
  'sandbox entity lock': [
    'books sandbox entity lock --date 2026-03-31',
    'books sandbox entity lock --date none',
  ],
  'sandbox entity open-accrual': ['books sandbox entity open-accrual'],
  use: ['books use --workspace "Blue Bottle Books" --entity "Main Street Bakery"'],
};

/** Runs `books` with the given argv (without node and script) and resolves with the exit code. */
export async function main(args: string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.Success;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  if (args.length === 0) {
    program.outputHelp();
    return ExitCode.Usage;
  }
  try {
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportError(error, io, args.includes('--json'));
  }
}

/** How an import's failures (src/migrate's ImportError) end the command. */
const EXIT_OF_IMPORT_FAILURE: Record<ImportFailure, ExitCode> = {
  'invalid-file': ExitCode.InvalidFile,
  usage: ExitCode.Usage,
  'part-way': ExitCode.Resumable,
  interrupted: ExitCode.Interrupted,
  refused: ExitCode.Refused,
};

/** The one place where failures become messages and exit codes. */
async function reportError(error: unknown, io: CliIo, json: boolean): Promise<number> {
  const fail = (
    code: number,
    status: number | null,
    message: string,
    traceId: string | null = null,
    extra = '',
  ) => {
    if (json) io.stderr.write(`${JSON.stringify({ error: { status, message, traceId } })}\n`);
    else io.stderr.write(`books: ${message}${traceId ? ` (trace ${traceId})` : ''}\n${extra}`);
    return code;
  };
  if (error instanceof CommanderError) {
    if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code))
      return ExitCode.Success;
    return json
      ? fail(ExitCode.Usage, null, error.message.replace(/^error: /, ''))
      : ExitCode.Usage;
  }
  if (error instanceof UserError) return fail(error.exitCode, null, error.message);
  const { ImportError } = await import('../migrate/errors.js');
  if (error instanceof ImportError)
    return fail(EXIT_OF_IMPORT_FAILURE[error.failure], null, error.message);
  const { ApiError, NetworkError } = await import('../client/index.js');
  if (error instanceof ApiError) {
    const code =
      error.status === 401
        ? ExitCode.NotAuthenticated
        : error.status === 404
          ? ExitCode.NotFound
          : error.status === 429
            ? ExitCode.RateLimited
            : ExitCode.Refused;
    const blockers = error.blockers?.map((b) => `  - ${b.code}: ${b.message}\n`).join('') ?? '';
    return fail(code, error.status, error.message, error.traceId, blockers);
  }
  if (error instanceof NetworkError) return fail(ExitCode.Refused, null, error.message);
  if ((error as { name?: string })?.name === 'ExitPromptError')
    return fail(ExitCode.Interrupted, null, 'interrupted');
  io.stderr.write(
    `books: unexpected error (a bug, please report it):\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  return ExitCode.Refused;
}

/** The entry point of bin/books.js: the only place that ends the process. */
export async function run(): Promise<void> {
  const code = await main(process.argv.slice(2), processIo());
  // A pipe's writes may still be queued: exiting now would cut a script's data short.
  const drained = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => stream.write('', () => resolve()));
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}
