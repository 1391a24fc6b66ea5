import { createRequire } from 'node:module';

/** Set by the bundler (esbuild.config.mjs); read from package.json when running from source. */
declare const BOOKS_VERSION: string | undefined;

/** This build's version, as `books --version` prints it and the files it writes name it. */
export function booksVersion(): string {
  if (typeof BOOKS_VERSION === 'string') return BOOKS_VERSION;
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
}
