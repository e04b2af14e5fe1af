import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyCorpus, tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import type { AgentId } from '../record/types.js';
import { type BucketRow, bucketsFromRecord, slotMs } from './buckets.js';
import { canonicalModel, estimateCost, unpricedReason } from './pricing.js';
import { buildReport, type UsageQuery, type UsageSource } from './report.js';
import { hasCorpus } from '../../test/support/corpus.js';

const slot = (iso: string): number => Math.floor(Date.parse(iso) / slotMs);
const row = (iso: string, model: number, input: number, output: number, cost = -1): BucketRow => [
  slot(iso),
  model,
  input,
  output,
  0,
  0,
  0,
  cost,
  0,
];
const source = (agent: AgentId, sessionId: string, models: string[], rows: BucketRow[]): UsageSource => ({
  agent,
  sessionId,
  lastActivity: null,
  buckets: { models, rows, basis: 'turns' },
});
const daily = (extra: Partial<UsageQuery> = {}): UsageQuery => ({ kind: 'daily', timeZone: 'UTC', byAgent: false, ...extra });

const sources = [
  source(
    'claude_code',
    'a',
    ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5'],
    [row('2026-01-01T23:50:00Z', 0, 1_000_000, 0), row('2026-01-02T00:10:00Z', 1, 0, 1_000_000)],
  ),
  source(
    'pi',
    'b',
    ['my-local-model', 'kimi-k2-0905-preview'],
    [row('2026-01-02T12:00:00Z', 0, 10, 10), row('2026-01-03T12:00:00Z', 1, 5, 5, 0.25)],
  ),
];

describe('buildReport', () => {
  it('sums by local day with ccusage’s fields, prices known models and lists unknown ones as unpriced', () => {
    const r = buildReport(sources, daily());
    expect(r.rows.map((x) => [x.period, x.inputTokens, x.outputTokens, x.totalTokens, x.totalCost, x.unpricedModels])).toEqual([
      ['2026-01-01', 1_000_000, 0, 1_000_000, 3, []],
      ['2026-01-02', 10, 1_000_010, 1_000_020, 5, ['my-local-model']],
      ['2026-01-03', 5, 5, 10, 0.25, []],
    ]);
    const unknown = r.rows[1]?.modelBreakdowns.find((m) => m.modelName === 'my-local-model');
    expect(unknown).toMatchObject({ cost: null, costSource: 'unpriced', inputTokens: 10 });
    expect(r.rows[2]?.modelBreakdowns[0]).toMatchObject({ cost: 0.25, costSource: 'log' });
    expect(r.totals).toMatchObject({
      inputTokens: 1_000_015,
      outputTokens: 1_000_015,
      totalCost: 8.25,
      unpricedModels: ['my-local-model'],
    });
  });

  it('counts a turn on its local day in the zone asked for', () => {
    const r = buildReport(sources, daily({ timeZone: 'Asia/Kolkata' }));
    // 23:50 UTC is 05:20 the next day in India (+05:30), so both Claude turns fall on 2 January.
    expect(r.rows.map((x) => [x.period, x.totalTokens])).toEqual([
      ['2026-01-02', 2_000_020],
      ['2026-01-03', 10],
    ]);
  });

  it('takes --since and --until as inclusive local days', () => {
    const r = buildReport(sources, daily({ since: '2026-01-02', until: '2026-01-02' }));
    expect(r.rows.map((x) => x.period)).toEqual(['2026-01-02']);
    expect(r.totals.totalTokens).toBe(1_000_020);
  });

  it('reports by month, session, model and agent', () => {
    expect(buildReport(sources, { ...daily(), kind: 'monthly' }).rows.map((x) => [x.period, x.totalTokens])).toEqual([
      ['2026-01', 2_000_030],
    ]);
    const bySession = buildReport(sources, { ...daily(), kind: 'session' }).rows;
    expect(bySession.map((x) => [x.period, x.agent, x.totalTokens])).toEqual([
      ['a', 'claude_code', 2_000_000],
      ['b', 'pi', 30],
    ]);
    const byModel = buildReport(sources, { ...daily(), kind: 'model' }).rows;
    expect(byModel.map((x) => x.period)).toEqual([
      'claude-haiku-4-5',
      'claude-sonnet-4-5-20250929',
      'kimi-k2-0905-preview',
      'my-local-model',
    ]);
    const byAgent = buildReport(sources, daily({ byAgent: true })).rows;
    expect(byAgent.map((x) => [x.period, x.agent])).toEqual([
      ['2026-01-01', 'claude_code'],
      ['2026-01-02', 'claude_code'],
      ['2026-01-02', 'pi'],
      ['2026-01-03', 'pi'],
    ]);
  });

  it('calls a model’s cost mixed where the log priced some rows and the table or nothing the rest', () => {
    const both = source(
      'pi',
      'm',
      ['claude-haiku-4-5', 'my-local-model'],
      [
        row('2026-01-05T10:00:00Z', 0, 1_000_000, 0, 0.5),
        row('2026-01-05T11:00:00Z', 0, 1_000_000, 0),
        row('2026-01-05T12:00:00Z', 1, 10, 0, 0.25),
        row('2026-01-05T13:00:00Z', 1, 10, 0),
      ],
    );
    const [day] = buildReport([both], daily()).rows;
    // claude-haiku-4-5 is $1 per million input: $0.50 logged plus $1 from the table.
    expect(day?.modelBreakdowns.map((m) => [m.modelName, m.cost, m.costSource])).toEqual([
      ['claude-haiku-4-5', 1.5, 'mixed'],
      ['my-local-model', 0.25, 'mixed'],
    ]);
    expect(day?.unpricedModels).toEqual(['my-local-model']);
    expect(day?.totalCost).toBe(1.75);
  });

  it('is empty for no sessions', () => {
    expect(buildReport([], daily())).toMatchObject({ rows: [], totals: { totalTokens: 0, totalCost: 0, unpricedModels: [] } });
  });
});

describe('pricing', () => {
  it('reads provider prefixes, dates, dots and snapshots, and keeps near names apart', () => {
    expect(canonicalModel('claude-sonnet-4-20250514')).toBe('claude-sonnet-4');
    expect(canonicalModel('anthropic/claude-sonnet-4.5')).toBe('claude-sonnet-4-5');
    expect(canonicalModel('claude-opus-4-1-20250805')).toBe('claude-opus-4-1');
    expect(canonicalModel('us.anthropic.claude-3-7-sonnet-20250219-v1:0')).toBe('claude-3-7-sonnet');
    expect(canonicalModel('gpt-5-codex')).toBe('gpt-5-codex');
    expect(canonicalModel('gpt-5-2025-08-07')).toBe('gpt-5');
    expect(canonicalModel('openai/gpt-4.1-mini')).toBe('gpt-4-1-mini');
    expect(canonicalModel('gemini-2.5-pro-preview-06-05')).toBe('gemini-2-5-pro');
    expect(canonicalModel('kimi-k2-turbo-preview')).toBe('kimi-k2-turbo');
    expect(canonicalModel('gpt-5-turbo-foo')).toBeNull();
    expect(canonicalModel('llama-3')).toBeNull();
  });

  it('prices Gemini’s cache reads once: its input already excludes them, its thoughts are billed as output', () => {
    // gemini-2.5-pro: $1.25 in, $0.125 cache read, $10 out per million.
    const gem = source('gemini', 'g', ['gemini-2.5-pro'], [[slot('2026-01-01T10:00:00Z'), 0, 600_000, 100_000, 0, 400_000, 50_000, -1, 0]]);
    const r = buildReport([gem], daily());
    expect(r.totals.totalCost).toBeCloseTo(0.6 * 1.25 + 0.15 * 10 + 0.4 * 0.125, 9);
  });

  it('charges the long-context rate for a prompt past 200k tokens', () => {
    const t = { input: 250_000, output: 0, cacheWrite: 0, cacheRead: 0, reasoningApart: 0 };
    expect(estimateCost('claude-sonnet-4-5', { ...t, long: false })).toBeCloseTo(0.75, 9);
    expect(estimateCost('claude-sonnet-4-5', { ...t, long: true })).toBeCloseTo(1.5, 9);
  });

  it('prices every model the bench home and the agents’ fixtures name, or says why not', () => {
    // From bench/gen/*.mjs and src/agents/*/test-support (grep of model names, 2026-12-01).
    const priced = [
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4.5',
      'anthropic/claude-sonnet-4-5',
      'claude-haiku-4.5',
      'claude-opus-4-1',
      'claude-sonnet-4-20250514',
      'gpt-5-codex',
      'gpt-5.1-codex',
      'gpt-5.3-codex',
      'gpt-5.1',
      'gpt-5',
      'gpt-5-mini',
      'gpt-4o-mini',
      'o3',
      'gemini-2.5-pro',
      'gemini-3-flash-preview',
    ];
    for (const m of priced) expect(canonicalModel(m), m).not.toBeNull();
    // Named on purpose, each with its reason; any other unknown name is "not in the table", never $0.
    expect(unpricedReason('kimi-k2.7-code')).toMatch(/Moonshot publishes no price/);
    expect(unpricedReason('moonshot-ai/kimi-k2.7-code')).toMatch(/Moonshot publishes no price/);
    expect(unpricedReason('qwen3-coder-plus')).toMatch(/tiers/);
    expect(unpricedReason('<unknown>')).toMatch(/no model/);
    expect(unpricedReason('deepseek/deepseek-chat')).toBe("not in agentlog's price table");
    for (const m of ['kimi-k2.7-code', 'qwen3-coder-plus', 'deepseek/deepseek-chat', 'gpt-5.6-luna'])
      expect(estimateCost(m, { input: 1, output: 1, cacheWrite: 0, cacheRead: 0, reasoningApart: 0, long: false }), m).toBeNull();
  });

  it.skipIf(!hasCorpus)('estimates the real 774 KB Claude Code session within 0.5% of ccusage', async () => {
    const file = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
    const path = await copyCorpus(`claude/projects/-sample-project/${file}`, join(await tempDir(), '.claude', 'projects', 'p', file));
    const session = await claudeCodeReader.claim(path);
    if (session === null) throw new Error('not claimed');
    const parsed = await claudeCodeReader.parse(session, { detail: 'summary' });
    const record = parsed.record;
    if (record === null) throw new Error('no record');
    const r = buildReport([{ ...source('claude_code', session.sessionId, [], []), buckets: bucketsFromRecord(record) }], daily());
    // ccusage 20.0.24 `daily --json --offline` on this file: $2.3932152 (Sonnet 4 at $3 in, $15 out,
    // $3.75 cache write, $0.30 cache read per million: 818, 51,933, 137,976, 3,647,854 tokens).
    const ccusage = 2.3932152;
    expect(Math.abs(r.totals.totalCost - ccusage) / ccusage).toBeLessThan(0.005);
    expect(r.totals.totalTokens).toBe(3_838_581);
  });
});
