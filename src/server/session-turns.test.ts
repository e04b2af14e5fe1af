// The newest page of a big session is served from a tail read: the bytes the process reads for it
// (/proc/self/io `rchar`, every read(2) the process makes) stay a small part of the session's files.
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assistant, jsonl, projectDir, sessionId, toolResult, toolUse, user, write } from '../agents/claude-code/test-support/fixtures.js';
import type { TurnsBody } from './api-types.js';
import { nextTailBytes, tailFromBytes } from './session-turns.js';
import { authed, machine } from './test-support/fixture-home.js';

const haveProcIo = (() => {
  try {
    return /rchar: \d+/.test(readFileSync('/proc/self/io', 'utf8'));
  } catch {
    return false;
  }
})();
const rchar = (): number => Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);

const exchanges = 2400;
const filler = 'lorem ipsum dolor sit amet '.repeat(400);

/** A Claude Code session of ~27 MB whose first and last exchanges each launch a ~4 MB subagent. */
async function bigSession(claudeHome: string): Promise<{ main: string; bytes: number }> {
  const lines: unknown[] = [];
  let n = 0;
  for (let i = 0; i < exchanges; i++) {
    lines.push(user(`prompt ${i}`, n++));
    if (i === 0 || i === exchanges - 1) {
      const call = `toolu_task_${i}`;
      lines.push(assistant(`msg_${i}_a`, [toolUse(call, 'Task', { description: `sub ${i}`, prompt: `go ${i}` })], n++));
      lines.push(user([toolResult(call, [{ type: 'text', text: `subagent ${i} done` }])], n++));
    }
    lines.push(assistant(`msg_${i}`, [{ type: 'text', text: `answer ${i}: ${filler}` }], n++));
  }
  const dir = join(claudeHome, 'projects', projectDir);
  const main = await write(join(dir, `${sessionId}.jsonl`), jsonl(lines));
  let bytes = Buffer.byteLength(jsonl(lines));
  for (const i of [0, exchanges - 1]) {
    const sub = Array.from({ length: 500 }, (_, k) =>
      assistant(`msg_sub_${i}_${k}`, [{ type: 'text', text: `inner ${i}.${k} ${filler}` }], k, { isSidechain: true, agentId: `a${i}` }),
    );
    const base = join(dir, sessionId, 'subagents', `agent-a${i}`);
    await write(`${base}.jsonl`, jsonl([user(`go ${i}`, 0, { isSidechain: true, agentId: `a${i}` }), ...sub]));
    await write(`${base}.meta.json`, JSON.stringify({ agentType: 'Explore', description: `sub ${i}`, toolUseId: `toolu_task_${i}` }));
    bytes += Buffer.byteLength(jsonl(sub));
  }
  return { main, bytes };
}

describe.skipIf(!haveProcIo)('the turns of a big session', () => {
  it('serves the newest page from a tail read, then the whole record for the page above it', async () => {
    const m = await machine({ fill: false });
    const { main, bytes } = await bigSession(join(m.root, '.claude'));
    expect(bytes).toBeGreaterThan(3 * tailFromBytes);
    const path = `/api/session/claude_code/${sessionId}/turns`;
    // Locating the session is not what is measured.
    await m.store.sources.locate('claude_code', sessionId);

    const before = rchar();
    const res = await m.app.request(`${path}?limit=80`, { headers: authed() });
    const read = rchar() - before;
    expect(res.status).toBe(200);
    const tail = (await res.json()) as TurnsBody;
    expect(tail.partial).toBe(true);
    expect(tail.turns).toHaveLength(80);
    expect(read).toBeLessThan(bytes / 4);
    // The live stream follows on from the end of the file as read.
    expect(tail.follow_from).toBe(statSync(main).size);
    // The last exchange's subagent is drawn inside its call; the first one's file was not read.
    const launched = tail.turns.flatMap((t) => t.tool_calls ?? []).find((c) => c.subagent !== undefined);
    expect(launched?.subagent?.turns.length).toBeGreaterThan(0);

    // The page above it parses the whole session; its newest turns are the tail read's.
    const wholeNewest = (await (await m.app.request(`${path}?limit=80&before_end=0`, { headers: authed() })).json()) as TurnsBody;
    expect(wholeNewest.partial).toBe(false);
    expect(wholeNewest.total).toBeGreaterThan(4000);
    expect(wholeNewest.turns).toEqual(tail.turns);
    const older = (await (await m.app.request(`${path}?limit=80&before_end=80`, { headers: authed() })).json()) as TurnsBody;
    expect(older.end).toBe(wholeNewest.start);
    expect(older.turns).toHaveLength(80);
    // Once the whole record is held, the newest page comes from it.
    const again = (await (await m.app.request(`${path}?limit=80`, { headers: authed() })).json()) as TurnsBody;
    expect(again.partial).toBe(false);
    expect(again.total).toBe(wholeNewest.total);

    // A line still being written is not followed from its middle: the stream starts at its start.
    const complete = statSync(main).size;
    appendFileSync(main, '{"type":"user","mess');
    const growing = (await (await m.app.request(`${path}?limit=5`, { headers: authed() })).json()) as TurnsBody;
    expect(growing.follow_from).toBe(complete);
  }, 60_000);
});

describe('the tail read size', () => {
  it('grows by the bytes per turn the last read found, at least doubling', () => {
    // 1 MiB held 40 of 80 turns: the next read is sized for 80 with a quarter to spare.
    expect(nextTailBytes(1 << 20, 40, 80)).toBe(Math.ceil((1 << 20) * 2 * 1.25));
    // Almost enough still doubles, so a few retries reach any size.
    expect(nextTailBytes(1 << 20, 79, 80)).toBe(2 << 20);
    // No turn at all: four times larger.
    expect(nextTailBytes(1 << 20, 0, 80)).toBe(4 << 20);
  });
});
