// The dashboard's built files (dist/web/) at `/`: index.html for `/` and for any page path the
// single-page app routes itself, assets by name; nothing outside the folder is ever served.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { Context } from 'hono';
import { isInside } from '../custody/safe-fs.js';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

async function fileAt(root: string, rel: string): Promise<string | null> {
  const path = normalize(join(root, rel));
  if (!isInside(root, path) && path !== root) return null;
  const st = await stat(path).catch(() => null);
  return st?.isFile() === true ? path : null;
}

/** Serves `webRoot`; a missing build answers with a note on how to build it. */
export async function serveStatic(c: Context, webRoot: string | null): Promise<Response> {
  const rel = decodeURIComponent(new URL(c.req.url).pathname);
  if (rel.includes('\u0000')) return c.notFound();
  const root = webRoot ?? '';
  const direct = webRoot === null || rel === '/' ? null : await fileAt(root, rel.slice(1));
  const path = direct ?? (webRoot === null || extname(rel) !== '' ? null : await fileAt(root, 'index.html'));
  if (path === null) {
    if (rel === '/' || extname(rel) === '')
      return c.text('agentlog serve: the dashboard is not built (run `npm run build`); the API is under /api/', 200);
    return c.notFound();
  }
  const body = await readFile(path);
  c.header('Content-Type', types[extname(path)] ?? 'application/octet-stream');
  c.header('Cache-Control', path.endsWith('index.html') ? 'no-cache' : 'max-age=300');
  return c.body(body);
}
