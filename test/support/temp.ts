// Temporary folders that clean themselves up, and the shared corpus of real agent logs.
import { chmod, cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { corpusPath } from './corpus.js';

export { repoRoot } from './repo-root.js';
export { corpusPath, corpusRoot, hasCorpus } from './corpus.js';

const made: string[] = [];
afterEach(async () => {
  while (made.length > 0) {
    const dir = made.pop() as string;
    await rm(dir, { recursive: true, force: true });
  }
});

/** A fresh temporary folder removed after the current test. */
export async function tempDir(prefix = 'agentlog-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Gives the owner write access to a copied tree (the corpus itself is read-only). */
async function makeWritable(path: string): Promise<void> {
  const s = await stat(path);
  await chmod(path, (s.mode & 0o777) | 0o200 | (s.isDirectory() ? 0o100 : 0));
  if (s.isDirectory()) for (const name of await readdir(path)) await makeWritable(join(path, name));
}

/** Copies a corpus file or folder to `dest` (creating parents); the corpus is read-only, copies are not. */
export async function copyCorpus(rel: string, dest: string): Promise<string> {
  await mkdir(dirname(dest), { recursive: true });
  await cp(corpusPath(rel), dest, { recursive: true });
  await makeWritable(dest);
  return dest;
}
