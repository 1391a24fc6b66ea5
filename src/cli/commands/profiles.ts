import type { Profile } from '../config.js';
import type { CommandContext } from '../context.js';
import { ExitCode, UserError, UsageError } from '../exitCodes.js';

async function config(ctx: CommandContext) {
  const { openConfig } = await import('../configStore.js');
  return { store: openConfig(ctx.io.env) };
}

/** Reads a token from stdin (`--token-stdin`) or a hidden prompt on a terminal. */
async function readToken(ctx: CommandContext, fromStdin: boolean): Promise<string> {
  if (fromStdin) {
    let text = '';
    for await (const chunk of ctx.io.stdin) text += chunk.toString();
    return text.trim();
  }
  if (!ctx.io.stdin.isTTY)
    throw new UsageError('not on a terminal: pass the token with --token-stdin');
  const { password } = await import('@inquirer/prompts');
  return (
    await password({ message: 'Token', mask: '*' }, { input: ctx.io.stdin, output: ctx.io.stderr })
  ).trim();
}

/** `books login --base-url URL [--profile NAME] [--token-stdin]`: checked by listing workspaces. */
export async function login(
  ctx: CommandContext,
  flags: { baseUrl?: string; profile?: string; tokenStdin?: boolean },
): Promise<void> {
  const baseUrl = flags.baseUrl ?? ctx.io.env.BOOKS_BASE_URL;
  if (!baseUrl) throw new UsageError('--base-url is required');
  const token = await readToken(ctx, Boolean(flags.tokenStdin));
  if (!token) throw new UsageError('the token is empty');
  const client = await import('../../client/index.js');
  const apiClient = new client.ApiClient({
    transport: client.httpTransport(baseUrl),
    token,
    retry: { attempts: 2 },
  });
  try {
    await client.booksApi(apiClient).workspaces.list({ limit: 1 });
  } finally {
    await apiClient.close();
  }
  const name = flags.profile ?? 'default';
  const { store } = await config(ctx);
  store.set(`profiles.${name}`, {
    ...(store.get(`profiles.${name}`) as Profile | undefined),
    baseUrl,
    token,
  });
  store.set('currentProfile', name);
  ctx.wrote(
    `logged in to ${baseUrl} as profile "${name}" (the token is stored in ${store.path}, mode 0600)`,
  );
}

export async function logout(ctx: CommandContext, flags: { profile?: string }): Promise<void> {
  const { store } = await config(ctx);
  const name = flags.profile ?? store.get('currentProfile');
  if (!name || !store.has(`profiles.${name}`)) throw new UserError('not logged in', ExitCode.Usage);
  store.delete(`profiles.${name}` as 'profiles');
  if (store.get('currentProfile') === name) store.delete('currentProfile');
  ctx.wrote(`logged out of profile "${name}"`);
}

export async function list(ctx: CommandContext): Promise<void> {
  const { store } = await config(ctx);
  const current = store.get('currentProfile');
  const rows = Object.entries(store.get('profiles')).map(([name, p]) => ({ name, ...p }));
  await ctx.output.table(
    [
      { header: '', value: (r) => (r.name === current ? '*' : '') },
      { header: 'Profile', value: (r) => r.name },
      { header: 'Base URL', value: (r) => r.baseUrl ?? '(local platform)' },
      { header: 'Workspace', value: (r) => r.workspace ?? '' },
      { header: 'Entity', value: (r) => r.entity ?? '' },
    ],
    rows,
    // The token is never printed, not even in JSON.
    rows.map(({ token: _token, ...rest }) => ({ ...rest, current: rest.name === current })),
  );
}

export async function use(ctx: CommandContext, name: string): Promise<void> {
  const { store } = await config(ctx);
  if (!store.has(`profiles.${name}`))
    throw new UserError(`no profile named "${name}"`, ExitCode.Usage);
  store.set('currentProfile', name);
  ctx.wrote(`now using profile "${name}"`);
}

/** `books use --workspace W [--entity E]`: saved in the profile in use (`local` when embedded). */
export async function useWorkspace(ctx: CommandContext): Promise<void> {
  if (!ctx.options.workspace && !ctx.options.entity)
    throw new UsageError('pass --workspace and/or --entity');
  const target = await ctx.target();
  const workspaceId = await ctx.workspaceId();
  const entityId = ctx.options.entity ? await ctx.entityId() : undefined;
  const { store } = await config(ctx);
  // Reached through --base-url or BOOKS_BASE_URL with no profile: keep the choice in a
  // `default` profile for that base URL (never the token), current unless another one is.
  const name = target.profileName ?? 'default';
  const saved: Profile = {
    ...(store.get(`profiles.${name}`) as Profile | undefined),
    ...(target.kind === 'remote' &&
      target.profileName === undefined && { baseUrl: target.baseUrl }),
    workspace: workspaceId,
    ...(entityId ? { entity: entityId } : {}),
  };
  if (!entityId) delete saved.entity;
  store.set(`profiles.${name}`, saved);
  if (target.kind === 'remote' && store.get('currentProfile') === undefined)
    store.set('currentProfile', name);
  ctx.wrote(
    `profile "${name}" now uses workspace ${workspaceId}${entityId ? ` and entity ${entityId}` : ''}`,
  );
}

export async function configPath(ctx: CommandContext): Promise<void> {
  const { store } = await config(ctx);
  const { booksPaths } = await import('../paths.js');
  ctx.output.record(
    [
      ['config', store.path],
      ['local platform', booksPaths(ctx.io.env).platformDatabase],
    ],
    { config: store.path, localPlatform: booksPaths(ctx.io.env).platformDatabase },
  );
}

const SETTINGS = /^[a-zA-Z][\w.-]*$/;

export async function configGet(ctx: CommandContext, key: string): Promise<void> {
  const { store } = await config(ctx);
  if (key.startsWith('profiles'))
    throw new UsageError('profiles are managed by books login and books use');
  const value = store.get(key);
  if (value === undefined) throw new UserError(`${key} is not set`, ExitCode.NotFound);
  ctx.output.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}

export async function configSet(ctx: CommandContext, key: string, value: string): Promise<void> {
  if (!SETTINGS.test(key) || key.startsWith('profiles') || key === 'currentProfile') {
    throw new UsageError(
      `"${key}" cannot be set here (profiles are managed by books login and books use)`,
    );
  }
  const { store } = await config(ctx);
  store.set(key, value);
  ctx.wrote(`${key} = ${value}`);
}

export async function configList(ctx: CommandContext): Promise<void> {
  const { store } = await config(ctx);
  const { profiles: _profiles, ...settings } = store.store;
  await ctx.output.table(
    [
      { header: 'Key', value: ([k]) => k },
      { header: 'Value', value: ([, v]) => (typeof v === 'string' ? v : JSON.stringify(v)) },
    ],
    Object.entries(settings),
    settings,
  );
}

export async function log(ctx: CommandContext, flags: { limit?: string }): Promise<void> {
  const limit = Number(flags.limit ?? 20);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError('--limit must be a whole number ≥ 1');
  const { readAudit } = await import('../auditLog.js');
  const records = readAudit(ctx.io.env, limit);
  await ctx.output.table(
    [
      { header: 'At', value: (r) => r.at },
      { header: 'Method', value: (r) => r.method },
      { header: 'Path', value: (r) => r.path },
      { header: 'Status', value: (r) => String(r.status ?? 'network error') },
      { header: 'Trace', value: (r) => r.traceId ?? '' },
      { header: 'Idempotency key', value: (r) => r.idempotencyKey ?? '' },
    ],
    records,
  );
}
