/** The thin, typed API layer of `books`: it knows nothing of the CLI or the platform. */
export { booksApi, type BooksApi } from './api.js';
export {
  ApiClient,
  DEFAULT_RETRY,
  type ClientOptions,
  type RequestRecord,
  type RetryPolicy,
} from './client.js';
export { ApiError, NetworkError, unlessNotFound } from './errors.js';
export type { Transport, TransportRequest, TransportResponse } from './transport.js';
export { signingKey, verifyDelivery, WebhookRejection, type VerifiedDelivery } from './webhooks.js';
export { resolveReference, type Named, type Referable, type Resolution } from './references.js';
export type { ListPage } from './client.js';
export type { GeneralLedgerAccountHead, GeneralLedgerEvent } from './generalLedgerStream.js';
export { RequestPacer } from './pacer.js';
