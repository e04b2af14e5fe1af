// `agentlog index --watch`: keeps the index fresh until interrupted.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../../../test/support/cli.js';
import { tempDir } from '../../../test/support/temp.js';
import { line } from '../../search/test-support/claude-home.js';

const sid = 'abcdef01-2222-4333-8444-555555555555';

describe('agentlog index --watch', () => {
  it('picks up an appended message without a restart, and stops cleanly on SIGTERM', async () => {
    const home = await tempDir();
    const path = join(home, '.claude', 'projects', '-w', `${sid}.jsonl`);
    await mkdir(join(home, '.claude', 'projects', '-w'), { recursive: true });
    // Said just now (the default 14-day window counts back from the real clock here).
    const said = (role: 'user' | 'assistant', text: string): string =>
      `${JSON.stringify({ ...line(sid, { role, text, ago: 0 }), timestamp: new Date().toISOString() })}\n`;
    await writeFile(path, said('user', 'watch me'));
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      AGENTLOG_HOME: join(home, '.agentlog'),
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      CODEX_HOME: join(home, '.codex'),
      TZ: 'UTC',
      NO_COLOR: '1',
    };
    const child = spawn(process.execPath, [cliPath, 'index', '--watch', '--interval', '1', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const found = async (q: string): Promise<boolean> =>
      JSON.parse((await runCli(['search', q, '--json'], home)).stdout).sessions.length > 0;
    const until = async (q: string): Promise<void> => {
      for (let i = 0; i < 100 && !(await found(q)); i++) await new Promise((r) => setTimeout(r, 100));
    };
    await until('watch');
    expect(await found('watch')).toBe(true);
    await appendFile(path, said('assistant', 'flamingo sighted'));
    await until('flamingo');
    expect(await found('flamingo')).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const report = JSON.parse(stdout) as { sweeps: number; last: { failed: unknown[] } };
    expect(report.sweeps).toBeGreaterThanOrEqual(2);
    expect(report.last.failed).toEqual([]);
  }, 30_000);
});
