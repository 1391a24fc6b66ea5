import { Webhook } from 'standardwebhooks';
import {
  checkWebhookUrl,
  WEBHOOK_ENVELOPE_VERSION,
  WEBHOOK_EVENT_TYPES,
  type WebhookEnvelope,
} from '../../api/index.js';
import { invalid } from './errors.js';

/**
 * Webhooks as pure rules: endpoint URLs and subscriptions, secrets, Standard Webhooks signing,
 * the retry schedule and an endpoint's health. The delivery worker applies them; nothing here
 * does I/O or reads the clock (callers pass `nowMs`).
 */

/** A delivery is a success when a 2xx answer comes within this time. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** An endpoint failing for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
/** After a rotation, the previous secret keeps signing for this long. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;
/** Random bytes in a signing secret. */
export const SECRET_BYTES = 24;

/**
 * An endpoint URL is HTTPS, or plain HTTP on a loopback host (so local receivers such as
 * `books webhook listen` work); the URL is returned as the WHATWG parser normalizes it.
 */
export function checkEndpointUrl(text: string, allowPrivate = false): string {
  const checked = checkWebhookUrl(text);
  if ('problem' in checked) throw invalid(checked.problem);
  const problem = webhookTargetProblem(new URL(checked.url).hostname, allowPrivate);
  if (problem) throw invalid(`url: webhooks are not sent there: ${problem}`);
  return checked.url;
}

/** What kind of network an address is on, for where webhooks may be sent. */
export type AddressKind =
  'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'public';

/**
 * node:net (for isIP and BlockList), loaded by the first address asked about: it costs every
 * `books` command a few milliseconds at start, and only a webhook's URL or delivery asks.
 */
const net = () => process.getBuiltinModule('node:net');
const ranges = (list: [string, number, 'ipv4' | 'ipv6'][]) => {
  const block = new (net().BlockList)();
  for (const [network, prefix, family] of list) block.addSubnet(network, prefix, family);
  return block;
};
/** The ranges an address is told apart by, made with the first address asked about. */
const knownRanges = () => ({
  unspecified: ranges([
    ['0.0.0.0', 8, 'ipv4'],
    ['::', 128, 'ipv6'],
  ]),
  loopback: ranges([
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ]),
  linkLocal: ranges([
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ]),
  private: ranges([
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
    ['fc00::', 7, 'ipv6'],
  ]),
});
let known: ReturnType<typeof knownRanges> | undefined;
/** Cloud instance metadata services: credentials for the asking. */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

/** The kind of an IP address (IPv4-mapped IPv6 read as its IPv4); `undefined` if not one. */
export function addressKind(address: string): AddressKind | undefined {
  let ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) ip = mapped[1]!;
  // The URL parser writes a mapped address in hex: ::ffff:a9fe:a9fe is 169.254.169.254.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (hex) {
    const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    ip = [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  const family = net().isIP(ip);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.has(ip)) return 'metadata';
  known ??= knownRanges();
  if (known.unspecified.check(ip, type)) return 'unspecified';
  if (known.loopback.check(ip, type)) return 'loopback';
  if (known.linkLocal.check(ip, type)) return 'link-local';
  if (known.private.check(ip, type)) return 'private';
  return 'public';
}

/**
 * Why webhooks may not go to an address or host, or `undefined` when they may: never to
 * link-local, metadata or unspecified addresses; to private ranges only when allowed
 * (`books serve --allow-private-webhooks`); loopback always (local development). A host name is
 * judged by its addresses at delivery time; only names of metadata services are refused here.
 */
export function webhookTargetProblem(host: string, allowPrivate: boolean): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) return `${host} is a cloud metadata service`;
  const kind = addressKind(name);
  if (kind === undefined || kind === 'public' || kind === 'loopback') return undefined;
  if (kind === 'private') {
    return allowPrivate
      ? undefined
      : `${host} is a private address (books serve --allow-private-webhooks allows it)`;
  }
  return `${host} is ${kind === 'metadata' ? 'a cloud metadata service' : `a ${kind} address`}`;
}

/** Event types of the catalogue, without repeats; an unknown name is refused. */
export function checkEventTypes(eventTypes: readonly string[] = []): string[] {
  eventTypes.forEach((type, index) => {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
      throw invalid(
        `eventTypes[${index}] "${type}" is not an event type (known: ${WEBHOOK_EVENT_TYPES.join(', ')})`,
      );
    }
  });
  return [...new Set(eventTypes)];
}

/** An empty selection subscribes to every event type. */
export const subscribes = (eventTypes: readonly string[], event: string): boolean =>
  eventTypes.length === 0 || eventTypes.includes(event);

/** `whsec_` and the base64 of the given random bytes. */
export const secretFrom = (randomBytes: Uint8Array): string =>
  `whsec_${Buffer.from(randomBytes).toString('base64')}`;

export interface StoredSecret {
  secret: string;
  /** When a rotated-out secret stops signing; null for the current one. */
  expiresAtMs: number | null;
}

/** The secrets that sign now, newest first: the current one and those still in their grace. */
export function activeSecrets(secrets: readonly StoredSecret[], nowMs: number): string[] {
  return secrets
    .filter((s) => s.expiresAtMs === null || s.expiresAtMs > nowMs)
    .sort((a, b) => (b.expiresAtMs ?? Infinity) - (a.expiresAtMs ?? Infinity))
    .map((s) => s.secret);
}

/** The body of a delivery, serialized once so that every retry sends the same bytes. */
export function envelopeBody(event: string, occurredAtMs: number, payload: object): string {
  const envelope: WebhookEnvelope = {
    event,
    version: WEBHOOK_ENVELOPE_VERSION,
    occurredAt: Math.floor(occurredAtMs / 1000),
    payload: payload as Record<string, unknown>,
  };
  return JSON.stringify(envelope);
}

/**
 * The headers of one attempt: `webhook-*` (what the Standard Webhooks libraries read) and the
 * same values under `hook-*`; one `v1,<base64>` signature per active secret, space-separated.
 */
export function signedHeaders(
  messageId: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): Record<string, string> {
  const at = new Date(timestampSeconds * 1000);
  const signature = secrets
    .map((secret) => new Webhook(secret).sign(messageId, at, body))
    .join(' ');
  const timestamp = String(timestampSeconds);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
    'hook-id': messageId,
    'hook-timestamp': timestamp,
    'hook-signature': signature,
  };
}

/** Any 2xx is a success; 3xx, 4xx, 5xx and no answer (null) are failures. */
export const isDelivered = (responseStatus: number | null): boolean =>
  responseStatus !== null && responseStatus >= 200 && responseStatus < 300;

/**
 * When the next attempt of a failed delivery is due, or `null` when that was the last one.
 * `schedule[i]` is the wait in seconds before attempt i + 1 (the first is counted from the
 * message), so a schedule of n values makes n attempts; `position` is the attempt just made.
 */
export function nextAttemptAt(
  schedule: readonly number[],
  position: number,
  nowMs: number,
): number | null {
  const wait = schedule[position + 1];
  return wait === undefined ? null : nowMs + wait * 1000;
}

export interface EndpointHealth {
  /** When the current run of failures began; null while deliveries succeed. */
  failingSinceMs: number | null;
  /** Why the endpoint is disabled by this attempt, if it is. */
  disable: 'gone' | 'failing_for_five_days' | null;
}

/**
 * An endpoint's health after an attempt: a success clears the run of failures; `410 Gone`
 * disables at once; failing for five days disables.
 */
export function healthAfterAttempt(
  failingSinceMs: number | null,
  responseStatus: number | null,
  nowMs: number,
): EndpointHealth {
  if (isDelivered(responseStatus)) return { failingSinceMs: null, disable: null };
  const since = failingSinceMs ?? nowMs;
  if (responseStatus === 410) return { failingSinceMs: since, disable: 'gone' };
  return {
    failingSinceMs: since,
    disable: nowMs - since >= DISABLE_AFTER_FAILING_MS ? 'failing_for_five_days' : null,
  };
}

/**
 * `feed.connection.disconnected` reaches the integration only for connections it created, and
 * is held back while a healthy direct connection still covers one of the connection's accounts.
 */
export const notifiesDisconnection = (connection: {
  createdByIntegration: boolean;
  coveredByHealthyDirectConnection: boolean;
}): boolean => connection.createdByIntegration && !connection.coveredByHealthyDirectConnection;
