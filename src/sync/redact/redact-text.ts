// Redaction of one string: every finding replaced by `[REDACTED:<class>]`, repeated until nothing is
// found, so redacting twice changes nothing (a replacement can split a run another detector judged whole).
import type { Finding } from './classes.js';
import { applyFindings, scanText } from './scan.js';

export interface RedactTextResult {
  text: string;
  /** How many spans were replaced (over every pass). */
  redactions: number;
  /** The first pass's findings, as spans of the input. */
  findings: Finding[];
}

/** A text every pass still changes after this many is an error in a detector, not in the input. */
const maxPasses = 8;

/**
 * Example: redactText('key sk-ant-api03-abcdefghijklmnopqrstuvwxyz') →
 * { text: 'key [REDACTED:anthropic_key]', redactions: 1, … }.
 */
export function redactText(text: string): RedactTextResult {
  const findings = scanText(text);
  if (findings.length === 0) return { text, redactions: 0, findings };
  let out = applyFindings(text, findings);
  let redactions = findings.length;
  for (let pass = 1; pass < maxPasses; pass++) {
    const more = scanText(out);
    if (more.length === 0) return { text: out, redactions, findings };
    out = applyFindings(out, more);
    redactions += more.length;
  }
  throw new Error('redaction did not settle: a detector matches its own replacement');
}
