import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookEnvelope } from '../api/index.js';

/** A delivery that is not genuine, or not readable; the message says why. */
export class WebhookRejection extends Error {
  override name = 'WebhookRejection';
}

export interface VerifiedDelivery {
  messageId: string;
  /** Unix seconds at which the attempt was signed. */
  timestamp: number;
  envelope: WebhookEnvelope;
}

/** The verifier of a signing secret; what is not `whsec_` and base64 is refused. */
export function signingKey(secret: string): Webhook {
  const problem = new WebhookRejection('a signing secret is whsec_ followed by base64');
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) throw problem;
  try {
    return new Webhook(secret);
  } catch {
    throw problem;
  }
}

/**
 * Verifies a delivery as a receiver must: over the raw body bytes, against every signature in
 * the list, with the Standard Webhooks five-minute tolerance, reading the `webhook-*` headers or
 * their `hook-*` twins (which must agree when both are there).
 */
export function verifyDelivery(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): VerifiedDelivery {
  const lower = new Map(
    Object.entries(headers).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );
  const header = (name: string): string => {
    const standard = lower.get(`webhook-${name}`);
    const short = lower.get(`hook-${name}`);
    if (standard !== undefined && short !== undefined && standard !== short) {
      throw new WebhookRejection(`the webhook-${name} and hook-${name} headers differ`);
    }
    const value = standard ?? short;
    if (value === undefined || value === '') {
      throw new WebhookRejection(`the webhook-${name} (or hook-${name}) header is missing`);
    }
    return value;
  };
  const signed = {
    'webhook-id': header('id'),
    'webhook-timestamp': header('timestamp'),
    'webhook-signature': header('signature'),
  };
  const key = signingKey(secret);
  try {
    key.verify(body, signed, { jsonParse: false });
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new WebhookRejection(reason(error));
    throw error;
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookRejection('the body is not JSON');
  }
  if (typeof envelope !== 'object' || envelope === null || !('event' in envelope)) {
    throw new WebhookRejection('the body is not a webhook envelope');
  }
  return {
    messageId: signed['webhook-id'],
    timestamp: Number(signed['webhook-timestamp']),
    envelope: envelope as WebhookEnvelope,
  };
}

function reason(error: WebhookVerificationError): string {
  switch (error.message) {
    case 'Message timestamp too old':
      return 'the timestamp is more than five minutes old (a replay, or a stale capture)';
    case 'Message timestamp too new':
      return 'the timestamp is more than five minutes in the future';
    case 'No matching signature found':
      return 'no signature matches: the body was changed, or the secret is not this endpoint’s';
    case 'Invalid Signature Headers':
      return 'the timestamp header is not a number';
    default:
      return error.message;
  }
}
