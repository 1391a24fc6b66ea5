import { Dispatcher, type DispatchRequest, type DispatchResponse } from './http/dispatcher.js';
import { RequestPipeline } from './http/pipeline.js';
import { platformRoutes } from './http/routes/index.js';
import { openPlatform, type PlatformOptions } from './open.js';

export type { DispatchRequest, DispatchResponse } from './http/dispatcher.js';

/** The platform in the CLI's own process: its routes answered without an HTTP framework. */
export interface EmbeddedPlatform {
  orgToken: string;
  dispatch(request: DispatchRequest): Promise<DispatchResponse>;
  close(): Promise<void>;
}

/**
 * Opens the platform for one `books` command. It loads no HTTP framework: Fastify's import and
 * boot (its router, plugins and eighty routes) were a third of a command's start.
 */
export async function openEmbeddedPlatform(options: PlatformOptions): Promise<EmbeddedPlatform> {
  const opened = await openPlatform(options);
  const dispatcher = new Dispatcher(
    platformRoutes(opened.engine),
    new RequestPipeline(opened.engine, opened.adminToken, options.now),
  );
  return {
    orgToken: opened.orgToken,
    dispatch: (request) => dispatcher.dispatch(request),
    close: () => opened.close(),
  };
}
