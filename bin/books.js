#!/usr/bin/env node
// The `books` command: a thin shim over the bundled CLI (esbuild.config.mjs).
import { run } from '../dist/bundle/main.js';

await run();
