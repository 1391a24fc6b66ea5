import type { WebhookEndpoint } from '../../../../api/index.js';

const events = (endpoint: WebhookEndpoint) =>
  endpoint.eventTypes.length === 0 ? 'all' : endpoint.eventTypes.join(', ');

const status = (endpoint: WebhookEndpoint) => (endpoint.disabled ? 'disabled' : 'enabled');

/** An endpoint as `field value` lines. */
export const endpointFields = (endpoint: WebhookEndpoint): [string, string][] => [
  ['id', endpoint.id],
  ['url', endpoint.url],
  ['events', events(endpoint)],
  ['status', status(endpoint)],
  ['created', endpoint.createdAt],
];

/** The columns of an endpoint list. */
export const endpointColumns = [
  { header: 'ID', value: (e: WebhookEndpoint) => e.id },
  { header: 'URL', value: (e: WebhookEndpoint) => e.url },
  { header: 'Events', value: events },
  { header: 'Status', value: status },
  { header: 'Created', value: (e: WebhookEndpoint) => e.createdAt },
];
