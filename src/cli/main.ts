#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50 --initial-old-space-size=64
// The `agentlog` binary: builds the process context and runs one command. The shebang's V8 flags
// keep memory down at no cost in time (measured on the bench home, paired runs): a small young
// generation keeps a large `show` under 300 MiB; an old generation let grow by half its live size
// between full collections (V8's own rule allows up to 4x) keeps the garbage of a first `keep` from
// taking it to 320-345 MiB (now 242-251; its live heap stays under ~65 MiB) and a cold `index` from
// 253-262 to 211-220 MiB. Alone, that growth rule cost `tail` 25 ms of start-up; from a 64 MB first
// limit it costs nothing. Any V8 flag turns Node's own code cache away (~12 ms a start, paid since
// the first); more flags cost nothing more.
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
