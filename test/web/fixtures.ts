// Claude Code homes for the dashboard's browser tests: lines shaped as Claude Code writes them, with
// times from the last hour so every session sits inside the message index's window.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

type Line = Record<string, unknown>;

export const ids = {
  walrus: '11111111-2222-4333-8444-555555555555',
  hostile: '22222222-3333-4444-8555-666666666666',
  live: '33333333-4444-4555-8666-777777777777',
  changing: '44444444-5555-4666-8777-888888888888',
  long: '55555555-6666-4777-8888-999999999999',
  echo: '66666666-7777-4888-8999-aaaaaaaaaaaa',
} as const;

export class ClaudeSession {
  #n = 0;
  readonly lines: Line[] = [];
  constructor(
    readonly id: string,
    readonly cwd: string,
    private readonly startMs: number,
  ) {}

  #base(type: string): Line {
    this.#n++;
    return {
      parentUuid: null,
      isSidechain: false,
      type,
      sessionId: this.id,
      cwd: this.cwd,
      gitBranch: 'main',
      uuid: `${this.id.slice(0, 8)}-${this.#n}`,
      timestamp: new Date(this.startMs + this.#n * 20_000).toISOString(),
    };
  }

  user(content: unknown, extra: Line = {}): Line {
    const l = { ...this.#base('user'), message: { role: 'user', content }, ...extra };
    this.lines.push(l);
    return l;
  }

  assistant(content: Line[], extra: Line = {}): Line {
    const l = {
      ...this.#base('assistant'),
      message: {
        id: `msg_${this.id.slice(0, 4)}_${this.#n}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content,
        usage: { input_tokens: 1200, output_tokens: 340, cache_creation_input_tokens: 0, cache_read_input_tokens: 18_000 },
      },
      ...extra,
    };
    this.lines.push(l);
    return l;
  }

  text(text: string): Line {
    return this.assistant([{ type: 'text', text }]);
  }

  jsonl(): string {
    return `${this.lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  }
}

const projectDir = (cwd: string): string => cwd.replace(/[^A-Za-z0-9]/g, '-');

export function mainPath(claudeHome: string, s: ClaudeSession): string {
  return join(claudeHome, 'projects', projectDir(s.cwd), `${s.id}.jsonl`);
}

async function write(path: string, body: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
}

/** The three sessions the tests use: a readable one with a subagent, a hostile one, a live one. */
export async function writeHome(claudeHome: string, nowMs: number): Promise<{ live: string; changing: string }> {
  const walrus = new ClaudeSession(ids.walrus, '/work/api-server', nowMs - 50 * 60_000);
  walrus.user('Rename the walrus endpoint to /v2/lanterns');
  walrus.text("I'll start by finding every caller of the **walrus** endpoint.\n\n- `src/api/routes.ts`\n- `src/cli/main.ts`");
  walrus.assistant([{ type: 'tool_use', id: 'toolu_bash1', name: 'Bash', input: { command: 'rg -n "walrus" src/' } }]);
  walrus.user([
    {
      type: 'tool_result',
      tool_use_id: 'toolu_bash1',
      content: Array.from({ length: 30 }, (_, i) => `src/file${i}.ts:${i}: walrus()`).join('\n'),
    },
  ]);
  walrus.assistant([
    {
      type: 'tool_use',
      id: 'toolu_task1',
      name: 'Task',
      input: { description: 'Find callers', prompt: 'Find every caller of /walrus', subagent_type: 'Explore' },
    },
  ]);
  walrus.user([
    {
      type: 'tool_result',
      tool_use_id: 'toolu_task1',
      content: [{ type: 'text', text: 'Three callers: src/api, src/cli and the tests.' }],
    },
  ]);
  walrus.user('Now update the tests too');
  walrus.text('Updated the tests; the quartzite lantern endpoint now answers on /v2/lanterns.');
  walrus.user('Thanks, commit it');
  walrus.text('Committed as `Rename walrus to lanterns`.');
  await write(mainPath(claudeHome, walrus), walrus.jsonl());
  const sub = new ClaudeSession(ids.walrus, '/work/api-server', nowMs - 49 * 60_000);
  sub.user('Find every caller of /walrus', { isSidechain: true, agentId: 'a1111' });
  sub.text('Searching the tree for subagent-inner-step callers.');
  sub.text('Three callers: src/api, src/cli and the tests.');
  for (const l of sub.lines) Object.assign(l, { isSidechain: true, agentId: 'a1111' });
  const subBase = join(claudeHome, 'projects', projectDir(walrus.cwd), ids.walrus, 'subagents', 'agent-a1111');
  await write(`${subBase}.jsonl`, sub.jsonl());
  await write(`${subBase}.meta.json`, JSON.stringify({ agentType: 'Explore', description: 'Find callers', toolUseId: 'toolu_task1' }));

  const hostile = new ClaudeSession(ids.hostile, '/work/hostile', nowMs - 40 * 60_000);
  hostile.user('<script>window.__pwned = 1; alert("user")</script> show me <img src=x onerror="alert(2)">');
  hostile.text(
    [
      'Raw HTML: <img src="http://127.0.0.1:1/beacon.png" onerror="alert(3)"> <iframe src="javascript:alert(4)"></iframe>',
      '',
      '<script>alert(5)</script>',
      '',
      '[a javascript link](javascript:alert(6)) and [data](data:text/html,<script>alert(7)</script>) and <a href="javascript:alert(8)">raw a</a>',
      '',
      '![tracker](http://127.0.0.1:1/pixel.gif)',
      '',
      'ANSI: \u001b[31mred\u001b[0m and a bell \u0007',
    ].join('\n'),
  );
  hostile.assistant([{ type: 'tool_use', id: 'toolu_h1', name: 'Bash', input: { command: 'printf "\\033[2J<script>alert(9)</script>"' } }]);
  hostile.user([{ type: 'tool_result', tool_use_id: 'toolu_h1', content: '\u001b[2J\u001b[31m<script>alert(10)</script>\u001b[0m' }]);
  hostile.user(`A very long line: ${'hostile-long '.repeat(160_000)}`);
  hostile.text('hostile-end-marker');
  await write(mainPath(claudeHome, hostile), hostile.jsonl());

  const live = new ClaudeSession(ids.live, '/work/live-repo', nowMs - 5 * 60_000);
  live.user('Watch this live session');
  live.text('Working on it.');
  const livePath = mainPath(claudeHome, live);
  await write(livePath, live.jsonl());
  const changing = new ClaudeSession(ids.changing, '/work/importer', nowMs - 30 * 60_000);
  changing.user('Polish the importer');
  changing.text('The obsidian importer is polished.');
  const changingPath = mainPath(claudeHome, changing);
  await write(changingPath, changing.jsonl());
  const long = new ClaudeSession(ids.long, '/work/long-repo', nowMs - 24 * 60 * 60_000);
  long.user('A very long session');
  for (let i = 1; i <= 400; i++) {
    long.text(i === 20 ? 'answer 20 mentions the zeppelin hangar' : `answer ${i}`);
    long.user(`question ${i}`);
  }
  await write(mainPath(claudeHome, long), long.jsonl());
  // One word on every line: a deep search hit must open on its own line's message, not the first.
  const echo = new ClaudeSession(ids.echo, '/work/echo-repo', nowMs - 20 * 60_000);
  echo.user('Where does the glockenspiel config live?');
  echo.text('The glockenspiel config is read in src/config.ts.');
  echo.user('Move the glockenspiel defaults to one file');
  echo.text('Moved every glockenspiel default into src/defaults.ts.');
  await write(mainPath(claudeHome, echo), echo.jsonl());
  return { live: livePath, changing: changingPath };
}

/** Appends one assistant line to the live session, as the agent would while running. */
export async function appendLive(path: string, text: string): Promise<void> {
  const line = {
    parentUuid: null,
    isSidechain: false,
    type: 'assistant',
    sessionId: ids.live,
    cwd: '/work/live-repo',
    gitBranch: 'main',
    uuid: `live-${Date.now()}`,
    timestamp: new Date().toISOString(),
    message: { id: `msg_live_${Date.now()}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }] },
  };
  await appendFile(path, `${JSON.stringify(line)}\n`);
}
