// The Cursor Agent reader on transcripts in the documented shape: typed prompts out of their
// `<user_query>` tags, added context left out, sub-agent files kept with the session, other agents'
// JSONL not claimed, lines that are not messages counted.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { DiscoveredSession } from '../types.js';
import { cursorReader } from './reader.js';
import { assistant, user, writeTranscript } from './test-support/fixtures.js';

const id = 'b1b2c3d4-0000-4000-8000-000000000001';

describe('cursorReader', () => {
  it('reads prompts as typed and the answers, leaving out the context Cursor adds', async () => {
    const home = join(await tempDir(), '.cursor');
    const path = await writeTranscript(home, 'home-u-code-app', id, [
      user('Fix the parser', '<user_info>OS: linux</user_info>\n<attached_files>a.ts</attached_files>\n'),
      { role: 'user', message: { content: [{ type: 'text', text: '<system_reminder>only context</system_reminder>' }] } },
      assistant('Reading it.'),
      { role: 'assistant', message: { content: [{ type: 'text', text: 'Done.' }, { type: 'tool_use' }] } },
    ]);
    const sub = join(home, 'projects', 'home-u-code-app', 'agent-transcripts', id, 'subagents');
    await mkdir(sub);
    await writeFile(join(sub, 'task-1.jsonl'), `${JSON.stringify(assistant('sub answer'))}\n`);
    const found = await cursorReader.discover(home);
    expect(found.problems).toEqual([]);
    expect(found.sessions).toHaveLength(1);
    const session = found.sessions[0] as DiscoveredSession;
    expect(session).toMatchObject({ agent: 'cursor', sessionId: id, path });
    expect(session.files.map((f) => f.path)).toEqual([path, join(sub, 'task-1.jsonl')]);
    const parsed = await cursorReader.parse(session, { detail: 'full' });
    expect(parsed.badLines).toEqual([]);
    expect(parsed.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Fix the parser'],
      ['assistant', 'Reading it.'],
      ['assistant', 'Done.'],
    ]);
    expect((await cursorReader.tree(session)).map((e) => e.relPath)).toEqual([
      `projects/home-u-code-app/agent-transcripts/${id}/${id}.jsonl`,
      `projects/home-u-code-app/agent-transcripts/${id}/subagents/task-1.jsonl`,
    ]);
    const x = await cursorReader.messages.extract(session, null);
    expect(x.records.map((r) => [r.role, r.text, r.item_id])).toEqual([
      ['user', 'Fix the parser', 'line:1'],
      ['assistant', 'Reading it.', 'line:3'],
      ['assistant', 'Done.', 'line:4'],
    ]);
  });

  it('claims only its own transcripts, counts lines that are not messages, and finds nothing without a home', async () => {
    const home = join(await tempDir(), '.cursor');
    const path = await writeTranscript(home, 'p', id, [user('hi'), assistant('hello')]);
    expect(await cursorReader.claim(path)).toMatchObject({ sessionId: id, home });
    const stray = join(home, 'projects', 'p', 'agent-transcripts', id, 'other.jsonl');
    await writeFile(stray, `${JSON.stringify(user('hi'))}\n`);
    expect(await cursorReader.claim(stray)).toBeNull();
    await writeFile(path, `${JSON.stringify(user('hi'))}\n{"type":"summary"}\nnot json\n${JSON.stringify(assistant('hello'))}\n`);
    const parsed = await cursorReader.parse((await cursorReader.claim(path)) as DiscoveredSession, { detail: 'full' });
    expect(parsed.badLines).toEqual([{ path, count: 2 }]);
    expect(parsed.record?.turns.map((t) => t.text)).toEqual(['hi', 'hello']);
    expect(await cursorReader.discover(join(await tempDir(), 'missing'))).toEqual({ sessions: [], problems: [] });
  });
});
