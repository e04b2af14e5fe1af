// Vitest global setup: builds `dist` when it is older than `src` (end-to-end tests spawn the built
// CLI, so they must never run an old build), and says once where the real-log corpus goes.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpusHint, corpusRequired, corpusRoot, hasCorpus } from './corpus.js';
import { repoRoot } from './repo-root.js';

/** The newest modification time of what the build reads (sources, build scripts, configuration). */
function newestInput(): number {
  let newest = 0;
  const visit = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) visit(path);
      else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  visit(join(repoRoot, 'src'));
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json', join('scripts', 'bundle.mjs')])
    newest = Math.max(newest, statSync(join(repoRoot, f)).mtimeMs);
  return newest;
}

/** The outputs end-to-end tests load; the bundle is written last, so its time is the build's. */
const outputs = [join('dist', 'index.js'), join('dist', 'cli', 'main.js'), join('dist', 'cli', 'parse-worker.js')];

/** True when any output is missing or older than the newest input. */
export function buildIsStale(): boolean {
  const inputs = newestInput();
  return outputs.some((f) => {
    const path = join(repoRoot, f);
    return !existsSync(path) || statSync(path).mtimeMs < inputs;
  });
}

export function setup(): void {
  if (!hasCorpus) {
    if (corpusRequired)
      throw new Error(`AGENTLOG_REQUIRE_CORPUS=1 but there is no corpus at ${corpusRoot}: the real-log tests would be skipped`);
    console.warn(corpusHint);
  }
  if (buildIsStale()) {
    console.warn('dist is older than src: building once (npm run build) before the tests');
    const built = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`npm run build failed, so the end-to-end tests cannot run:\n${built.stdout}${built.stderr}`);
  }
}
