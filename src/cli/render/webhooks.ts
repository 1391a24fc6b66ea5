import type { VerifiedDelivery } from '../../client/index.js';

/**
 * A verified delivery for the person (its event, when it happened, the message id, then the
 * payload's fields one per line), or as one JSON line for scripts.
 */
export function renderDelivery(delivery: VerifiedDelivery, json: boolean): string {
  const { messageId, timestamp, envelope } = delivery;
  if (json) {
    return `${JSON.stringify({ messageId, timestamp, ...envelope })}\n`;
  }
  const occurred = new Date(envelope.occurredAt * 1000).toISOString().replace(/\.000Z$/, 'Z');
  const fields = Object.entries(envelope.payload);
  const width = Math.max(0, ...fields.map(([name]) => name.length));
  return [
    `${envelope.event}  ${occurred}  message ${messageId}  (envelope v${envelope.version})`,
    ...fields.map(
      ([name, value]) =>
        `  ${name.padEnd(width)}  ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    ),
    '',
  ].join('\n');
}
