// GET /api/usage gives the numbers `agentlog usage daily --by-agent` prints for the same home and
// days: each request on the local day it was made, in the zone asked for.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.js';
import * as claude from '../agents/claude-code/test-support/fixtures.js';
import * as pi from '../agents/pi/test-support/pi.js';
import type { ErrorBody, UsageBody } from './api-types.js';
import { authed, machine } from './test-support/fixture-home.js';

interface CliRow {
  period: string;
  agent: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  totalCost: number;
}

/** Requests at 14:50 and 15:10 UTC on Dec 31 and 00:10 UTC on Jan 1: Tokyo's midnight falls between the first two. */
const times = ['2025-12-31T14:50:00Z', '2025-12-31T15:10:00Z', '2026-01-01T00:10:00Z'].map((t) => Date.parse(t));

async function writeHomes(root: string): Promise<void> {
  const cs = (ms: number): number => (ms - Date.UTC(2026, 0, 1)) / 1000;
  const lines: unknown[] = [];
  for (const [i, ms] of times.entries()) {
    lines.push(claude.user(`ask ${i}`, cs(ms) - 60));
    lines.push(
      claude.assistant(
        `msg_${i}`,
        [{ type: 'text', text: `answer ${i}` }],
        cs(ms),
        {},
        { usage: claude.usage(1000 * (i + 1), 100, 10, 5000) },
      ),
    );
  }
  await claude.writeMain(join(root, '.claude'), lines);
  const ps = (ms: number): number => (ms - pi.t0) / 1000;
  const piLines: pi.PiLine[] = [pi.header('pi-usage')];
  let parent: string | null = null;
  for (const [i, ms] of times.entries()) {
    piLines.push(pi.user(`u${i}`, parent, `ask ${i}`, ps(ms) - 60));
    piLines.push(pi.assistant(`a${i}`, `u${i}`, ps(ms), { text: `answer ${i}`, input: 50 * (i + 1), output: 7, cost: 0.25 }));
    parent = `a${i}`;
  }
  await pi.writePiFile(join(root, '.pi', 'agent'), '2025-12-31T14-49-00-000Z_pi-usage.jsonl', piLines);
}

describe('/api/usage', () => {
  it('answers the rows `agentlog usage daily --by-agent` prints for the same home, days and zone', async () => {
    const m = await machine({ fill: false, now: () => Date.parse('2026-01-02T03:00:00Z') });
    await writeHomes(m.root);
    const res = await m.app.request('/api/usage?days=4&tz=Asia/Tokyo', { headers: authed() });
    expect(res.status).toBe(200);
    const body = (await res.json()) as UsageBody;
    expect(body).toMatchObject({ ok: true, days: 4, time_zone: 'Asia/Tokyo', from: '2025-12-30', to: '2026-01-02' });
    expect(body.rows.map((r) => [r.day, r.agent, r.sessions, r.input_tokens])).toEqual([
      ['2025-12-31', 'claude_code', 1, 1000],
      ['2025-12-31', 'pi', 1, 50],
      ['2026-01-01', 'claude_code', 1, 5000],
      ['2026-01-01', 'pi', 1, 250],
    ]);

    const cli = await runCli(
      ['usage', 'daily', '--by-agent', '--json', '--timezone', 'Asia/Tokyo', '--since', body.from, '--until', body.to],
      m.root,
      m.env,
    );
    expect(cli.code).toBe(0);
    const rows = (JSON.parse(cli.stdout) as { daily: CliRow[] }).daily;
    const fromCli = rows.map((r) => [
      r.period,
      r.agent,
      r.inputTokens,
      r.outputTokens,
      r.cacheCreationTokens,
      r.cacheReadTokens,
      r.totalTokens,
      r.totalCost,
    ]);
    const fromServer = body.rows.map((r) => [
      r.day,
      r.agent,
      r.input_tokens,
      r.output_tokens,
      r.cache_creation_tokens,
      r.cache_read_tokens,
      r.total_tokens,
      r.cost_usd,
    ]);
    expect(fromServer).toEqual(fromCli);
    expect(body.rows.every((r) => r.cost_usd > 0 && r.unpriced_models.length === 0)).toBe(true);
  });

  it('refuses an unknown zone and a window outside 1–366 days', async () => {
    const m = await machine({ fill: false });
    const zone = await m.app.request('/api/usage?tz=Mars/Olympus', { headers: authed() });
    expect(zone.status).toBe(400);
    expect(((await zone.json()) as ErrorBody).error.code).toBe('UnknownTimeZone');
    expect((await m.app.request('/api/usage?days=0', { headers: authed() })).status).toBe(400);
  });
});
