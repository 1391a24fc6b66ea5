#!/usr/bin/env node
// The `books` command: a thin shim over the bundled CLI (esbuild.config.mjs), which it loads
// chunk by chunk with V8's code cache made at build time.
// CommonJS, as the chunks are: an ES module entry starts Node's ES module loader, about 4 ms.
'use strict';
const { existsSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const process = require('node:process');
const { pathToFileURL } = require('node:url');
const { debuglog } = require('node:util');
const v8 = require('node:v8');
const vm = require('node:vm');

// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice, quickly
// (Liftoff) and then optimized in the background, and a process waits at its exit for that
// second compile to end: 150 ms of every command against a remote platform, measured, for code
// that runs a few microseconds a request. Set before undici loads; the embedded platform never
// loads it. (Set before any chunk compiles, too: a code cache holds the flags it was made with.)
v8.setFlagsFromString('--liftoff-only');

const bundle = path.join(__dirname, '../dist/bundle');
/** The bundle's URL, once: a chunk's is it and the chunk's name (letters, digits, -, .). */
const bundleUrl = pathToFileURL(bundle).href;
/** What the chunks require that is not a chunk: Node's modules and the dependencies outside. */
const outside = createRequire(path.join(bundle, 'main.cjs'));
const loaded = new Map();
/**
 * `NODE_DEBUG=books` says which chunk each command loads, whether its cache was used, and what
 * it requires from outside the bundle (a dependency such as better-sqlite3).
 */
const trace = debuglog('books');
const writeCaches = process.env.BOOKS_CODE_CACHE === 'write';
const compiled = [];

/** A chunk's code cache, or undefined where the build made none (one read, no stat first). */
function cacheOf(cacheFile) {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/** One chunk, as CommonJS loads a module: run once, its exports kept. */
function chunk(name) {
  let module = loaded.get(name);
  if (module) return module.exports;
  module = { exports: {} };
  loaded.set(name, module);
  const file = path.join(bundle, name);
  const cacheFile = `${file}.cache`;
  const cachedData = writeCaches ? undefined : cacheOf(cacheFile);
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, __booksChunkUrl) {${readFileSync(file, 'utf8')}\n})`,
    { filename: file, cachedData },
  );
  trace(
    '%s %s',
    name,
    cachedData ? (script.cachedDataRejected ? 'cache turned down' : 'cached') : 'compiled',
  );
  if (writeCaches) compiled.push({ cacheFile, script });
  const require = (id) => {
    if (id.startsWith('./')) return chunk(id.slice(2));
    if (!id.startsWith('node:')) trace('%s requires %s', name, id);
    return outside(id);
  };
  require.resolve = outside.resolve;
  script
    .runInThisContext()
    .call(module.exports, module.exports, require, module, file, bundle, `${bundleUrl}/${name}`);
  return module.exports;
}

if (writeCaches) {
  // After the command: a chunk's cache then holds every function the command ran. The largest
  // of the build's commands' is kept.
  process.on('exit', () => {
    for (const { cacheFile, script } of compiled) {
      const data = script.createCachedData();
      if (!existsSync(cacheFile) || statSync(cacheFile).size < data.length) {
        writeFileSync(cacheFile, data);
      }
    }
  });
}

chunk('main.cjs').run();
