// Builds the dashboard (src/web/main.tsx and its CSS) into dist/web/: content-hashed assets and an
// index.html that loads them by URL, with no inline script or style, so the server's CSP can forbid both.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const out = 'dist/web';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: { app: 'src/web/main.tsx', style: 'src/web/styles.css' },
  bundle: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: process.env.WEB_MINIFY !== '0',
  sourcemap: false,
  legalComments: 'none',
  entryNames: '[name]-[hash]',
  outdir: out,
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const script = outputs.find((f) => f.startsWith('app-') && f.endsWith('.js'));
const styles = outputs.filter((f) => f.endsWith('.css'));
if (script === undefined) throw new Error('bundle-web: esbuild wrote no app script');

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>agentlog</title>
${styles.map((f) => `<link rel="stylesheet" href="/${f}">`).join('\n')}
<script type="module" src="/${script}"></script>
</head>
<body>
<noscript>agentlog's dashboard needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`;
writeFileSync(join(out, 'index.html'), html);
// The server lists dist/web to know what it may serve; keep nothing else there.
for (const f of readdirSync(out)) if (!f.endsWith('.js') && !f.endsWith('.css') && f !== 'index.html') rmSync(join(out, f));
