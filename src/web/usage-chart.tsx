// Tokens per day by agent over the last 30 days (GET /api/usage), drawn with uPlot in the list's foot.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { UsageBody } from '../server/api-types.js';
import { usage } from './api.js';
import { compactCount } from './format.js';

const hues: Record<string, number> = { claude_code: 25, codex: 160, kimi: 280, pi: 200, intendant: 330, gemini: 220, opencode: 95 };

/** The chart's columns: one x per day from `from` to `to`, one series of total tokens per agent. */
export function usageSeries(body: UsageBody): { days: string[]; agents: string[]; data: number[][] } {
  const days: string[] = [];
  for (let t = Date.parse(`${body.from}T00:00:00Z`); t <= Date.parse(`${body.to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  const agents = [...new Set(body.rows.map((r) => r.agent))].sort();
  const index = new Map(days.map((d, i) => [d, i]));
  const data = agents.map(() => days.map(() => 0));
  for (const r of body.rows) {
    const i = index.get(r.day);
    const a = agents.indexOf(r.agent);
    if (i !== undefined && a !== -1) (data[a] as number[])[i] = r.total_tokens;
  }
  return { days, agents, data };
}

/** `theme` only re-draws the chart in the new colours (uPlot paints on a canvas, not with CSS). */
export function UsageChart({ theme }: { theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [body, setBody] = useState<UsageBody | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    usage(30, abort.signal).then(setBody, (e: unknown) => {
      if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    });
    return () => abort.abort();
  }, []);
  useEffect(() => {
    const el = box.current;
    if (el === null || body === null) return;
    const { days, agents, data } = usageSeries(body);
    const xs = days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
    const style = getComputedStyle(document.documentElement);
    const axis = {
      stroke: style.getPropertyValue('--fg-muted'),
      grid: { stroke: style.getPropertyValue('--rule'), width: 1 },
      ticks: { show: false },
      font: '10px system-ui',
    };
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: 110,
        legend: { show: agents.length > 0, live: false },
        cursor: { y: false },
        scales: { x: { time: true } },
        axes: [axis, { ...axis, size: 40, values: (_u, vals) => vals.map((v) => compactCount(v)) }],
        series: [
          {},
          ...agents.map((a) => ({
            label: a,
            stroke: `hsl(${hues[a] ?? 0} 55% 50%)`,
            fill: `hsl(${hues[a] ?? 0} 55% 50% / 0.12)`,
            width: 1.5,
            value: (_u: uPlot, v: number | null) => (v === null ? '' : compactCount(v)),
          })),
        ],
      },
      [xs, ...data],
      el,
    );
    return () => plot.destroy();
  }, [body, theme]);
  const total = body?.rows.reduce((n, r) => n + r.total_tokens, 0) ?? 0;
  return (
    <section class="usage" aria-label="Usage, last 30 days">
      <h2>Usage, last 30 days{body !== null ? ` · ${compactCount(total)} tokens` : ''}</h2>
      {error !== null ? <p class="muted">Usage unavailable: {error}</p> : null}
      <div
        ref={box}
        role="img"
        aria-label={
          body === null
            ? 'Tokens per day by agent (loading)'
            : `Tokens per day by agent: ${compactCount(total)} tokens in ${body.days} days`
        }
      />
    </section>
  );
}
