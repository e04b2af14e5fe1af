// Kill a writer mid-stream: what it left must replay (a torn last line at most).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../test/support/temp.js';
import { readMetaSync } from './meta.js';
import { recentEntries } from './recent-entries.js';
import { replay } from './replay.js';

const lib = join(repoRoot, 'dist', 'sessionlog', 'index.js');

const writer = `
const { SessionLog } = await import(process.argv[1]);
const log = await SessionLog.open({ dir: process.argv[2], projectRoot: '/p', task: 'crash test' });
log.userMessage({ provenance: 'task', text: 'crash test' });
for (let i = 1; ; i++) {
  if (i % 10 === 1) log.turnStart(Math.ceil(i / 10));
  log.modelResponseWithMessage({ content: 'response ' + i + ' ' + 'x'.repeat(i % 300) });
  log.agentOutput({ stdout: 'out ' + i, stderr: i % 3 === 0 ? 'err ' + i : '' });
  log.info('row ' + i, { i });
  if (i === 300) process.stdout.write('ready\\n');
}
`;

describe('a writer killed mid-write', () => {
  it('leaves a log that replays, tails and keeps an intact meta', async () => {
    expect(existsSync(lib), 'run `npm run build` first: the child process imports dist/sessionlog').toBe(true);
    const root = await tempDir();
    const dir = join(root, 'logs', 'crashed');
    const child = spawn(process.execPath, ['--input-type=module', '-e', writer, lib, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        if (d.includes('ready')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
    });
    // Let it run a little more so the kill lands mid-stream.
    await new Promise((r) => setTimeout(r, 50));
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;

    const { events, problems } = await replay(dir);
    expect(problems).toEqual([]);
    const responses = events.filter((e) => e.kind === 'model_response');
    expect(responses.length).toBeGreaterThanOrEqual(300);
    // Each row was written after its sidecar span: every one resolves to its full text.
    for (const [i, e] of responses.entries())
      expect(e.kind === 'model_response' && e.content).toBe(`response ${i + 1} ${'x'.repeat((i + 1) % 300)}`);
    const tail = await recentEntries(dir, 5);
    expect(tail.entries).toHaveLength(5);
    expect(tail.badLines).toBe(0);
    expect(readMetaSync(dir)).toMatchObject({ status: 'running', task: 'crash test' });
    const lines = readFileSync(join(dir, 'session.jsonl'), 'utf8').split('\n');
    const complete = lines.slice(0, -1);
    for (const l of complete) expect(() => JSON.parse(l) as unknown).not.toThrow();
  });
});
