// Tokens per day by agent over the last 30 days (GET /api/usage), drawn with uPlot in the list's foot.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import type { UsageBody } from '../server/api-types.js';
import { usage } from './api.js';
import { compactCount } from './format.js';
import { dollars, hasCost, type UsageMeasure, usageSeries } from './usage-series.js';

const hues: Record<string, number> = { claude_code: 25, codex: 160, kimi: 280, pi: 200, intendant: 330, gemini: 220, opencode: 95 };

/** `width` re-draws the chart when the list pane is resized. */
export function UsageChart({ theme, width }: { theme: string; width: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [measure, setMeasure] = useState<UsageMeasure>('tokens');
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
    const { days, agents, data } = usageSeries(body, measure);
    const fmt = measure === 'cost' ? dollars : compactCount;
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
        axes: [axis, { ...axis, size: 40, values: (_u, vals) => vals.map((v) => fmt(v)) }],
        series: [
          {},
          ...agents.map((a) => ({
            label: a,
            stroke: `hsl(${hues[a] ?? 0} 55% 50%)`,
            fill: `hsl(${hues[a] ?? 0} 55% 50% / 0.12)`,
            width: 1.5,
            value: (_u: uPlot, v: number | null) => (v === null ? '' : fmt(v)),
          })),
        ],
      },
      [xs, ...data],
      el,
    );
    return () => plot.destroy();
  }, [body, theme, width, measure]);
  const total = body?.rows.reduce((n, r) => n + r.total_tokens, 0) ?? 0;
  const priced = body !== null && hasCost(body);
  const cost = body?.rows.reduce((n, r) => n + (r.cost_usd ?? 0), 0) ?? 0;
  const unpriced = body?.rows.some((r) => r.cost_usd === null) ?? false;
  const summary = `${compactCount(total)} tokens${priced ? ` · ${unpriced ? '≥ ' : ''}${dollars(cost)} estimated` : ''}`;
  return (
    <section class="usage" aria-label="Usage, last 30 days">
      <div class="usage-head">
        <h2>Usage, last 30 days{body !== null ? ` · ${summary}` : ''}</h2>
        <fieldset class="segmented">
          <legend class="visually-hidden">Chart measure</legend>
          {(['tokens', 'cost'] as const).map((m) => (
            <label key={m} title={m === 'cost' && !priced ? 'The server did not price this usage' : undefined}>
              <input
                type="radio"
                name="usage-measure"
                checked={measure === m}
                disabled={m === 'cost' && !priced}
                onChange={() => setMeasure(m)}
              />
              {m === 'tokens' ? 'Tokens' : 'Cost'}
            </label>
          ))}
        </fieldset>
      </div>
      {error !== null ? <p class="muted">Usage unavailable: {error}</p> : null}
      <div
        ref={box}
        role="img"
        aria-label={
          body === null
            ? 'Usage per day by agent (loading)'
            : measure === 'cost'
              ? `Estimated cost per day by agent: ${dollars(cost)} in ${body.days} days`
              : `Tokens per day by agent: ${compactCount(total)} tokens in ${body.days} days`
        }
      />
    </section>
  );
}
