/** One HTTP exchange, independent of how it travels. */
export interface TransportRequest {
  method: string;
  /** Path with query string, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Hand a success's body over as it arrives (`stream`) instead of as text. */
  stream?: boolean;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | undefined>;
  /** The body's text; empty when it comes as `stream`. */
  body: string;
  /** A success's body as it arrives, when the request asked for it. */
  stream?: AsyncIterable<string | Uint8Array>;
}

/**
 * How the client reaches a platform: over HTTP (`httpTransport`), or in-process for the
 * embedded local platform (supplied by the CLI, which alone may load the platform).
 */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}
