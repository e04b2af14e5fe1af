// A temporary home for the chaos suite: good sessions of Claude Code, Kimi and Intendant whose every
// text field carries hostile text, beside entries built to hang, hide or crash a reader.
import { execFileSync } from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assistant, jsonl as claudeJsonl, user } from '../../src/agents/claude-code/test-support/fixtures.js';
import { prompt, state, step, writeSession } from '../../src/agents/kimi/test-support/wire.js';
import { SessionLog } from '../../src/sessionlog/index.js';

export const ids = {
  claude: '11111111-2222-4333-8444-555555555555',
  claudeHuge: '22222222-2222-4333-8444-555555555555',
  claudeOdd: '33333333-2222-4333-8444-555555555555',
  kimi: 'session_3c1f2d8e-1b2a-4c3d-8e9f-0a1b2c3d4e5f',
  kimiFifo: 'session_ffffffff-1b2a-4c3d-8e9f-0a1b2c3d4e5f',
} as const;

/** A word every good session says, so `search` has something to find in each. */
export const needle = 'zebrafish';

export interface HostileHome {
  /** `agent:session_id` of every session that must be listed. */
  good: string[];
  /** The good session in the project folder whose name is not UTF-8. */
  nonUtf8: string;
  intendantId: string;
  /** Paths (relative to the home) that must be reported as bad entries. */
  bad: string[];
  /** The dangling link named like a session (reported as unreadable, never dropped silently). */
  dangling: string;
}

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

export interface HostileOptions {
  hugeBytes: number;
  /** Plant the project folder whose name is not UTF-8 (its session is read like any other). */
  nonUtf8Folder: boolean;
}

async function nonUtf8Project(claude: string, said: string): Promise<void> {
  const odd = Buffer.concat([Buffer.from(`${claude}/-work-`), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('x')]);
  await mkdir(odd);
  await writeFile(
    Buffer.concat([odd, Buffer.from(`/${ids.claudeOdd}.jsonl`)]),
    claudeJsonl([
      { ...user(`${needle} ${said}`, 5), sessionId: ids.claudeOdd },
      { ...assistant('m3', [{ type: 'text', text: 'fine' }], 6), sessionId: ids.claudeOdd },
    ]),
  );
}

/** Builds the home; `text(i)` gives the i-th hostile string (each field gets its own). */
export async function hostileHome(home: string, text: (i: number) => string, opts: HostileOptions): Promise<HostileHome> {
  const { hugeBytes } = opts;
  const claude = join(home, '.claude', 'projects');
  const project = join(claude, '-work-demo');
  await mkdir(project, { recursive: true });
  const extra = { cwd: `/work/${text(0)}`, gitBranch: `br-${text(1)}` };
  await writeFile(
    join(project, `${ids.claude}.jsonl`),
    claudeJsonl([
      user(`${needle} ${text(2)}`, 1, extra),
      // Invalid and non-object lines sit between good ones.
      '{"type":"user", "message": {',
      '[1,2,3]',
      '"a string"',
      'null',
      '42',
      assistant('m1', [{ type: 'text', text: `${needle} ${text(3)}` }], 2, extra, { model: `claude-${text(4)}` }),
    ]),
  );
  // One valid line of a few MB (clipped, never "unparseable").
  await writeFile(
    join(project, `${ids.claudeHuge}.jsonl`),
    claudeJsonl([
      { ...user(`${needle} ${text(5)} ${'x'.repeat(hugeBytes)}`, 3), sessionId: ids.claudeHuge },
      { ...assistant('m2', [{ type: 'text', text: `${needle} ok` }], 4), sessionId: ids.claudeHuge },
    ]),
  );
  // FIFOs named like session files, a looping and a dangling link.
  mkfifo(join(project, 'agent-x.jsonl'));
  mkfifo(join(project, '44444444-2222-4333-8444-555555555555.jsonl'));
  await symlink('zz.jsonl', join(project, 'zz.jsonl'));
  await symlink('nowhere.jsonl', join(project, '55555555-2222-4333-8444-555555555555.jsonl'));
  // A project folder whose name is not UTF-8, holding a good session.
  if (opts.nonUtf8Folder) await nonUtf8Project(claude, text(6));
  const kimiHome = join(home, '.kimi-code');
  await writeSession(kimiHome, ids.kimi, {
    state: state(`/work/${text(7)}`),
    wires: { main: [prompt(`${needle} ${text(8)}`, 1), ...step('s1', 2, { text: text(9) })] },
  });
  const fifoSession = await writeSession(kimiHome, ids.kimiFifo, {
    wires: { main: [prompt('second', 1), ...step('s2', 2, { text: 'ok' })] },
  });
  mkfifo(join(fifoSession, 'state.json'));

  const intendant = join(home, '.intendant');
  const log = await SessionLog.open({ stateRoot: intendant, projectRoot: `/work/${text(10)}`, task: `${needle} ${text(11)}` });
  log.userMessage({ provenance: 'task', text: `${needle} ${text(11)}` });
  log.turnStart(1);
  log.modelResponseWithMessage({ content: text(12) });
  await log.close();
  // A second Intendant session whose meta is a FIFO.
  const fifoLog = await SessionLog.open({ stateRoot: intendant, projectRoot: '/work/app', task: 'hang' });
  fifoLog.userMessage({ provenance: 'task', text: 'hang' });
  await fifoLog.close();
  const meta = join(intendant, 'logs', fifoLog.sessionId, 'session_meta.json');
  await rm(meta);
  mkfifo(meta);

  return {
    good: [
      `claude_code:${ids.claude}`,
      `claude_code:${ids.claudeHuge}`,
      `intendant:${log.sessionId}`,
      `kimi:${ids.kimi}`,
      `kimi:${ids.kimiFifo}`,
    ],
    nonUtf8: `claude_code:${ids.claudeOdd}`,
    intendantId: log.sessionId,
    dangling: '.claude/projects/-work-demo/55555555-2222-4333-8444-555555555555.jsonl',
    bad: [
      '.claude/projects/-work-demo/44444444-2222-4333-8444-555555555555.jsonl',
      '.claude/projects/-work-demo/agent-x.jsonl',
      '.claude/projects/-work-demo/zz.jsonl',
      `.intendant/logs/${fifoLog.sessionId}/session_meta.json`,
      `.kimi-code/sessions/wd_demo_0123456789ab/${ids.kimiFifo}/state.json`,
    ],
  };
}
