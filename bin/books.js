#!/usr/bin/env node
// The `books` command: a thin shim over the compiled CLI.
import { run } from '../dist/cli/main.js';

await run();
