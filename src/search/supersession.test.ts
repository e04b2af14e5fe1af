// Supersession end to end, per agent: what was rewound, undone or abandoned stays findable, flagged
// superseded, and `includeSuperseded: false` hides it.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { codexReader } from '../agents/codex/reader.js';
import { Rollout, writeRollout } from '../agents/codex/test-support/rollout-fixture.js';
import { kimiReader } from '../agents/kimi/reader.js';
import { prompt, state, step, writeSession as writeKimi } from '../agents/kimi/test-support/wire.js';
import { piReader } from '../agents/pi/reader.js';
import { assistant, header, user, writePiFile } from '../agents/pi/test-support/pi.js';
import type { AgentReader } from '../agents/types.js';
import { search } from './query.js';
import { ShardCache } from './shard-cache.js';
import { sweep } from './sweep.js';

async function indexOne(
  reader: AgentReader,
  home: string,
): Promise<(q: string, includeSuperseded?: boolean) => Promise<[string, boolean][]>> {
  const root = `${home}/store`;
  const r = await sweep({ root, agents: [{ reader, homes: [home] }], windowDays: 0 });
  expect(r.failed).toEqual([]);
  return async (q, includeSuperseded = true) => {
    const body = await search({ q, includeSuperseded, windowDays: 0 }, { root, cache: new ShardCache(root) });
    return body.sessions.flatMap((s) => s.hits.map((h): [string, boolean] => [h.snippet, h.superseded]));
  };
}

describe('supersession per agent', () => {
  it('Pi: prose on an abandoned branch is superseded', async () => {
    const home = await tempDir();
    await writePiFile(home, '2026-04-01T09-00-00-000Z_01JPI.jsonl', [
      header('01JPI'),
      user('u1', null, 'first pi prompt', 1),
      assistant('old', 'u1', 2, { text: 'abandoned pi answer' }),
      assistant('new', 'u1', 3, { text: 'current pi answer' }),
    ]);
    const find = await indexOne(piReader, home);
    expect(await find('pi answer')).toEqual([
      ['current pi answer', false],
      ['abandoned pi answer', true],
    ]);
    expect(await find('pi answer', false)).toEqual([['current pi answer', false]]);
    expect(await find('first pi prompt')).toEqual([['first pi prompt', false]]);
  });

  it('Kimi: an undone turn is superseded', async () => {
    const home = await tempDir();
    await writeKimi(home, 'session_0a1b2c3d', {
      state: state('/work/demo'),
      wires: {
        main: [
          prompt('old searchable prompt', 1),
          ...step('s1', 2, { text: 'old searchable answer' }),
          { type: 'context.undo', count: 1, time: Date.parse('2026-03-01T10:00:03.000Z') },
          prompt('new searchable prompt', 4),
          ...step('s2', 5, { text: 'new searchable answer' }),
        ],
      },
    });
    const find = await indexOne(kimiReader, home);
    expect(await find('searchable')).toEqual([
      ['new searchable answer', false],
      ['new searchable prompt', false],
      ['old searchable answer', true],
    ]);
    expect((await find('old searchable', false)).length).toBe(0);
  });

  it('Codex: a rolled-back turn is superseded, later turns are not', async () => {
    const home = await tempDir();
    const id = '019a0000-0000-7000-8000-0000000000aa';
    await writeRollout(
      home,
      id,
      new Rollout(id)
        .meta()
        .userEvent('turn one widget')
        .assistant('answer one widget')
        .userEvent('turn two widget')
        .assistant('answer two widget')
        .event('thread_rolled_back', { num_turns: 1 })
        .userEvent('turn three widget'),
    );
    const find = await indexOne(codexReader, home);
    const hits = await find('widget');
    expect(hits).toContainEqual(['turn three widget', false]);
    // Three hits shown per session: the newest first.
    expect(hits[1]).toEqual(['answer two widget', true]);
    expect(hits[2]).toEqual(['turn two widget', true]);
    expect(await find('two widget', false)).toEqual([]);
  });
});
