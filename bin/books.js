#!/usr/bin/env node
// The `books` command: a thin shim over the bundled CLI (esbuild.config.mjs).
import v8 from 'node:v8';

// undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it twice, quickly
// (Liftoff) and then optimized in the background, and a process waits at its exit for that
// second compile to end: 150 ms of every command against a remote platform, measured, for code
// that runs a few microseconds a request. Set before undici loads; the embedded platform never
// loads it.
v8.setFlagsFromString('--liftoff-only');
const { run } = await import('../dist/bundle/main.js');

await run();
