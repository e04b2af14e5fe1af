// A keep killed with SIGKILL at random points, 50 times, while the vendor tree keeps growing: custody
// must stay readable after every kill and converge to the bytes a clean keep writes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { hasCorpus, repoRoot, tempDir } from '../../test/support/temp.js';
import { Catalog } from './catalog.js';
import { claudeHome, line, treeBytes } from './test-support/homes.js';

const distCustody = join(repoRoot, 'dist', 'custody', 'index.js');
const distReader = join(repoRoot, 'dist', 'agents', 'claude-code', 'reader.js');

function script(): string {
  return [
    `import { Catalog } from ${JSON.stringify(pathToFileURL(distCustody).href)};`,
    `import { claudeCodeReader } from ${JSON.stringify(pathToFileURL(distReader).href)};`,
    'const [claude, state] = process.argv.slice(2);',
    "const c = await Catalog.open({ stateRoot: state, agents: [{ reader: claudeCodeReader, homes: [claude] }], version: 'kill-test' });",
    // The parent starts its kill timer here, so kills land in the keep, not in Node's start-up.
    "process.stderr.write('go\\n');",
    'const started = Date.now();',
    'const r = await c.keep({ lockWaitMs: 30000 });',
    'process.stdout.write(JSON.stringify({ ...r.totals, ms: Date.now() - started }));',
  ].join('\n');
}

/** Runs the keep script; with `killAfter` sends SIGKILL that many ms after the keep began. */
function runKeep(
  scriptPath: string,
  claude: string,
  state: string,
  killAfter?: number,
): Promise<{ code: number | null; ms: number; out: string }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [scriptPath, claude, state], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (killAfter !== undefined && timer === undefined && out.includes('go\n'))
        timer = setTimeout(() => child.kill('SIGKILL'), killAfter);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: Date.now() - started, out });
    });
  });
}

/** A few MB of sessions in Claude Code's layout, some with sub-agents. */
async function grow(claude: string, sessions: number): Promise<string[]> {
  const made: string[] = [];
  for (let s = 0; s < sessions; s++) {
    const id = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const dir = join(claude, 'projects', `-work-p${s % 3}`);
    await mkdir(join(dir, id, 'subagents'), { recursive: true });
    const body = Array.from({ length: 400 }, (_, i) => line(i, { pad: 'x'.repeat(400 + ((i * 37) % 300)) })).join('\n');
    await writeFile(join(dir, `${id}.jsonl`), `${body}\n`);
    if (s % 2 === 0) {
      await writeFile(join(dir, id, 'subagents', 'agent-a1.jsonl'), `${body.slice(0, 20_000).split('\n').slice(0, -1).join('\n')}\n`);
      await writeFile(join(dir, id, 'subagents', 'agent-a1.meta.json'), '{"agentType":"general-purpose","toolUseId":"toolu_1"}');
    }
    made.push(join(dir, `${id}.jsonl`));
  }
  return made;
}

/**
 * What the vendor touched in a round gets that round's mtime (hours ago, a second apart): never racy
 * and never an earlier round's, so the keep manifest vouches for exactly the files left alone since.
 */
const base = Date.now() - 7_200_000;
async function stamp(mains: readonly string[], round: number): Promise<void> {
  const at = new Date(base + (round + 1) * 1000);
  for (const m of mains) {
    await utimes(m, at, at);
    const sub = join(m.slice(0, -'.jsonl'.length), 'subagents');
    if (existsSync(sub)) for (const f of await readdir(sub)) await utimes(join(sub, f), at, at);
  }
}

const custodyOwn = (rel: string): boolean =>
  rel.endsWith('.custody') ||
  rel.endsWith('.bak') ||
  rel.endsWith('.keep-tmp') ||
  rel === 'installation.json' ||
  rel === '.keep-manifest' ||
  rel === '.lock' ||
  rel.includes('.lock.stale-');

describe('keep killed at random points', () => {
  it.skipIf(!hasCorpus)(
    'always leaves custody readable and converges to a clean keep',
    async () => {
      // The global setup builds dist when it is older than src, so a missing build is a failure, not a skip.
      expect(existsSync(distCustody), 'run `npm run build` first: the child process imports dist/custody').toBe(true);
      const t = await claudeHome();
      const mains = await grow(t.claude, 14);
      await stamp(mains, -1);
      for (const p of ['-sample-project', '-subagent-demo'])
        for (const f of await readdir(join(t.claude, 'projects', p), { recursive: true }))
          await utimes(join(t.claude, 'projects', p, f), new Date(base), new Date(base));
      const scriptPath = join(await tempDir(), 'keep.mjs');
      await writeFile(scriptPath, script());
      const clean = await runKeep(scriptPath, t.claude, join(await tempDir(), 'probe-state'));
      expect(clean.code, clean.out).toBe(0);
      // Kills land anywhere from the start of a keep to past the end of a full first copy.
      const keepMs = (out: string): number => (JSON.parse(out.slice(out.indexOf('{'))) as { ms: number }).ms;
      let span = Math.max(20, keepMs(clean.out));
      let seed = 7;
      const random = (): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };

      let killed = 0;
      for (let round = 0; round < 50; round++) {
        // The vendor keeps writing: appends, and now and then a new session (copy) or a rewrite (refresh).
        const touched: string[] = [];
        for (const m of mains) {
          if (random() >= 0.4) continue;
          await appendFile(m, `${line(round, { more: 'y'.repeat(Math.floor(random() * 3000)) })}\n`);
          touched.push(m);
        }
        if (round % 10 === 5) {
          const made = await grow(join(t.claude), 1);
          touched.push(...made);
          mains.push(...made.filter((p) => !mains.includes(p)));
        }
        if (round % 17 === 3) {
          // A same-size rewrite: only its new mtime tells it apart.
          const target = mains[round % mains.length] as string;
          const text = await readFile(target, 'utf8');
          await writeFile(target, text.replace('"line 1"', '"LINE 1"'));
          touched.push(target);
        }
        await stamp(touched, round);
        const r = await runKeep(scriptPath, t.claude, t.state, Math.floor(random() * span));
        if (r.code === null) killed++;
        // A keep that finished shows how long keeps take now: the next kill lands within that.
        else span = Math.max(20, keepMs(r.out));
        expect([0, null], r.out).toContain(r.code);

        // Custody readable: every kept file is whole JSONL lines, a prefix of what the vendor holds now
        // (rewritten files aside), and every session reads back from the kept copy alone.
        const keptDir = join(t.state, 'kept');
        if (!existsSync(keptDir)) continue;
        const [key] = await readdir(keptDir);
        if (key === undefined) continue;
        const root = join(keptDir, key);
        const kept = await treeBytes(root, custodyOwn);
        for (const [rel, b64] of kept) {
          const bytes = Buffer.from(b64, 'base64');
          const vendor = await readFile(join(t.claude, rel));
          if (!vendor.subarray(0, bytes.length).equals(bytes)) {
            const backups = (await readdir(join(root, rel, '..'))).filter(
              (n) => n.startsWith(`${rel.split('/').at(-1) as string}.`) && n.endsWith('.bak'),
            );
            expect(backups.length + (rel.includes('-work-') ? 1 : 0), `${rel} is not a prefix of its vendor file`).toBeGreaterThan(0);
          }
        }
        const fromKept = await Catalog.open({
          stateRoot: join(t.home, 'unused'),
          agents: [{ reader: claudeCodeReader, homes: [root] }],
          version: 'x',
        });
        const found = await claudeCodeReader.discover(root);
        for (const s of found.sessions) {
          const page = await fromKept.lastEntries(s.sessionId, 5);
          expect(
            page.entries.every((e) => e.kind === 'json'),
            `${s.sessionId} round ${round}`,
          ).toBe(true);
        }
        // Facts and the installation record are published whole (a link of a complete temp) or not at all.
        for (const [rel, b64] of await treeBytes(root)) {
          if (rel.endsWith('.custody') || rel === 'installation.json' || rel === '.keep-manifest')
            expect(() => JSON.parse(Buffer.from(b64, 'base64').toString()), rel).not.toThrow();
        }
      }

      // Most runs die mid-keep; the rest finish, so both kinds of state are left for the next run.
      expect(killed).toBeGreaterThan(20);
      const last = await runKeep(scriptPath, t.claude, t.state);
      expect(last.code, last.out).toBe(0);
      const cleanState = join(await tempDir(), 'clean-state');
      const cleanRun = await runKeep(scriptPath, t.claude, cleanState);
      expect(cleanRun.code, cleanRun.out).toBe(0);
      const [key] = await readdir(join(t.state, 'kept'));
      const [cleanKey] = await readdir(join(cleanState, 'kept'));
      expect(key).toBe(cleanKey);
      const converged = await treeBytes(join(t.state, 'kept', key as string), custodyOwn);
      const reference = await treeBytes(join(cleanState, 'kept', cleanKey as string), custodyOwn);
      expect([...converged.keys()].sort()).toEqual([...reference.keys()].sort());
      for (const [rel, b] of reference) expect(converged.get(rel) === b, rel).toBe(true);
      const leftovers = [...(await treeBytes(join(t.state, 'kept'))).keys()].filter((r) => r.endsWith('.keep-tmp') || r.endsWith('.lock'));
      expect(leftovers).toEqual([]);
      // And one more keep is a no-op, vouched for by the manifest file by file (no mtime here is racy).
      const noop = await runKeep(scriptPath, t.claude, t.state);
      expect(JSON.parse(noop.out.slice(noop.out.indexOf('{')))).toMatchObject({ copied: 0, extended: 0, refreshed: 0, failed: 0 });
      const manifest = JSON.parse(await readFile(join(t.state, 'kept', key as string, '.keep-manifest'), 'utf8')) as {
        files: Record<string, unknown>;
      };
      expect(Object.keys(manifest.files).sort()).toEqual([...converged.keys()].sort());
      expect(relative(t.state, join(t.state, 'kept', key as string))).toBe(`kept/${key as string}`);
    },
    // 50 rounds of a spawned keep each: it took 142 s on a loaded machine (load ~20).
    300_000,
  );
});
