// Ctrl-C and SIGTERM stop `keep --all` and `index` mid-run: exit 130 / 143, no lock left, what was
// done is whole (a copy in progress rolled back), and the next run converges. The signal is sent when
// the run is seen to be under way (a file it writes appears), never after a measured delay: on a
// loaded machine a delay lands before the handlers are set or after the run has ended. How long a
// stop takes is the bench's to measure (bench/rss.mjs: 300 MB session); these tests print it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, cliPath, runCli } from '../../../test/support/cli.js';
import { tempDir } from '../../../test/support/temp.js';

/** A Claude Code home of `sessions` sessions, `lines` lines each (~430 bytes a line). */
async function bigHome(sessions: number, lines: number): Promise<string> {
  const home = await tempDir('agentlog-signal-');
  for (let s = 0; s < sessions; s++) {
    const id = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const dir = join(home, '.claude', 'projects', `-work-p${s % 7}`);
    await mkdir(dir, { recursive: true });
    const body = Array.from({ length: lines }, (_, i) =>
      JSON.stringify({
        type: i % 2 === 0 ? 'user' : 'assistant',
        uuid: `u${s}-${i}`,
        sessionId: id,
        cwd: `/work/p${s % 7}`,
        timestamp: new Date(Date.now() - (sessions - s) * 60_000 + i).toISOString(),
        message: { role: i % 2 === 0 ? 'user' : 'assistant', content: `session ${s} line ${i} ${'lorem ipsum dolor '.repeat(20)}` },
      }),
    ).join('\n');
    await writeFile(join(dir, `${id}.jsonl`), `${body}\n`);
  }
  return home;
}

/** Files under `dir` (relative paths) with their sizes; none when it is missing or changing under the walk. */
function filesUnder(dir: string): { path: string; size: number }[] {
  if (!existsSync(dir)) return [];
  const out: { path: string; size: number }[] = [];
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
  for (const path of names) {
    try {
      const st = statSync(join(dir, path));
      if (st.isFile()) out.push({ path, size: st.size });
    } catch {
      // Renamed or removed between the listing and the stat.
    }
  }
  return out;
}

interface Stopped {
  code: number | null;
  /** From the signal to the exit. */
  stopMs: number;
  /** Whether the trigger was seen (and the signal sent) before the run ended. */
  sent: boolean;
  stderr: string;
}

/** A run that outlives this is killed and fails its test (a stop that never comes is a hang, not slowness). */
const hangMs = 120_000;

/**
 * Runs the CLI and sends `signal` once `ready(files under the state root)` holds: the run is then
 * known to be under way, past start-up. Times the stop.
 */
function interruptWhen(
  args: readonly string[],
  home: string,
  signal: NodeJS.Signals,
  ready: (files: { path: string; size: number }[]) => boolean,
): Promise<Stopped> {
  return new Promise((resolve, reject) => {
    const state = join(home, '.agentlog');
    const child = spawn(process.execPath, [cliPath, ...args], { env: cliEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let sentAt = 0;
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const poll = setInterval(() => {
      if (sentAt !== 0 || !ready(filesUnder(state))) return;
      sentAt = performance.now();
      child.kill(signal);
      clearInterval(poll);
    }, 5);
    const guard = setTimeout(() => child.kill('SIGKILL'), hangMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(guard);
      resolve({ code, stopMs: sentAt === 0 ? -1 : performance.now() - sentAt, sent: sentAt !== 0, stderr });
    });
  });
}

/** Lock files and keep temps left under the state root. */
function leftovers(home: string): string[] {
  return filesUnder(join(home, '.agentlog'))
    .map((f) => f.path)
    .filter((p) => /(^|\/)(\.lock|writer\.lock)$/.test(p) || p.endsWith('.keep-tmp'));
}

const codes = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const;

const keepTemp = (f: { path: string }): boolean => f.path.endsWith('.keep-tmp');
const writerLock = (f: { path: string }): boolean => /(^|\/)writer\.lock$/.test(f.path);

function report(what: string, r: Stopped): void {
  process.stderr.write(`${what}: stopped ${Math.round(r.stopMs)} ms after the signal\n`);
}

describe('a signal mid-run', () => {
  it.skipIf(!existsSync(cliPath))(
    'stops keep --all (SIGINT: 130, SIGTERM: 143) once copies are under way, leaves no lock or temp, and a rerun converges',
    { timeout: 300_000 },
    async () => {
      const home = await bigHome(400, 300);
      for (const [signal, code] of codes) {
        await rm(join(home, '.agentlog'), { recursive: true, force: true });
        const r = await interruptWhen(['keep', '--all'], home, signal, (files) => files.some(keepTemp));
        expect(r.sent, `the run ended before a copy was seen: ${r.stderr}`).toBe(true);
        report(`keep --all of 400 sessions, ${signal}`, r);
        expect(r.code, r.stderr).toBe(code);
        expect(leftovers(home)).toEqual([]);
      }
      // The stop left sessions to copy; the next keep copies them, and the one after has nothing to do.
      const again = await runCli(['keep', '--all', '--json'], home);
      expect(again.code, again.stderr).toBe(0);
      expect((JSON.parse(again.stdout) as { totals: Record<string, number> }).totals.copied).toBeGreaterThan(0);
      const rerun = await runCli(['keep', '--all', '--json'], home);
      const totals = (JSON.parse(rerun.stdout) as { totals: Record<string, number> }).totals;
      expect(totals.failed).toBe(0);
      expect(totals.copied ?? 0).toBe(0);
    },
  );

  it.skipIf(!existsSync(cliPath))(
    'stops index (SIGINT: 130, SIGTERM: 143) once it holds the writer lock, leaves no lock, and a rerun converges',
    { timeout: 300_000 },
    async () => {
      const home = await bigHome(400, 300);
      for (const [signal, code] of codes) {
        await rm(join(home, '.agentlog'), { recursive: true, force: true });
        const r = await interruptWhen(['index'], home, signal, (files) => files.some(writerLock));
        expect(r.sent, `the run ended before its writer lock was seen: ${r.stderr}`).toBe(true);
        report(`index of 400 sessions, ${signal}`, r);
        expect(r.code, r.stderr).toBe(code);
        expect(leftovers(home)).toEqual([]);
      }
      const again = await runCli(['index', '--json'], home);
      expect(again.code, again.stderr).toBe(0);
      expect((JSON.parse(again.stdout) as { extracted: number }).extracted).toBeGreaterThan(0);
      const query = await runCli(['search', 'lorem', '--json'], home);
      expect(query.code, query.stderr).toBe(0);
    },
  );
});

describe('a signal while one large session is copied or read', () => {
  // ~80 MB in one file: the copy is stopped part-way, not finished first. The stop does not wait for
  // the rest of the file (else the copy would be complete and kept), so its time does not grow with
  // the file's size; bench/rss.mjs times it on 300 MB.
  const lines = 140_000;

  it.skipIf(!existsSync(cliPath))(
    'stops keep --all part-way through the copy (130 / 143), rolls the partial copy back, and a rerun keeps it whole',
    { timeout: 300_000 },
    async () => {
      const home = await bigHome(1, lines);
      const source = filesUnder(join(home, '.claude')).find((f) => f.path.endsWith('.jsonl'));
      if (source === undefined) throw new Error('no session was generated');
      for (const [signal, code] of codes) {
        await rm(join(home, '.agentlog'), { recursive: true, force: true });
        // A quarter of the file copied: well inside the copy, with three quarters left to not wait for.
        const r = await interruptWhen(['keep', '--all'], home, signal, (files) =>
          files.some((f) => keepTemp(f) && f.size >= source.size / 4),
        );
        expect(r.sent, `the copy ended before a quarter of it was seen: ${r.stderr}`).toBe(true);
        report(`keep --all of one ${Math.round(source.size / 1e6)} MB session, ${signal}`, r);
        expect(r.code, r.stderr).toBe(code);
        expect(leftovers(home)).toEqual([]);
        // Rolled back, not completed: no kept transcript.
        expect(filesUnder(join(home, '.agentlog')).filter((f) => f.path.endsWith('.jsonl'))).toEqual([]);
      }
      const again = await runCli(['keep', '--all', '--json'], home);
      expect(again.code, again.stderr).toBe(0);
      const kept = filesUnder(join(home, '.agentlog')).filter((f) => f.path.endsWith('.jsonl'));
      expect(kept.map((f) => f.size)).toEqual([source.size]);
    },
  );

  it.skipIf(!existsSync(cliPath))(
    'stops index mid-extraction (SIGINT: 130), leaves no lock, and the session is read again next time',
    { timeout: 300_000 },
    async () => {
      const home = await bigHome(1, lines);
      const r = await interruptWhen(['index'], home, 'SIGINT', (files) => files.some(writerLock));
      expect(r.sent, `the run ended before its writer lock was seen: ${r.stderr}`).toBe(true);
      report('index of one 80 MB session, SIGINT', r);
      expect(r.code, r.stderr).toBe(130);
      expect(leftovers(home)).toEqual([]);
      // Stopped before the session was done: the next sweep reads it (whole, or on from a saved place).
      const again = await runCli(['index', '--json'], home);
      expect(again.code, again.stderr).toBe(0);
      const swept = JSON.parse(again.stdout) as { extracted: number; resumed: number };
      expect(swept.extracted + swept.resumed).toBe(1);
    },
  );
});
