// The chaos suite (issue 10): a home of good sessions full of hostile text beside FIFOs, loops, a
// non-UTF-8 folder, a huge line and bad JSON; every command of the built CLI returns within its bound,
// exits as the README says, lists every good session, reports every bad entry, and never prints a raw
// control character outside `--json`. `CHAOS_RUNS`/`CHAOS_SEED` raise the runs (`npm run chaos`).
import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, jsonl as claudeJsonl, user } from '../../src/agents/claude-code/test-support/fixtures.js';
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

  it('reports a dangling link named like a session', { timeout: 60_000 }, async () => {
    const home = await tempDir('agentlog-chaos-');
    const built = await hostileHome(home, (i) => fields[i] ?? '', { hugeBytes: 1024, nonUtf8Folder: false });
    const report = await scanJson(runner(home));
    const reported = [...report.unreadable, ...report.unparsed].map((u) => u.path.slice(home.length + 1));
    expect(reported).toContain(built.dangling);
  });

  // A project folder whose name is not UTF-8 (issue 10 item 11): its name is carried as a string
  // holding its stray bytes as U+DC80–U+DCFF (src/fs/byte-path.ts), so its session is listed, shown,
  // kept under the same bytes and found by search; text output shows those bytes as `\xff`, `--json`
  // carries them as `\udcff`, and every other agent stays readable beside it.
  it('lists, shows, keeps and finds the session in a non-UTF-8 project folder', { timeout: 120_000 }, async () => {
    const home = await tempDir('agentlog-chaos-');
    const built = await hostileHome(home, (i) => fields[i] ?? '', { hugeBytes: 1024, nonUtf8Folder: true });
    const run = runner(home);
    const odd = ids.claudeOdd;
    const report = await scanJson(run);
    const listed = report.sessions.map((s) => `${s.agent}:${s.session_id}`);
    for (const key of [...built.good, built.nonUtf8]) expect(listed).toContain(key);
    expect(
      report.unreadable.filter((u) => u.path.includes('-work-\udcff')),
      'nothing in it is unreadable',
    ).toEqual([]);
    expect((await run(['scan'], [0])).stdout).toContain('-work-\\xff\\xfe\\x80x');

    const shown = await run(['show', odd], [0]);
    expect(shown.stdout).toContain(needle);
    expect(shown.stdout).toContain('-work-\\xff\\xfe\\x80x');
    const json = JSON.parse((await run(['show', odd, '--json'], [0])).stdout) as { session_id: string };
    expect(json.session_id).toBe(odd);

    const keep = JSON.parse((await run(['keep', '--all', '--json'], [0, 1])).stdout) as {
      sessions: { session_id: string; copied: string[]; failed: unknown[] }[];
    };
    const kept = keep.sessions.find((s) => s.session_id === odd);
    expect(kept?.failed).toEqual([]);
    expect(kept?.copied).toEqual([`projects/-work-\udcff\udcfe\udc80x/${odd}.jsonl`]);
    // The kept folder has the vendor folder's exact bytes.
    const keptRoot = join(home, '.agentlog', 'kept');
    const [installation] = (await readdir(keptRoot)).filter((n) => n.startsWith('claude_code-'));
    const names = await readdir(join(keptRoot, installation ?? '', 'projects'), { encoding: 'buffer' });
    expect(names.map((n) => n.toString('hex'))).toContain(
      Buffer.concat([Buffer.from('-work-'), Buffer.of(0xff, 0xfe, 0x80), Buffer.from('x')]).toString('hex'),
    );

    await run(['index'], [0, 1]);
    expect((await run(['search', needle, '--window-days', '0', '--json'], [0])).stdout).toContain(odd);
    for (const id of [ids.claude, ids.kimi, built.intendantId]) await run(['tail', id], [0]);
  });

  // Custody refuses links in its own tree when it writes (issue 10 item 11): reads of a kept copy
  // refuse them too, a planted file link or folder link alike, so `show` never prints what one points at.
  it('never reads a kept copy through a link planted in kept/', { timeout: 60_000 }, async () => {
    const home = await tempDir('agentlog-chaos-');
    const project = join(home, '.claude', 'projects', '-work-demo');
    const secretId = '66666666-2222-4333-8444-555555555555';
    const folderId = '77777777-2222-4333-8444-555555555555';
    const session = (id: string, said: string): string =>
      claudeJsonl([
        { ...user(said, 1), sessionId: id },
        { ...assistant('m1', [{ type: 'text', text: 'ok' }], 2), sessionId: id },
      ]);
    await mkdir(project, { recursive: true });
    await writeFile(join(project, `${secretId}.jsonl`), session(secretId, 'kept text'));
    await mkdir(join(home, '.claude', 'projects', '-work-other'), { recursive: true });
    await writeFile(join(home, '.claude', 'projects', '-work-other', `${folderId}.jsonl`), session(folderId, 'kept text'));
    const run = runner(home);
    await run(['keep', '--all'], [0]);
    // The agent prunes both sessions; someone plants links in the kept copies to files outside.
    await rm(join(home, '.claude', 'projects'), { recursive: true });
    const outside = join(home, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, `${secretId}.jsonl`), session(secretId, 'SECRET-FILE'));
    await writeFile(join(outside, `${folderId}.jsonl`), session(folderId, 'SECRET-FOLDER'));
    const kept = join(home, '.agentlog', 'kept');
    const [installation] = (await readdir(kept)).filter((n) => n.startsWith('claude_code-'));
    const keptProjects = join(kept, installation as string, 'projects');
    await rm(join(keptProjects, '-work-demo', `${secretId}.jsonl`));
    await symlink(join(outside, `${secretId}.jsonl`), join(keptProjects, '-work-demo', `${secretId}.jsonl`));
    await rm(join(keptProjects, '-work-other'), { recursive: true });
    await symlink(outside, join(keptProjects, '-work-other'));
    for (const id of [secretId, folderId]) {
      for (const args of [
        ['show', id],
        ['show', id, '--json'],
        ['tail', id],
      ]) {
        const r = await run(args, [0, 1, 2]);
        expect(r.stdout, `${args.join(' ')} prints nothing read through a link`).not.toMatch(/SECRET/);
      }
    }
    const listed = (await scanJson(run)).sessions.map((s) => s.session_id);
    expect(listed).not.toContain(secretId);
    expect(listed).not.toContain(folderId);
  });
});
