import { createHash } from 'node:crypto';
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, hasCorpus, tempDir } from '../../../test/support/temp.js';
import { finaliseRecord } from '../../record/finalise.js';
import { makeHomeElider } from '../../record/home-elide.js';
import type { DiscoveredSession } from '../types.js';
import { geminiReader } from './reader.js';

const hashOf = (p: string): string => createHash('sha256').update(p).digest('hex');

async function chatsDir(home: string, hash = 'a'.repeat(64)): Promise<string> {
  const dir = join(home, '.gemini', 'tmp', hash, 'chats');
  await mkdir(dir, { recursive: true });
  return dir;
}

async function parseOnly(session: DiscoveredSession) {
  return geminiReader.parse(session, { detail: 'full' });
}

function lines(...records: unknown[]): string {
  return records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');
}

describe('geminiReader homes', () => {
  it('uses ~/.gemini, or .gemini inside GEMINI_CLI_HOME', () => {
    expect(geminiReader.homes({ env: () => undefined, homedir: '/h' })).toEqual(['/h/.gemini']);
    expect(geminiReader.homes({ env: (n) => (n === 'GEMINI_CLI_HOME' ? '/alt' : undefined), homedir: '/h' })).toEqual(['/alt/.gemini']);
  });
});

describe.skipIf(!hasCorpus)('geminiReader over the corpus', () => {
  it('discovers the JSON and JSONL chats laid out as Gemini CLI lays them out, and parses them', async () => {
    const home = await tempDir();
    const dir = await chatsDir(home, '0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9');
    await copyCorpus('gemini/loose/small.json', join(dir, 'session-2026-01-16T18-34-3739ef95.json'));
    await copyCorpus('gemini/loose/jsonl_v040.jsonl', join(dir, 'session-2026-04-29T21-39-gemini_s.jsonl'));
    const other = await chatsDir(home, '205016864bd110904e9ad8314192344ab398d043e779da15bedbb9ee9be00da2');
    await copyCorpus('gemini/loose/large.json', join(other, 'session-2025-12-16T23-47-b4f17607.json'));
    await writeFile(join(other, 'checkpoint-x.json'), '{}');

    const found = await geminiReader.discover(join(home, '.gemini'));
    expect(found.problems).toEqual([]);
    const ids = found.sessions.map((s) => s.sessionId).sort();
    expect(ids).toEqual(['gemini_stage0_jsonl', 'session-2025-12-16T23-47-b4f17607', 'session-2026-01-16T18-34-3739ef95']);

    const byId = new Map(found.sessions.map((s) => [s.sessionId, s]));
    const small = await parseOnly(byId.get('session-2026-01-16T18-34-3739ef95') as DiscoveredSession);
    expect(small.record?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'Hello'],
      ['reasoning', 'Short reasoning placeholder.'],
      ['assistant', 'Hi!'],
    ]);
    expect(small.record?.models).toEqual(['gemini-3-flash-preview']);
    expect(small.record?.totals).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    expect(small.record?.started_at).toBe('2026-01-16T18:34:00.000Z');
    expect(small.record?.ended_at).toBe('2026-01-16T18:34:10.000Z');

    const jsonl = await parseOnly(byId.get('gemini_stage0_jsonl') as DiscoveredSession);
    expect(jsonl.badLines).toEqual([]);
    const rec = jsonl.record;
    expect(rec?.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(rec?.turns[0]?.text).toBe('Say hello and list files.');
    expect(rec?.turns[1]?.tool_calls).toEqual([
      {
        name: 'run_shell_command',
        format: 'shell',
        input: 'ls -F',
        output: 'Output: AgentSessions/\nREADME.md\nProcess Group PGID: 12345',
        status: 'ok',
      },
    ]);
    expect(rec?.totals).toEqual({
      input_tokens: 11855 + 12069 - 11502,
      output_tokens: 81 + 147,
      cache_read_tokens: 11502,
      cache_creation_tokens: 0,
      reasoning_tokens: 0,
      cost_usd: null,
    });
    expect(rec?.ended_at).toBe('2026-04-29T21:39:45.996Z');

    const large = await parseOnly(byId.get('session-2025-12-16T23-47-b4f17607') as DiscoveredSession);
    const turns = large.record?.turns ?? [];
    expect(turns.map((t) => t.role)).toEqual(['user', 'reasoning', 'assistant', 'assistant', 'event', 'assistant', 'user', 'assistant']);
    expect(turns[4]?.text).toBe('Request cancelled.');
    expect(turns[3]?.tool_calls?.[0]).toMatchObject({
      name: 'run_shell_command',
      input: 'ls /non-existent-directory',
      exit_code: 1,
      status: 'ok',
    });
    expect(turns[2]?.tool_calls?.[0]?.exit_code).toBe(0);
    // Messages without a model of their own carry the one before them; finalise names it once.
    const final = finaliseRecord(large.record!, { detail: 'full', elide: makeHomeElider(null) });
    expect(final.turns.filter((t) => t.model !== undefined).map((t) => t.model)).toEqual(['gemini-3-flash-preview']);
    // The shell ran in /tmp, which is not the project (its hash differs): a working directory all the same.
    expect(large.cwds).toEqual(['/tmp']);
  });

  it('declares the chat file as the custody tree', async () => {
    const home = await tempDir();
    const dir = await chatsDir(home);
    await copyCorpus('gemini/loose/small.json', join(dir, 'session-x.json'));
    const [session] = (await geminiReader.discover(join(home, '.gemini'))).sessions;
    expect(await geminiReader.tree(session as DiscoveredSession)).toEqual([
      { relPath: join('tmp', 'a'.repeat(64), 'chats', 'session-x.json'), kind: 'file', path: join(dir, 'session-x.json') },
    ]);
  });
});

describe('geminiReader JSONL rules', () => {
  it('applies $set patches, replaces a record by id in place and tolerates a torn tail', async () => {
    const home = await tempDir();
    const dir = await chatsDir(home);
    const path = join(dir, 'session-live.jsonl');
    await writeFile(
      path,
      `${lines(
        {
          sessionId: 'live-1',
          projectHash: 'b'.repeat(64),
          startTime: '2026-05-01T10:00:00.000Z',
          lastUpdated: '2026-05-01T10:00:00.000Z',
          kind: 'main',
        },
        { id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: 'first ask' }] },
        { $set: { lastUpdated: '2026-05-01T10:00:02.000Z' } },
        {
          id: 'a1',
          timestamp: '2026-05-01T10:00:03.000Z',
          type: 'gemini',
          content: 'partial',
          model: 'gemini-2.5-pro',
          tokens: { input: 5, output: 1, cached: 0, thoughts: 0, tool: 0, total: 6 },
        },
        'not json at all',
        { id: 'u2', timestamp: '2026-05-01T10:00:05.000Z', type: 'user', content: 'second ask' },
        // The same id again: the later record replaces the earlier one and its tokens count once.
        {
          id: 'a1',
          timestamp: '2026-05-01T10:00:04.000Z',
          type: 'gemini',
          content: 'complete answer',
          model: 'gemini-2.5-pro',
          thoughts: [{ subject: 'Plan', description: 'look first' }],
          tokens: { input: 50, output: 10, cached: 20, thoughts: 3, tool: 2, total: 65 },
        },
        { $set: { lastUpdated: '2026-05-01T10:09:00.000Z' } },
      )}\n{"id":"a2","timestamp":"2026-05-01T10:10:00.000Z","type":"gem`,
    );
    const claimed = await geminiReader.claim(path);
    expect(claimed?.sessionId).toBe('live-1');
    const parsed = await parseOnly(claimed as DiscoveredSession);
    expect(parsed.badLines).toEqual([{ path, count: 1 }]);
    const rec = parsed.record;
    expect(rec?.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'first ask'],
      ['reasoning', 'Plan\nlook first'],
      ['assistant', 'complete answer'],
      ['user', 'second ask'],
    ]);
    expect(rec?.totals).toEqual({
      input_tokens: 50 - 20 + 2,
      output_tokens: 10,
      cache_read_tokens: 20,
      cache_creation_tokens: 0,
      reasoning_tokens: 3,
      cost_usd: null,
    });
    expect(rec?.started_at).toBe('2026-05-01T10:00:00.000Z');
    expect(rec?.ended_at).toBe('2026-05-01T10:09:00.000Z');
  });

  it('finds the project root whose SHA-256 is the projectHash, and strips expanded @ files', async () => {
    const home = await tempDir();
    const root = '/work/demo';
    const dir = await chatsDir(home, hashOf(root));
    const path = join(dir, 'session-root.json');
    await writeFile(
      path,
      JSON.stringify({
        sessionId: 'root-1',
        projectHash: hashOf(root),
        startTime: '2026-05-01T10:00:00.000Z',
        messages: [
          {
            id: 'u',
            timestamp: '2026-05-01T10:00:01.000Z',
            type: 'user',
            content: [{ text: 'explain @src/a.ts' }, { text: '\n--- Content from referenced files ---' }, { text: 'secret file body' }],
          },
          {
            id: 'g',
            timestamp: '2026-05-01T10:00:02.000Z',
            type: 'gemini',
            content: 'done',
            toolCalls: [
              {
                id: 'r',
                name: 'read_file',
                args: { absolute_path: '/work/demo/src/a.ts' },
                status: 'success',
                result: [{ functionResponse: { id: 'r', name: 'read_file', response: { output: 'body' } } }],
              },
              {
                id: 'e',
                name: 'replace',
                args: { file_path: '/work/demo/src/a.ts', old_string: 'a', new_string: 'b' },
                status: 'error',
                result: [{ functionResponse: { id: 'e', name: 'replace', response: { error: 'no match' } } }],
              },
              { id: 's', name: 'run_shell_command', args: { command: 'make', dir_path: 'sub' }, status: 'cancelled' },
            ],
          },
        ],
      }),
    );
    const [session] = (await geminiReader.discover(join(home, '.gemini'))).sessions;
    const parsed = await parseOnly(session as DiscoveredSession);
    expect(parsed.record?.repo).toBe(root);
    expect(parsed.cwds).toEqual([root, '/work/demo/sub']);
    expect(parsed.record?.turns[0]?.text).toBe('explain @src/a.ts');
    expect(parsed.record?.turns[1]?.tool_calls).toEqual([
      {
        name: 'read_file',
        format: 'json',
        path: '/work/demo/src/a.ts',
        input: '{"absolute_path":"/work/demo/src/a.ts"}',
        output: 'body',
        status: 'ok',
      },
      { name: 'replace', format: 'diff', path: '/work/demo/src/a.ts', input: '-a\n+b', output: 'no match', status: 'error' },
      { name: 'run_shell_command', format: 'shell', input: 'make', status: 'interrupted' },
    ]);
  });
});

describe('geminiReader bad input', () => {
  it('counts a torn JSON document as one bad record and holds no session', async () => {
    const home = await tempDir();
    const dir = await chatsDir(home);
    const path = join(dir, 'session-torn.json');
    await writeFile(path, '{\n  "sessionId": "torn-1",\n  "projectHash": "x",\n  "messages": [ {"id": "m1", "ty');
    const found = await geminiReader.discover(join(home, '.gemini'));
    expect(found.sessions.map((s) => s.sessionId)).toEqual(['torn-1']);
    const parsed = await parseOnly(found.sessions[0] as DiscoveredSession);
    expect(parsed.record).toBeNull();
    expect(parsed.badLines).toEqual([{ path, count: 1 }]);
  });

  it('reports an oversized document instead of reading it', async () => {
    const home = await tempDir();
    const dir = await chatsDir(home);
    const path = join(dir, 'session-big.json');
    await writeFile(path, '{"sessionId":"big-1","projectHash":"x","messages":[');
    await truncate(path, 65 * 1024 * 1024); // sparse: no 65 MiB written
    const [session] = (await geminiReader.discover(join(home, '.gemini'))).sessions;
    const parsed = await parseOnly(session as DiscoveredSession);
    expect(parsed.record).toBeNull();
    expect(parsed.problems).toEqual([expect.objectContaining({ path, kind: 'oversized' })]);
  });

  it('a missing home is an empty discovery; claim refuses files that are not chats', async () => {
    const home = await tempDir();
    expect(await geminiReader.discover(join(home, 'nope'))).toEqual({ sessions: [], problems: [] });
    const claude = join(home, 'c.jsonl');
    await writeFile(claude, '{"type":"user","sessionId":"s","message":{"content":"hi"}}\n');
    const plain = join(home, 'p.json');
    await writeFile(plain, '{"name":"pkg"}');
    expect(await geminiReader.claim(claude)).toBeNull();
    expect(await geminiReader.claim(plain)).toBeNull();
    expect(await geminiReader.claim(join(home, 'missing.json'))).toBeNull();
  });
});
