import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import type { DiscoveredSession } from '../types.js';
import { opencodeReader } from './reader.js';
import { cutToolPart } from './summary-cut.js';
import { assistantMessage, userMessage, writeDatabase, writeJsonTree, type FixtureSession } from './test-support/fixtures.js';

const long = (words: string): string => `${words}\n${'line of output with "quotes" and \\ slashes, naïve 日本語\n'.repeat(40)}`;

describe('cutToolPart', () => {
  it('empties the long outputs of a tool part other than task, and leaves other parts to a whole parse', () => {
    const bash = {
      type: 'tool',
      tool: 'bash',
      state: { status: 'completed', output: long('x'), metadata: { output: long('y'), exit: 2 } },
    };
    expect(cutToolPart(Buffer.from(JSON.stringify(bash)))).toEqual({
      ...bash,
      state: { ...bash.state, output: '', metadata: { output: '', exit: 2 } },
    });
    const task = { type: 'tool', tool: 'task', state: { status: 'completed', output: long('task_id: ses_kid') } };
    expect(cutToolPart(Buffer.from(JSON.stringify(task)))).toBeUndefined();
    expect(cutToolPart(Buffer.from(JSON.stringify({ type: 'text', text: 'hi', output: long('z') })))).toBeUndefined();
    expect(cutToolPart(Buffer.from(JSON.stringify({ type: 'tool', tool: 'bash', state: { output: 'short' } })))).toBeUndefined();
  });
});

/**
 * Two launches whose parts name their children only in their (long) outputs, crosswise to the
 * order the children were created in: pairing by launch order instead would swap them.
 */
function crossedLaunches(): FixtureSession[] {
  const t0 = 1_760_000_000_000;
  const task = (id: string, callID: string, child: string) => ({
    id,
    data: {
      type: 'tool',
      tool: 'task',
      callID,
      state: {
        status: 'completed',
        input: { description: callID, prompt: callID, subagent_type: 'general' },
        output: long(`task_id: ${child}`),
      },
    },
  });
  const kid = (id: string, created: number): FixtureSession => ({
    id,
    parentId: 'ses_top',
    directory: '/work/app',
    title: id,
    created,
    updated: created + 100,
    messages: [
      userMessage(`msg_${id}_1`, created, 'go'),
      assistantMessage(`msg_${id}_2`, created + 10, [{ id: `prt_${id}`, data: { type: 'text', text: `I am ${id}` } }]),
    ],
  });
  return [
    {
      id: 'ses_top',
      directory: '/work/app',
      title: 'Top',
      created: t0,
      updated: t0 + 60_000,
      messages: [
        userMessage('msg_001', t0 + 1000, 'Go'),
        assistantMessage('msg_002', t0 + 2000, [
          {
            id: 'prt_002_1',
            data: {
              type: 'tool',
              tool: 'bash',
              callID: 'c0',
              state: { status: 'error', input: { command: 'make' }, output: long('fail'), metadata: { exit: 2, output: long('fail') } },
            },
          },
          task('prt_002_2', 'call_x', 'ses_kidTwo'),
          task('prt_002_3', 'call_y', 'ses_kidOne'),
        ]),
      ],
    },
    kid('ses_kidOne', t0 + 3000),
    kid('ses_kidTwo', t0 + 4000),
  ];
}

/** The full record with what only the full detail level carries taken out of its tool calls. */
function asSummary(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) => (['format', 'input', 'output', 'path'].includes(key) ? undefined : v));
}

describe.each([
  ['database', async (home: string) => writeDatabase(join(home, 'opencode.db'), crossedLaunches())],
  // Text a UTF-16 database casts to a blob is UTF-16: there parts are read as text.
  ['UTF-16 database', async (home: string) => writeDatabase(join(home, 'opencode.db'), crossedLaunches(), 'wal', 'UTF-16le')],
  ['JSON tree', async (home: string) => writeJsonTree(join(home, 'storage'), crossedLaunches())],
])('opencodeReader at summary detail (%s)', (_store, write) => {
  it('reads what the full detail level reads, outputs aside, and still finds children a task output names', async () => {
    const home = join(await tempDir(), 'opencode');
    await mkdir(home, { recursive: true });
    await write(home);
    const found = await opencodeReader.discover(home);
    const session = found.sessions.find((s) => s.sessionId === 'ses_top') as DiscoveredSession;
    const summary = (await opencodeReader.parse(session, { detail: 'summary' })).record;
    const full = (await opencodeReader.parse(session, { detail: 'full' })).record;
    const calls = summary?.turns.flatMap((t) => t.tool_calls ?? []) ?? [];
    expect(calls.map((c) => [c.name, c.status, c.exit_code, c.subagent?.id])).toEqual([
      ['bash', 'error', 2, undefined],
      ['task', 'ok', undefined, 'ses_kidTwo'],
      ['task', 'ok', undefined, 'ses_kidOne'],
    ]);
    expect(summary).toEqual(asSummary(full));
  });
});
