// `agentlog show` of a large session keeps its peak memory bounded (issue 10, "≤ 300 MiB for every
// command on any file"): tool output, most of a session's bytes, is not held in memory for the whole
// parse. The built CLI is run under `/usr/bin/time -v` on a generated ~100 MB Claude Code session.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cliEnv, cliPath } from '../../../test/support/cli.js';
import { tempDir } from '../../../test/support/temp.js';

const sessionId = '5a1e0000-0000-4000-8000-00000000b16b';
const exchanges = 24_000;
/** Under the 4 KiB output clip, so every byte of every output belongs in the record. */
const outputChars = 4000;
/**
 * Holding every output (~96 MB of text) through the parse put the peak at 250–330 MiB; with the
 * outputs out of memory the peak stays near the process's own size whatever the session's.
 */
const boundMiB = 180;
const time = '/usr/bin/time';

const words = ['alpha', 'branch', 'commit', 'delta', 'echo', 'fixture', 'gamma', 'helper', 'index', 'journal', 'kernel', 'lambda'];

/** Text of `chars` characters that differs for every `seed` (no two outputs share a string). */
function output(seed: number, chars: number): string {
  let s = `out ${seed}:`;
  let x = seed * 2654435761;
  while (s.length < chars) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += ` ${words[x % words.length]}${x % 97}`;
  }
  return s.slice(0, chars);
}

async function bigSession(home: string): Promise<string> {
  const dir = join(home, '.claude', 'projects', '-work-big');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${sessionId}.jsonl`);
  const out = createWriteStream(file);
  const base = { isSidechain: false, userType: 'external', cwd: '/work/big', sessionId, version: '2.1.0', gitBranch: 'main' };
  const at = (s: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0, s)).toISOString();
  for (let i = 0; i < exchanges; i++) {
    const lines = [
      { ...base, type: 'user', uuid: `u${i}`, timestamp: at(i * 3), message: { role: 'user', content: `question ${i}` } },
      {
        ...base,
        type: 'assistant',
        uuid: `a${i}`,
        timestamp: at(i * 3 + 1),
        message: {
          id: `m${i}`,
          role: 'assistant',
          model: 'claude-test',
          content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: `make step-${i}` } }],
          usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      },
      {
        ...base,
        type: 'user',
        uuid: `r${i}`,
        timestamp: at(i * 3 + 2),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: output(i, outputChars) }] },
      },
    ];
    if (!out.write(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

/** Runs the built CLI under `/usr/bin/time -v`: exit code, peak RSS in MiB, bytes written and the last turn. */
function measured(args: string[], home: string): { code: number | null; rssMiB: number; stdout: Buffer } {
  const report = join(home, 'time.txt');
  const r = spawnSync(time, ['-v', '-o', report, process.execPath, cliPath, ...args], {
    env: cliEnv(home),
    maxBuffer: 1 << 30,
  });
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(report, 'utf8'))?.[1]);
  return { code: r.status, rssMiB: kb / 1024, stdout: r.stdout };
}

describe.skipIf(!existsSync(time))('agentlog show of a ~100 MB session', () => {
  it(`peaks under ${boundMiB} MiB in every format, and prints every output`, { timeout: 300_000 }, async () => {
    const home = await tempDir('agentlog-show-memory-');
    await bigSession(home);
    const json = measured(['show', sessionId, '--json'], home);
    expect(json.code).toBe(0);
    const tail = json.stdout.subarray(json.stdout.length - 30_000).toString('utf8');
    expect(tail).toContain(JSON.stringify(output(exchanges - 1, outputChars)));
    expect(json.rssMiB, 'show --json peak RSS (MiB)').toBeLessThan(boundMiB);
    for (const format of [[], ['--markdown']]) {
      const m = measured(['show', sessionId, ...format], home);
      expect(m.code).toBe(0);
      expect(m.stdout.subarray(m.stdout.length - 30_000).toString('utf8')).toContain(output(exchanges - 1, outputChars).slice(0, 200));
      expect(m.rssMiB, `show ${format.join(' ')} peak RSS (MiB)`).toBeLessThan(boundMiB);
    }
  });
});
