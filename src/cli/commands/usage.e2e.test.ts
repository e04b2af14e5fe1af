// `agentlog usage` end to end: hand-counted days, totals equal to `scan`'s for every agent, the
// JSON shape scripts written for ccusage read, bounds and the empty home.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/support/cli.js';
import { corpusAgentHome } from '../../../test/support/corpus-home.js';
import { tempDir } from '../../../test/support/temp.js';
import { assistant, toolResult, toolUse, usage, user, writeMain, writeSubagent } from '../../agents/claude-code/test-support/fixtures.js';
import { hasCorpus } from '../../../test/support/corpus.js';

interface Row {
  period: string;
  agent?: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  totalCost: number;
  modelsUsed: string[];
  unpricedModels: string[];
  modelBreakdowns: { modelName: string; inputTokens: number; outputTokens: number; cost: number | null; costSource: string }[];
}

const side = { isSidechain: true, agentId: 'a1' };

/** A Claude Code home: a session over midnight whose subagent runs after it on Haiku, and one on an unknown model. */
async function claudeHome(): Promise<string> {
  const home = await tempDir();
  const claude = join(home, '.claude');
  await writeMain(claude, [
    user('survey the logging', -700),
    assistant(
      'm1',
      [toolUse('toolu_1', 'Task', { description: 'Survey', prompt: 'Find loggers', subagent_type: 'Explore' })],
      -600,
      {},
      {
        usage: usage(100, 10),
      },
    ),
    user([toolResult('toolu_1', 'two loggers')], 400),
  ]);
  await writeSubagent(
    claude,
    'a1',
    [
      user('Find loggers', 290, side),
      assistant('s1', [{ type: 'text', text: 'Two.' }], 300, side, { usage: usage(40, 4), model: 'claude-haiku-4-5' }),
    ],
    { agentType: 'Explore', description: 'Survey', toolUseId: 'toolu_1' },
  );
  await writeMain(
    claude,
    [
      user('hi', 10_000, { sessionId: 'other' }),
      assistant('q1', [{ type: 'text', text: 'hello' }], 10_001, { sessionId: 'other' }, { usage: usage(7, 3), model: 'mystery-model-9' }),
    ],
    '99999999-2222-4333-8444-555555555555',
  );
  return home;
}

const json = async (args: string[], home: string, env: Record<string, string> = {}): Promise<Record<string, unknown>> => {
  const r = await runCli(['usage', ...args, '--json'], home, env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

describe('agentlog usage', () => {
  it('counts each turn on its own day, the subagent once on its own model, the unknown model unpriced', async () => {
    const home = await claudeHome();
    const body = await json(['daily'], home);
    const daily = body.daily as Row[];
    expect(daily.map((d) => [d.period, d.inputTokens, d.outputTokens, d.modelsUsed, d.unpricedModels])).toEqual([
      ['2025-12-31', 100, 10, ['claude-sonnet-4-5'], []],
      ['2026-01-01', 47, 7, ['claude-haiku-4-5', 'mystery-model-9'], ['mystery-model-9']],
    ]);
    // Sonnet 4.5 at $3/$15 per million; Haiku 4.5 at $1/$5; the unknown model is not priced as zero but named.
    expect(daily[0]?.totalCost).toBeCloseTo((100 * 3 + 10 * 15) / 1e6, 12);
    expect(daily[1]?.totalCost).toBeCloseTo((40 * 1 + 4 * 5) / 1e6, 12);
    expect(daily[1]?.modelBreakdowns.find((m) => m.modelName === 'mystery-model-9')).toMatchObject({ cost: null, costSource: 'unpriced' });
    expect(body.pricing).toMatchObject({ table: 'agentlog-builtin', unpriced: ['mystery-model-9'] });
    expect(body.totals).toMatchObject({ inputTokens: 147, outputTokens: 17, totalTokens: 164 });

    const ny = (await json(['daily', '--timezone', 'America/New_York'], home)).daily as Row[];
    expect(ny.map((d) => [d.period, d.totalTokens])).toEqual([['2025-12-31', 164]]);
  });

  it('bounds days inclusively with --since and --until, and reports months, sessions and models', async () => {
    const home = await claudeHome();
    expect(((await json(['--since', '2026-01-01'], home)).daily as Row[]).map((d) => d.period)).toEqual(['2026-01-01']);
    expect(((await json(['--until', '2025-12-31'], home)).daily as Row[]).map((d) => d.period)).toEqual(['2025-12-31']);
    expect(((await json(['--since', '2025-12-31', '--until', '2026-01-01'], home)).daily as Row[]).length).toBe(2);
    expect(((await json(['monthly'], home)).monthly as Row[]).map((d) => [d.period, d.totalTokens])).toEqual([
      ['2025-12', 110],
      ['2026-01', 54],
    ]);
    const sessions = (await json(['session'], home)).session as Row[];
    expect(sessions.map((s) => [s.period, s.agent, s.totalTokens])).toEqual([
      ['11111111-2222-4333-8444-555555555555', 'claude_code', 154],
      ['99999999-2222-4333-8444-555555555555', 'claude_code', 10],
    ]);
    const models = (await json(['model'], home)).model as Row[];
    expect(models.map((m) => m.period).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5', 'mystery-model-9']);
    const bad = await runCli(['usage', '--since', '2026-02-30'], home);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('YYYY-MM-DD');
  });

  it('prints a table with a totals row, and an empty report with exit 0 for an empty home', async () => {
    const home = await claudeHome();
    const table = await runCli(['usage'], home);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^DAY\s+MODELS\s+INPUT\s+OUTPUT\s+CACHE WRITE\s+CACHE READ\s+TOTAL\s+COST$/m);
    expect(table.stdout).toMatch(/^Total\s+147\s+17\s+0\s+0\s+164\s+\$0\.00\*$/m);
    expect(table.stderr).toContain('mystery-model-9');

    const empty = await tempDir();
    const none = await runCli(['usage', '--json'], empty);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ daily: [], totals: { totalTokens: 0, totalCost: 0 } });
    const text = await runCli(['usage'], empty);
    expect([text.code, text.stdout]).toEqual([0, 'no token usage found for these agents and days\n']);
  });

  it.skipIf(!hasCorpus)('adds up to exactly what scan shows, per agent, for every agent’s real logs', async () => {
    const home = await tempDir();
    const env = await corpusAgentHome(home);
    const scan = await runCli(['scan', '--json'], home, env);
    const sessions = (JSON.parse(scan.stdout) as { sessions: { agent: string; totals_with_subagents: Record<string, number> }[] }).sessions;
    const fromScan = new Map<string, number[]>();
    for (const s of sessions) {
      const t = s.totals_with_subagents;
      const sum = fromScan.get(s.agent) ?? [0, 0, 0, 0];
      [t.input_tokens, t.output_tokens, t.cache_creation_tokens, t.cache_read_tokens].forEach((v, i) => {
        sum[i] = (sum[i] as number) + (v ?? 0);
      });
      fromScan.set(s.agent, sum);
    }
    expect([...fromScan.keys()].sort()).toEqual(['claude_code', 'codex', 'gemini', 'kimi', 'opencode', 'pi']);
    for (const warm of [false, true]) {
      const doc = await json(['daily', '--by-agent'], home, env);
      // Every reader records usage per request: no session's days are an estimate.
      expect(doc.estimated_day_split_sessions).toBe(0);
      const rows = doc.daily as Row[];
      const fromUsage = new Map<string, number[]>();
      for (const r of rows) {
        const sum = fromUsage.get(r.agent as string) ?? [0, 0, 0, 0];
        [r.inputTokens, r.outputTokens, r.cacheCreationTokens, r.cacheReadTokens].forEach((v, i) => {
          sum[i] = (sum[i] as number) + v;
        });
        fromUsage.set(r.agent as string, sum);
      }
      for (const [agent, sum] of fromScan) {
        if (sum.every((v) => v === 0)) continue;
        expect([warm, agent, fromUsage.get(agent)]).toEqual([warm, agent, sum]);
      }
    }
  });
});
