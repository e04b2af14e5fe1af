// `tail` shows what `show` shows, for every agent: each entry that carries a prompt or a reply has
// the time the log gives it and the text `show` reads, whether the session is a JSONL transcript
// (paged by lines) or a document or database (read as its record).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assistant as claudeAssistant,
  jsonl as claudeJsonl,
  user as claudeUser,
} from '../../src/agents/claude-code/test-support/fixtures.js';
import { Rollout, writeRollout } from '../../src/agents/codex/test-support/rollout-fixture.js';
import { prompt, state, step, writeSession } from '../../src/agents/kimi/test-support/wire.js';
import { assistantMessage, userMessage, writeJsonTree } from '../../src/agents/opencode/test-support/fixtures.js';
import { assistant as piAssistant, header as piHeader, user as piUser, writePiFile } from '../../src/agents/pi/test-support/pi.js';
import { SessionLog } from '../../src/sessionlog/index.js';
import * as qwen from '../../src/agents/qwen/test-support/chat.js';
import * as copilot from '../../src/agents/copilot/test-support/events.js';
import * as droid from '../../src/agents/droid/test-support/session.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

interface TailEntry {
  timestamp: string | null;
  role: string | null;
  preview: string;
}

const asked = 'where is the lexer defined';
const answered = 'The lexer lives in src/lexer.ts';

async function tailOf(home: string, id: string, env: Record<string, string>): Promise<TailEntry[]> {
  const show = await runCli(['show', id, '--json'], home, env);
  expect(show.code, show.stderr).toBe(0);
  const tail = await runCli(['tail', id, '-n', '50', '--json'], home, env);
  expect(tail.code, tail.stderr).toBe(0);
  return (JSON.parse(tail.stdout) as { entries: TailEntry[] }).entries;
}

/** The prompt and the reply are both there, each with a time and the text as said. */
function expectPromptAndReply(entries: TailEntry[]): void {
  const said = entries.filter((e) => e.preview === asked || e.preview === answered);
  expect(said.map((e) => [e.role, e.preview])).toEqual([
    ['user', asked],
    ['assistant', answered],
  ]);
  for (const e of said) expect(e.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
}

describe('tail shows what show shows, for every agent', () => {
  it('Claude Code', async () => {
    const home = await tempDir();
    const id = '11111111-2222-4333-8444-555555555555';
    const dir = join(home, '.claude', 'projects', '-work-demo');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, `${id}.jsonl`),
      claudeJsonl([claudeUser(asked, 1), claudeAssistant('m1', [{ type: 'text', text: answered }], 2)]),
    );
    expectPromptAndReply(await tailOf(home, id, {}));
  });

  it('Codex', async () => {
    const home = await tempDir();
    const id = '019a0000-0000-7000-8000-000000000001';
    await writeRollout(join(home, '.codex'), id, new Rollout(id).meta().user(asked).userEvent(asked).assistant(answered));
    const entries = await tailOf(home, id, {});
    // The item and its event twin both carry the prompt: each with its time.
    expect(entries.filter((e) => e.preview === asked).length).toBe(2);
    expectPromptAndReply(entries.filter((e, i, all) => e.preview !== asked || all.findIndex((x) => x.preview === asked) === i));
  });

  it('Kimi Code', async () => {
    const home = await tempDir();
    const kimi = join(home, '.kimi-code');
    const id = 'session_3c1f2d8e-1b2a-4c3d-8e9f-0a1b2c3d4e5f';
    await writeSession(kimi, id, { state: state('/work/demo'), wires: { main: [prompt(asked, 1), ...step('s1', 2, { text: answered })] } });
    expectPromptAndReply(await tailOf(home, id, { KIMI_CODE_HOME: kimi }));
  });

  it('Pi', async () => {
    const home = await tempDir();
    const pi = join(home, '.pi', 'agent');
    const id = '0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';
    await writePiFile(pi, `2026-04-01T09-00-00-000Z_${id}.jsonl`, [
      piHeader(id),
      piUser('e1', null, asked, 1),
      piAssistant('e2', 'e1', 2, { text: answered }),
    ]);
    expectPromptAndReply(await tailOf(home, id, { PI_CODING_AGENT_DIR: pi }));
  });

  it('Intendant', async () => {
    const home = await tempDir();
    const intendant = join(home, '.intendant');
    const log = await SessionLog.open({ stateRoot: intendant, projectRoot: '/work/app', task: asked });
    log.userMessage({ provenance: 'task', text: asked });
    log.turnStart(1);
    log.modelResponseWithMessage({ content: answered });
    await log.close();
    const entries = await tailOf(home, log.sessionId, { INTENDANT_HOME: intendant });
    // The reply is logged twice: its diagnostic `model_response` row, then the conversation row.
    expect(entries.find((e) => e.role === 'model_response')?.preview).toBe(answered);
    expectPromptAndReply(entries.filter((e) => e.role !== 'model_response'));
  });

  it('Gemini CLI, as a JSONL chat and as a JSON document', async () => {
    const home = await tempDir();
    const chats = join(home, '.gemini', 'tmp', 'a'.repeat(64), 'chats');
    await mkdir(chats, { recursive: true });
    const header = { sessionId: 'g-jsonl', projectHash: 'a'.repeat(64), startTime: '2026-05-01T10:00:00.000Z', kind: 'main' };
    const messages = [
      { id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: asked }] },
      { id: 'g1', timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: answered, model: 'gemini-2.5-pro' },
    ];
    await writeFile(
      join(chats, 'session-2026-05-01T10-00-jsonl.jsonl'),
      `${[header, ...messages].map((l) => JSON.stringify(l)).join('\n')}\n`,
    );
    await writeFile(join(chats, 'session-2026-05-01T11-00-doc.json'), JSON.stringify({ ...header, sessionId: 'g-doc', messages }));
    expectPromptAndReply(await tailOf(home, 'g-jsonl', {}));
    expectPromptAndReply(await tailOf(home, 'g-doc', {}));
  });

  it('OpenCode', async () => {
    const home = await tempDir();
    const data = join(home, '.local', 'share');
    const created = Date.parse('2026-05-01T10:00:00.000Z');
    await writeJsonTree(join(data, 'opencode', 'storage'), [
      {
        id: 'ses_tail',
        directory: '/work/app',
        title: 'demo',
        created,
        updated: created + 2000,
        messages: [
          userMessage('msg_u', created + 1000, asked),
          assistantMessage('msg_a', created + 2000, [{ id: 'prt_a', data: { type: 'text', text: answered } }]),
        ],
      },
    ]);
    expectPromptAndReply(await tailOf(home, 'ses_tail', { XDG_DATA_HOME: data }));
  });

  it('Qwen Code', async () => {
    const home = await tempDir();
    const id = '7a0e0000-0000-4000-8000-0000000000aa';
    await qwen.writeChat(join(home, '.qwen'), new qwen.Chat(id).user('q1', 1, asked).assistant('q2', 2, [qwen.say(answered)]));
    expectPromptAndReply(await tailOf(home, id, {}));
  });

  it('GitHub Copilot CLI', async () => {
    const home = await tempDir();
    const id = 'c0b10000-0000-4000-8000-0000000000bb';
    await copilot.writeSession(join(home, '.copilot'), new copilot.Events(id).start(0).user(1, asked).assistant(2, answered));
    expectPromptAndReply(await tailOf(home, id, {}));
  });

  it('Factory Droid', async () => {
    const home = await tempDir();
    const id = 'd0d00000-0000-4000-8000-0000000000bb';
    await droid.writeSession(join(home, '.factory'), new droid.Session(id).user('d1', 1, asked).assistant('d2', 2, [droid.say(answered)]));
    expectPromptAndReply(await tailOf(home, id, {}));
  });
});
