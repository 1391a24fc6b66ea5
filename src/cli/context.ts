import type { BooksApi } from '../client/index.js';
import { ExitCode, UserError } from './exitCodes.js';
import type { CliIo } from './io.js';
import { Output } from './output.js';
import type { GlobalFlags, Target } from './target.js';

export interface GlobalOptions extends GlobalFlags {
  json?: boolean;
  output?: string;
  color?: boolean;
  yes?: boolean;
  workspace?: string;
  entity?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What every command gets: its streams, its output, and — loaded only when first asked for — the
 * API (over HTTP or the embedded platform) and the chosen workspace and entity.
 */
export class CommandContext {
  readonly output: Output;
  private connection: Promise<{ api: BooksApi; target: Target }> | undefined;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
    /** `embeddedDatabase`: talk to the embedded platform on this file, whatever is configured. */
    private readonly overrides: { embeddedDatabase?: string } = {},
  ) {
    this.output = new Output(io, options);
  }

  async api(): Promise<BooksApi> {
    return (await this.connect()).api;
  }

  async target(): Promise<Target> {
    return (await this.connect()).target;
  }

  private connect(): Promise<{ api: BooksApi; target: Target }> {
    this.connection ??= (async () => {
      const [{ openConfig }, { resolveTarget }, client, { appendAudit }] = await Promise.all([
        import('./config.js'),
        import('./target.js'),
        import('../client/index.js'),
        import('./auditLog.js'),
      ]);
      const env = this.io.env;
      const target: Target = this.overrides.embeddedDatabase
        ? { kind: 'embedded', profileName: 'demo', profile: {} }
        : resolveTarget(this.options, env, openConfig(env).store);
      let transport;
      let token;
      if (target.kind === 'remote') {
        transport = client.httpTransport(target.baseUrl);
        token = target.token;
      } else {
        const { embeddedTransport } = await import('./embedded.js');
        const embedded = await embeddedTransport(env, this.overrides.embeddedDatabase);
        ({ transport, token } = embedded);
        this.output.note(`books: using the local platform (${embedded.databaseFile})`);
      }
      const apiClient = new client.ApiClient({
        transport,
        token,
        onRequest: (record) => appendAudit(env, record),
        ...(this.io.env.BOOKS_RETRY_BASE_MS && {
          retry: { baseDelayMs: Number(this.io.env.BOOKS_RETRY_BASE_MS) },
        }),
      });
      return { api: client.booksApi(apiClient), target };
    })();
    return this.connection;
  }

  /** A workspace by id or exact name: the one given, else `--workspace`, else the profile's. */
  async workspaceId(given?: string): Promise<string> {
    const chosen = given ?? this.options.workspace ?? (await this.target()).profile.workspace;
    if (!chosen) {
      throw new UserError(
        'no workspace chosen: pass --workspace or run books use --workspace W',
        ExitCode.Usage,
      );
    }
    if (UUID.test(chosen)) return chosen;
    const workspaces = await (await this.api()).workspaces.all();
    const match = workspaces.filter((w) => w.name === chosen);
    if (match.length === 0)
      throw new UserError(`no workspace named "${chosen}"`, ExitCode.NotFound);
    if (match.length > 1)
      throw new UserError(
        `${match.length} workspaces are named "${chosen}": use the id`,
        ExitCode.Usage,
      );
    return match[0]!.id;
  }

  /** An entity by id or exact name (within the workspace): given, `--entity`, or the profile's. */
  async entityId(given?: string): Promise<string> {
    const chosen = given ?? this.options.entity ?? (await this.target()).profile.entity;
    if (!chosen)
      throw new UserError(
        'no entity chosen: pass --entity or run books use --entity E',
        ExitCode.Usage,
      );
    if (UUID.test(chosen)) return chosen;
    const entities = await (await this.api()).sandbox.entities(await this.workspaceId());
    const match = entities.filter((e) => e.name === chosen);
    if (match.length === 0) throw new UserError(`no entity named "${chosen}"`, ExitCode.NotFound);
    if (match.length > 1)
      throw new UserError(
        `${match.length} entities are named "${chosen}": use the id`,
        ExitCode.Usage,
      );
    return match[0]!.id;
  }

  /** An account of the entity by id, code or exact name. */
  async accountId(entityId: string, given: string): Promise<string> {
    const accounts = await (await this.api()).accounts.all(entityId);
    const match =
      accounts.find((a) => a.id === given) ??
      accounts.find((a) => a.code === given) ??
      accounts.find((a) => a.name === given);
    if (!match)
      throw new UserError(`no account "${given}" (by id, code or name)`, ExitCode.NotFound);
    return match.id;
  }

  /** Says on stderr what a write touched. */
  wrote(text: string): void {
    this.output.note(`books: ${text}`);
  }

  async close(): Promise<void> {
    if (this.connection) await (await this.connection.catch(() => undefined))?.api.client.close();
  }
}
