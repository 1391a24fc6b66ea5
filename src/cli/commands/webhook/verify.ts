import { readFileSync } from 'node:fs';
import { signingKey, verifyDelivery, WebhookRejection } from '../../../client/webhooks.js';
import { defineCommand, text } from '../../command.js';
import type { CommandContext } from '../../context.js';
import { ExitCode, unreadableFile, UsageError, UserError } from '../../exitCodes.js';
import { renderDelivery } from '../../render/webhooks.js';

export interface VerifyOptions {
  secret: string;
  headersFile: string;
  bodyFile: string;
}

export function parseVerify(flags: {
  secret?: string | undefined;
  headers?: string | undefined;
  body?: string | undefined;
}) {
  const secret = requireSecret(flags.secret);
  if (!flags.headers) throw new UsageError('--headers FILE is required');
  if (!flags.body) throw new UsageError('--body FILE is required');
  return { secret, headersFile: flags.headers, bodyFile: flags.body };
}

/** A missing or bad `--secret` is a usage error, caught before anything is read or served. */
export function requireSecret(secret: string | undefined): string {
  if (!secret) throw new UsageError('--secret whsec_... is required');
  try {
    signingKey(secret);
  } catch (error) {
    if (error instanceof WebhookRejection) throw new UsageError(`--secret: ${error.message}`);
    throw error;
  }
  return secret;
}

/**
 * Headers of a captured delivery: a JSON object, or `Name: value` lines as `curl -D` or a proxy
 * log writes them (a request or status line, and blank lines, are skipped).
 */
export function parseHeaders(text: string): Record<string, string> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new WebhookRejection('the headers file starts with { but is not JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new WebhookRejection('the headers file is not a JSON object of names and values');
    }
    return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
  }
  const headers: Record<string, string> = {};
  for (const line of trimmed.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0 || /^\S+ \S+ HTTP\/|^HTTP\//.test(line)) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** `books webhook verify`: exit 0 and the delivery when genuine; exit 3 and why, when not. */
export async function verify(ctx: CommandContext, options: VerifyOptions): Promise<void> {
  const read = (file: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw unreadableFile(file, error);
    }
  };
  const headersText = read(options.headersFile).toString('utf8');
  const body = read(options.bodyFile);
  try {
    const delivery = verifyDelivery(options.secret, parseHeaders(headersText), body);
    ctx.output.note(`books: genuine: message ${delivery.messageId} verifies with this secret`);
    ctx.output.write(renderDelivery(delivery, ctx.output.json));
  } catch (error) {
    if (error instanceof WebhookRejection) {
      throw new UserError(`not a genuine delivery: ${error.message}`, ExitCode.InvalidFile);
    }
    throw error;
  }
}

export const command = defineCommand({
  summary: 'Check a captured delivery: exit 0 when genuine, 3 when not',
  options: {
    secret: text('--secret <whsec>', "the endpoint's signing secret", { required: true }),
    headers: text('--headers <file>', 'the headers: a JSON object or Name: value lines', {
      required: true,
    }),
    body: text('--body <file>', 'the raw body', { required: true }),
  },
  examples: [
    'books webhook verify --secret "$WEBHOOK_SECRET" --headers headers.txt --body body.json',
  ],
  run: (ctx, flags) => verify(ctx, parseVerify(flags)),
});
