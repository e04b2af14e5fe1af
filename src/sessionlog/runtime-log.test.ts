import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { RuntimeLog, runtimeLogName, runtimeRandom, writeRuntimeLog } from './runtime-log.js';
import { SessionLog } from './session-log.js';

describe('per-command runtime logs', () => {
  it('are named <nonce>_<32 hex>_<stream>.log, owner-only, in the session folder', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    const random = runtimeRandom();
    expect(random).toMatch(/^[0-9a-f]{32}$/);
    const out = log.runtimeLog('42', 'stdout', random);
    out.write('hello\n');
    out.close();
    expect(out.path).toBe(join(log.dir, `42_${random}_stdout.log`));
    expect(readFileSync(out.path, 'utf8')).toBe('hello\n');
    const pty = writeRuntimeLog(log.dir, '42', 'pty', 'x'.repeat(20_000), random);
    expect(pty.endsWith(`42_${random}_pty.log`)).toBe(true);
    await log.close();
  });

  it('refuse a pre-planted symlink and write nothing through it', async () => {
    const root = await tempDir();
    const log = await SessionLog.open({ stateRoot: root, projectRoot: '/p', task: 't' });
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'precious');
    const random = runtimeRandom();
    symlinkSync(victim, join(log.dir, `7_${random}_stdout.log`));
    expect(() => log.runtimeLog('7', 'stdout', random)).toThrow(
      expect.objectContaining({ code: 'UnsafeRuntimeLog', message: expect.stringContaining('nothing was written') }),
    );
    // A dangling link is refused too (O_EXCL never follows it to create the target).
    const target = join(root, 'would-be-created.txt');
    symlinkSync(target, join(log.dir, `8_${random}_stderr.log`));
    expect(() => writeRuntimeLog(log.dir, '8', 'stderr', 'secret', random)).toThrow(expect.objectContaining({ code: 'UnsafeRuntimeLog' }));
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(existsSync(target)).toBe(false);
    await log.close();
  });

  it('refuse an existing file and a nonce that could leave the folder', async () => {
    const root = await tempDir();
    const random = runtimeRandom();
    writeFileSync(join(root, `1_${random}_stdout.log`), 'old');
    expect(() => RuntimeLog.create(root, '1', 'stdout', random)).toThrow(expect.objectContaining({ code: 'UnsafeRuntimeLog' }));
    for (const bad of ['../x', 'a/b', '', '.hidden', 'x'.repeat(65)]) {
      expect(() => runtimeLogName(bad, random, 'stdout')).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
    }
    expect(() => runtimeLogName('1', 'nothex', 'stdout')).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });
});
