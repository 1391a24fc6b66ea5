import type { Account, Entity } from '../api/index.js';
import type { BooksApi, ListPage, RequestRecord } from '../client/index.js';
import type { CalendarDay } from '../core/calendar.js';
import { CALENDAR_YEAR } from '../core/periods.js';
import { systemClock, type Clock, type ContextServices, type Questions } from './clock.js';
import { unlessNotFound } from '../client/errors.js';
import { resolveReference, type Named, type Referable } from '../client/references.js';
import { didYouMean } from '../core/names.js';
import { appendAudit, readAudit } from './connection/auditLog.js';
import { savedOutputSettings } from './config/profiles.js';
import { localDay } from './terminal/dates.js';
import { ArgumentError, ExitCode, UserError } from './exitCodes.js';
import type { CliIo } from './io.js';
import { Output } from './terminal/output.js';
import type { GlobalFlags, Target } from './connection/target.js';

export interface GlobalOptions extends GlobalFlags {
  json?: boolean;
  output?: string;
  color?: boolean;
  /** `--no-pager`: false. */
  pager?: boolean;
  yes?: boolean;
  verbose?: boolean;
  workspace?: string;
  entity?: string;
}

/** What a command may ask the person at the terminal. */
export interface Prompts {
  /** A required value; without a terminal, the usage error `withoutTerminal` (never a hang). */
  input(message: string, withoutTerminal: string): Promise<string>;
  /** A hidden value (a token). */
  password(message: string): Promise<string>;
  /** Before a destructive act: `--yes`, else a prompt on a terminal, else a usage error. */
  confirmDestructive(question: string): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `resolveReference`'s answer as the CLI gives it: the one match, else exit 5 or 2. */
export function pick<T>(
  items: readonly T[],
  given: string,
  what: string,
  describe: (item: T) => Referable,
): T {
  const resolution = resolveReference(items, given, describe);
  if (resolution.found) return resolution.found;
  if (resolution.ambiguous) throw ambiguous(what, given, resolution.ambiguous.map(describe));
  throw new UserError(
    `no ${what} "${given}" (by id${what === 'account' ? ', code' : ''} or name)${didYouMean(
      items.map((item) => describe(item).name),
      given,
    )}`,
    ExitCode.NotFound,
  );
}

function ambiguous(what: string, given: string, candidates: readonly Referable[]): UserError {
  return new UserError(
    `"${given}" names ${candidates.length} ${what === 'entity' ? 'entities' : `${what}s`}: ${candidates
      .map((c) => `${c.code ? `${c.code} ` : ''}"${c.name}" (${c.id})`)
      .join(', ')}; use the id`,
    ExitCode.Usage,
  );
}

/**
 * What every command gets: its streams, its output, and — loaded only when first asked for — the
 * API (over HTTP or the embedded platform) and the chosen workspace and entity.
 */
export class CommandContext {
  readonly output: Output;
  private connection: Promise<{ api: BooksApi; target: Target }> | undefined;
  private resolvedTarget: Promise<Target> | undefined;
  private requestsPerSecond: number | undefined;
  /** What this command has chosen so far, for the messages of its writes. */
  private readonly chosen: { workspace?: Named; entity?: Named } = {};
  private readonly sandboxEntities = new Map<string, Promise<Entity | undefined>>();

  readonly clock: Clock;
  readonly prompts: Prompts;
  /** The local audit log of requests (`books log`). */
  readonly audit: {
    read(limit: number): ListPage<RequestRecord>;
    append(record: RequestRecord): void;
  };

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
    private readonly services: ContextServices = { clock: systemClock },
  ) {
    // `books config set output|color`: the saved defaults, under the flags given.
    const saved = savedOutputSettings(io.env);
    this.output = new Output(io, {
      ...options,
      ...(options.output === undefined &&
        !options.json &&
        saved.output && { output: saved.output }),
      ...(saved.color === 'never' && { color: false }),
    });
    this.clock = services.clock;
    this.prompts = terminalPrompts(io, options, services.questions ?? inquirerQuestions(io));
    this.audit = {
      read: (limit) => readAudit(io.env, limit),
      append: (record) => appendAudit(io.env, record),
    };
  }

  /** Today in the machine's time zone, by the context's clock. */
  today(): CalendarDay {
    return localDay(this.clock.now());
  }

  /** The config file, for writing (`conf`: atomic writes, mode 0600). */
  async configStore() {
    const { openConfig } = await import('./config/store.js');
    return openConfig(this.io.env);
  }

  async api(): Promise<BooksApi> {
    return (await this.connect()).api;
  }

  /**
   * Holds this command's requests to `perSecond` (bursts of as many), for work that fetches or
   * sends many pages at once (export, import): asked before the first request.
   */
  paceRequests(perSecond: number): void {
    this.requestsPerSecond = perSecond;
  }

  /** Where this command talks to, and the profile's choices (without connecting yet). */
  target(): Promise<Target> {
    this.resolvedTarget ??= (async () => {
      const [{ readConfig }, { resolveTarget }] = await Promise.all([
        import('./config/profiles.js'),
        import('./connection/target.js'),
      ]);
      return resolveTarget(this.options, this.io.env, readConfig(this.io.env));
    })();
    return this.resolvedTarget;
  }

  private connect(): Promise<{ api: BooksApi; target: Target }> {
    this.connection ??= (async () => {
      const [target, client] = await Promise.all([this.target(), import('../client/index.js')]);
      const env = this.io.env;
      let transport;
      let token;
      if (target.kind === 'remote') {
        // undici only for a remote platform: the embedded one is reached in-process.
        const { httpTransport } = await import('../client/httpTransport.js');
        transport = httpTransport(target.baseUrl);
        token = target.token;
      } else {
        const { embeddedTransport } = await import('./connection/embedded.js');
        const embedded = await embeddedTransport(env);
        ({ transport, token } = embedded);
        if (this.options.verbose)
          this.output.note(`books: using the local platform (${embedded.databaseFile})`);
      }
      const perSecond = this.requestsPerSecond ?? 0;
      const pacer =
        perSecond > 0
          ? new client.RequestPacer(perSecond, perSecond, undefined, (ms) => this.clock.sleep(ms))
          : undefined;
      const apiClient = new client.ApiClient({
        transport,
        token,
        ...(pacer && { pace: () => pacer.take() }),
        onRequest: (record) => this.audit.append(record),
        sleep: (ms) => this.clock.sleep(ms),
        ...(env.BOOKS_RETRY_BASE_MS && {
          retry: { baseDelayMs: Number(env.BOOKS_RETRY_BASE_MS) },
        }),
      });
      return { api: client.booksApi(apiClient), target };
    })();
    return this.connection;
  }

  /**
   * The workspace: the one given, else `--workspace`, else the profile's; by id or name (the
   * one rule of `resolveReference`).
   */
  async workspaceId(given?: string): Promise<string> {
    return (await this.workspace(given)).id;
  }

  private async workspace(given?: string): Promise<Named> {
    const chosen = given ?? this.options.workspace ?? (await this.target()).profile.workspace;
    if (!chosen) {
      throw new UserError(
        'no workspace chosen: pass --workspace or run books use --workspace W',
        ExitCode.Usage,
      );
    }
    const api = await this.api();
    if (UUID.test(chosen))
      return this.remember('workspace', (await api.workspaces.get(chosen)).workspace);
    const workspace = pick(await api.workspaces.all(), chosen, 'workspace', (w) => ({
      id: w.id,
      name: w.name,
    }));
    return this.remember('workspace', workspace);
  }

  /**
   * The entity: the one given, else `--entity`; else, when `--workspace` names another
   * workspace than the profile's, that workspace's only entity (never the profile's entity,
   * which belongs to another client); else the profile's entity, or its workspace's only one.
   * An entity named with a workspace must belong to it.
   */
  async entityId(given?: string): Promise<string> {
    return (await this.chosenEntity(given)).entity.id;
  }

  /**
   * An entity's fiscal year start (`MM-DD`), as the sandbox control plane keeps it; a calendar
   * year on a platform that has none (the hosted one keeps its own: see the README).
   */
  async fiscalYearStart(entityId: string): Promise<string> {
    return (await this.sandboxEntity(entityId))?.fiscalYearStart ?? CALENDAR_YEAR;
  }

  /**
   * Whether an entity's accrual ledger is open, as the sandbox control plane says; undefined on
   * a platform that has none (the hosted one).
   */
  async accrualLedgerOpen(entityId: string): Promise<boolean | undefined> {
    return (await this.sandboxEntity(entityId))?.accrualLedgerOpen;
  }

  /**
   * An entity as the sandbox control plane describes it, read once per command (its fiscal
   * year, its ledgers and its workspace are asked for apart); undefined on a platform without
   * the sandbox.
   */
  private sandboxEntity(entityId: string): Promise<Entity | undefined> {
    let read = this.sandboxEntities.get(entityId);
    if (read === undefined) {
      read = this.api().then(
        async (api) => (await unlessNotFound(api.sandbox.entity(entityId)))?.entity,
      );
      read.catch(() => this.sandboxEntities.delete(entityId));
      this.sandboxEntities.set(entityId, read);
    }
    return read;
  }

  /** The workspace and entity a command works on, with their names (what a write says). */
  async chosenEntity(given?: string): Promise<{ workspace: Named; entity: Named }> {
    const profile = (await this.target()).profile;
    const chosen = given ?? this.options.entity;
    const api = await this.api();
    // Entities are known through the sandbox control plane; a platform without it (the hosted
    // one) is trusted with an entity's id as given, its name unknown.
    if (chosen !== undefined && UUID.test(chosen)) {
      const entity = await this.sandboxEntity(chosen);
      const workspace = await this.workspace(
        this.options.workspace === undefined ? entity?.workspaceId : undefined,
      );
      if (entity && entity.workspaceId !== workspace.id) {
        const { workspace: its } = await api.workspaces.get(entity.workspaceId);
        throw new UserError(
          `entity "${entity.name}" (${entity.id}) belongs to workspace "${its.name}" (${its.id}), not to "${workspace.name}" (${workspace.id})`,
          ExitCode.Usage,
        );
      }
      return { workspace, entity: this.remember('entity', entity ?? { id: chosen, name: chosen }) };
    }
    const workspace = await this.workspace();
    if (chosen === undefined && profile.workspace === workspace.id && profile.entity)
      return this.chosenEntity(profile.entity);
    const entities = await unlessNotFound(api.sandbox.entities(workspace.id));
    if (!entities) {
      throw new UserError(
        `the platform does not list the entities of workspace "${workspace.name}": pass --entity with an entity's id`,
        ExitCode.Usage,
      );
    }
    const describe = (e: { id: string; name: string }) => ({ id: e.id, name: e.name });
    if (chosen !== undefined) {
      const resolution = resolveReference(entities, chosen, describe);
      if (resolution.found) return { workspace, entity: this.remember('entity', resolution.found) };
      if (resolution.ambiguous) throw ambiguous('entity', chosen, resolution.ambiguous);
      throw new UserError(
        `no entity "${chosen}" in workspace "${workspace.name}" (${workspace.id})${didYouMean(
          entities.map((e) => e.name),
          chosen,
        )}`,
        ExitCode.NotFound,
      );
    }
    if (entities.length !== 1) {
      throw new UserError(
        entities.length === 0
          ? `workspace "${workspace.name}" (${workspace.id}) has no entity: create one with books sandbox entity create`
          : `workspace "${workspace.name}" (${workspace.id}) has ${entities.length} entities: pass --entity (${entities.map((e) => `"${e.name}"`).join(', ')}) or run books use --entity E`,
        ExitCode.Usage,
      );
    }
    return { workspace, entity: this.remember('entity', entities[0]!) };
  }

  /** An account of the entity by id, code or name. */
  async accountId(entityId: string, given: string): Promise<string> {
    return (await this.account(entityId, given)).id;
  }

  /** An account of the entity by id, code or name. */
  async account(entityId: string, given: string): Promise<Account> {
    const accounts = await (await this.api()).accounts.all(entityId);
    return pick(accounts, given, 'account', (a) => ({ id: a.id, code: a.code, name: a.name }));
  }

  /** A class of the workspace by id or label. */
  async classId(workspaceId: string, given: string): Promise<string> {
    const classes = await (await this.api()).classes.all(workspaceId);
    return pick(classes, given, 'class', (c) => ({ id: c.id, name: c.label })).id;
  }

  /** An account group of the entity by id or name. */
  async groupId(entityId: string, given: string): Promise<string> {
    return (await this.group(entityId, given)).id;
  }

  /** An account group, by id or name, with its name. */
  async group(entityId: string, given: string): Promise<{ id: string; name: string }> {
    const groups = await (await this.api()).accountGroups.all(entityId);
    return pick(groups, given, 'account group', (g) => ({ id: g.id, name: g.name }));
  }

  /**
   * Says on stderr what a write touched, and where: `workspace "Name" (id), entity "Name"
   * (id): ...` once the command has chosen them.
   */
  wrote(text: string): void {
    const where = [
      this.chosen.workspace &&
        `workspace "${this.chosen.workspace.name}" (${this.chosen.workspace.id})`,
      this.chosen.entity && `entity "${this.chosen.entity.name}" (${this.chosen.entity.id})`,
    ].filter(Boolean);
    this.output.note(`books: ${where.length > 0 ? `${where.join(', ')}: ` : ''}${text}`);
  }

  /** Chooses the workspace and entity for what follows (the demo, which has just made them). */
  chooseEntity(workspace: Named, entity: Named): void {
    this.remember('workspace', workspace);
    this.remember('entity', entity);
  }

  private remember(kind: 'workspace' | 'entity', named: Named): Named {
    this.chosen[kind] = { id: named.id, name: named.name };
    return this.chosen[kind];
  }

  async close(): Promise<void> {
    if (this.connection) await (await this.connection.catch(() => undefined))?.api.client.close();
  }
}

/** `@inquirer/prompts` on the context's terminal, loaded when first asked. */
function inquirerQuestions(io: CliIo): Questions {
  // Read when a question is asked: stdin's stream is made on first use (io.ts).
  const streams = () => ({ input: io.stdin, output: io.stderr });
  return {
    async input(message) {
      const { input } = await import('@inquirer/prompts');
      return input({ message, required: true }, streams());
    },
    async password(message) {
      const { password } = await import('@inquirer/prompts');
      return password({ message, mask: '*' }, streams());
    },
    async confirm(message) {
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: false }, streams());
    },
  };
}

/** What a command may ask, and what it does when it cannot ask (no terminal) or is told no. */
function terminalPrompts(io: CliIo, options: GlobalOptions, ask: Questions): Prompts {
  const onTerminal = () => Boolean(io.stdin.isTTY && io.stderr.isTTY);
  return {
    async input(message, withoutTerminal) {
      if (!onTerminal()) throw new ArgumentError(withoutTerminal);
      return ask.input(message);
    },
    password: (message) => ask.password(message),
    async confirmDestructive(question) {
      if (options.yes) return;
      if (!io.stdin.isTTY || !io.stdout.isTTY) {
        throw new UserError(
          `${question} Not on a terminal: pass --yes to confirm.`,
          ExitCode.Usage,
        );
      }
      if (!(await ask.confirm(question))) throw new UserError('cancelled', ExitCode.Refused);
    },
  };
}
