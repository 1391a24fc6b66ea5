import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// Static: the bundle's interop gives a dynamic import of undici (CommonJS) no named exports.
import { request as send } from 'undici';
import { verifyDelivery, WebhookRejection } from '../../../client/webhooks.js';
import { defineCommand, text } from '../../command.js';
import { ExitCode, UsageError } from '../../exitCodes.js';
import type { CliIo } from '../../io.js';
import { renderDelivery } from '../../render/webhooks.js';
import { cannotListen } from '../../serve/serving.js';
import { wholeNumber } from '../serve.js';
import { requireSecret } from './verify.js';

export interface ListenOptions {
  host: string;
  port: number;
  secret: string;
  forwardTo?: string;
  json: boolean;
}

/** The largest delivery accepted (the platform's own body limit). */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Headers that belong to one hop and are not forwarded. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
]);

export function parseListen(
  flags: {
    port?: string | undefined;
    host?: string | undefined;
    forwardTo?: string | undefined;
    secret?: string | undefined;
  },
  json: boolean,
): ListenOptions {
  const secret = requireSecret(flags.secret);
  if (flags.forwardTo !== undefined) {
    const protocol = URL.canParse(flags.forwardTo) ? new URL(flags.forwardTo).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new UsageError(
        `--forward-to must be an http:// or https:// URL, not "${flags.forwardTo}"`,
      );
    }
  }
  return {
    host: flags.host ?? '127.0.0.1',
    port: wholeNumber(flags.port ?? '4020', '--port', 65535),
    secret,
    forwardTo: flags.forwardTo,
    json,
  };
}

/**
 * `books webhook listen`: a local receiver. Each POST is verified (raw body, every signature,
 * five-minute tolerance, either header prefix); a genuine delivery is printed on stdout and, with
 * `--forward-to`, sent on unchanged, answered with the forward's status. A message id already
 * handled is acknowledged (200) and not printed or forwarded again; one whose forward failed is
 * not counted as handled, so the platform's retry goes through. Runs until SIGINT/SIGTERM.
 */
export async function listen(io: CliIo, options: ListenOptions): Promise<number> {
  const handled = new Set<string>();
  const note = (text: string) => io.stderr.write(`books: ${text}\n`);

  const receive = async (request: IncomingMessage, response: ServerResponse) => {
    const answer = (status: number, message?: string) => {
      response.writeHead(status, message ? { 'content-type': 'application/json' } : {});
      response.end(message ? JSON.stringify({ message }) : undefined);
    };
    if (request.method !== 'POST') return answer(405, 'webhook deliveries are POST requests');
    const body = await readBody(request);
    if (body === undefined) return answer(413, 'the body is over 5 MB');
    let delivery;
    try {
      delivery = verifyDelivery(options.secret, request.headers, body);
    } catch (error) {
      if (!(error instanceof WebhookRejection)) throw error;
      note(`rejected a delivery: ${error.message}`);
      return answer(400, error.message);
    }
    if (handled.has(delivery.messageId)) {
      note(`message ${delivery.messageId} was received already: acknowledged, not handled again`);
      return answer(200);
    }
    if (options.forwardTo === undefined) {
      handled.add(delivery.messageId);
      io.stdout.write(renderDelivery(delivery, options.json));
      return answer(200);
    }
    const forwarded = await forward(options.forwardTo, request, body);
    if (forwarded.status >= 200 && forwarded.status < 300) handled.add(delivery.messageId);
    io.stdout.write(renderDelivery(delivery, options.json));
    note(
      forwarded.error
        ? `forwarding ${delivery.messageId} failed: ${forwarded.error}`
        : `forwarded ${delivery.messageId} to ${options.forwardTo}: ${forwarded.status}`,
    );
    response.writeHead(forwarded.status, forwarded.headers);
    response.end(forwarded.body);
  };

  const server = createServer((request, response) => {
    receive(request, response).catch((error: unknown) => {
      note(`could not handle a request: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    throw cannotListen(error, options.host, options.port);
  }
  const { port } = server.address() as AddressInfo;
  note(
    `listening for webhooks on http://${options.host}:${port}/` +
      (options.forwardTo ? `, forwarding to ${options.forwardTo}` : '') +
      ' (Ctrl-C to stop)',
  );
  await io.stopSignal;
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return ExitCode.Success;
}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Sends the delivery on as it came: same body bytes, same headers but the hop-by-hop ones. */
async function forward(
  url: string,
  request: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer; error?: string }> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(
      (entry): entry is [string, string] =>
        !HOP_BY_HOP.has(entry[0]) && typeof entry[1] === 'string',
    ),
  );
  try {
    const response = await send(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(15_000),
    });
    const answer = Buffer.from(await response.body.arrayBuffer());
    const contentType = response.headers['content-type'];
    return {
      status: response.statusCode,
      headers: typeof contentType === 'string' ? { 'content-type': contentType } : {},
      body: answer,
    };
  } catch (error) {
    const message = (error as Error).message;
    return {
      status: 502,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ message: `forwarding failed: ${message}` })),
      error: message,
    };
  }
}

export const command = defineCommand({
  summary:
    'Receive deliveries: verify, print (JSON lines with --json), deduplicate, optionally forward',
  options: {
    secret: text('--secret <whsec>', "the endpoint's signing secret", { required: true }),
    port: text('--port <port>', 'port to listen on (0: any free port)', { default: '4020' }),
    host: text('--host <host>', 'address to listen on', { default: '127.0.0.1' }),
    forwardTo: text('--forward-to <url>', 'send each genuine delivery on, unchanged, to this URL'),
  },
  examples: [
    'books webhook listen --secret "$WEBHOOK_SECRET"',
    'books webhook listen --port 4020 --secret "$WEBHOOK_SECRET" --forward-to http://localhost:3000/hooks',
  ],
  run: (ctx, flags) => listen(ctx.io, parseListen(flags, ctx.output.json)),
});
