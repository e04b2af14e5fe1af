import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp.js';
import { defaultKimiBounds, kimiReader, readKimiSession } from './index.js';
import { kimiRecord } from './record.js';
import type { KimiSessionLogs } from './session-read.js';
import { outputHeadChars } from './summary-cut.js';
import { at, prompt, state, step, writeSession, type WireRecord } from './test-support/wire.js';

/** The logs as summary detail reads them: only an output's head can differ from a full read. */
function headsOnly(logs: KimiSessionLogs): unknown {
  return [...logs.logs].map(([id, log]) => ({
    id,
    ...log,
    entries: log.entries.map((e) =>
      e.kind === 'step' ? { ...e, calls: e.calls.map((c) => ({ ...c, output: c.output?.slice(0, outputHeadChars) ?? null })) } : e,
    ),
  }));
}

/** The summary-detail record of a session read with or without the cut. */
async function summaryOf(dir: string, cut: boolean) {
  return kimiRecord('session_cut', await readKimiSession(dir, defaultKimiBounds, cut), undefined, 'summary')?.record;
}

async function session(wires: Record<string, WireRecord[]>) {
  const home = join(await tempDir(), '.kimi-code');
  const agents = Object.fromEntries(Object.keys(wires).map((id) => [id, id === 'main' ? null : 'main']));
  const dir = await writeSession(home, 'session_cut', { state: state('/work/app', agents), wires });
  return { dir, found: (await kimiReader.claim(dir))! };
}

const launch = (id: string, output: string, s: number): WireRecord[] =>
  step(`s-${id}`, s, { calls: [{ id, name: 'Agent', args: { prompt: 'look', description: 'a look' }, output }] });
const linkText = 'agent_id: child\nstatus: failed\n';

describe('Kimi tool outputs at summary detail', () => {
  it('reads the same session as a full read, whatever an output holds before its launch link', async () => {
    const { dir, found } = await session({
      main: [
        prompt('go', 1),
        // ASCII padding: the cut keeps the head.
        ...launch('A1', `${'a'.repeat(outputHeadChars - 100)}\n${linkText}${'tail '.repeat(3000)}`, 2),
        // Escaped and wide characters: the cut falls short of the head, the line is read whole.
        ...launch('A2', `${'"\\é\n'.repeat(1000)}\n${linkText}${'🙂'.repeat(5000)}`, 3),
        // A line that is not a tool result but carries a long "output": never cut.
        {
          type: 'context.append_loop_event',
          event: { type: 'content.part', uuid: 'p', part: { type: 'text', text: 'said' }, output: 'o'.repeat(9000) },
          time: at(4),
        },
      ],
      child: [prompt('task', 2, { kind: 'system_trigger', name: 'agent' }), ...step('c1', 3, { text: 'done' })],
    });
    const full = await readKimiSession(dir, defaultKimiBounds);
    const summary = await readKimiSession(dir, defaultKimiBounds, true);
    expect(headsOnly(summary)).toEqual(headsOnly(full));
    const calls = full.logs.get('main')!.entries.flatMap((e) => (e.kind === 'step' ? e.calls : []));
    expect(calls.map((c) => c.childAgentId)).toEqual(['child', 'child']);

    expect(await summaryOf(dir, true)).toEqual(await summaryOf(dir, false));
    const parsed = await kimiReader.parse(found, { detail: 'summary' });
    const agentCall = parsed.record!.turns.flatMap((t) => t.tool_calls ?? []).find((c) => c.subagent !== undefined);
    expect(agentCall?.subagent?.status).toBe('failed');
  });

  it('summarises a session of one agent as a full read does, though its outputs are not read', async () => {
    const { dir } = await session({
      main: [
        prompt('go', 1),
        ...launch('A1', `${linkText}${'tail '.repeat(3000)}`, 2),
        ...step('s2', 3, {
          text: 'after',
          calls: [{ id: 'B1', name: 'Bash', args: { command: 'ls' }, output: 'x\n'.repeat(5000), isError: true }],
        }),
      ],
    });
    const summary = await summaryOf(dir, true);
    expect(summary).toEqual(await summaryOf(dir, false));
    const main = (await readKimiSession(dir, defaultKimiBounds, true)).logs.get('main')!;
    expect(main.entries.flatMap((e) => (e.kind === 'step' ? e.calls.map((c) => c.output) : []))).toEqual(['', '']);
  });

  it('keeps the head of an output that spells its launch link with escapes', async () => {
    const home = join(await tempDir(), '.kimi-code');
    const ev = (event: WireRecord): string => `${JSON.stringify({ type: 'context.append_loop_event', event, time: at(2) })}\n`;
    // `\u0061gent_id:` reads as `agent_id:` (and `\u0073tatus:` as `status:`): the raw bytes show neither word.
    const escapedLink = String.raw`\u0061gent_id: child\n\u0073tatus: failed\n`;
    const result = ev({ type: 'tool.result', toolCallId: 'A1', result: { output: 'X' } }).replace(
      '"X"',
      `"${escapedLink}${'pad '.repeat(3000)}"`,
    );
    const dir = await writeSession(home, 'session_cut', {
      state: state('/work/app', { main: null, child: 'main' }),
      wires: {
        main: [
          prompt('go', 1),
          ...step('s1', 2, { calls: [{ id: 'B1', name: 'Bash', args: { command: 'ls' }, output: 'plain '.repeat(3000) }] }),
        ],
        child: [prompt('task', 2, { kind: 'system_trigger', name: 'agent' }), ...step('c1', 3, { text: 'done' })],
      },
      tails: { main: ev({ type: 'tool.call', uuid: 'A1', toolCallId: 'A1', name: 'Agent', args: { prompt: 'look' } }) + result },
    });
    expect(await summaryOf(dir, true)).toEqual(await summaryOf(dir, false));
    const main = (await readKimiSession(dir, defaultKimiBounds, true)).logs.get('main')!;
    const calls = main.entries.flatMap((e) => (e.kind === 'step' ? e.calls : []));
    // The plain output holds neither word: it is cut to nothing; the escaped link survives.
    expect(calls.map((c) => [c.output?.length ?? null, c.childAgentId])).toEqual([
      [0, null],
      [expect.any(Number), 'child'],
    ]);
    const agentCall = (await summaryOf(dir, true))!.turns.flatMap((t) => t.tool_calls ?? []).find((c) => c.subagent !== undefined);
    expect(agentCall?.subagent?.status).toBe('failed');
  });
});
