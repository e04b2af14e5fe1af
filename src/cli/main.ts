#!/usr/bin/env -S node --max-semi-space-size=4
// The `agentlog` binary: builds the process context and runs one command. The small young
// generation (shebang flag) keeps a large `show` under 300 MiB at no cost in time (measured).
import { processContext } from './context.js';
import { run } from './run.js';

// No top-level await: the bundle is CommonJS, which has none (scripts/bundle.mjs). `run` turns every
// error into an exit code, so it does not reject.
void run(process.argv.slice(2), processContext()).then((code) => {
  process.exitCode = code;
});
