import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { defaultKimiBounds, makeKimiReader, type KimiBounds } from './index.js';
import { prompt, state, step, writeSession, type FixtureSession } from './test-support/wire.js';

const main = [
  prompt('go', 1),
  ...step('s1', 2, {
    text: 'ok',
    calls: [{ id: 'Agent_0', name: 'Agent', args: { prompt: 'p' }, output: 'agent_id: agent-0\nstatus: completed' }],
  }),
];
const child = [prompt('p', 3, { kind: 'system_trigger', name: 'subagent' }), ...step('c1', 4, { text: 'child words' })];

async function run(fixture: FixtureSession, bounds: Partial<KimiBounds>) {
  const home = join(await tempDir(), '.kimi-code');
  const dir = await writeSession(home, 'session_bounded', fixture);
  const reader = makeKimiReader({ ...defaultKimiBounds, ...bounds });
  const parsed = await reader.parse((await reader.claim(dir))!, { detail: 'full' });
  return { dir, home, parsed, reader };
}

const wire = (dir: string, agent: string) => join(dir, 'agents', agent, 'wire.jsonl');

describe('Kimi fail-closed bounds', () => {
  it('reports an oversized main wire and reads nothing of it', async () => {
    const { dir, parsed } = await run({ wires: { main } }, { wireBytes: 200 });
    expect(parsed.record).toBeNull();
    expect(parsed.problems).toEqual([
      { path: wire(dir, 'main'), kind: 'oversized', reason: expect.stringMatching(/over the 200-byte bound/) },
    ]);
  });

  it('leaves out a child wire over its bound whole, keeping the launching call as the log wrote it', async () => {
    const bigChild = [...child, prompt(`later ${'x'.repeat(3000)}`, 5, { kind: 'system_trigger', name: 'subagent' })];
    const probe = await run({ wires: { main } }, {});
    const mainSize = (await stat(wire(probe.dir, 'main'))).size;
    const { parsed } = await run({ wires: { main, 'agent-0': bigChild } }, { wireBytes: mainSize + 100 });
    const call = parsed.record!.turns.flatMap((t) => t.tool_calls ?? [])[0]!;
    expect(call.subagent).toBeUndefined();
    expect(call.output).toBe('agent_id: agent-0\nstatus: completed');
    expect(parsed.problems.map((p) => [p.kind, p.path.endsWith('agent-0/wire.jsonl')])).toEqual([['oversized', true]]);
    expect(JSON.stringify(parsed.record)).not.toContain('child words');
  });

  it('fails a wire closed when one record is over the record bound', async () => {
    const big = prompt('x'.repeat(5000), 5);
    const { dir, parsed } = await run({ wires: { main: [...main, big] } }, { wireRecordBytes: 4096 });
    expect(parsed.record).toBeNull();
    expect(parsed.problems).toEqual([
      { path: wire(dir, 'main'), kind: 'oversized', reason: expect.stringMatching(/record is over the 4096-byte bound/) },
    ]);
  });

  it("stops at the session's byte, record and agent budgets, main first", async () => {
    const fixture = {
      state: state('/repo', { main: null, 'agent-0': 'main', 'agent-1': 'main' }),
      wires: { main, 'agent-0': child, 'agent-1': child },
    };
    const { dir } = await run(fixture, {});
    const mainSize = (await stat(wire(dir, 'main'))).size;
    const byBytes = await run(fixture, { sessionBytes: mainSize + 10 });
    expect(byBytes.parsed.problems.map((p) => p.path.split('/agents/')[1])).toEqual(['agent-0/wire.jsonl', 'agent-1/wire.jsonl']);
    expect(byBytes.parsed.record).not.toBeNull();
    const byRecords = await run(fixture, { sessionRecords: main.length + child.length });
    expect(byRecords.parsed.problems.map((p) => [p.kind, p.path.split('/agents/')[1]])).toEqual([['oversized', 'agent-1/wire.jsonl']]);
    expect(byRecords.parsed.record!.turns.flatMap((t) => t.tool_calls ?? [])[0]?.subagent?.id).toBe('agent-0');
    const byAgents = await run(fixture, { sessionAgents: 2 });
    expect(byAgents.parsed.problems).toEqual([
      { path: byAgents.dir, kind: 'oversized', reason: '3 agents, over the 2-agent bound; only the first 2 read' },
    ]);
  });

  it('reports an oversized state.json but still reads the wires', async () => {
    const { dir, parsed } = await run({ state: state('/repo'), wires: { main } }, { stateBytes: 20 });
    expect(parsed.problems).toEqual([{ path: join(dir, 'state.json'), kind: 'oversized', reason: expect.any(String) }]);
    expect(parsed.record?.repo).toBe('');
    expect(parsed.record?.turns.length).toBeGreaterThan(0);
  });

  it('rejects an oversized index, or one with an oversized record, and still walks the folders', async () => {
    const { home, dir } = await run({ wires: { main } }, {});
    const index = join(home, 'session_index.jsonl');
    await writeFile(
      index,
      `${JSON.stringify({ sessionId: 'session_bounded', sessionDir: dir, workDir: '/w' })}\n${JSON.stringify({ sessionId: 'x', pad: 'y'.repeat(600) })}\n`,
    );
    const small = makeKimiReader({ ...defaultKimiBounds, indexRecordBytes: 512 });
    const found = await small.discover(home);
    expect(found.problems).toEqual([{ path: index, kind: 'oversized', reason: expect.stringMatching(/index not used/) }]);
    expect(found.sessions.map((s) => [s.path, s.cwd])).toEqual([[dir, undefined]]);
    const tiny = await makeKimiReader({ ...defaultKimiBounds, indexBytes: 100 }).discover(home);
    expect(tiny.problems.map((p) => p.kind)).toEqual(['oversized']);
    expect(tiny.sessions).toHaveLength(1);
    expect((await makeKimiReader().discover(home)).sessions.map((s) => s.cwd)).toEqual(['/w']);
  });
});

describe('Kimi wire paths', () => {
  it('does not read a wire whose agent folder links outside the session folder', async () => {
    const { symlink } = await import('node:fs/promises');
    const root = await tempDir();
    const outside = await writeSession(join(root, 'other'), 'session_out', { wires: { 'agent-9': child } });
    const home = join(root, '.kimi-code');
    const dir = await writeSession(home, 'session_link', { state: state('/repo', { main: null, 'agent-9': 'main' }), wires: { main } });
    await symlink(join(outside, 'agents', 'agent-9'), join(dir, 'agents', 'agent-9'));
    const reader = makeKimiReader();
    const parsed = await reader.parse((await reader.claim(dir))!, { detail: 'full' });
    expect(parsed.problems).toEqual([
      { path: wire(dir, 'agent-9'), kind: 'unreadable', reason: expect.stringMatching(/outside its session folder/) },
    ]);
    expect(JSON.stringify(parsed.record)).not.toContain('child words');
  });

  it('reads a wire whose agent folder links to another folder inside the session folder', async () => {
    const { rename, symlink } = await import('node:fs/promises');
    const home = join(await tempDir(), '.kimi-code');
    const dir = await writeSession(home, 'session_inner_link', {
      state: state('/repo', { main: null, 'agent-0': 'main' }),
      wires: { main, 'agent-0': child },
    });
    await rename(join(dir, 'agents', 'agent-0'), join(dir, 'kept'));
    await symlink(join(dir, 'kept'), join(dir, 'agents', 'agent-0'));
    const reader = makeKimiReader();
    const parsed = await reader.parse((await reader.claim(dir))!, { detail: 'full' });
    expect(parsed.problems).toEqual([]);
    expect(JSON.stringify(parsed.record)).toContain('child words');
  });
});
