// Crash safety against the built CLI: `agentlog index` killed with SIGKILL at random points leaves
// a store that opens and converges; two indexers at once never corrupt it.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../../test/support/cli.js';
import { tempDir } from '../../test/support/temp.js';
import { readManifest, generationPath } from './store.js';
import { parseSegment } from './segment.js';
import { sweep } from './sweep.js';
import { claudeAgents, minutes, testStore, writeSession } from './test-support/claude-home.js';

const sid = (n: number): string => `${String(n).padStart(8, '0')}-2222-4333-8444-555555555555`;

function env(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AGENTLOG_HOME: join(home, '.agentlog'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
}

function indexer(home: string): { done: Promise<number | null>; kill: () => void } {
  const child = spawn(process.execPath, [cliPath, 'index', '--window-days', '0'], { env: env(home), stdio: 'ignore' });
  return { done: new Promise((resolve) => child.on('close', (code) => resolve(code))), kill: () => child.kill('SIGKILL') };
}

async function makeHome(sessions: number): Promise<string> {
  const home = await tempDir();
  for (let i = 1; i <= sessions; i++) {
    await writeSession(
      home,
      sid(i),
      Array.from({ length: 120 }, (_, k) => ({
        role: (k % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
        text: `session ${i} message ${k} ${'lorem ipsum dolor '.repeat(20)}`,
        ago: minutes(1000 - k),
      })),
      `-p${i % 7}`,
    );
  }
  return home;
}

/** The store opens: a manifest that parses (or none yet) whose every generation file parses. */
async function assertOpens(root: string): Promise<Record<string, string[]>> {
  const read = await readManifest(root);
  expect(read.state === 'ok' || read.state === 'missing').toBe(true);
  const out: Record<string, string[]> = {};
  if (read.state !== 'ok') return out;
  for (const [key, e] of Object.entries(read.manifest.sessions)) {
    out[key] = e.segments.map((s) => s.file);
    for (const s of e.segments) expect(parseSegment(s.file, await readFile(generationPath(root, s.file)))).not.toBeNull();
  }
  return out;
}

describe('crash safety', () => {
  it('survives 50 SIGKILLs at random points and converges to a clean build', async () => {
    const home = await makeHome(40);
    const root = testStore(home);
    // How long one full build takes here, to spread the kills over it.
    const probeHome = await makeHome(40);
    const t0 = performance.now();
    expect(await indexer(probeHome).done).toBe(0);
    const buildMs = performance.now() - t0;
    for (let i = 0; i < 50; i++) {
      const run = indexer(home);
      setTimeout(run.kill, Math.random() * buildMs);
      await run.done;
      await assertOpens(root);
    }
    const r = await sweep({ root, agents: claudeAgents(home), windowDays: 0 });
    expect(r.failed).toEqual([]);
    const converged = await assertOpens(root);
    const cleanRoot = join(await tempDir(), 'clean');
    await sweep({ root: cleanRoot, agents: claudeAgents(home), windowDays: 0 });
    const clean = await assertOpens(cleanRoot);
    expect(Object.keys(converged).length).toBe(40);
    // Content-named generations: the same sessions give the very same files.
    expect(converged).toEqual(clean);
  }, 120_000);

  it('two indexers at once never corrupt the store', async () => {
    const home = await makeHome(20);
    const a = indexer(home);
    const b = indexer(home);
    expect(await a.done).toBe(0);
    expect(await b.done).toBe(0);
    const sessions = await assertOpens(testStore(home));
    expect(Object.keys(sessions).length).toBe(20);
  }, 60_000);
});
