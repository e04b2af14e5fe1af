// One session as a self-contained HTML file (issue 12 "export a session as one self-contained HTML
// file"): the export script and styles inlined, the record in a JSON data block that the script draws
// with the dashboard's components. No data is written into markup: the record is JSON escaped so no
// `<` survives, and a CSP allowing only these exact script and style bytes (by hash) and no network.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionRecord } from '../record/types.js';
import { HttpError } from './http-error.js';

export interface ExportAssets {
  script: string;
  style: string;
}

/** Reads the export bundle (dist/web-export) built by scripts/bundle-web.mjs. */
export async function loadExportAssets(dir: string): Promise<ExportAssets> {
  try {
    const [script, style] = await Promise.all([readFile(join(dir, 'export.js'), 'utf8'), readFile(join(dir, 'export.css'), 'utf8')]);
    return { script, style };
  } catch {
    throw new HttpError(503, 'export_unbuilt', 'the HTML export is not built: run npm run build');
  }
}

/** JSON that can sit inside a `<script type="application/json">`: no `<`, `>`, `&` or line separators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The whole file. Its fixed parts are literals; the record enters only through `scriptSafeJson`. */
export function exportHtml(record: SessionRecord, name: string | null, assets: ExportAssets): string {
  // The inlined bundle must not be able to end its own element early.
  if (/<\/(script|style)/i.test(assets.script) || /<\/style/i.test(assets.style))
    throw new HttpError(500, 'export_unsafe', 'the export bundle holds a closing tag and cannot be inlined');
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(assets.script)}`,
    `style-src ${sha256(assets.style)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>agentlog transcript</title>
<style>${assets.style}</style>
</head>
<body class="export">
<noscript>This transcript is drawn by the script inside this file: allow JavaScript to read it.</noscript>
<div id="app"></div>
<script type="application/json" id="agentlog-record">${scriptSafeJson({ record, name })}</script>
<script type="module">${assets.script}</script>
</body>
</html>
`;
}
