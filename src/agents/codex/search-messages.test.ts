import { appendFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { deriveActive, type MessageExtract, type MessageResume } from '../../record/message-index.js';
import { discoverCodex } from './discover.js';
import { codexMessages } from './search-messages.js';
import { Rollout, writeRollout } from './test-support/rollout-fixture.js';

const id = '019a0000-0000-7000-8000-000000000001';

async function extract(home: string, from: MessageResume | null = null): Promise<MessageExtract> {
  const d = await discoverCodex(home);
  const s = d.sessions[0];
  if (s === undefined) throw new Error('no session');
  return codexMessages.extract(s, from);
}

const said = (r: MessageExtract): string[] => r.records.map((x) => `${x.role}: ${x.text}`);
const live = (r: MessageExtract): string[] => {
  const active = deriveActive(r.records, r.marks);
  return r.records.filter((_, i) => active[i]).map((x) => x.text);
};

describe('Codex messages', () => {
  it('takes the event lane for what was typed and drops the item twins and machinery', async () => {
    const home = await tempDir();
    const r = new Rollout(id)
      .meta()
      .developer('<permissions instructions>sandbox</permissions instructions>')
      .user('# AGENTS.md instructions for /work/demo\n\nbe nice')
      .user('<environment_context><cwd>/work/demo</cwd></environment_context>')
      .user('find the bug')
      .userEvent('find the bug')
      .reasoning(['thinking about it'])
      .assistant('looking now')
      .functionCall('shell', { command: ['ls'] }, 'c1')
      .functionOutput('c1', 'a.txt')
      .assistant('found it in a.txt');
    await writeRollout(home, id, r);
    const out = await extract(home);
    expect(said(out)).toEqual(['user: find the bug', 'assistant: looking now', 'assistant: found it in a.txt']);
    expect(out.records[0]).toMatchObject({ user_turn: 1, locator: { kind: 'external_line' } });
    expect(out.records[1]?.user_turn).toBe(1);
  });

  it('takes the item lane where a harness wrote no event lane', async () => {
    const home = await tempDir();
    await writeRollout(
      home,
      id,
      new Rollout(id)
        .meta()
        .user('build the widget')
        .assistant('built')
        .user('<environment_context>x</environment_context>')
        .user('next step')
        .assistant('done'),
    );
    expect(said(await extract(home))).toEqual(['user: build the widget', 'assistant: built', 'user: next step', 'assistant: done']);
  });

  it('turns rollbacks into marks that supersede what was rolled back, and only that', async () => {
    const home = await tempDir();
    const r = new Rollout(id)
      .meta()
      .userEvent('turn one')
      .assistant('answer one')
      .userEvent('turn two')
      .assistant('answer two')
      .event('thread_rolled_back', { num_turns: 1 })
      .userEvent('turn three')
      .assistant('answer three');
    await writeRollout(home, id, r);
    const out = await extract(home);
    expect(live(out)).toEqual(['turn one', 'answer one', 'turn three', 'answer three']);
    expect(out.marks).toEqual([{ kind: 'turn_count', num_turns: 1, at_ms: expect.any(Number), upto: 4 }]);
  });

  it.skipIf(!hasCorpus)('replays the rollbacks of a real managed rollout (anchors on tool calls, turn counts)', async () => {
    const home = await tempDir();
    const body = await (await import('node:fs/promises')).readFile(
      corpusPath('codex/sessions/2026/06/01/rollout-2026-06-01T00-00-00-fixture-managed.jsonl'),
    );
    await writeRollout(home, 'fixture-managed', body.toString('utf8'));
    const out = await extract(home);
    expect(live(out)).toEqual([
      'Build the widget and report magic findings',
      'Scan done; nothing decisive yet.',
      'Now do step two: deep probe',
      'Turn three: wrap up',
      'Done after compaction.',
    ]);
    expect(out.records.length).toBe(8);
  });

  it('resumes incrementally and gives what a full read gives, twins included', async () => {
    const home = await tempDir();
    const path = await writeRollout(home, id, new Rollout(id).meta().user('typed once'));
    const first = await extract(home);
    expect(said(first)).toEqual([]);
    await appendFile(path, new Rollout(id, '2026-10-01T09:00:05.000Z').userEvent('typed once').assistant('reply').text());
    const second = await extract(home, { files: first.files, carry: first.carry });
    expect(second.fresh).toBe(false);
    expect(said(second)).toEqual(['user: typed once', 'assistant: reply']);
    const full = await extract(home);
    expect(full.records).toEqual([...first.records, ...second.records]);
    expect(full.carry).toEqual(second.carry);
  });

  it('starts over when the carry is not one it wrote', async () => {
    const home = await tempDir();
    const path = await writeRollout(home, id, new Rollout(id).meta().userEvent('hello').assistant('hi'));
    const out = await extract(home, { files: [{ path, offset: 10, mode: 'append' }], carry: { nonsense: true } });
    expect(out.fresh).toBe(true);
    expect(said(out)).toEqual(['user: hello', 'assistant: hi']);
  });

  it('never throws on a torn or broken line', async () => {
    const home = await tempDir();
    const path = await writeRollout(home, id, new Rollout(id).meta().userEvent('fine').raw('{not json').text());
    await writeFile(
      path,
      `${await (await import('node:fs/promises')).readFile(path, 'utf8')}{"timestamp":"2026-10-01T09:00:09.000Z","type":"event_msg","payload":{"type":"user_message","mess`,
    );
    const out = await extract(home);
    expect(said(out)).toEqual(['user: fine']);
    expect(out.badLines).toBe(1);
  });
});
