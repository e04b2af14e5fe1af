// Builds the web pages with esbuild:
// - dist/web: the dashboard (src/web/main.tsx), content-hashed assets and an index.html that loads
//   them by URL, with no inline script or style, so serve's CSP can forbid both;
// - dist/web-hub: the hub's web app (src/web/hub/main.tsx), laid out the same way;
// - dist/web-export: export.js and export.css, which `show --html` and the dashboard's export inline
//   into one self-contained file (src/server/export-html.ts).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const common = {
  bundle: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: process.env.WEB_MINIFY !== '0',
  sourcemap: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

function fresh(out) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
}

/**
 * A page served from its own folder: hashed assets and an index.html naming them. The app is split
 * (ESM chunks): the first script holds what draws the page's first view, the parts it loads with
 * `import()` come later as `chunk-*.js`; the chunks the first script imports statically are named
 * in index.html as modulepreloads, so they are fetched with it rather than after it is parsed.
 */
async function page(out, entryPoints, title) {
  fresh(out);
  const result = await build({
    ...common,
    entryPoints,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    outdir: out,
  });
  const outputs = result.metafile.outputs;
  const names = Object.keys(outputs).map((p) => basename(p));
  const scriptPath = Object.keys(outputs).find((p) => basename(p).startsWith('app-') && p.endsWith('.js'));
  const styles = names.filter((f) => f.endsWith('.css'));
  if (scriptPath === undefined) throw new Error(`bundle-web: esbuild wrote no app script into ${out}`);
  const script = basename(scriptPath);
  // Every chunk the first script needs before it runs, depth first (static imports only).
  const first = new Set();
  const visit = (p) => {
    for (const i of outputs[p]?.imports ?? []) {
      if (i.kind !== 'import-statement' || first.has(i.path)) continue;
      first.add(i.path);
      visit(i.path);
    }
  };
  visit(scriptPath);
  const preloads = [...first].map((p) => `<link rel="modulepreload" href="/${basename(p)}">\n`).join('');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
${styles.map((f) => `<link rel="stylesheet" href="/${f}">`).join('\n')}
<script type="module" src="/${script}"></script>
${preloads}</head>
<body>
<noscript>${title} needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`;
  writeFileSync(join(out, 'index.html'), html);
  // The servers list their folder to know what they may serve; keep nothing else there.
  for (const f of readdirSync(out)) if (!f.endsWith('.js') && !f.endsWith('.css') && f !== 'index.html') rmSync(join(out, f));
}

// main.tsx imports the styles: one stylesheet (app-*.css) blocks the first paint, not two.
await page('dist/web', { app: 'src/web/main.tsx' }, 'agentlog');
if (existsSync('src/web/hub/main.tsx')) await page('dist/web-hub', { app: 'src/web/hub/main.tsx' }, 'agentlog hub');

fresh('dist/web-export');
await build({ ...common, entryPoints: { export: 'src/web/export/main.tsx' }, entryNames: '[name]', outdir: 'dist/web-export' });
