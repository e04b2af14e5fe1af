// Bundles the CLI (and its workers) into dist/cli after `tsc`: a few CommonJS chunks start in about
// a third of the time the ~250 separate ES modules take to load. The library stays as tsc emits it
// (ES modules), without src/cli and src/mcp, which only the CLI runs (tsconfig.build.json).
import { build, transform } from 'esbuild';
import { chmodSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * How `import.meta.url` reads in the CommonJS output: the URL of the file it is in, as in the ES
 * modules it was bundled from (the CLI finds its workers, package.json, web assets and the hub's
 * migrations beside it). Strict mode, which ES modules have without asking, stays.
 */
const importMetaUrl = '__agentlogImportMetaUrl';
const cjsBanner = `"use strict";\nvar ${importMetaUrl} = require('node:url').pathToFileURL(__filename).href;`;

const common = {
  plugins: [zodEnglishOnly],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addon: loaded from node_modules at run time, never bundled.
  // pg-native: pg's optional native binding, never used (pg's JavaScript client is).
  external: ['better-sqlite3', 'pg-native'],
  logLevel: 'warning',
  define: { 'import.meta.url': importMetaUrl },
  write: false,
};

/**
 * Bundles with esbuild's code splitting (which only ES modules output has), then turns each file
 * into CommonJS, a dynamic `import()` of another chunk into a lazy `require`. Node loads CommonJS
 * without starting its ES module loader, which reads each module through a promise and links it
 * asynchronously: on this project's 2-core bench machine that was ~25 ms of every command (`tail`
 * loads ~48 chunks), measured in paired runs (CPU medians): tail -24 ms, show --detail summary -26,
 * --version -17. The chunks stay the same graph, so no module's state is duplicated. No source
 * maps: esbuild's transform cannot chain the bundle's map, and the output is left unminified to
 * read a stack trace by.
 */
async function bundleCommonJs(options) {
  const result = await build({ ...common, ...options });
  for (const file of result.outputFiles) {
    // The entry's shebang (src/cli/main.ts: the bin's V8 flag) goes before the banner, which must not.
    const shebang = /^#!.*\n/.exec(file.text)?.[0] ?? '';
    const cjs = await transform(file.text.slice(shebang.length), {
      format: 'cjs',
      loader: 'js',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      banner: cjsBanner,
    });
    writeFileSync(file.path, shebang + cjs.code);
  }
}

// The bundle owns dist/cli (tsc leaves src/cli out of the library build): a folder of CommonJS files.
rmSync('dist/cli', { recursive: true, force: true });
mkdirSync('dist/cli', { recursive: true });
writeFileSync('dist/cli/package.json', '{ "type": "commonjs" }\n');

// Split: the server and the MCP SDK load only for `serve` and `mcp` (dynamic imports), so the
// everyday commands compile a smaller file at start-up.
await bundleCommonJs({ entryPoints: { main: 'src/cli/main.ts' }, outdir: 'dist/cli', splitting: true, chunkNames: '[name]-[hash]' });
// parse-pool resolves its worker beside the module that runs it: dist/cli/ for the bundle. Split too,
// so what its readers load only when asked (Intendant's name writer, which brings zod) stays out of
// the file every worker compiles before it reads a session.
await bundleCommonJs({
  entryPoints: { 'parse-worker': 'src/scan/parse-worker.ts' },
  outdir: 'dist/cli',
  splitting: true,
  chunkNames: '[name]-[hash]',
});
// The index sweep reads a large session in a worker, so a signal stops it at once (extract-off-thread.ts).
await bundleCommonJs({ entryPoints: ['src/search/extract-worker.ts'], outfile: 'dist/cli/extract-worker.js' });
chmodSync('dist/cli/main.js', 0o755);
// The hub's migrations are plain SQL files read at run time (src/hub/migrations.ts finds them here).
for (const dialect of ['sqlite', 'postgres'])
  cpSync(`src/hub/${dialect}/migrations`, `dist/hub/${dialect}/migrations`, {
    recursive: true,
    filter: (f) => !f.includes('.') || f.endsWith('.sql'),
  });
