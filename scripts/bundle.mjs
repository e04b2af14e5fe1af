// Bundles the CLI (and its scan worker) into single files after `tsc`: the command starts in about a
// third of the time the ~250 separate ES modules take to load. The library stays as tsc emits it.
import { build } from 'esbuild';
import { chmodSync, cpSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

// zod's namespace (`z`) re-exports every locale as `z.locales`, so a bundle that uses `z` keeps all
// ~40 of them (368 KB of the 755 KB zod chunk), compiled by every command that loads zod. We never
// call `z.config(z.locales.xx())`; zod itself imports English (its default) from `locales/en.js`
// directly. So the locales index resolves to a module that offers English alone.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), args.path), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
    }));
  },
};

const common = {
  plugins: [zodEnglishOnly],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addon: loaded from node_modules at run time, never bundled.
  // pg-native: pg's optional native binding, never used (pg's JavaScript client is).
  external: ['better-sqlite3', 'pg-native'],
  sourcemap: true,
  logLevel: 'warning',
  // ESM output has no `require`; a bundled CommonJS dependency may still call it.
  banner: {
    js: "import { createRequire as __agentlogCreateRequire } from 'node:module'; const require = __agentlogCreateRequire(import.meta.url);",
  },
};

// Chunks of an earlier build (their names carry a content hash) would pile up beside the new ones.
for (const f of readdirSync('dist/cli')) if (/^[a-z-]+-[A-Z0-9]{8}\.js(\.map)?$/.test(f)) rmSync(`dist/cli/${f}`);

// Split: the server and the MCP SDK load only for `serve` and `mcp` (dynamic imports), so the
// everyday commands compile a smaller file at start-up.
await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli',
  splitting: true,
  chunkNames: '[name]-[hash]',
});
// parse-pool resolves its worker beside the module that runs it: dist/cli/ for the bundle. Split too,
// so what its readers load only when asked (Intendant's name writer, which brings zod) stays out of
// the file every worker compiles before it reads a session.
await build({
  ...common,
  entryPoints: { 'parse-worker': 'src/scan/parse-worker.ts' },
  outdir: 'dist/cli',
  splitting: true,
  chunkNames: '[name]-[hash]',
});
// The index sweep reads a large session in a worker, so a signal stops it at once (extract-off-thread.ts).
await build({ ...common, entryPoints: ['src/search/extract-worker.ts'], outfile: 'dist/cli/extract-worker.js' });
chmodSync('dist/cli/main.js', 0o755);
// The hub's migrations are plain SQL files read at run time (src/hub/migrations.ts finds them here).
for (const dialect of ['sqlite', 'postgres'])
  cpSync(`src/hub/${dialect}/migrations`, `dist/hub/${dialect}/migrations`, {
    recursive: true,
    filter: (f) => !f.includes('.') || f.endsWith('.sql'),
  });
