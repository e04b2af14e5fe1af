import { stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { ToolCall } from '../../record/types.js';
import { claudeCodeReader } from './reader.js';
import { assistant, at, jsonl, toolResult, toolUse, usage, user, write, writeMain, writeSubagent } from './test-support/fixtures.js';

const side = (agentId: string): Record<string, unknown> => ({ isSidechain: true, agentId });

function launch(n: number, toolUseId: string, prompt: string): Record<string, unknown>[] {
  return [
    user(`Ask ${n}`, n),
    assistant(
      `m${n}`,
      [toolUse(toolUseId, 'Task', { description: prompt, prompt, subagent_type: 'Explore' })],
      n + 1,
      {},
      { usage: usage(10, 1) },
    ),
  ];
}

function finished(n: number, toolUseId: string, agentId: string): Record<string, unknown> {
  return user([toolResult(toolUseId, [{ type: 'text', text: `${agentId} done` }])], n, { toolUseResult: { status: 'completed', agentId } });
}

function subagentLines(agentId: string, prompt: string, n: number): Record<string, unknown>[] {
  return [
    user(prompt, n, side(agentId)),
    assistant(`s-${agentId}`, [{ type: 'text', text: `${agentId} answer` }], n + 1, side(agentId), { usage: usage(5, 1) }),
  ];
}

/**
 * A session whose first half launched `aold` (meta file broken, so reading it shows in `badLines`)
 * and whose second half launched `anew` (joined by its result's agent id), `arun` (still running:
 * joined only by its meta's tool use id, among files written since it was launched) and `a9parent`, which itself launched `a0nested` (a file
 * listed before its parent's).
 */
async function session(): Promise<{ main: string; tailFrom: number }> {
  const h = join(await tempDir(), '.claude');
  const head = [...launch(1, 'toolu_old', 'Old task'), finished(3, 'toolu_old', 'aold')];
  const tail = [
    ...launch(10, 'toolu_new', 'New task'),
    finished(12, 'toolu_new', 'anew'),
    ...launch(20, 'toolu_parent', 'Parent task'),
    finished(30, 'toolu_parent', 'a9parent'),
    ...launch(40, 'toolu_run', 'Running task'),
  ];
  const main = await writeMain(h, [...head, ...tail]);
  const tailFrom = Buffer.byteLength(jsonl(head));
  const old = await writeSubagent(h, 'aold', subagentLines('aold', 'Old task', 2));
  // Last written long before the running subagent was launched: not a file it could be writing.
  await utimes(old, new Date(at(-3600)), new Date(at(-3600)));
  await write(main.replace(/\.jsonl$/, '/subagents/agent-aold.meta.json'), '{ not json');
  await writeSubagent(h, 'anew', subagentLines('anew', 'New task', 11), { agentType: 'Explore', toolUseId: 'toolu_new' });
  await writeSubagent(h, 'arun', subagentLines('arun', 'Running task', 41), { agentType: 'Explore', toolUseId: 'toolu_run' });
  await writeSubagent(
    h,
    'a9parent',
    [
      user('Parent task', 21, side('a9parent')),
      assistant(
        'p1',
        [toolUse('toolu_child', 'Task', { description: 'Child', prompt: 'Child task', subagent_type: 'Explore' })],
        22,
        side('a9parent'),
      ),
      user([toolResult('toolu_child', 'child done')], 25, {
        ...side('a9parent'),
        toolUseResult: { status: 'completed', agentId: 'a0nested' },
      }),
    ],
    { agentType: 'Explore', toolUseId: 'toolu_parent' },
  );
  await writeSubagent(h, 'a0nested', subagentLines('a0nested', 'Child task', 23), {
    agentType: 'Explore',
    toolUseId: 'toolu_child',
    parentAgentId: 'a9parent',
  });
  expect((await stat(main)).size).toBeGreaterThan(tailFrom);
  return { main, tailFrom };
}

const readNames = (paths: readonly string[]): string[] =>
  paths
    .map((p) => /agent-([^/.]+)\.(jsonl|meta\.json)$/.exec(p)?.[1])
    .filter((n): n is string => n !== undefined)
    .sort();

function subagentIds(calls: readonly ToolCall[]): string[] {
  return calls.flatMap((c) =>
    c.subagent === undefined ? [] : [c.subagent.id, ...subagentIds(c.subagent.turns.flatMap((t) => t.tool_calls ?? []))],
  );
}

describe('a tail view (ParseContext.mainFrom) of a Claude Code session', () => {
  it('reads only the subagents the lines after the start launched, nested ones too', async () => {
    const { main, tailFrom } = await session();
    const discovered = await claudeCodeReader.claim(main);
    expect(discovered).not.toBeNull();
    const parsed = await claudeCodeReader.parse(discovered!, { detail: 'full', mainFrom: tailFrom });
    expect(parsed.readFrom).toBe(tailFrom);
    const read = (parsed.lineTally ?? []).map((t) => t.path);
    expect(readNames(read)).toEqual(['a0nested', 'a9parent', 'anew', 'arun']);
    // The broken meta of the subagent launched before the start is not even opened.
    expect(parsed.badLines).toEqual([]);
    const ids = subagentIds(parsed.record!.turns.flatMap((t) => t.tool_calls ?? []));
    expect(ids.sort()).toEqual(['a0nested', 'a9parent', 'anew', 'arun']);
  });

  it('reads every subagent and meta file when it starts at the top', async () => {
    const { main } = await session();
    const parsed = await claudeCodeReader.parse((await claudeCodeReader.claim(main))!, { detail: 'full' });
    expect(readNames((parsed.lineTally ?? []).map((t) => t.path))).toEqual(['a0nested', 'a9parent', 'anew', 'aold', 'arun']);
    expect(readNames(parsed.badLines.map((b) => b.path))).toEqual(['aold']);
  });
});
