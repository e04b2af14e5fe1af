// `agentlog mcp` as a client sees it: the built CLI spawned over stdio with the SDK's client,
// against a temporary home holding real logs of six agents.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPath } from '../../test/support/cli.js';
import { corpusAgentHome } from '../../test/support/corpus-home.js';
import { tempDir } from '../../test/support/temp.js';
import { hasCorpus } from '../../test/support/corpus.js';

async function sixAgentHome(): Promise<Record<string, string>> {
  const home = await tempDir();
  await corpusAgentHome(home);
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    AGENTLOG_HOME: join(home, '.agentlog'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    KIMI_CODE_HOME: join(home, '.kimi-code'),
    PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'),
    INTENDANT_HOME: join(home, '.intendant'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
}

const open: Client[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()?.close();
});

async function connect(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'agentlog-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cliPath, 'mcp'], env, stderr: 'ignore' }));
  open.push(client);
  return client;
}

type Structured = Record<string, unknown>;
async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ data: Structured; text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text: string }[];
  return { data: (r.structuredContent ?? {}) as Structured, text: content[0]?.text ?? '', isError: r.isError === true };
}

interface Hit {
  agent: string;
  session_id: string;
  subagent: boolean;
  snippet: string;
  locator: Record<string, unknown>;
}

describe.skipIf(!hasCorpus)('agentlog mcp', () => {
  it('lists four tools with object schemas and descriptions', async () => {
    const client = await connect(await sixAgentHome());
    expect(client.getServerVersion()?.name).toBe('agentlog');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['list_sessions', 'read_session', 'search_messages', 'session_usage']);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect((t.description ?? '').length).toBeGreaterThan(200);
    }
    const read = tools.find((t) => t.name === 'read_session');
    expect(read?.inputSchema.required).toEqual(['agent', 'session_id']);
  });

  it('finds a subagent’s message and reads the session around it, within max_bytes', async () => {
    const client = await connect(await sixAgentHome());
    const found = await call(client, 'search_messages', { query: 'development server running' });
    expect(found.isError, found.text).toBe(false);
    const hits = found.data.hits as Hit[];
    const hit = hits.find((h) => h.subagent);
    expect(hit).toBeDefined();
    if (hit === undefined) return;
    expect(hit.agent).toBe('claude_code');
    const read = await call(client, 'read_session', {
      agent: hit.agent,
      session_id: hit.session_id,
      around_locator: hit.locator,
      max_bytes: 4096,
    });
    expect(read.isError, read.text).toBe(false);
    expect(read.data.anchor_found).toBe(true);
    expect(Buffer.byteLength(read.text, 'utf8')).toBeLessThanOrEqual(4096);
    expect(read.text).toContain(hit.snippet.slice(0, 40));
    expect(read.text).toMatch(/\[… \d+ bytes left out before this point/);

    const head = await call(client, 'read_session', { agent: hit.agent, session_id: hit.session_id.slice(0, 8), max_bytes: 2048 });
    expect(Buffer.byteLength(head.text, 'utf8')).toBeLessThanOrEqual(2048);
    expect(head.text.startsWith('# claude_code session fe5e1c67')).toBe(true);
    expect(head.data.left_out_after).toBeGreaterThan(0);
    expect(head.text).toMatch(/\[… \d+ bytes left out after this point/);
  });

  it('pages search hits with a cursor, at most 20 a call', async () => {
    const client = await connect(await sixAgentHome());
    const first = await call(client, 'search_messages', { query: 'the', limit: 2 });
    const cursor = first.data.cursor as string;
    expect((first.data.hits as Hit[]).length).toBe(2);
    expect(typeof cursor).toBe('string');
    const second = await call(client, 'search_messages', { query: 'the', limit: 2, cursor });
    const key = (h: Hit): string => JSON.stringify([h.session_id, h.locator]);
    const seen = new Set((first.data.hits as Hit[]).map(key));
    expect((second.data.hits as Hit[]).some((h) => seen.has(key(h)))).toBe(false);
    const tooMany = await call(client, 'search_messages', { query: 'the', limit: 50 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toContain('limit');
  });

  it('lists and reads every agent’s sessions, and reports usage', async () => {
    const client = await connect(await sixAgentHome());
    const listed = await call(client, 'list_sessions', { limit: 100 });
    const sessions = listed.data.sessions as { agent: string; session_id: string; first_ask: string | null }[];
    expect([...new Set(sessions.map((s) => s.agent))].sort()).toEqual(['claude_code', 'codex', 'gemini', 'kimi', 'opencode', 'pi']);
    for (const agent of new Set(sessions.map((s) => s.agent))) {
      const one = sessions.find((s) => s.agent === agent);
      if (one === undefined) continue;
      const read = await call(client, 'read_session', { agent, session_id: one.session_id });
      expect(read.isError, `${agent}: ${read.text}`).toBe(false);
      expect(read.text.startsWith(`# `)).toBe(true);
      expect(read.text).toContain(`${agent} session`);
    }
    const codex = await call(client, 'list_sessions', { agent: 'codex' });
    expect((codex.data.sessions as { agent: string }[]).every((s) => s.agent === 'codex')).toBe(true);
    const todo = await call(client, 'list_sessions', { query: 'TODO app' });
    expect((todo.data.sessions as { session_id: string }[]).map((s) => s.session_id)).toEqual(['fe5e1c67-53e7-4862-81ae-d0e013e3270b']);

    const usage = await call(client, 'session_usage', { by: 'model', agent: 'claude_code' });
    expect(usage.isError, usage.text).toBe(false);
    const rows = usage.data.rows as { period: string; totalTokens: number }[];
    expect(rows.map((r) => r.period)).toContain('claude-sonnet-4-20250514');
    const claudeTokens = (sessions as unknown as { agent: string; tokens: number }[])
      .filter((s) => s.agent === 'claude_code')
      .reduce((n, s) => n + s.tokens, 0);
    expect((usage.data.totals as { totalTokens: number }).totalTokens).toBe(claudeTokens);
  });

  it('answers a bad argument with a tool error that says what to fix', async () => {
    const client = await connect(await sixAgentHome());
    const wrongAgent = await call(client, 'read_session', { agent: 'windsurf', session_id: 'x' });
    expect(wrongAgent.isError).toBe(true);
    expect(wrongAgent.text).toContain('claude_code');
    const missing = await call(client, 'read_session', { agent: 'codex', session_id: 'no-such-session' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('no session with id or prefix "no-such-session"');
    const badDay = await call(client, 'session_usage', { since: '2026-13-01' });
    expect(badDay.isError).toBe(true);
    expect(badDay.text).toContain('YYYY-MM-DD');
    const badCursor = await call(client, 'search_messages', { query: 'x', cursor: 'nonsense' });
    expect(badCursor.isError).toBe(true);
    expect(badCursor.text).toContain('without a cursor');
  });

  it('keeps answering after a malformed line, with nothing but protocol on stdout', async () => {
    const env = await sixAgentHome();
    const child = spawn(process.execPath, [cliPath, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const send = (line: string): boolean => child.stdin.write(`${line}\n`);
    const reply = (id: number): Promise<Record<string, unknown>> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reply ${id}; stdout so far: ${out}`)), 20_000);
        const look = (): void => {
          for (const line of out.split('\n')) {
            if (line.trim() === '') continue;
            const msg = JSON.parse(line) as Record<string, unknown>;
            if (msg.id === id) {
              clearTimeout(timer);
              child.stdout.off('data', look);
              resolve(msg);
              return;
            }
          }
        };
        child.stdout.on('data', look);
        look();
      });
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    await reply(1);
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    send('{this is not json');
    send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    const listed = await reply(3);
    expect(((listed.result as { tools: unknown[] }).tools ?? []).length).toBe(4);
    const unknownTool = await reply(2);
    expect(JSON.stringify(unknownTool)).toContain('no_such_tool');
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    // Every line on stdout is a JSON-RPC message.
    for (const line of out.split('\n').filter((l) => l.trim() !== ''))
      expect((JSON.parse(line) as { jsonrpc: string }).jsonrpc).toBe('2.0');
  });
});
