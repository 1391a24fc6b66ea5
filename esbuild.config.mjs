// Bundles the CLI into dist/bundle/ (bin/books.js runs it): one file to parse instead of
// hundreds of modules, split at every dynamic import so that a command loads only its own
// code. `better-sqlite3` stays outside (a native addon); the CSV worker is its own entry, next
// to the chunk that starts it.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// A fresh directory: chunks of an earlier build must not linger beside this one's.
rmSync('dist/bundle', { recursive: true, force: true });

const result = await build({
  entryPoints: { main: 'src/cli/main.ts', csvWorker: 'src/formats/common/csvWorker.ts' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: a stack trace in a bug report keeps its function names.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  external: ['better-sqlite3'],
  define: { BOOKS_VERSION: JSON.stringify(version) },
  // CommonJS dependencies call require(); an ES module bundle has none of its own.
  banner: {
    js: "import { createRequire as __booksRequire } from 'node:module'; const require = __booksRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

// Which sources each output file holds: the test that --version and --help load no platform
// code reads it.
writeFileSync('dist/bundle/meta.json', JSON.stringify(result.metafile));
