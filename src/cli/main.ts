#!/usr/bin/env -S node --max-semi-space-size=4
// The `agentlog` binary: builds the process context and runs one command. The small young
// generation (shebang flag) keeps a large `show` under 300 MiB at no cost in time (measured).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheCompiledCode } from './code-cache.js';
import { processContext } from './context.js';

const ctx = processContext();
// Before the commands load: their chunks then compile from the code cached by an earlier run.
cacheCompiledCode(dirname(fileURLToPath(import.meta.url)), join(ctx.stateRoot, 'cache', 'code'));
// No top-level await: the bundle is CommonJS, which has none (scripts/bundle.mjs); this import
// becomes a `require` there. `run` turns every error into an exit code, so it does not reject.
void import('./run.js')
  .then(({ run }) => run(process.argv.slice(2), ctx))
  .then((code) => {
    process.exitCode = code;
  });
