// One writer per session (two writers interleaved their sequence numbers) and no writing through a
// planted folder link (sidecars landed in another folder).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../test/support/temp.js';
import { SessionLog } from './session-log.js';

const lib = join(repoRoot, 'dist', 'sessionlog', 'index.js');

const writer = `
const { SessionLog } = await import(process.argv[1]);
try {
  const log = await SessionLog.open({ dir: process.argv[2], projectRoot: '/p', task: 'two writers', strict: true });
  process.stdout.write('open\\n');
  for (let i = 0; i < 50; i++) log.userMessage({ provenance: 'task', text: 'row ' + i });
  await new Promise((r) => process.stdin.once('data', r));
  await log.close();
  process.stdout.write('closed\\n');
} catch (error) {
  process.stdout.write(JSON.stringify({ code: error.code, kind: error.kind, message: error.message }) + '\\n');
}
`;

function start(dir: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', writer, lib, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const until = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => (out.includes(text) ? resolve(out) : undefined);
      child.stdout.on('data', check);
      child.on('exit', () => (out.includes(text) ? resolve(out) : reject(new Error(`exited before "${text}": ${out}`))));
      check();
    });
  return { child, until, output: () => out };
}

describe('one writer per session', () => {
  it.skipIf(!existsSync(lib))('refuses a second writing process with SessionBusy, and admits it once the first closed', async () => {
    const dir = join(await tempDir(), 'logs', 's1');
    const first = start(dir);
    await first.until('open');
    const second = start(dir);
    second.child.stdin.end('x');
    const refused = JSON.parse((await second.until('}')).trim()) as { code: string; kind: string; message: string };
    expect(refused).toMatchObject({ code: 'SessionBusy', kind: 'conflict' });
    expect(refused.message).toContain(`process ${first.child.pid}`);
    first.child.stdin.end('x');
    await first.until('closed');
    const third = start(dir);
    third.child.stdin.end('x');
    expect(await third.until('closed')).toContain('open');
    expect(await readdir(dir)).not.toContain('.writer.lock');
  });

  it('refuses a second writer in the same process too, and admits one after close', async () => {
    const dir = join(await tempDir(), 's1');
    const log = await SessionLog.open({ dir, projectRoot: '/p', task: 't', strict: true });
    await expect(SessionLog.open({ dir, projectRoot: '/p', task: 't', strict: true })).rejects.toMatchObject({ code: 'SessionBusy' });
    await log.close();
    const again = await SessionLog.open({ dir, projectRoot: '/p', task: 't', strict: true });
    await again.close();
  });
});

describe('planted folder links', () => {
  it('refuses a turns folder that is a symbolic link', async () => {
    const root = await tempDir();
    const dir = join(root, 's1');
    const elsewhere = join(root, 'elsewhere');
    await mkdir(dir);
    await mkdir(elsewhere);
    await symlink(elsewhere, join(dir, 'turns'));
    await expect(SessionLog.open({ dir, projectRoot: '/p', task: 't', strict: true })).rejects.toMatchObject({
      code: 'UnsafePath',
      kind: 'failed',
    });
    await expect(SessionLog.open({ dir, projectRoot: '/p', task: 't' })).rejects.toMatchObject({ code: 'UnsafePath' });
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('refuses a session folder that is a symbolic link', async () => {
    const root = await tempDir();
    const elsewhere = join(root, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, join(root, 's1'));
    await expect(SessionLog.open({ dir: join(root, 's1'), projectRoot: '/p', task: 't' })).rejects.toMatchObject({ code: 'UnsafePath' });
    expect(await readdir(elsewhere)).toEqual([]);
  });
});
