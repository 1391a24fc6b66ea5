import type { Profile } from '../config/profiles.js';
import { defineCommand, flag } from '../command.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../exitCodes.js';
import { platformUrl } from '../connection/target.js';

/** Reads a token from stdin (`--token-stdin`) or a hidden prompt on a terminal. */
async function readToken(ctx: CommandContext, fromStdin: boolean): Promise<string> {
  if (fromStdin) {
    let text = '';
    for await (const chunk of ctx.io.stdin) text += chunk.toString();
    return text.trim();
  }
  if (!ctx.io.stdin.isTTY)
    throw new UsageError('not on a terminal: pass the token with --token-stdin');
  return (await ctx.prompts.password('Token')).trim();
}

/** `books login --base-url URL [--profile NAME] [--token-stdin]`: checked by listing workspaces. */
export const command = defineCommand({
  summary: 'Save a profile: base URL and token (checked by listing workspaces)',
  options: { tokenStdin: flag('--token-stdin', 'read the token from standard input') },
  examples: [
    'echo "$TOKEN" | books login --base-url https://api.example.com --token-stdin [--profile NAME]',
  ],
  async run(ctx, { tokenStdin }) {
    const given = ctx.options.baseUrl ?? ctx.io.env.BOOKS_BASE_URL;
    if (!given) throw new UsageError('--base-url is required');
    const baseUrl = platformUrl(
      given,
      ctx.options.baseUrl !== undefined ? '--base-url' : 'BOOKS_BASE_URL',
    );
    const token = await readToken(ctx, Boolean(tokenStdin));
    if (!token) throw new UsageError('the token is empty');
    const client = await import('../../client/index.js');
    const { httpTransport } = await import('../../client/httpTransport.js');
    const apiClient = new client.ApiClient({
      transport: httpTransport(baseUrl),
      token,
      retry: { attempts: 2 },
    });
    try {
      await client.booksApi(apiClient).workspaces.list({ limit: 1 });
    } finally {
      await apiClient.close();
    }
    const name = ctx.options.profile ?? 'default';
    const store = await ctx.configStore();
    store.set(`profiles.${name}`, {
      ...(store.get(`profiles.${name}`) as Profile | undefined),
      baseUrl,
      token,
    });
    store.set('currentProfile', name);
    ctx.wrote(
      `logged in to ${baseUrl} as profile "${name}" (the token is stored in ${store.path}, mode 0600)`,
    );
  },
});
