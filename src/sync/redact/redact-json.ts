// Redaction of a parsed JSON value string by string (keys untouched): redacting the serialised text
// instead lets a match straddle an escape and can leave bytes that no longer parse (seed 003).
import { redactText } from './redact-text.js';

export interface RedactJsonResult {
  value: unknown;
  redactions: number;
}

function walk(value: unknown, count: { n: number }): unknown {
  if (typeof value === 'string') {
    const r = redactText(value);
    count.n += r.redactions;
    return r.text;
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, count));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, count);
    return out;
  }
  return value;
}

/**
 * A copy of `value` with every string value redacted, in the same key order, and how many spans
 * were replaced. Example: redactJson({ a: ['mail bob@example.com'] }) →
 * { value: { a: ['mail [REDACTED:email]'] }, redactions: 1 }.
 */
export function redactJson(value: unknown): RedactJsonResult {
  const count = { n: 0 };
  const out = walk(value, count);
  return { value: out, redactions: count.n };
}
