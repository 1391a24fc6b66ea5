/*
 * What the wire says beside the schemas: plain values, with no schema built, so that the client
 * (which needs only these at run time) loads none of the API's schemas.
 */

/**
 * NDJSON, one JSON value a line: the form the local platform answers a big read in when asked
 * for it (`Accept`) — a return's postings, the general ledger — read line by line, never one
 * document in memory (parsed so, a tenth of the time a streamed JSON document takes).
 */
export const NDJSON_TYPE = 'application/x-ndjson';

/**
 * A header of the local platform's 503 when its database is damaged (`damaged`): a retry cannot
 * help, so clients do not make one. The hosted platform never sends it.
 */
export const DATABASE_STATE_HEADER = 'books-database';
