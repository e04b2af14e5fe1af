// The chaos suite (issue 10): a home of good sessions full of hostile text beside FIFOs, loops, a
// non-UTF-8 folder, a huge line and bad JSON; every command of the built CLI returns within its bound,
// exits as the README says, lists every good session, reports every bad entry, and never prints a raw
// control character outside `--json`. `CHAOS_RUNS`/`CHAOS_SEED` raise the runs (`npm run chaos`).
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { hostileHome, ids, needle } from './hostile-home.js';
import { firstRawControl, runBounded, type BoundedResult } from './run-bounded.js';

const runs = Number(process.env.CHAOS_RUNS ?? 1);
const seed = Number(process.env.CHAOS_SEED ?? 20261201);
/** Bytes of the one huge line (a few MB exercises the clipping path). */
const hugeBytes = Number(process.env.CHAOS_HUGE_BYTES ?? 3 * 1024 * 1024);
/** One command's bound: generous for a loaded 2-core machine, far below "never returns". */
const commandMs = Number(process.env.CHAOS_COMMAND_MS ?? 15_000);

/** Sequences that move a cursor, retitle a window, make a link, or reorder text on a terminal. */
const hostilePieces = [
  '\u001b[31m',
  '\u001b[2J\u001b[H',
  '\u001b]0;pwned\u0007',
  '\u001b]8;;https://example.invalid\u001b\\link\u001b]8;;\u001b\\',
  '\u009b6n',
  '\u0085',
  '\u007f',
  '\u0000',
  '\r',
  '\u0008',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200f',
  '\u061c',
] as const;

const hostileText = fc
  .tuple(
    fc.constantFrom(...hostilePieces),
    fc.array(
      fc.oneof(fc.constantFrom(...hostilePieces), fc.string({ maxLength: 6, unit: 'grapheme-ascii' }), fc.string({ maxLength: 4 })),
      {
        maxLength: 6,
      },
    ),
  )
  .map(([first, rest]) => [first, ...rest].join(''));

/** Thirteen hostile strings, one per text field of the home. */
const hostileFields = fc.array(hostileText, { minLength: 13, maxLength: 13 });

interface ScanJson {
  sessions: { agent: string; session_id: string }[];
  unreadable: { path: string }[];
  unparsed: { path: string }[];
  bad_lines: { path: string; count: number }[];
}

function expectReturned(name: string, r: BoundedResult): void {
  expect(r.timedOut, `${name} did not return within ${commandMs} ms`).toBe(false);
}

function expectTerminalSafe(name: string, r: BoundedResult): void {
  expect(firstRawControl(r.stdout), `${name} stdout`).toBeNull();
  expect(firstRawControl(r.stderr), `${name} stderr`).toBeNull();
}

type Run = (args: string[], codes: number[]) => Promise<BoundedResult>;

/** Runs one command on `home`: it returns within its bound, exits with one of `codes`, prints safely. */
function runner(home: string): Run {
  return async (args, codes) => {
    const name = `agentlog ${args.join(' ')}`;
    const r = await runBounded(args, home, commandMs);
    if (process.env.CHAOS_TIMES) console.log(Math.round(r.ms), name.slice(0, 80));
    expectReturned(name, r);
    expect(codes, `${name} exited ${r.code}: ${r.stderr.slice(0, 500)}`).toContain(r.code);
    if (!args.includes('--json')) expectTerminalSafe(name, r);
    return r;
  };
}

async function scanJson(run: Run): Promise<ScanJson> {
  return JSON.parse((await run(['scan', '--json'], [0])).stdout) as ScanJson;
}

async function chaosRun(fields: string[]): Promise<void> {
  const home = await tempDir('agentlog-chaos-');
  const built = await hostileHome(home, (i) => fields[i] ?? '', { hugeBytes, nonUtf8Folder: false });
  const run = runner(home);

  const report = await scanJson(run);
  const listed = report.sessions.map((s) => `${s.agent}:${s.session_id}`);
  for (const key of built.good) expect(listed, `scan lists ${key}`).toContain(key);
  const reported = [...report.unreadable, ...report.unparsed].map((u) => u.path.slice(home.length + 1));
  for (const bad of built.bad) expect(reported, `scan reports ${bad}`).toContain(bad);
  const bad = report.bad_lines.find((b) => b.path.endsWith(`${ids.claude}.jsonl`));
  expect(bad?.count, 'the invalid and non-object lines are counted').toBe(5);
  expect(
    report.bad_lines.find((b) => b.path.endsWith(`${ids.claudeHuge}.jsonl`)),
    'the huge line is clipped, not bad',
  ).toBeUndefined();

  // Every view of the main session (all its text fields are hostile), one text view of each other
  // session: a spawn costs ~1 s on a loaded machine, and the suite must stay within a minute.
  const json = await run(['show', ids.claude, '--json'], [0]);
  expect(JSON.parse(json.stdout)).toMatchObject({ session_id: ids.claude });
  await run(['show', ids.claude], [0]);
  await run(['show', ids.claude, '--markdown'], [0]);
  await run(['tail', ids.claude], [0]);
  await run(['show', ids.claudeHuge], [0]);
  await run(['tail', ids.claudeHuge], [0]);
  await run(['show', ids.kimi, '--markdown'], [0]);
  await run(['tail', ids.kimi], [0]);
  await run(['show', built.intendantId], [0]);
  // A request that cannot be served exits 2 (README), also on this home: a FIFO given by path.
  await run(['show', join(home, '.claude', 'projects', '-work-demo', 'agent-x.jsonl')], [2]);

  const name = fields[0] ?? '';
  await run(['rename', ids.claude, `name ${name}`], [0]);
  const renamed = JSON.parse((await run(['scan', '--json'], [0])).stdout) as { sessions: { session_id: string; name: string | null }[] };
  const stored = renamed.sessions.find((s) => s.session_id === ids.claude)?.name ?? '';
  expect(firstRawControl(stored), 'a stored name holds no control character').toBeNull();
  await run(['scan'], [0]);

  // Keep and index report the bad entries (exit 1) or not (0), but keep and index every good session.
  const keep = await run(['keep', '--all', '--json'], [0, 1]);
  for (const key of built.good) expect(keep.stdout, `keep --all keeps ${key}`).toContain(key.split(':')[1]);
  await run(['index'], [0, 1]);

  const search = await run(['search', needle, '--window-days', '0', '--json'], [0]);
  for (const id of [ids.claude, ids.claudeHuge, ids.kimi, built.intendantId]) expect(search.stdout, `search finds ${id}`).toContain(id);
  await run(['search', `${needle} ok`, '--window-days', '0'], [0]);
}

describe('chaos: a hostile home against every command of the built CLI', () => {
  it(`holds for ${runs} generated home(s) (seed ${seed})`, { timeout: runs * 120_000 }, async () => {
    await fc.assert(fc.asyncProperty(hostileFields, chaosRun), { seed, numRuns: runs, endOnFailure: true });
  });

  const fields = fc.sample(hostileFields, { seed, numRuns: 1 })[0] as string[];

  // Fails until a dangling link named like a session is reported as a bad entry (issue 10 item 3, "a
  // bad entry is that entry's problem: report it"; no branch reports it yet: discovery drops it silently).
  it.fails('reports a dangling link named like a session', { timeout: 60_000 }, async () => {
    const home = await tempDir('agentlog-chaos-');
    const built = await hostileHome(home, (i) => fields[i] ?? '', { hugeBytes: 1024, nonUtf8Folder: false });
    const report = await scanJson(runner(home));
    const reported = [...report.unreadable, ...report.unparsed].map((u) => u.path.slice(home.length + 1));
    expect(reported).toContain(built.dangling);
  });

  // Fails until paths are Buffers end to end (issue 10 item 11, "a Claude project folder whose name is
  // not UTF-8 is unreadable"; not in any branch yet): today scan reports the folder instead of listing
  // its session, and `tail` of a Kimi or Intendant session exits 1 with ENOENT on that Claude folder.
  it.fails('lists the session in a non-UTF-8 project folder and tails every other agent beside it', { timeout: 60_000 }, async () => {
    const home = await tempDir('agentlog-chaos-');
    const built = await hostileHome(home, (i) => fields[i] ?? '', { hugeBytes: 1024, nonUtf8Folder: true });
    const run = runner(home);
    const report = await scanJson(run);
    expect(report.sessions.map((s) => `${s.agent}:${s.session_id}`)).toContain(built.nonUtf8);
    for (const id of [ids.claudeOdd, ids.kimi, built.intendantId]) await run(['tail', id], [0]);
  });
});
