// Every reader puts each request's tokens on its own turn, so `usage daily` splits a session over
// midnight exactly where the requests fell: three requests at 14:50 and 15:10 UTC on Dec 31 and at
// 00:10 UTC on Jan 1 are two days and one in UTC, one day and two in Tokyo (UTC+9).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import * as claude from '../agents/claude-code/test-support/fixtures.js';
import { Rollout, writeRollout } from '../agents/codex/test-support/rollout-fixture.js';
import { FixtureSession as IntendantSession } from '../agents/intendant/test-support/fixture.js';
import * as kimi from '../agents/kimi/test-support/wire.js';
import * as opencode from '../agents/opencode/test-support/fixtures.js';
import * as pi from '../agents/pi/test-support/pi.js';
import { readerFor } from '../agents/registry.js';
import type { AgentId } from '../record/types.js';
import { usageReport } from './collect.js';

const requests = ['2025-12-31T14:50:00.000Z', '2025-12-31T15:10:00.000Z', '2026-01-01T00:10:00.000Z'].map((t) => Date.parse(t));
const input = [100, 200, 400];
const output = [10, 20, 40];
/** A minute before each request, the person asks. */
const ask = (i: number): number => (requests[i] as number) - 60_000;
const iso = (ms: number): string => new Date(ms).toISOString();

interface Case {
  /** Writes the session into `home` (the agent's own home folder). */
  write(home: string): Promise<void>;
  /** What the agent's log adds to every request beyond `input` and `output` (cache counts it always states). */
  extraPerRequest: number;
}

// The first seven readers put each request's usage on its turn. The eight added after them are not
// here yet: their days are still split by estimate (`estimated_day_split_sessions` says how many).
const cases: Partial<Record<AgentId, Case>> = {
  claude_code: {
    extraPerRequest: 0,
    async write(home) {
      const s = (ms: number): number => (ms - Date.UTC(2026, 0, 1)) / 1000;
      const lines: unknown[] = [];
      for (const i of [0, 1, 2]) {
        lines.push(claude.user(`ask ${i}`, s(ask(i))));
        const usage = claude.usage(input[i] as number, output[i] as number);
        // A streamed message: its thinking and its text are two lines of one id, each repeating the usage.
        lines.push(claude.assistant(`msg_${i}`, [{ type: 'thinking', thinking: 'hmm' }], s(requests[i] as number), {}, { usage }));
        lines.push(claude.assistant(`msg_${i}`, [{ type: 'text', text: `answer ${i}` }], s(requests[i] as number) + 1, {}, { usage }));
      }
      await claude.writeMain(home, lines);
    },
  },
  codex: {
    extraPerRequest: 0,
    async write(home) {
      const id = '019a0000-0000-7000-8000-00000000abcd';
      let body = '';
      let inSum = 0;
      let outSum = 0;
      for (const i of [0, 1, 2]) {
        inSum += input[i] as number;
        outSum += output[i] as number;
        const r = new Rollout(id, iso(ask(i)));
        if (i === 0) r.meta().turnContext();
        body += r.user(`ask ${i}`).userEvent(`ask ${i}`).text();
        // Codex's counters are cumulative: each token_count holds the thread's totals so far.
        body += new Rollout(id, iso(requests[i] as number)).assistant(`answer ${i}`).tokens(inSum, 0, outSum, 0).text();
      }
      await writeRollout(home, id, body);
    },
  },
  gemini: {
    extraPerRequest: 0,
    async write(home) {
      const hash = 'c'.repeat(64);
      const chats = join(home, 'tmp', hash, 'chats');
      await mkdir(chats, { recursive: true });
      const lines: unknown[] = [
        { sessionId: 'gemini-midnight', projectHash: hash, startTime: iso(ask(0)), lastUpdated: iso(requests[2] as number), kind: 'main' },
      ];
      for (const i of [0, 1, 2]) {
        lines.push({ id: `u${i}`, timestamp: iso(ask(i)), type: 'user', content: [{ text: `ask ${i}` }] });
        lines.push({
          id: `m${i}`,
          timestamp: iso(requests[i] as number),
          type: 'gemini',
          content: `answer ${i}`,
          thoughts: [],
          tokens: {
            input: input[i],
            output: output[i],
            cached: 0,
            thoughts: 0,
            tool: 0,
            total: (input[i] as number) + (output[i] as number),
          },
          model: 'gemini-2.5-pro',
        });
      }
      await writeFile(join(chats, 'session-2025-12-31T14-49-midnight.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    },
  },
  kimi: {
    extraPerRequest: 0,
    async write(home) {
      const s = (ms: number): number => (ms - kimi.t0) / 1000;
      const main: kimi.WireRecord[] = [];
      for (const i of [0, 1, 2]) {
        main.push(kimi.prompt(`ask ${i}`, s(ask(i))));
        main.push(
          ...kimi.step(`k${i}`, s(requests[i] as number), {
            text: `answer ${i}`,
            usage: { inputOther: input[i] as number, output: output[i] as number },
          }),
        );
      }
      await kimi.writeSession(home, 'session_midnight', { state: kimi.state('/work/demo'), wires: { main } });
    },
  },
  pi: {
    // Pi states a cache read of 5 and a cache write of 1 on every fixture message.
    extraPerRequest: 6,
    async write(home) {
      const s = (ms: number): number => (ms - pi.t0) / 1000;
      const lines: pi.PiLine[] = [pi.header('pi-midnight')];
      let parent: string | null = null;
      for (const i of [0, 1, 2]) {
        lines.push(pi.user(`u${i}`, parent, `ask ${i}`, s(ask(i))));
        lines.push(
          pi.assistant(`a${i}`, `u${i}`, s(requests[i] as number), {
            text: `answer ${i}`,
            input: input[i] as number,
            output: output[i] as number,
          }),
        );
        parent = `a${i}`;
      }
      await pi.writePiFile(home, '2025-12-31T14-49-00-000Z_pi-midnight.jsonl', lines);
    },
  },
  intendant: {
    extraPerRequest: 0,
    async write(home) {
      const session = await IntendantSession.create(home, 'int-midnight', {
        project_root: '/work/demo',
        task: 'ask 0',
        status: 'completed',
      });
      for (const i of [0, 1, 2]) {
        session.laneUser(ask(i), 2 * i + 1, `ask ${i}`, { turn: i + 1 });
        await session.laneAssistant(requests[i] as number, i + 1, 2 * i + 2, `answer ${i}`, {
          prompt: input[i] as number,
          completion: output[i] as number,
          cached: 0,
          cache_creation: 0,
        });
      }
      await session.save();
    },
  },
  opencode: {
    extraPerRequest: 0,
    async write(home) {
      await mkdir(home, { recursive: true });
      const messages: opencode.FixtureMessage[] = [];
      for (const i of [0, 1, 2]) {
        messages.push(opencode.userMessage(`msg_${i}u`, ask(i), `ask ${i}`));
        messages.push(
          opencode.assistantMessage(
            `msg_${i}a`,
            requests[i] as number,
            [{ id: `prt_${i}a`, data: { type: 'text', text: `answer ${i}` } }],
            {
              cost: undefined,
              tokens: { input: input[i], output: output[i], reasoning: 0, cache: { read: 0, write: 0 } },
            },
          ),
        );
      }
      opencode.writeDatabase(join(home, 'opencode.db'), [
        { id: 'ses_midnight', directory: '/work/app', title: 'midnight', created: ask(0), updated: requests[2] as number, messages },
      ]);
    },
  },
};

function caseFor(agent: AgentId): Case {
  const c = cases[agent];
  if (c === undefined) throw new Error(`no midnight case for ${agent}`);
  return c;
}

async function daily(
  agent: AgentId,
  timeZone: string,
  write: (home: string) => Promise<void> = caseFor(agent).write,
): Promise<{ days: [string, number][]; estimated: number }> {
  const reader = readerFor(agent);
  if (reader === undefined) throw new Error(agent);
  const home = await tempDir();
  await write(home);
  const report = await usageReport({
    agents: [{ reader, homes: [home] }],
    stateRoot: null,
    userHome: null,
    readerVersion: 'test',
    kind: 'daily',
    timeZone,
    byAgent: false,
  });
  return { days: report.rows.map((r) => [r.period, r.totalTokens]), estimated: report.estimatedDaySplit };
}

describe.each(Object.keys(cases) as AgentId[])('%s: a session over midnight', (agent) => {
  const request = (i: number): number => (input[i] as number) + (output[i] as number) + caseFor(agent).extraPerRequest;

  it('splits at UTC midnight by each request’s own time', async () => {
    const r = await daily(agent, 'UTC');
    expect(r.estimated).toBe(0);
    expect(r.days).toEqual([
      ['2025-12-31', request(0) + request(1)],
      ['2026-01-01', request(2)],
    ]);
  });

  it('splits at Tokyo midnight (15:00 UTC) in that time zone', async () => {
    const r = await daily(agent, 'Asia/Tokyo');
    expect(r.estimated).toBe(0);
    expect(r.days).toEqual([
      ['2025-12-31', request(0)],
      ['2026-01-01', request(1) + request(2)],
    ]);
  });
});

describe('a request with no turn of its own still lands on its own day', () => {
  it('pi: a request on an abandoned branch, just after Tokyo midnight', async () => {
    const s = (ms: number): number => (ms - pi.t0) / 1000;
    const write = async (home: string): Promise<void> => {
      await pi.writePiFile(home, '2025-12-31T14-49-00-000Z_pi-branch.jsonl', [
        pi.header('pi-branch'),
        pi.user('u0', null, 'ask 0', s(ask(0))),
        pi.assistant('a0', 'u0', s(requests[0] as number), { text: 'answer 0', input: 100, output: 10 }),
        // Tried at 15:10 UTC (Jan 1 in Tokyo), then abandoned: the person went back to a0.
        pi.user('x1', 'a0', 'ask 1', s(ask(1))),
        pi.assistant('y1', 'x1', s(requests[1] as number), { text: 'answer 1', input: 200, output: 20 }),
        pi.user('u2', 'a0', 'ask 2', s(ask(2))),
        pi.assistant('a2', 'u2', s(requests[2] as number), { text: 'answer 2', input: 400, output: 40 }),
      ]);
    };
    const r = await daily('pi', 'Asia/Tokyo', write);
    expect(r.estimated).toBe(0);
    expect(r.days).toEqual([
      ['2025-12-31', 116],
      ['2026-01-01', 226 + 446],
    ]);
  });

  it('kimi: an undone step, billed on the day it ran', async () => {
    const s = (ms: number): number => (ms - kimi.t0) / 1000;
    const write = async (home: string): Promise<void> => {
      const main: kimi.WireRecord[] = [
        kimi.prompt('ask 0', s(ask(0))),
        ...kimi.step('k0', s(requests[0] as number), { text: 'answer 0', usage: { inputOther: 100, output: 10 } }),
        kimi.prompt('ask 1', s(ask(1))),
        ...kimi.step('k1', s(requests[1] as number), { text: 'answer 1', usage: { inputOther: 200, output: 20 } }),
        { type: 'context.undo', count: 1, time: kimi.at(s(ask(2)) - 1) },
        kimi.prompt('ask 2', s(ask(2))),
        ...kimi.step('k2', s(requests[2] as number), { text: 'answer 2', usage: { inputOther: 400, output: 40 } }),
      ];
      await kimi.writeSession(home, 'session_undo', { state: kimi.state('/work/demo'), wires: { main } });
    };
    const r = await daily('kimi', 'Asia/Tokyo', write);
    expect(r.estimated).toBe(0);
    expect(r.days).toEqual([
      ['2025-12-31', 110],
      ['2026-01-01', 220 + 440],
    ]);
  });

  it('claude_code: a message with usage and no content', async () => {
    const s = (ms: number): number => (ms - Date.UTC(2026, 0, 1)) / 1000;
    const write = async (home: string): Promise<void> => {
      await claude.writeMain(home, [
        claude.user('ask 0', s(ask(0))),
        claude.assistant('msg_0', [{ type: 'text', text: 'answer 0' }], s(requests[0] as number), {}, { usage: claude.usage(100, 10) }),
        claude.assistant('msg_1', [], s(requests[1] as number), {}, { usage: claude.usage(200, 20) }),
      ]);
    };
    const r = await daily('claude_code', 'Asia/Tokyo', write);
    expect(r.estimated).toBe(0);
    expect(r.days).toEqual([
      ['2025-12-31', 110],
      ['2026-01-01', 220],
    ]);
  });
});
