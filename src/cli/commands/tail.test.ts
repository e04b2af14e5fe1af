import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../../../test/support/cli.js';
import { claudeHome, demoId, line, mainRel, sampleId } from '../../custody/test-support/homes.js';
import { hasCorpus } from '../../../test/support/corpus.js';

describe.skipIf(!hasCorpus)('agentlog tail', () => {
  it('prints the newest entries, oldest first', async () => {
    const t = await claudeHome();
    const r = await runCli(['tail', sampleId, '-n', '3'], t.home);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^2025-09-03 01:02:03\s+assistant\s+CLAUDE\.md has been created/);
  });

  it('finds an id through the scan cache, and past it once the file has grown', async () => {
    const t = await claudeHome();
    const walked = await runCli(['tail', demoId, '-n', '2', '--json'], t.home);
    expect((await runCli(['scan', '--json'], t.home)).code).toBe(0);
    const cached = await runCli(['tail', demoId, '-n', '2', '--json'], t.home);
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stdout).toBe(walked.stdout);
    // The cache's key no longer matches the grown file: the lookup misses and the homes are walked.
    await appendFile(join(t.claude, mainRel('-subagent-demo', demoId)), `${line(9)}\n`);
    const grown = await runCli(['tail', demoId, '-n', '1', '--json'], t.home);
    expect(grown.code, grown.stderr).toBe(0);
    expect((JSON.parse(grown.stdout) as { entries: { object: { uuid: string } }[] }).entries.map((e) => e.object.uuid)).toEqual(['u9']);
  });

  it('takes whatever show takes: the session file by its path', async () => {
    const t = await claudeHome();
    const file = t.vendor(mainRel('-sample-project', sampleId));
    const byPath = await runCli(['tail', file, '-n', '3'], t.home);
    expect(byPath.code, byPath.stderr).toBe(0);
    const byId = await runCli(['tail', sampleId, '-n', '3'], t.home);
    expect(byPath.stdout).toBe(byId.stdout);
    expect((await runCli(['show', file], t.home)).code).toBe(0);
  });

  it('prints one JSON document with --json, and takes a unique id prefix', async () => {
    const t = await claudeHome();
    const r = await runCli(['tail', '0a1b', '--json'], t.home);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      session: { session_id: string; root: string };
      entries: { type: string }[];
      older: string | null;
    };
    expect(doc.session).toMatchObject({ session_id: demoId, root: 'vendor' });
    expect(doc.entries.map((e) => e.type)).toEqual(['system', 'user', 'assistant']);
    expect(doc.older).toBeNull();
  });

  it('refuses page sizes outside 1..10000 and unknown sessions with exit 2', async () => {
    const t = await claudeHome();
    for (const n of ['0', '10001', '-3']) {
      const r = await runCli(['tail', demoId, '-n', n, '--json'], t.home);
      expect(r.code, n).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'InvalidPageSize' } });
    }
    expect((await runCli(['tail', demoId, '-n', 'ten'], t.home)).code).toBe(2);
    const missing = await runCli(['tail', '00000000-0000-4000-8000-000000000000'], t.home);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no session/);
  });

  it('follows a growing session as JSON lines, one per batch, until interrupted', async () => {
    const t = await claudeHome();
    const child = spawn(process.execPath, [cliPath, 'tail', demoId, '-n', '1', '--follow', '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: t.home, AGENTLOG_HOME: t.state, CLAUDE_CONFIG_DIR: t.claude, TZ: 'UTC', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const waitFor = (n: number): Promise<void> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only got: ${out}`)), 10_000);
        const check = (): void => {
          if (out.split('\n').filter((l) => l !== '').length >= n) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(check, 20);
        };
        check();
      });
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitFor(1);
    await appendFile(join(t.claude, mainRel('-subagent-demo', demoId)), `${line(4)}\n`);
    await waitFor(2);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const docs = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { entries: { object: { uuid: string } }[]; restart: unknown });
    expect(docs[0]?.entries.map((e) => e.object.uuid)).toEqual(['pa1']);
    expect(docs[1]).toMatchObject({ restart: null, entries: [{ object: { uuid: 'u4' } }] });
  });
});
