// The dashboard's files are served from memory, index.html naming the first API page as a preload.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { StaticSite } from './static-files.js';

async function site(): Promise<{ app: Hono; root: string }> {
  const root = await tempDir('agentlog-static-');
  await writeFile(join(root, 'index.html'), '<!doctype html>\n<html><head>\n<title>t</title>\n</head><body></body></html>\n');
  await writeFile(join(root, 'app-1.js'), 'export {};\n');
  await mkdir(join(root, 'sub'));
  await writeFile(join(root, 'sub', 'x.js'), 'nested');
  const s = new StaticSite(root, { preload: ['/api/sessions?limit=100&a="b"'] });
  const app = new Hono();
  app.get('*', (c) => s.serve(c));
  return { app, root };
}

describe('the static site', () => {
  it('serves index.html for page paths with the preload link, and assets by name', async () => {
    const { app, root } = await site();
    for (const path of ['/', '/s/claude_code/abc']) {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('<link rel="preload" href="/api/sessions?limit=100&amp;a=&quot;b&quot;" as="fetch" crossorigin>\n</head>');
    }
    const js = await app.request('/app-1.js');
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(await js.text()).toBe('export {};\n');
    // Built after the first read (a rebuild while serving): found once the folder is read again.
    await writeFile(join(root, 'app-2.js'), 'export const two = 2;\n');
    await new Promise((r) => setTimeout(r, 2100));
    expect(await (await app.request('/app-2.js')).text()).toBe('export const two = 2;\n');
  });

  it('sends hashed assets gzipped to a browser that takes gzip, cached for good; index.html is asked again each time', async () => {
    const { app, root } = await site();
    const script = `export const rows = [${'"a session row", '.repeat(200)}];\n`;
    await writeFile(join(root, 'chunk-AB12CD34.js'), script);
    const zipped = await app.request('/chunk-AB12CD34.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(zipped.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(script.length / 4);
    expect(gunzipSync(bytes).toString('utf8')).toBe(script);
    // A client that takes no gzip gets the bytes as they are.
    const plain = await app.request('/chunk-AB12CD34.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);
    // A name without esbuild's hash may change under the same name: kept a few minutes only.
    expect((await app.request('/app-1.js')).headers.get('cache-control')).toBe('max-age=300');
    expect((await app.request('/')).headers.get('cache-control')).toBe('no-cache');
  });

  it('warm() reads the folder before the first request (a restarted serve reads it before its sweep starts)', async () => {
    const root = await tempDir('agentlog-static-');
    await writeFile(join(root, 'index.html'), '<!doctype html>\n<html><head></head><body></body></html>\n');
    await writeFile(join(root, 'app-AB12CD34.js'), 'export {};\n');
    const s = new StaticSite(root);
    s.warm();
    await new Promise((r) => setTimeout(r, 200));
    // Gone from the disk after the warm read: still served, from memory.
    await rm(join(root, 'app-AB12CD34.js'));
    const app = new Hono();
    app.get('*', (c) => s.serve(c));
    expect(await (await app.request('/app-AB12CD34.js')).text()).toBe('export {};\n');
  });

  it('serves a file in a subfolder (the hub keeps its assets in one) and nothing outside the folder', async () => {
    const { app } = await site();
    expect((await app.request('/sub/x.js')).status).toBe(200);
    for (const path of ['/..%2Fetc%2Fpasswd.js', '/%2e%2e/x.js', '/.hidden.js', '/missing.js'])
      expect((await app.request(path)).status, path).toBe(404);
  });
});
