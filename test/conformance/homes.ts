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
  crush: crushHome,
  goose: gooseHome,
  cursor: cursorHome,
};
