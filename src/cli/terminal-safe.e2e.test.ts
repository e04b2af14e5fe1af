// End to end: a Claude Code session whose every field carries ESC, BEL, CSI, OSC, C1 and BiDi
// controls; no command's human output holds one raw, and --json keeps the text exact.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.js';
import { tempDir } from '../../test/support/temp.js';

/** Every kind of sequence a hostile log may hold: CSI colour, BEL, OSC title, C1 CSI, DEL, BiDi. */
const hostile = 'A\u001b[31mB\u0007C\u001b]0;pwned\u0007D\u009b2JE\u007fF\u202eG\u2066H\u2069I\u200fJ\rK';
const sessionId = '7e1a1e55-0000-4000-8000-00000000c0de';
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function line(o: Record<string, unknown>): string {
  return `${JSON.stringify({ isSidechain: false, userType: 'external', cwd: `/work/${hostile}`, sessionId, version: '2.1.0', gitBranch: `br-${hostile}`, ...o })}\n`;
}

async function hostileHome(): Promise<{ home: string; file: string }> {
  const home = await tempDir();
  const dir = join(home, '.claude', 'projects', '-work-hostile');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${sessionId}.jsonl`);
  const at = (s: number): string => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
  await writeFile(
    file,
    line({ type: 'user', uuid: 'u1', parentUuid: null, timestamp: at(1), message: { role: 'user', content: `hostile ${hostile}` } }) +
      line({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        timestamp: at(2),
        requestId: 'r1',
        message: {
          id: 'm1',
          role: 'assistant',
          model: `model-${hostile}`,
          content: [
            { type: 'text', text: `reply ${hostile}` },
            { type: 'tool_use', id: 't1', name: `Bash${hostile}`, input: { command: `echo ${hostile}`, file_path: `/f/${hostile}` } },
          ],
          usage: { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      }) +
      line({
        type: 'user',
        uuid: 'u2',
        parentUuid: 'a1',
        timestamp: at(3),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `out ${hostile}` }] },
      }) +
      // A line that is not JSON: tail shows it as a raw line.
      `garbage ${hostile}\n`,
  );
  // Binary garbage: NUL, ESC, a CSI and bytes that are not UTF-8.
  await appendFile(file, Buffer.from([0x62, 0x69, 0x6e, 0x00, 0x01, 0x1b, 0x5b, 0x32, 0x4a, 0xff, 0xfe, 0x9b, 0xc2, 0x9b, 0x0a]));
  return { home, file };
}

function expectSafe(label: string, text: string): void {
  const found = raw.exec(text);
  expect(
    found,
    `${label}: raw U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(text.slice(0, 400))}`,
  ).toBeNull();
}

describe('human output cannot drive the terminal', () => {
  it('escapes control characters from every field in scan, show, show --markdown, tail, search, rename and keep', async () => {
    const { home, file } = await hostileHome();
    const runs: [string, string[]][] = [
      ['scan', ['scan']],
      ['show', ['show', sessionId]],
      ['show by path', ['show', file]],
      ['show --markdown', ['show', sessionId, '--markdown']],
      ['tail', ['tail', sessionId, '-n', '10']],
      ['rename', ['rename', sessionId, `name ${hostile}`]],
      ['scan after rename', ['scan']],
      ['show after rename', ['show', sessionId]],
      ['index', ['index', '--window-days', '0']],
      ['search', ['search', 'hostile', '--window-days', '0']],
      ['keep', ['keep']],
      ['unknown command', [`nope${hostile}`]],
      ['bad id', ['show', `x${hostile}`]],
    ];
    for (const [label, args] of runs) {
      const r = await runCli(args, home);
      expectSafe(`${label} stdout`, r.stdout);
      expectSafe(`${label} stderr`, r.stderr);
      if (label === 'show') {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('A\\x1b[31mB\\x07C\\x1b]0;pwned\\x07D\\x9b2JE\\x7fF\\u202eG\\u2066H\\u2069I\\u200fJ\\x0dK');
      }
      if (label === 'search') expect(r.stdout).toContain('\\x1b[31m');
      if (label === 'tail') expect(r.stdout).toContain('bin\\x00\\x01\\x1b[2J');
    }
  }, 60_000);

  it('stores a name without control characters and says so', async () => {
    const { home } = await hostileHome();
    const r = await runCli(['rename', sessionId, `my\u001b[2Jname\u202e`, '--json'], home);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { name: string }).name).toBe('my[2Jname');
    expect(r.stderr).toMatch(/removed 2 control characters from the name/);
  });

  it('keeps --json exact: the record holds the log text as written', async () => {
    const { home } = await hostileHome();
    const r = await runCli(['show', sessionId, '--json'], home);
    expect(r.code, r.stderr).toBe(0);
    const record = JSON.parse(r.stdout) as { repo: string; branch: string; models: string[]; turns: { text: string }[] };
    expect(record.repo).toBe(`/work/${hostile}`);
    expect(record.branch).toBe(`br-${hostile}`);
    expect(record.models).toEqual([`model-${hostile}`]);
    expect(record.turns[0]?.text).toBe(`hostile ${hostile}`);
    const scan = await runCli(['scan', '--json'], home);
    expect((JSON.parse(scan.stdout) as { sessions: { branch: string }[] }).sessions[0]?.branch).toBe(`br-${hostile}`);
  });
});
