/** One HTTP exchange, independent of how it travels. */
export interface TransportRequest {
  method: string;
  /** Path with query string, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
}

/**
 * How the client reaches a platform: over HTTP (`httpTransport`), or in-process for the
 * embedded local platform (supplied by the CLI, which alone may load the platform).
 */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}
