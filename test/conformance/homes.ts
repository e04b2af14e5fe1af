// A small home of every registered agent, laid out as the agent lays out its own, written from each
// agent's test fixtures: two sessions of one exchange each, and a way to add a second exchange.
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as claude from '../../src/agents/claude-code/test-support/fixtures.js';
import * as crush from '../../src/agents/crush/test-support/fixtures.js';
import * as goose from '../../src/agents/goose/test-support/fixtures.js';
import * as cursor from '../../src/agents/cursor/test-support/fixtures.js';
import { Rollout, writeRollout } from '../../src/agents/codex/test-support/rollout-fixture.js';
import { FixtureSession as IntendantSession } from '../../src/agents/intendant/test-support/fixture.js';
import * as kimi from '../../src/agents/kimi/test-support/wire.js';
import * as opencode from '../../src/agents/opencode/test-support/fixtures.js';
import * as pi from '../../src/agents/pi/test-support/pi.js';
import * as clineTasks from '../../src/agents/cline/test-support/tasks.js';
import * as qwen from '../../src/agents/qwen/test-support/chat.js';
import * as copilot from '../../src/agents/copilot/test-support/events.js';
import * as droid from '../../src/agents/droid/test-support/session.js';
import * as aider from '../../src/agents/aider/test-support/history.js';
import type { DiscoveredSession } from '../../src/agents/types.js';
import type { AgentId } from '../../src/record/types.js';

export interface HomeFixture {
  /** Writes the sessions under `home` (the agent's default home inside a temporary user home). */
  write(home: string): Promise<void>;
  /** Adds a second exchange to one session, as the agent would while the session goes on. */
  grow(session: DiscoveredSession): Promise<void>;
}

/** What each session says: its prose, in order. Every fixture writes exactly these words. */
export const said = (n: number): [string, string] => [`question ${n} about the parser`, `answer ${n} from the agent`];
export const saidLater = (n: number): [string, string] => [`follow-up ${n} on the tests`, `second answer ${n}`];

const claudeIds = ['c0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002'];
const codexIds = ['019a0000-0000-7000-8000-000000000001', '019a0000-0000-7000-8000-000000000002'];
const indexOf = (ids: readonly string[], id: string): number => ids.findIndex((x) => id.includes(x));

const claudeHome: HomeFixture = {
  async write(home) {
    for (const [n, id] of claudeIds.entries()) {
      const [q, a] = said(n);
      await claude.writeMain(
        home,
        [
          claude.user(q, n * 100, { sessionId: id }),
          claude.assistant(`msg_${n}a`, [{ type: 'text', text: a }], n * 100 + 1, { sessionId: id }),
        ],
        id,
      );
    }
  },
  async grow(session) {
    const n = indexOf(claudeIds, session.sessionId);
    const [q, a] = saidLater(n);
    const id = session.sessionId;
    await appendFile(
      session.path,
      claude.jsonl([
        claude.user(q, n * 100 + 10, { sessionId: id }),
        claude.assistant(`msg_${n}b`, [{ type: 'text', text: a }], n * 100 + 11, { sessionId: id }),
      ]),
    );
  },
};

const codexHome: HomeFixture = {
  async write(home) {
    for (const [n, id] of codexIds.entries()) {
      const [q, a] = said(n);
      await writeRollout(home, id, new Rollout(id, `2026-10-01T0${n}:00:00.000Z`).meta().turnContext().user(q).userEvent(q).assistant(a));
    }
  },
  async grow(session) {
    const n = indexOf(codexIds, session.sessionId);
    const [q, a] = saidLater(n);
    await appendFile(session.path, new Rollout(session.sessionId, `2026-10-01T0${n}:30:00.000Z`).user(q).userEvent(q).assistant(a).text());
  },
};

const kimiHome: HomeFixture = {
  async write(home) {
    for (const n of [0, 1]) {
      const [q, a] = said(n);
      await kimi.writeSession(home, `session_kimi${n}`, {
        state: kimi.state('/work/demo'),
        wires: { main: [kimi.prompt(q, n * 100), ...kimi.step(`k${n}a`, n * 100 + 1, { text: a })] },
      });
    }
  },
  async grow(session) {
    const n = session.sessionId.endsWith('1') ? 1 : 0;
    const [q, a] = saidLater(n);
    await appendFile(
      join(session.path, 'agents', 'main', 'wire.jsonl'),
      kimi.jsonl([kimi.prompt(q, n * 100 + 10), ...kimi.step(`k${n}b`, n * 100 + 11, { text: a })]),
    );
  },
};

const piHome: HomeFixture = {
  async write(home) {
    for (const n of [0, 1]) {
      const [q, a] = said(n);
      await pi.writePiFile(home, `2026-04-01T0${n}-00-00-000Z_pi${n}.jsonl`, [
        pi.header(`pi${n}`),
        pi.user(`u${n}`, null, q, n * 100 + 1),
        pi.assistant(`a${n}`, `u${n}`, n * 100 + 2, { text: a }),
      ]);
    }
  },
  async grow(session) {
    const n = session.path.endsWith('pi1.jsonl') ? 1 : 0;
    const [q, a] = saidLater(n);
    const lines = [pi.user(`v${n}`, `a${n}`, q, n * 100 + 10), pi.assistant(`b${n}`, `v${n}`, n * 100 + 11, { text: a })];
    await appendFile(session.path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  },
};

const intendantSessions = new Map<string, IntendantSession>();
const intendantHome: HomeFixture = {
  async write(home) {
    for (const n of [0, 1]) {
      const [q, a] = said(n);
      const s = await IntendantSession.create(home, `int-${n}`, { project_root: '/work/demo', task: q, status: 'completed' });
      s.laneUser(n * 100_000 + 1_000, 1, q, { turn: 1 });
      await s.laneAssistant(n * 100_000 + 2_000, 1, 2, a);
      await s.save();
      intendantSessions.set(`${home}:int-${n}`, s);
    }
  },
  async grow(session) {
    const n = session.sessionId.endsWith('1') ? 1 : 0;
    const s = intendantSessions.get(`${session.home}:${session.sessionId}`);
    if (s === undefined) throw new Error(`no fixture for ${session.sessionId}`);
    const [q, a] = saidLater(n);
    s.laneUser(n * 100_000 + 3_000, 3, q, { turn: 2 });
    await s.laneAssistant(n * 100_000 + 4_000, 2, 4, a);
    await s.save();
  },
};

const geminiHash = 'b'.repeat(64);
const geminiLines = (n: number, texts: [string, string], s: number): string =>
  [
    {
      id: `g-user-${n}-${s}`,
      timestamp: new Date(Date.UTC(2026, 3, 29, 21, n, s)).toISOString(),
      type: 'user',
      content: [{ text: texts[0] }],
    },
    {
      id: `g-model-${n}-${s}`,
      timestamp: new Date(Date.UTC(2026, 3, 29, 21, n, s + 1)).toISOString(),
      type: 'gemini',
      content: texts[1],
      thoughts: [],
      tokens: { input: 100, output: 10, cached: 40, thoughts: 0, tool: 0, total: 110 },
      model: 'gemini-3-flash-preview',
    },
  ]
    .map((l) => `${JSON.stringify(l)}\n`)
    .join('');
const geminiHome: HomeFixture = {
  async write(home) {
    const chats = join(home, 'tmp', geminiHash, 'chats');
    await mkdir(chats, { recursive: true });
    for (const n of [0, 1]) {
      const start = new Date(Date.UTC(2026, 3, 29, 21, n, 0)).toISOString();
      const meta = { sessionId: `gemini-${n}`, projectHash: geminiHash, startTime: start, lastUpdated: start, kind: 'main' };
      await writeFile(
        join(chats, `session-2026-04-29T21-0${n}-gemini-${n}.jsonl`),
        `${JSON.stringify(meta)}\n${geminiLines(n, said(n), 10)}`,
      );
    }
  },
  async grow(session) {
    const n = session.sessionId.endsWith('1') ? 1 : 0;
    await appendFile(session.path, geminiLines(n, saidLater(n), 30));
  },
};

const ocSession = (n: number, grown: boolean): opencode.FixtureSession => {
  const base = Date.UTC(2026, 4, 1, n);
  const [q, a] = said(n);
  const messages = [
    opencode.userMessage(`msg_${n}u`, base + 1000, q),
    opencode.assistantMessage(`msg_${n}a`, base + 2000, [{ id: `prt_${n}a`, data: { type: 'text', text: a } }]),
  ];
  if (grown) {
    const [q2, a2] = saidLater(n);
    messages.push(
      opencode.userMessage(`msg_${n}v`, base + 3000, q2),
      opencode.assistantMessage(`msg_${n}b`, base + 4000, [{ id: `prt_${n}b`, data: { type: 'text', text: a2 } }]),
    );
  }
  return { id: `ses_${n}`, directory: '/work/app', title: `session ${n}`, created: base, updated: base + 4000, messages };
};
const opencodeHome: HomeFixture = {
  // One session in the database of OpenCode 1.2+, one in the JSON tree of older versions.
  async write(home) {
    await mkdir(home, { recursive: true });
    opencode.writeDatabase(join(home, 'opencode.db'), [ocSession(0, false)]);
    await opencode.writeJsonTree(join(home, 'storage'), [ocSession(1, false)]);
  },
  async grow(session) {
    if (session.sessionId === 'ses_0') {
      for (const f of ['opencode.db', 'opencode.db-wal', 'opencode.db-shm']) await rm(join(session.home, f), { force: true });
      opencode.writeDatabase(join(session.home, 'opencode.db'), [ocSession(0, true)]);
    } else await opencode.writeJsonTree(join(session.home, 'storage'), [ocSession(1, true)]);
  },
};

/** Cline and Roo Code rewrite a task's documents whole: a grown task is written again with both exchanges. */
const clineTask = (roo: boolean, n: number, grown: boolean): clineTasks.TaskFiles => {
  const base = Date.UTC(2026, 9, 1, 9, n);
  const [q, a] = said(n);
  const tag = roo ? 'user_message' : 'task';
  const stamp = (ms: number): { ts?: number } => (roo ? { ts: ms } : {});
  const api: unknown[] = [
    clineTasks.taskMessage(q, '/work/app', roo ? base : undefined, tag),
    clineTasks.assistantMessage([clineTasks.text(a)], {
      ...stamp(base + 2000),
      ...(roo ? {} : clineTasks.clineModel('claude-sonnet-4-5')),
    }),
  ];
  const ui: unknown[] = [
    clineTasks.ui(base, 'say', 'task', q, -1),
    clineTasks.apiReq(base + 1000, -1, { tokensIn: 100, tokensOut: 10, cacheReads: 40, cacheWrites: 0, cost: 0.01 }),
    clineTasks.ui(base + 2000, 'say', 'completion_result', a, 0),
  ];
  if (grown) {
    const [q2, a2] = saidLater(n);
    api.push(
      {
        role: 'user',
        content: [clineTasks.text(`<${roo ? 'user_message' : 'feedback'}>\n${q2}\n</${roo ? 'user_message' : 'feedback'}>`)],
        ...stamp(base + 3000),
      },
      clineTasks.assistantMessage([clineTasks.text(a2)], stamp(base + 4000)),
    );
    ui.push(
      clineTasks.ui(base + 3000, 'say', 'user_feedback', q2, 1),
      clineTasks.apiReq(base + 3500, 1, { tokensIn: 120, tokensOut: 12, cacheReads: 60, cacheWrites: 0, cost: 0.01 }),
      clineTasks.ui(base + 4000, 'say', 'completion_result', a2, 2),
    );
  }
  return {
    api,
    ui,
    ...(roo
      ? {
          historyItem: {
            id: `roo-${n}`,
            number: 1,
            ts: base,
            task: q,
            tokensIn: 100,
            tokensOut: 10,
            totalCost: 0.01,
            workspace: '/work/app',
            mode: 'code',
          },
        }
      : {}),
  };
};
const clineHome = (roo: boolean): HomeFixture => {
  const id = (n: number): string => (roo ? `0199a000-0000-7000-8000-00000000000${n}` : `176000000000${n}`);
  return {
    async write(home) {
      for (const n of [0, 1]) await clineTasks.writeTask(home, id(n), clineTask(roo, n, false));
    },
    async grow(session) {
      const n = session.sessionId === id(1) ? 1 : 0;
      await clineTasks.writeTask(session.home, session.sessionId, clineTask(roo, n, true));
    },
  };
};

const qwenIds = ['9c0e0000-0000-4000-8000-000000000001', '9c0e0000-0000-4000-8000-000000000002'];
const qwenChats = new Map<string, qwen.Chat>();
const qwenHome: HomeFixture = {
  async write(home) {
    for (const [n, id] of qwenIds.entries()) {
      const [q, a] = said(n);
      const chat = new qwen.Chat(id).user(`u${n}`, n * 100 + 1, q).assistant(`a${n}`, n * 100 + 2, [qwen.say(a)]);
      qwenChats.set(`${home}:${id}`, chat);
      await qwen.writeChat(home, chat);
    }
  },
  async grow(session) {
    const n = indexOf(qwenIds, session.sessionId);
    const chat = qwenChats.get(`${session.home}:${session.sessionId}`);
    if (chat === undefined) throw new Error(`no fixture for ${session.sessionId}`);
    const [q, a] = saidLater(n);
    const before = chat.lines.length;
    chat.user(`v${n}`, n * 100 + 10, q).assistant(`b${n}`, n * 100 + 11, [qwen.say(a)]);
    await appendFile(
      session.path,
      chat.lines
        .slice(before)
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
  },
};

const crushProject = (home: string, n: number): string => join(dirname(dirname(dirname(home))), 'code', `crush-app-${n}`);
const crushSessions = (n: number, grown: boolean): crush.CrushSessionFixture[] => {
  const at = 1_790_000_000 + n * 1000;
  const [q, a] = said(n);
  const messages = [crush.user(`m${n}u`, at + 1, q), crush.assistant(`m${n}a`, at + 2, [crush.text(a)])];
  if (grown) {
    const [q2, a2] = saidLater(n);
    messages.push(crush.user(`m${n}v`, at + 10, q2), crush.assistant(`m${n}b`, at + 11, [crush.text(a2)]));
  }
  return [
    {
      id: `c0ffee00-0000-4000-8000-00000000000${n}`,
      title: `session ${n}`,
      at,
      promptTokens: 900,
      completionTokens: 40,
      cost: 0.01,
      messages,
    },
  ];
};
const crushHome: HomeFixture = {
  // Two projects, each with its own `.crush/crush.db`, both listed in projects.json.
  async write(home) {
    for (const n of [0, 1])
      await crush.writeCrushProject(home, crushProject(home, n), crushSessions(n, false), n === 1 ? [crushProject(home, 0)] : []);
  },
  async grow(session) {
    const n = session.sessionId.endsWith('1') ? 1 : 0;
    const database = join(crushProject(session.home, n), '.crush', 'crush.db');
    for (const f of ['', '-wal', '-shm']) await rm(`${database}${f}`, { force: true });
    crush.writeCrushDatabase(database, crushSessions(n, true));
  },
};

const copilotIds = ['c0b10000-0000-4000-8000-000000000001', 'c0b10000-0000-4000-8000-000000000002'];
const copilotLogs = new Map<string, copilot.Events>();
const copilotHome: HomeFixture = {
  async write(home) {
    for (const [n, id] of copilotIds.entries()) {
      const [q, a] = said(n);
      const ev = new copilot.Events(id)
        .start(n * 100)
        .user(n * 100 + 1, q)
        .assistant(n * 100 + 2, a);
      copilotLogs.set(`${home}:${id}`, ev);
      await copilot.writeSession(home, ev);
    }
  },
  async grow(session) {
    const n = indexOf(copilotIds, session.sessionId);
    const ev = copilotLogs.get(`${session.home}:${session.sessionId}`);
    if (ev === undefined) throw new Error(`no fixture for ${session.sessionId}`);
    const [q, a] = saidLater(n);
    const before = ev.lines.length;
    ev.user(n * 100 + 10, q).assistant(n * 100 + 11, a);
    await appendFile(
      session.path,
      ev.lines
        .slice(before)
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
  },
};

const droidIds = ['d0d00000-0000-4000-8000-000000000001', 'd0d00000-0000-4000-8000-000000000002'];
const droidSessions = new Map<string, droid.Session>();
const droidHome: HomeFixture = {
  async write(home) {
    for (const [n, id] of droidIds.entries()) {
      const [q, a] = said(n);
      const session = new droid.Session(id).user(`u${n}`, n * 100 + 1, q).assistant(`a${n}`, n * 100 + 2, [droid.say(a)]);
      droidSessions.set(`${home}:${id}`, session);
      await droid.writeSession(home, session);
    }
  },
  async grow(session) {
    const n = indexOf(droidIds, session.sessionId);
    const s = droidSessions.get(`${session.home}:${session.sessionId}`);
    if (s === undefined) throw new Error(`no fixture for ${session.sessionId}`);
    const [q, a] = saidLater(n);
    const before = s.lines.length;
    s.user(`v${n}`, n * 100 + 10, q).assistant(`b${n}`, n * 100 + 11, [droid.say(a)]);
    await appendFile(
      session.path,
      s.lines
        .slice(before)
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
  },
};

// Goose: one session in sessions.db, one legacy JSONL file from before the database.
const gooseIds = ['20261001_1', '20261001_120000'];
const gooseSession = (n: number, grown: boolean): goose.GooseSessionFixture => {
  const at = 1_790_000_000 + n * 1000;
  const [q, a] = said(n);
  const messages = [goose.user(`g${n}u`, at + 1, q), goose.assistant(`g${n}a`, at + 2, [goose.text(a)])];
  if (grown) {
    const [q2, a2] = saidLater(n);
    messages.push(goose.user(`g${n}v`, at + 10, q2), goose.assistant(`g${n}b`, at + 11, [goose.text(a2)]));
  }
  return {
    id: gooseIds[n] ?? '',
    name: `session ${n}`,
    workingDir: '/work/demo',
    createdAt: '2026-10-01 10:00:00',
    inputTokens: 500,
    outputTokens: 40,
    messages,
  };
};
const gooseHome: HomeFixture = {
  async write(home) {
    await goose.writeGooseDatabase(home, [gooseSession(0, false)]);
    await goose.writeLegacySession(home, gooseSession(1, false));
  },
  async grow(session) {
    if (session.sessionId === gooseIds[0]) {
      for (const f of ['', '-wal', '-shm']) await rm(join(session.home, 'sessions', `sessions.db${f}`), { force: true });
      await goose.writeGooseDatabase(session.home, [gooseSession(0, true)]);
    } else await goose.writeLegacySession(session.home, gooseSession(1, true));
  },
};

/**
 * Aider keeps every run of a repository in one file and only ever appends to its newest run; the
 * suite grows each session, so a grown run is written back in place with the file around it.
 */
const aiderRun = (n: number, grown: boolean): string => {
  const [q, a] = said(n);
  let run = `${aider.header(`2026-10-0${n + 1} 09:00:00`)}${aider.banner('claude-sonnet-4-5')}${aider.user(q)}${aider.ai(a)}${aider.tool('Tokens: 1.2k sent, 40 received. Cost: $0.0042 message, $0.0042 session.')}`;
  if (grown) {
    const [q2, a2] = saidLater(n);
    run += `${aider.user(q2)}${aider.ai(a2)}${aider.tool('Tokens: 1.5k sent, 52 received. Cost: $0.0051 message, $0.0093 session.')}`;
  }
  return run;
};
const aiderGrown = new Map<string, Set<number>>();
const aiderHome: HomeFixture = {
  async write(home) {
    aiderGrown.set(home, new Set());
    await writeFile(join(home, '.aider.chat.history.md'), aiderRun(0, false) + aiderRun(1, false));
  },
  async grow(session) {
    const n = session.sessionId.startsWith('20261002') ? 1 : 0;
    const grown = aiderGrown.get(session.home) ?? new Set<number>();
    grown.add(n);
    aiderGrown.set(session.home, grown);
    await writeFile(join(session.home, '.aider.chat.history.md'), aiderRun(0, grown.has(0)) + aiderRun(1, grown.has(1)));
  },
};

const cursorIds = ['cu000000-0000-4000-8000-000000000001', 'cu000000-0000-4000-8000-000000000002'];
const cursorLines = (n: number, grown: boolean): cursor.CursorLineFixture[] => {
  const [q, a] = said(n);
  const lines = [cursor.user(q, '<user_info>OS: linux</user_info>\n'), cursor.assistant(a)];
  if (!grown) return lines;
  const [q2, a2] = saidLater(n);
  return [...lines, cursor.user(q2), cursor.assistant(a2)];
};
const cursorHome: HomeFixture = {
  async write(home) {
    for (const [n, id] of cursorIds.entries()) await cursor.writeTranscript(home, 'home-u-code-app', id, cursorLines(n, false));
  },
  async grow(session) {
    const n = indexOf(cursorIds, session.sessionId);
    await cursor.writeTranscript(session.home, 'home-u-code-app', session.sessionId, cursorLines(n, true));
  },
};

/** One home per agent id: a new agent without one is a compile error here. */
export const homeFixtures: Record<AgentId, HomeFixture> = {
  claude_code: claudeHome,
  codex: codexHome,
  kimi: kimiHome,
  pi: piHome,
  intendant: intendantHome,
  gemini: geminiHome,
  opencode: opencodeHome,
  cline: clineHome(false),
  roo_code: clineHome(true),
  qwen: qwenHome,
  crush: crushHome,
  copilot: copilotHome,
  droid: droidHome,
  goose: gooseHome,
  aider: aiderHome,
  cursor: cursorHome,
};
