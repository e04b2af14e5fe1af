// The dashboard's built files (dist/web/) at `/`: index.html for `/` and for any page path the
// single-page app routes itself, assets by name; nothing outside the folder is ever served. The
// folder (a few hundred KB) is held in memory after its first read: a page load then touches no
// file, so it never queues behind a sweep's reads in libuv's small thread pool (a busy serve took
// seconds to send a 459-byte index.html that way, measured with bench/dashboard.mjs). Text files are
// gzipped once when read, and the hashed assets are cached by the browser for good.
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

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

/** A file's bytes as read (never a shared buffer, so a response can carry them as they are). */
type Bytes = Buffer<ArrayBuffer>;

/** A file held in memory, with its gzipped bytes when they are worth sending instead. */
interface Held {
  body: Bytes;
  gzipped: Bytes | null;
}

/** Text files smaller than this are sent as they are: gzip would save less than its header costs. */
const gzipFrom = 1024;
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.map', '.txt']);

/**
 * bundle-web names every asset `<name>-<hash>.<ext>` (esbuild's eight-character content hash): a
 * name never changes content, so the browser may keep it for good without asking again.
 */
const hashedName = /-[A-Z0-9]{8}\.(?:js|css)$/;

/**
 * Gzipped on the event loop, once per file (a few ms for the whole folder): zlib's async form would
 * queue in libuv's thread pool behind a sweep's reads, as the files themselves used to.
 */
function hold(name: string, body: Bytes): Held {
  if (body.length < gzipFrom || !compressible.has(extname(name))) return { body, gzipped: null };
  const gzipped = gzipSync(body, { level: 9 }) as Bytes;
  return { body, gzipped: gzipped.length < body.length ? gzipped : null };
}

/** A rebuild while serving renames the hashed assets: an unknown name reads the folder again, at most this often. */
const rereadMs = 2000;

export interface SiteOptions {
  /**
   * URLs the page fetches first (e.g. the session list's first page), named in index.html as
   * `<link rel="preload" as="fetch">` so the request leaves with the HTML instead of after the
   * script has loaded and run.
   */
  preload?: readonly string[];
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** index.html with the preload links at the end of its head. */
function withPreloads(html: Bytes, preload: readonly string[]): Bytes {
  if (preload.length === 0) return html;
  const text = html.toString('utf8');
  const at = text.indexOf('</head>');
  if (at === -1) return html;
  // `crossorigin` (anonymous) gives the preload the mode and credentials of the page's own
  // same-origin fetch(), without which the browser would not reuse it.
  const links = preload.map((u) => `<link rel="preload" href="${escapeAttr(u)}" as="fetch" crossorigin>\n`).join('');
  return Buffer.from(`${text.slice(0, at)}${links}${text.slice(at)}`, 'utf8');
}

/** The built folder's files by their path below it. */
export class StaticSite {
  private files: Promise<Map<string, Held>> | null = null;
  private readAt = 0;

  constructor(
    private readonly root: string | null,
    private readonly opts: SiteOptions = {},
  ) {}

  private load(): Promise<Map<string, Held>> {
    const root = this.root;
    this.readAt = Date.now();
    this.files = (async () => {
      const out = new Map<string, Held>();
      if (root === null) return out;
      // Names are the files' paths below the folder with `/` between parts (the hub's build keeps
      // its assets in a subfolder); only what this walk found can ever be served.
      const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const d of entries) {
          if (d.name.startsWith('.')) continue;
          if (d.isDirectory() && depth < 4) await walk(join(dir, d.name), `${prefix}${d.name}/`, depth + 1);
          if (!d.isFile()) continue;
          const body = await readFile(join(dir, d.name)).catch(() => null);
          if (body === null) continue;
          const name = `${prefix}${d.name}`;
          out.set(name, hold(name, name === 'index.html' ? withPreloads(body, this.opts.preload ?? []) : body));
        }
      };
      await walk(root, '', 0);
      return out;
    })();
    return this.files;
  }

  /** Reads the folder now (at start-up, before the first sweep's reads fill the thread pool). */
  warm(): void {
    if (this.files === null) void this.load();
  }

  private async file(name: string): Promise<Held | undefined> {
    const files = await (this.files ?? this.load());
    const hit = files.get(name);
    if (hit !== undefined || Date.now() - this.readAt < rereadMs) return hit;
    return (await this.load()).get(name);
  }

  /** Serves the folder; a missing build answers with a note on how to build it. */
  async serve(c: Context): Promise<Response> {
    const rel = decodeURIComponent(new URL(c.req.url).pathname);
    if (rel.includes('\u0000')) return c.notFound();
    const page = rel === '/' || extname(rel) === '';
    // An asset is looked up among the files the walk found, never opened by the name asked for, so
    // nothing outside the folder can be named.
    const name = page ? 'index.html' : rel.slice(1);
    const held = this.root === null ? undefined : await this.file(name);
    if (held === undefined) {
      if (page) return c.text('agentlog serve: the dashboard is not built (run `npm run build`); the API is under /api/', 200);
      return c.notFound();
    }
    c.header('Content-Type', types[extname(name)] ?? 'application/octet-stream');
    c.header(
      'Cache-Control',
      name === 'index.html' ? 'no-cache' : hashedName.test(name) ? 'public, max-age=31536000, immutable' : 'max-age=300',
    );
    if (held.gzipped === null) return c.body(held.body);
    c.header('Vary', 'Accept-Encoding');
    if (!/\bgzip\b/.test(c.req.header('Accept-Encoding') ?? '')) return c.body(held.body);
    c.header('Content-Encoding', 'gzip');
    return c.body(held.gzipped);
  }
}

const sites = new Map<string, StaticSite>();

/** Serves `webRoot` (null: the note on how to build it) through one held site per folder. */
export function serveStatic(c: Context, webRoot: string | null): Promise<Response> {
  let site = sites.get(webRoot ?? '');
  if (site === undefined) {
    site = new StaticSite(webRoot);
    sites.set(webRoot ?? '', site);
  }
  return site.serve(c);
}
