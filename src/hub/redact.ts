// Redaction on arrival (seed 003 "Redaction happens on both sides"): every value a client sends is
// redacted again here before it is hashed or stored.
//
// >>> REDACTION CALL SITE: the sync branch's `src/sync/redact/index.ts` (`redactJson`) is not merged
// >>> yet. Until it is, this passes values through unchanged and counts nothing. When it lands,
// >>> replace the body of `redactOnArrival` with `return redactJson(value);` (import it from
// >>> '../sync/redact/index.js'). Nothing else in the hub calls a redactor.

export interface Redacted {
  value: unknown;
  redactions: number;
}

/** Redacts every string inside `value` (a parsed JSON value or a single string). */
export function redactOnArrival(value: unknown): Redacted {
  return { value, redactions: 0 };
}

/** A string through the same redactor; `redactions` says how many matches were replaced. */
export function redactText(text: string): { text: string; redactions: number } {
  const out = redactOnArrival(text);
  return { text: typeof out.value === 'string' ? out.value : text, redactions: out.redactions };
}
