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
import * as cline from '../agents/cline/test-support/tasks.js';
import * as droid from '../agents/droid/test-support/session.js';
import { Chat as QwenChat, say as qwenSay, writeChat as writeQwenChat } from '../agents/qwen/test-support/chat.js';
import { readerFor } from '../agents/all-readers.js';
import type { AgentId } from '../record/types.js';
import { scan } from '../scan/scan.js';
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

// Every reader whose log states each request's tokens puts them on the request's turn. Copilot
// (per-model totals at each shutdown), Droid, Goose and Crush (per-session counters) and Aider (per
// reply, but no time but the run's start) state none with its own time, and Cursor none at all:
// their days stay estimates (`estimated_day_split_sessions` says how many), tested below on Droid.
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
  qwen: {
    // Qwen Code states the cached part inside the prompt count: the reader takes it out, so none here.
    extraPerRequest: 0,
    async write(home) {
      const s = (ms: number): number => (ms - Date.parse('2026-05-02T10:00:00.000Z')) / 1000;
      const chat = new QwenChat('qwen-midnight');
      for (const i of [0, 1, 2]) {
        chat.user(`u${i}`, s(ask(i)), `ask ${i}`);
        chat.assistant(`a${i}`, s(requests[i] as number), [qwenSay(`answer ${i}`)], {
          promptTokenCount: input[i],
          candidatesTokenCount: output[i],
          totalTokenCount: (input[i] as number) + (output[i] as number),
        });
      }
      await writeQwenChat(home, chat);
    },
  },
  cline: { extraPerRequest: 0, write: (home) => writeClineTask(home) },
  roo_code: { extraPerRequest: 0, write: (home) => writeClineTask(home) },
};

/** A task of three requests, each announced (`api_req_started`) at its own time, as Cline and Roo Code write it. */
async function writeClineTask(home: string): Promise<void> {
  const api: unknown[] = [];
  const ui: unknown[] = [];
  for (const i of [0, 1, 2]) {
    const userIndex = api.length;
    api.push(i === 0 ? cline.taskMessage('ask 0', '/work/app', ask(0)) : { role: 'user', content: [cline.text(`ask ${i}`)], ts: ask(i) });
    ui.push(cline.ui(ask(i), 'say', i === 0 ? 'task' : 'user_feedback', `ask ${i}`, userIndex - 1));
    ui.push(cline.apiReq(requests[i] as number, userIndex, { tokensIn: input[i] as number, tokensOut: output[i] as number }));
    api.push(
      cline.assistantMessage([cline.text(`answer ${i}`)], { ...cline.clineModel('claude-sonnet-4-5'), ts: (requests[i] as number) + 1000 }),
    );
  }
  await cline.writeTask(home, '1767192540000', { api, ui });
}

function caseFor(agent: AgentId): Case {
  const c = cases[agent];
  if (c === undefined) throw new Error(`no midnight case for ${agent}`);
  return c;
}

async function daily(
  agent: AgentId,
  timeZone: string,
  write: (home: string) => Promise<void> = caseFor(agent).write,
): Promise<{ days: [string, number][]; estimated: number; tokens: number[]; scanTokens: number[] }> {
  const reader = readerFor(agent);
  if (reader === undefined) throw new Error(agent);
  const home = await tempDir();
  await write(home);
  const agents = [{ reader, homes: [home] }];
  const report = await usageReport({
    agents,
    stateRoot: null,
    userHome: null,
    readerVersion: 'test',
    kind: 'daily',
    timeZone,
    byAgent: false,
  });
  const listed = await scan({ agents, stateRoot: null, userHome: null, readerVersion: 'test' });
  const t = report.totals;
  const scanTokens = [0, 0, 0, 0];
  for (const row of listed.sessions) {
    const w = row.totals_with_subagents;
    [w.input_tokens, w.output_tokens, w.cache_creation_tokens, w.cache_read_tokens].forEach((v, i) => {
      scanTokens[i] = (scanTokens[i] as number) + v;
    });
  }
  return {
    days: report.rows.map((r) => [r.period, r.totalTokens]),
    estimated: report.estimatedDaySplit,
    tokens: [t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens],
    scanTokens,
  };
}

describe.each(Object.keys(cases) as AgentId[])('%s: a session over midnight', (agent) => {
  const request = (i: number): number => (input[i] as number) + (output[i] as number) + caseFor(agent).extraPerRequest;

  it('splits at UTC midnight by each request’s own time', async () => {
    const r = await daily(agent, 'UTC');
    expect(r.estimated).toBe(0);
    expect(r.scanTokens.reduce((a, b) => a + b)).toBeGreaterThan(0);
    expect(r.tokens).toEqual(r.scanTokens);
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

  describe('claude_code: a message streamed over midnight', () => {
    const s = (ms: number): number => (ms - Date.UTC(2026, 0, 1)) / 1000;
    const midnight = Date.UTC(2026, 0, 1);
    /** One message: its text at 23:59:46, its tool call at 00:00:06, each line with the usage it states. */
    const streamed = (first: [number, number], last: [number, number]) => async (home: string) => {
      await claude.writeMain(home, [
        claude.user('ask 0', s(midnight - 60_000)),
        claude.assistant('msg_0', [{ type: 'text', text: 'answer 0' }], s(midnight - 14_000), {}, { usage: claude.usage(...first) }),
        claude.assistant(
          'msg_0',
          [claude.toolUse('toolu_0', 'Read', { file_path: '/work/demo/a.ts' })],
          s(midnight + 6_000),
          {},
          {
            usage: claude.usage(...last),
          },
        ),
      ]);
    };

    it('counts on the day of the line that states its final figures', async () => {
      // Each streamed line states the usage so far (output_tokens grows): the request's figures
      // stand only at 00:00:06, so its tokens fall on Jan 1 (ccusage 20 keeps the line with the
      // most tokens, at that line's time, alike).
      const r = await daily('claude_code', 'UTC', streamed([100, 5], [100, 50]));
      expect(r.estimated).toBe(0);
      expect(r.tokens).toEqual(r.scanTokens);
      expect(r.days).toEqual([['2026-01-01', 150]]);
    });

    it('counts at its first line when every line repeats the same figures', async () => {
      const r = await daily('claude_code', 'UTC', streamed([100, 50], [100, 50]));
      expect(r.tokens).toEqual(r.scanTokens);
      expect(r.days).toEqual([['2025-12-31', 150]]);
    });
  });

  it('qwen: a rewound request, billed on the day it ran (UTC)', async () => {
    const s = (ms: number): number => (ms - Date.parse('2026-05-02T10:00:00.000Z')) / 1000;
    const usage = (i: number) => ({
      promptTokenCount: input[i],
      candidatesTokenCount: output[i],
      totalTokenCount: (input[i] as number) + (output[i] as number),
    });
    const write = async (home: string): Promise<void> => {
      const chat = new QwenChat('qwen-rewind')
        .user('u0', s(ask(0)), 'ask 0')
        .assistant('a0', s(requests[0] as number), [qwenSay('answer 0')], usage(0))
        .user('x1', s(ask(1)), 'ask 1')
        .assistant('y1', s(requests[1] as number), [qwenSay('answer 1')], usage(1))
        // `/rewind` back to a0: y1 stays in the file on a dead branch, billed on Dec 31.
        .user('u2', s(ask(2)), 'ask 2', { parent: 'a0' })
        .assistant('a2', s(requests[2] as number), [qwenSay('answer 2')], usage(2));
      await writeQwenChat(home, chat);
    };
    const r = await daily('qwen', 'UTC', write);
    expect(r.estimated).toBe(0);
    expect(r.tokens).toEqual(r.scanTokens);
    expect(r.days).toEqual([
      ['2025-12-31', 110 + 220],
      ['2026-01-01', 440],
    ]);
  });

  it.each(['cline', 'roo_code'] as const)('%s: requests no turn carries, billed on the day each was said (UTC)', async (agent) => {
    const write = async (home: string): Promise<void> => {
      const req = (i: number) => ({ tokensIn: input[i] as number, tokensOut: output[i] as number });
      await cline.writeTask(home, '1767192540001', {
        api: [
          cline.taskMessage('ask 0', '/work/app', ask(0)),
          cline.assistantMessage([cline.text('answer 0')], { ts: (requests[0] as number) + 1000 }),
          { role: 'user', content: [cline.text('ask 2')], ts: ask(2) },
          cline.assistantMessage([cline.text('answer 2')], { ts: (requests[2] as number) + 1000 }),
        ],
        ui: [
          cline.ui(ask(0), 'say', 'task', 'ask 0', -1),
          cline.apiReq(requests[0] as number, 0, req(0)),
          // A request whose answer never reached the conversation (it failed, then the person typed again):
          // Cline says it as deleted requests, Roo Code as a request at an index no assistant message follows.
          agent === 'cline'
            ? cline.ui(requests[1] as number, 'say', 'deleted_api_reqs', JSON.stringify(req(1)), 1)
            : cline.apiReq(requests[1] as number, -2, req(1)),
          cline.ui(ask(2), 'say', 'user_feedback', 'ask 2', 1),
          cline.apiReq(requests[2] as number, 2, req(2)),
        ],
      });
    };
    const r = await daily(agent, 'UTC', write);
    expect(r.estimated).toBe(0);
    expect(r.tokens).toEqual(r.scanTokens);
    expect(r.days).toEqual([
      ['2025-12-31', 110 + 220],
      ['2026-01-01', 440],
    ]);
  });
});

describe('a log with session totals only (Droid): days are an estimate, totals exact', () => {
  it('shares the session’s tokens over its three answers’ days and says the days are estimated', async () => {
    const s = (ms: number): number => (ms - droid.t0) / 1000;
    const write = async (home: string): Promise<void> => {
      const session = new droid.Session('droid-midnight');
      for (const i of [0, 1, 2])
        session.user(`u${i}`, s(ask(i)), `ask ${i}`).assistant(`a${i}`, s(requests[i] as number), [droid.say(`answer ${i}`)]);
      // 700 input and 70 output for the whole session: Droid's settings state no per-request figure.
      await droid.writeSession(home, session, {
        inputTokens: 700,
        outputTokens: 70,
        cacheCreationTokens: 0,
        cacheReadTokens: 0,
        thinkingTokens: 0,
      });
    };
    const r = await daily('droid', 'UTC', write);
    expect(r.estimated).toBe(1);
    expect(r.tokens).toEqual(r.scanTokens);
    // A third of each count per answer (the remainder to the first): 234+24 and 233+23 on Dec 31, 233+23 on Jan 1.
    expect(r.days).toEqual([
      ['2025-12-31', 258 + 256],
      ['2026-01-01', 256],
    ]);
  });
});
