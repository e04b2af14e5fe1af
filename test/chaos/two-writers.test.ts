// Two writers on one session through the published library (`dist/sessionlog/index.js`): while one
// process holds the session, a second open gets a typed error, and the log stays consistent.
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../support/temp.js';

type Library = typeof import('../../src/sessionlog/index.js');
const libraryUrl = pathToFileURL(join(repoRoot, 'dist', 'sessionlog', 'index.js')).href;

/** The first writer: opens `dir`, appends, says "ready", waits for a line on stdin, appends more, closes. */
const firstWriter = `
const { SessionLog } = await import(process.argv[1]);
const log = await SessionLog.open({ dir: process.argv[2], projectRoot: '/work/app', task: 'first' });
log.userMessage({ provenance: 'task', text: 'first writer' });
log.turnStart(1);
log.modelResponseWithMessage({ content: 'one' });
process.stdout.write('ready\\n');
await new Promise((r) => process.stdin.once('data', r));
log.userMessage({ provenance: 'follow_up', text: 'first writer again' });
log.turnStart(2);
log.modelResponseWithMessage({ content: 'two' });
await log.close();
process.stdout.write('closed\\n');
`;

function startFirst(dir: string): { ready: Promise<void>; finish: () => Promise<number | null> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', firstWriter, libraryUrl, dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the first writer exited ${code} before it was ready`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const finish = (): Promise<number | null> => {
    child.stdin.end('go\n');
    return exited;
  };
  return { ready, finish };
}

describe('two writers on one session', () => {
  it('the second gets a typed error and the log stays consistent', { timeout: 30_000 }, async () => {
    const lib = (await import(libraryUrl)) as Library;
    const dir = join(await tempDir('agentlog-chaos-'), 'logs', 'session-a');
    await mkdir(dir, { recursive: true });
    const first = startFirst(dir);
    await first.ready;
    let second: unknown = null;
    try {
      const log = await lib.SessionLog.open({ dir, projectRoot: '/work/app', task: 'second' });
      log.userMessage({ provenance: 'follow_up', text: 'second writer' });
      await log.close();
    } catch (error) {
      second = error;
    }
    expect(await first.finish()).toBe(0);
    expect(second).toBeInstanceOf(lib.SessionLogError);
    expect((second as InstanceType<Library['SessionLogError']>).kind).toBe('conflict');

    const seqs = (await readFile(join(dir, 'conversation.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { seq?: number }).seq)
      .filter((s) => s !== undefined);
    expect(new Set(seqs).size).toBe(seqs.length);
    // Once the first writer closed, the session opens again.
    const again = await lib.SessionLog.open({ dir, projectRoot: '/work/app', task: 'first' });
    await again.close();
  });
});
