// The bin's V8 code cache (src/cli/code-cache.ts), through the built CLI: written once, taken by V8
// on the next run (nothing rewritten), a damaged or stale file replaced or removed, and a cache that
// cannot be written never felt by the command.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const bundleDir = join(cliPath, '..');
const cacheOf = (home: string): string => join(home, '.agentlog', 'cache', 'code');

async function entries(home: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of await readdir(cacheOf(home))) out.set(name, (await stat(join(cacheOf(home), name))).mtimeMs);
  return out;
}

describe('the code cache', () => {
  it('is written by the first run, one file per chunk the command loaded, and taken as it is by the next', async () => {
    const home = await tempDir();
    const first = await runCli(['scan', '--json'], home);
    expect(first.code, first.stderr).toBe(0);
    const written = await entries(home);
    const chunks = new Set(await readdir(bundleDir));
    expect(written.size).toBeGreaterThan(5);
    for (const name of written.keys()) expect(chunks.has(name.replace(/\.js\..*$/, '.js')), name).toBe(true);

    const second = await runCli(['scan', '--json'], home);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // V8 accepted every file: a rejected one would have been written again at exit.
    expect(await entries(home)).toEqual(written);
  });

  it('replaces a damaged file, and the command neither fails nor says anything of it', async () => {
    const home = await tempDir();
    const clean = await runCli(['scan', '--json'], home);
    const [victim] = [...(await entries(home)).keys()].sort();
    if (victim === undefined) throw new Error('no cache written');
    const garbage = Buffer.from('not code, only bytes '.repeat(40));
    await writeFile(join(cacheOf(home), victim), garbage);

    const again = await runCli(['scan', '--json'], home);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(clean.stdout);
    const now = await readFile(join(cacheOf(home), victim));
    expect(now.equals(garbage)).toBe(false);
    expect(now.length).toBeGreaterThan(0);
  });

  it('removes the files of chunks no longer in the bundle, or of another build of one, when it next writes', async () => {
    const home = await tempDir();
    await mkdir(cacheOf(home), { recursive: true });
    const gone = 'chunk-GONE0000.js.100-1.0000abcd.v8';
    const main = await stat(cliPath);
    const olderMain = `main.js.${main.size + 1}-${Math.trunc(main.mtimeMs)}.0000abcd.v8`;
    for (const name of [gone, olderMain]) await writeFile(join(cacheOf(home), name), 'x');
    const r = await runCli(['scan', '--json'], home);
    expect(r.code, r.stderr).toBe(0);
    const names = [...(await entries(home)).keys()];
    expect(names).not.toContain(gone);
    expect(names).not.toContain(olderMain);
    expect(names.length).toBeGreaterThan(5);
  });

  it('runs the command as without it when the cache cannot be written', async () => {
    const home = await tempDir();
    const plain = await runCli(['scan', '--json'], home);
    const blocked = await tempDir();
    await mkdir(join(blocked, '.agentlog', 'cache'), { recursive: true });
    // A file where the cache's folder would be: nothing can be written under it.
    await writeFile(cacheOf(blocked), 'in the way');
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['scan', '--json'], blocked);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(plain.stdout.replaceAll(home, blocked)));
    }
  });
});
