// Small formatting helpers shared by the terminal and Markdown views.
import type { Totals } from '../../record/types.js';
import { styleMarks } from '../terminal-safe.js';

export function thousands(n: number): string {
  return n.toLocaleString('en-US');
}

export function tokensLine(t: Totals): string {
  const parts = [
    `in ${thousands(t.input_tokens)}`,
    `out ${thousands(t.output_tokens)}`,
    `cache read ${thousands(t.cache_read_tokens)}`,
    `cache write ${thousands(t.cache_creation_tokens)}`,
  ];
  if (t.reasoning_tokens > 0) parts.push(`reasoning ${thousands(t.reasoning_tokens)}`);
  if (t.cost_usd !== null) parts.push(`cost $${t.cost_usd.toFixed(4)}`);
  return parts.join(' · ');
}

export function totalTokens(t: Totals): number {
  return t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_creation_tokens;
}

/** `2026-10-01 09:30:05` from an ISO timestamp (UTC as written), or `—`. */
export function shortTime(at: string | null): string {
  if (at === null) return '—';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(at);
  return m === null ? at : `${m[1]} ${m[2]}`;
}

export function clockTime(at: string | null): string {
  if (at === null) return '--:--:--';
  const m = /T(\d{2}:\d{2}:\d{2})/.exec(at);
  return m === null ? at : (m[1] as string);
}

export function duration(from: string | null, to: string | null): string | null {
  if (from === null || to === null) return null;
  const ms = Date.parse(to) - Date.parse(from);
  if (!Number.isFinite(ms) || ms < 0) return null;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  accent(text: string): string;
}

export const plainStyle: Style = { bold: (t) => t, dim: (t) => t, accent: (t) => t };

/** Colour and weight as style marks; the output writer turns them into SGR sequences (terminal-safe.ts). */
export const ansiStyle: Style = {
  bold: (t) => `${styleMarks.bold}${t}${styleMarks.normal}`,
  dim: (t) => `${styleMarks.dim}${t}${styleMarks.normal}`,
  accent: (t) => `${styleMarks.accent}${t}${styleMarks.defaultColour}`,
};
