// Redaction on arrival (seed 003 "Redaction happens on both sides"): every value a client sends is
// redacted again here, with the same library the sync client runs (src/sync/redact), before it is
// hashed or stored. The hub's one call site of a redactor.
import { redactJson } from '../sync/redact/index.js';

export interface Redacted {
  value: unknown;
  redactions: number;
}

/** Redacts every string inside `value` (a parsed JSON value or a single string), keys untouched. */
export function redactOnArrival(value: unknown): Redacted {
  return redactJson(value);
}

/** A string through the same redactor; `redactions` says how many matches were replaced. */
export function redactText(text: string): { text: string; redactions: number } {
  const out = redactOnArrival(text);
  return { text: typeof out.value === 'string' ? out.value : text, redactions: out.redactions };
}
