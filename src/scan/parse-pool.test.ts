import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { assistant, user, writeMain } from '../agents/claude-code/test-support/fixtures.js';
import type { DiscoveredSession } from '../agents/types.js';
import { ParsePool } from './parse-pool.js';
import { scan } from './scan.js';
import { summariseSession } from './summarise.js';

// The compiled worker (the global setup keeps dist current); the sources cannot run in a worker.
const workerFile = join(repoRoot, 'dist', 'scan', 'parse-worker.js');

const ids = ['aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000003'];

async function home(): Promise<{ claude: string; sessions: DiscoveredSession[] }> {
  const claude = join(await tempDir('agentlog-pool-'), '.claude');
  for (const [i, id] of ids.entries()) {
    await writeMain(
      claude,
      [user(`question ${i}`, i * 10, { sessionId: id }), assistant(`m${i}`, `answer ${i}`, i * 10 + 1, { sessionId: id })],
      id,
    );
  }
  const { sessions } = await claudeCodeReader.discover(claude);
  expect(sessions).toHaveLength(ids.length);
  return { claude, sessions };
}

/** A worker body file holding `lines` after the import of `parentPort`. */
async function workerBody(name: string, ...lines: string[]): Promise<string> {
  const file = join(await tempDir('agentlog-pool-worker-'), name);
  await writeFile(file, ["import { parentPort } from 'node:worker_threads';", ...lines, ''].join('\n'));
  return file;
}

const ready = 'parentPort.postMessage({ ready: true });';

/** A worker body that says it is ready, then exits on the first session it is sent, as a crashed worker would. */
const dyingWorker = () => workerBody('dying-worker.mjs', "parentPort.on('message', () => process.exit(3));", ready);

/** A worker body that says it is ready, then fills its heap on the first session it is sent. */
const greedyWorker = () =>
  workerBody(
    'greedy-worker.mjs',
    'const kept = [];',
    "parentPort.on('message', () => { for (;;) kept.push(new Array(100000).fill(kept.length)); });",
    ready,
  );

/** A worker body that never finishes loading (never says it is ready). */
const stuckWorker = () => workerBody('stuck-worker.mjs', "parentPort.on('message', () => process.exit(3));");

describe('ParsePool', () => {
  it('starts only past its threshold, and only with a compiled worker', () => {
    expect(ParsePool.create(1000, { workerFile, minBytes: 1001, workers: 2 })).toBeNull();
    expect(ParsePool.create(1000, { workerFile: join(repoRoot, 'no-such-worker.js'), minBytes: 0, workers: 2 })).toBeNull();
  });

  it('summarises on worker threads exactly as the calling thread does', async () => {
    const { sessions } = await home();
    const pool = ParsePool.create(1, { workerFile, minBytes: 0, workers: 2 });
    expect(pool?.alive).toBe(2);
    try {
      const viaPool = await Promise.all(sessions.map((s) => pool?.summarise(claudeCodeReader, s, '/nobody')));
      const inProcess = await Promise.all(sessions.map((s) => summariseSession(claudeCodeReader, s, '/nobody')));
      expect(viaPool).toEqual(inProcess);
      expect(viaPool.map((s) => s?.row?.session_id)).toEqual(ids);
    } finally {
      await pool?.close();
    }
  });

  it('one worker reads every session in turn', async () => {
    const { sessions } = await home();
    const pool = ParsePool.create(1, { workerFile, minBytes: 0, workers: 1 });
    try {
      const viaPool = await Promise.all(sessions.map((s) => pool?.summarise(claudeCodeReader, s, '/nobody')));
      expect(viaPool.map((s) => s?.row?.session_id)).toEqual(ids);
      expect(pool?.alive).toBe(1);
    } finally {
      await pool?.close();
    }
  });

  it('scan lists the same sessions through the pool as without it', async () => {
    const { claude } = await home();
    const base = { agents: [{ reader: claudeCodeReader, homes: [claude] }], stateRoot: null, userHome: null, readerVersion: 't' };
    const pooled = await scan({ ...base, parsePool: { workerFile, minBytes: 0, workers: 2 } });
    const plain = await scan({ ...base, parsePool: { minBytes: Number.POSITIVE_INFINITY } });
    expect(pooled.sessions.map((r) => r.session_id).sort()).toEqual([...ids].sort());
    expect(pooled.sessions).toEqual(plain.sessions);
  });

  it('scan never waits on a worker that has not loaded: the calling thread reads every session', async () => {
    const { claude } = await home();
    const base = { agents: [{ reader: claudeCodeReader, homes: [claude] }], stateRoot: null, userHome: null, readerVersion: 't' };
    const report = await scan({ ...base, parsePool: { workerFile: await stuckWorker(), minBytes: 0, workers: 2 } });
    expect(report.sessions.map((r) => r.session_id).sort()).toEqual([...ids].sort());
    expect(report.unreadable).toEqual([]);
  });

  it("a session that outgrows a worker's heap is read on the calling thread, not failed", async () => {
    const { sessions } = await home();
    const pool = ParsePool.create(1, { workerFile: await greedyWorker(), minBytes: 0, workers: 1, workerHeapMb: 8 });
    try {
      const viaPool = await Promise.all(sessions.map((s) => pool?.summarise(claudeCodeReader, s, '/nobody')));
      const inProcess = await Promise.all(sessions.map((s) => summariseSession(claudeCodeReader, s, '/nobody')));
      expect(viaPool).toEqual(inProcess);
    } finally {
      await pool?.close();
    }
  });

  it('when every worker dies, fails the sessions they held with a clear error and reads the rest in process', async () => {
    const { sessions } = await home();
    const extra = sessions[0] as DiscoveredSession;
    const pool = ParsePool.create(1, { workerFile: await dyingWorker(), minBytes: 0, workers: 2 });
    try {
      const outcomes = await Promise.allSettled([...sessions, extra].map((s) => pool?.summarise(claudeCodeReader, s, null)));
      const failed = outcomes.filter((o) => o.status === 'rejected');
      expect(failed).toHaveLength(2);
      for (const f of failed) expect(String(f.reason)).toMatch(/a reading worker stopped \(exit code 3\) while reading .*\.jsonl/);
      const read = outcomes.flatMap((o) => (o.status === 'fulfilled' && o.value !== undefined ? [o.value] : []));
      expect(read).toHaveLength(2);
      for (const s of read) expect(ids).toContain(s.row?.session_id);
      expect(pool?.alive).toBe(0);
    } finally {
      await pool?.close();
    }
  });
});
