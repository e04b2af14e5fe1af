import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { asCustodyFacts, readFacts } from './facts.js';
import { factsRel } from './paths.js';

const good = {
  version: 1,
  agent: 'claude_code',
  session_id: 's1',
  installation_key: 'k',
  cwd: '/w',
  source_path: '/h/s1.jsonl',
  first_kept_at: '2026-01-01T00:00:00.000Z',
  agentlog_version: '0.1.0',
};

describe('custody facts', () => {
  it('accept every field of its type (cwd may be null) and drop unknown ones', () => {
    expect(asCustodyFacts(good)).toEqual(good);
    expect(asCustodyFacts({ ...good, cwd: null })).toEqual({ ...good, cwd: null });
    expect(asCustodyFacts({ ...good, extra: 1 })).toEqual(good);
  });

  it('refuse a body with any field missing or of the wrong type', () => {
    const fields = Object.keys(good) as (keyof typeof good)[];
    const bad: unknown[] = [
      null,
      [],
      'facts',
      { ...good, version: 2 },
      { ...good, agent: 'not_an_agent' },
      { ...good, cwd: 3 },
      ...fields.flatMap((k) => [
        { ...good, [k]: undefined },
        { ...good, [k]: 7 },
      ]),
    ];
    for (const body of bad) expect(asCustodyFacts(body), JSON.stringify(body)).toBeNull();
  });

  it('are read from beside the main file, and a malformed file reads as none', async () => {
    const root = await tempDir();
    const path = join(root, factsRel('projects/-w/s1.jsonl'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(good));
    expect(await readFacts(root, 'projects/-w/s1.jsonl')).toEqual(good);
    await writeFile(path, JSON.stringify({ ...good, session_id: 1 }));
    expect(await readFacts(root, 'projects/-w/s1.jsonl')).toBeNull();
    await writeFile(path, '{"version":1');
    expect(await readFacts(root, 'projects/-w/s1.jsonl')).toBeNull();
  });
});
