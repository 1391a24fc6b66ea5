import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Transport } from '../../client/index.js';
import { UserError } from '../exitCodes.js';
import { booksPaths } from '../config/paths.js';

/**
 * The embedded local platform: the same engine as `books serve`, in-process on the user's data
 * file, reached through the platform's dispatcher (no network port, no HTTP framework). Its
 * token is minted once per data directory and kept beside the database (mode 0600).
 */
export async function embeddedTransport(env: NodeJS.ProcessEnv): Promise<{
  transport: Transport;
  token: string;
  databaseFile: string;
}> {
  const { dataDir, platformDatabase } = booksPaths(env);
  const tokenFile = path.join(dataDir, 'local-token');
  let token: string;
  try {
    // The data directory holds the token and the database: its owner's alone.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    ownerOnly(dataDir, 0o700);
    if (!existsSync(tokenFile)) {
      writeFileSync(tokenFile, `books_org_${randomBytes(32).toString('base64url')}\n`, {
        mode: 0o600,
      });
    }
    ownerOnly(tokenFile, 0o600);
    token = readFileSync(tokenFile, 'utf8').trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code;
    throw new UserError(
      `cannot use the local platform's data directory ${dataDir}: ${
        reason === 'EROFS'
          ? 'it is on a read-only file system'
          : reason === 'EACCES' || reason === 'EPERM'
            ? 'permission denied'
            : reason === 'ENOTDIR' || reason === 'EEXIST'
              ? 'a file is where a directory should be'
              : (error as Error).message
      }`,
    );
  }
  const { openEmbeddedPlatform } = await import('../../platform/embedded.js');
  const platform = await openEmbeddedPlatform({
    database: platformDatabase,
    orgToken: token,
    rateLimitPerSecond: 0,
    drainWebhooksOnClose: true,
    // The engine runs inside the user's command: its memory is theirs. A small page cache and no
    // memory map keep a million-line migration's RSS down; `books serve` keeps 64 MB of cache.
    // (Imports write in date order and reports read through the OS's file cache: 8 MB measured
    // as fast as 32 MB for both, on a 400,000-line ledger.)
    tuning: { cacheMb: 8, mmapMb: 0 },
  });
  const transport: Transport = {
    async send(request) {
      const response = await platform.dispatch(request);
      if (response.stream === undefined || request.stream) return response;
      let body = '';
      for await (const chunk of response.stream) body += chunk;
      return { ...response, body, stream: undefined };
    },
    close: () => platform.close(),
  };
  return { transport, token, databaseFile: platformDatabase };
}

/** Narrows a file's mode to `mode` when others can reach it (and only then: it may be read-only). */
function ownerOnly(file: string, mode: number): void {
  if ((statSync(file).mode & 0o777) !== mode) chmodSync(file, mode);
}
