// Bundles the CLI into dist/bundle/ (bin/books.cjs runs it): a few files to read instead of
// hundreds of modules, split at every dynamic import so that a command loads only its own code,
// and each file with V8's code cache made here, so that a command compiles next to nothing.
//
// Node 20 keeps no compiled code for ES modules, and linking the ~50 ES module chunks a command
// loads cost more than running it (`workspace list`: 24 ms compiling, 17 ms resolving and
// reading them). So the chunks esbuild splits are rewritten as CommonJS (`.cjs`, a dynamic
// import of a chunk becoming a `require` of it), which bin/books.cjs loads through `vm.Script`
// with the cache each chunk has beside it (`.cache`). The caches are made by running a few
// commands once the bundle is built (below): each chunk's cache holds the functions those
// commands ran. A cache V8 turns down (another Node) only costs the compile it would have saved.
//
// better-sqlite3's JavaScript is bundled (compiled from source at each start it took 5 ms);
// only its native addon is loaded from the package. The CSV worker is an ES module bundle of its
// own (a worker thread's code, loaded once per large file).
import { build, transform } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const OUT = 'dist/bundle';

/**
 * commander requires child_process at its top for the one thing that needs it (running a
 * subcommand as its own executable, which books never does): loaded when spawned instead, as
 * child_process with dgram and net cost every command 2–5 ms (`workspace list` 87 → 84 ms).
 */
const commanderSpawnsLazily = {
  name: 'commander-spawns-lazily',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      // A commander that requires it otherwise is bundled as it is.
      if (!source.includes(eager)) return undefined;
      return {
        contents: source.replace(
          eager,
          "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
        ),
        loader: 'js',
      };
    });
  },
};

/** Replaces each `[found, replacement]` in a source, or fails the build naming what is gone. */
function patched(file, source, replacements) {
  for (const [found, replacement] of replacements) {
    if (!source.includes(found))
      throw new Error(`${file}: no ${found} to replace (a new version?)`);
    source = source.replace(found, replacement);
  }
  return source;
}

/**
 * better-sqlite3 finds its addon with `bindings`, which looks for the package's root from the
 * stack of its caller: from a chunk, the wrong root. Bundled, it loads the addon the package
 * built (`build/Release`), found from the bundle as the package's own files are; a build
 * elsewhere (Debug) is found by `bindings` from the package's root. The build fails if the line
 * it replaces is gone (a later better-sqlite3): bundled as it is, the addon would not be found.
 */
const sqliteAddonFromPackage = {
  name: 'sqlite-addon-from-package',
  setup(build) {
    build.onLoad({ filter: /[\\/]better-sqlite3[\\/]lib[\\/]database\.js$/ }, (args) => {
      // books' own node_modules first, as Node would find it from the bundle (a stat, not the
      // package.json reads of a resolve: 1.2 ms); where npm hoisted it, resolved.
      const fromPackage = `(() => {
        const own = require('path').join(__dirname, '../../node_modules/better-sqlite3/build/Release/better_sqlite3.node');
        if (require('fs').existsSync(own)) return require(own);
        try {
          return require(require.resolve('better-sqlite3/build/Release/better_sqlite3.node'));
        } catch (error) {
          if (error.code !== 'MODULE_NOT_FOUND') throw error;
          const root = require('path').dirname(require.resolve('better-sqlite3/package.json'));
          return require('bindings')({ bindings: 'better_sqlite3.node', module_root: root });
        }
      })()`;
      const source = readFileSync(args.path, 'utf8');
      return {
        contents: patched(args.path, source, [
          ["require('bindings')('better_sqlite3.node')", fromPackage],
        ]),
        loader: 'js',
      };
    });
  },
};

/**
 * precompiledValidators.ts in the bundle: the validators ajv wrote (below), held in memory, each
 * read by esbuild as `books-validators:<kind>-<schema key>` and imported when first asked for, so
 * that each is a chunk of its own and a command loads only its routes' validators.
 */
const validatorsWritten = {
  name: 'validators-written',
  setup(build) {
    build.onLoad({ filter: /[\\/]platform[\\/]http[\\/]precompiledValidators\.ts$/ }, () => {
      const loaders = (kind) =>
        Object.keys(validatorSources[kind])
          .map(
            (key) =>
              `${JSON.stringify(key)}: () => import('books-validators:${kind}-${key}').then((module) => module.default.validate)`,
          )
          .join(',\n');
      return {
        contents: `export const PRECOMPILED_VALIDATORS = {\n${Object.keys(validatorSources)
          .map((kind) => `${kind}: {\n${loaders(kind)}\n}`)
          .join(',\n')}\n};\n`,
        loader: 'js',
      };
    });
    build.onResolve({ filter: /^books-validators:/ }, (args) => ({
      path: `validator-${args.path.slice('books-validators:'.length)}`,
      namespace: 'books-validators',
    }));
    // Their requires (ajv's runtime, the formats' absolute path) resolve from the project.
    build.onLoad({ filter: /.*/, namespace: 'books-validators' }, (args) => {
      const [, kind, key] = /^validator-(\w+?)-(.+)$/.exec(args.path);
      return { contents: validatorSources[kind][key], loader: 'js', resolveDir: process.cwd() };
    });
  },
};

/**
 * undici's HTTP/2 client, which requires node:http2 as it loads (about 6 ms of every command
 * against a remote platform), is left out: books asks for HTTP/1.1 (`allowH2: false`,
 * src/client/httpTransport.ts), so undici never calls it. Should it, the request fails saying so.
 */
const withoutHttp2 = {
  name: 'undici-without-http2',
  setup(build) {
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, () => ({
      contents: `'use strict';
module.exports = function connectH2() {
  throw new Error('books speaks HTTP/1.1 only: undici asked for HTTP/2');
};`,
      loader: 'js',
    }));
  },
};

/**
 * undici requires node:http as it loads, for two things it may never need: the class of a
 * server's request (to destroy one) and Node's largest header size (read when a connection is
 * made). Both are read from node:http when first asked: a command against a remote platform
 * then goes without loading it (about 3 ms), as a request from books never has such a body.
 */
const undiciHttpLazily = {
  name: 'undici-http-lazily',
  setup(build) {
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]core[\\/]util\.js$/ }, (args) => ({
      contents: patched(args.path, readFileSync(args.path, 'utf8'), [
        ["const { IncomingMessage } = require('node:http')\n", ''],
        [
          'Object.getPrototypeOf(stream).constructor === IncomingMessage',
          "Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage",
        ],
      ]),
      loader: 'js',
    }));
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => ({
      contents: patched(args.path, readFileSync(args.path, 'utf8'), [
        ["const http = require('node:http')\n", ''],
        [
          'const getDefaultNodeMaxHeaderSize = http &&',
          "const getDefaultNodeMaxHeaderSize = () => { const http = require('node:http'); return (http &&",
        ],
        [
          "  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }",
          "  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') })() }",
        ],
      ]),
      loader: 'js',
    }));
  },
};

const common = {
  plugins: [
    commanderSpawnsLazily,
    sqliteAddonFromPackage,
    validatorsWritten,
    withoutHttp2,
    undiciHttpLazily,
  ],
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: a stack trace in a bug report keeps its function names.
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['bindings'],
  define: { BOOKS_VERSION: JSON.stringify(version) },
  logLevel: 'warning',
};

// A fresh directory: chunks and caches of an earlier build must not linger beside this one's.
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

// The sources one file each beside the bundle (dist/formats/reader.js runs its CSV thread from
// dist/formats/common/csvWorker.js; a test reads a ledger through them). Transpiled only: the
// types are checked by `npm run typecheck`, which `npm test` runs first (tsc emitting them again
// took two thirds of the build).
await build({
  entryPoints: readdirSync('src', { recursive: true })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join('src', file)),
  outdir: 'dist',
  outbase: 'src',
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
});

// Every route's validators as ajv writes them (src/platform/http/precompile.ts), made from the
// sources just transpiled, are the bundle's precompiledValidators.ts (see validatorsWritten):
// a command then neither makes an ajv instance nor compiles a schema.
const { precompiledValidatorSources } = await import(
  pathToFileURL(path.resolve('dist/platform/http/precompile.js')).href
);
const validatorSources = precompiledValidatorSources(
  path.resolve('src/platform/http/validationFormats.ts'),
);

// Every leaf's declaration (src/cli/declarations.ts), read from the leaves just transpiled:
// help and completion then show a leaf, or a group's leaves, without loading them. (A
// declaration's JSON leaves out its `run`.)
const { LEAVES } = await import(pathToFileURL(path.resolve('dist/cli/registry.js')).href);
const leafDeclarations = {};
for (const [key, load] of Object.entries(LEAVES)) leafDeclarations[key] = (await load()).command;
writeFileSync(path.join(OUT, 'leaves.json'), JSON.stringify(leafDeclarations));

const split = await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: OUT,
  splitting: true,
  format: 'esm',
  metafile: true,
  write: false,
});

/** `./chunk-X.js` as the chunks name each other, in the CommonJS chunks' names. */
const renamed = (file) => file.replace(/\.js$/, '.cjs');
const chunks = new Set(split.outputFiles.map((output) => path.basename(output.path)));
const cjsChunks = new Set([...chunks].map(renamed));
/** A chunk's name in another's code (not the CSV worker's, a file of its own). */
const chunkName = /(["'])\.\/([\w-]+\.js)\1/g;
const dynamicImport = /\bimport\((["'])([^"']+)\1\)/g;

for (const output of split.outputFiles) {
  const esm = output.text.replace(chunkName, (whole, quote, name) =>
    chunks.has(name) ? `${quote}./${renamed(name)}${quote}` : whole,
  );
  const { code } = await transform(esm, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    // esbuild said its warnings when it bundled (where it keeps quiet about dependencies').
    logLevel: 'error',
    // The chunk's own URL: bin/books.cjs passes it in (a CommonJS module has no import.meta).
    define: { 'import.meta.url': '__booksChunkUrl' },
  });
  // An import at run time becomes a require: of a chunk, the chunk (loaded, and cached, as the
  // static imports are); of anything else, its exports with the module as `default`, as an
  // ES module sees a CommonJS one. (Node 20 forgets a script's dynamic import callback when its
  // code comes from the cache: no import() may be left.) ES modules are strict; so are these.
  const cjs = `"use strict";${code.replace(dynamicImport, (_, quote, specifier) =>
    specifier.startsWith('./') && cjsChunks.has(specifier.slice(2))
      ? `Promise.resolve().then(()=>require(${quote}${specifier}${quote}))`
      : `Promise.resolve().then(()=>{const m=require(${quote}${specifier}${quote});return m&&m.__esModule?m:{...m,default:m}})`,
  )}`;
  if (/\bimport\(/.test(cjs)) {
    throw new Error(`${output.path}: an import() the build cannot make a require of`);
  }
  writeFileSync(renamed(output.path), cjs);
}

// Which sources each output file holds: the test that --version and --help load no platform
// code reads it.
const outputs = Object.fromEntries(
  Object.entries(split.metafile.outputs).map(([file, output]) => [renamed(file), output]),
);
writeFileSync(`${OUT}/meta.json`, JSON.stringify({ ...split.metafile, outputs }));

await build({
  ...common,
  entryPoints: { csvWorker: 'src/formats/common/csvWorker.ts' },
  outdir: OUT,
  format: 'esm',
  // CommonJS dependencies call require(); an ES module bundle has none of its own.
  banner: {
    js: "import { createRequire as __booksRequire } from 'node:module'; const require = __booksRequire(import.meta.url);",
  },
});

try {
  await makeCodeCaches();
} catch (error) {
  // The bundle runs without: each chunk is compiled as it loads (about a third slower a start).
  process.stderr.write(`books: no code cache made, commands will start slower: ${error.message}\n`);
}

/**
 * Runs the commands whose start a user waits on (help, the embedded platform's reads, the same
 * against `books serve`, and the server itself), each writing the code cache of every chunk it
 * loaded (BOOKS_CODE_CACHE=write); a chunk several load keeps the largest. In a HOME of its own,
 * removed after.
 */
async function makeCodeCaches() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'books-build-'));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    NO_COLOR: '1',
    BOOKS_CODE_CACHE: 'write',
  };
  const books = (args, extraEnv = {}) => {
    const result = spawnSync(process.execPath, ['bin/books.cjs', ...args], {
      env: { ...env, ...extraEnv },
      encoding: 'utf8',
    });
    if (result.status !== 0) {
      throw new Error(`books ${args.join(' ')} (making the code cache): ${result.stderr}`);
    }
  };
  try {
    books(['--version']);
    books(['--help']);
    books(['report', 'tb', '--help']);
    books(['__complete', 'bash', '--line', 'books coa ']);
    books(['workspace', 'list']);
    books(['workspace', 'create', 'Cache']);
    books(['sandbox', 'entity', 'create', 'Cache', '--start-date', '2026-01-01', '-w', 'Cache']);
    books(['use', '-w', 'Cache', '-e', 'Cache']);
    books(['coa', 'list']);
    books(['report', 'tb', '--from', '2026-01-01', '--to', '2026-12-31']);
    books(['transactions', 'list']);
    const token = 'books_org_build_4Kd9Qx7Lm2Pz8Rt5Vw3Ny6Bc1Hf0Js';
    const server = spawn(
      process.execPath,
      ['bin/books.cjs', 'serve', '--memory', '--port', '0', '--org-token', token],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const baseUrl = await new Promise((resolve, reject) => {
      let said = '';
      server.stderr.on('data', (chunk) => {
        said += chunk;
        const url = /listening on (http:\/\/\S+)/.exec(said)?.[1];
        if (url && said.includes('organization token')) resolve(url);
      });
      server.once('exit', () => reject(new Error(`books serve (making the code cache): ${said}`)));
    });
    const remote = { BOOKS_BASE_URL: baseUrl, BOOKS_TOKEN: token };
    books(['workspace', 'list'], remote);
    books(['workspace', 'create', 'Cache'], remote);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  if (!existsSync(`${OUT}/main.cjs.cache`) || statSync(`${OUT}/main.cjs.cache`).size === 0) {
    throw new Error('no code cache was made for the bundle');
  }
}
