// The body pipeline (seed 003, in this order): home elision, the detail level, redaction of every
// string value, the clips again, the body cap, serialisation, then a whole-body check of the bytes
// that will travel. A body that still holds a secret, or no longer parses, is not sent. The texts
// the reader's clips (and the summary's cut) shortened were redacted whole before the cut
// (`pre-clip.ts`).
import { sha256Hex } from '../../fs/hash.js';
import { finaliseRecord } from '../../record/finalise.js';
import type { Detail, SessionRecord } from '../../record/types.js';
import { makeSyncElider } from '../home-elide.js';
import { findSecrets } from '../redact/index.js';
import { bodyCapBytes, capRecord } from './cap.js';
import { redactBeforeClip } from './pre-clip.js';
import { redactRecord } from './redact-record.js';

export interface BodyOptions {
  detail: Detail;
  /** The user's home as the environment names it, and its real path when that differs. */
  homes: readonly string[];
  cap?: number;
}

export type BuiltBody =
  | { ok: true; record: SessionRecord; body: string; sha256: string; bytes: number; redactions: number }
  | { ok: false; reason: string; redactions: number };

/** Applies `f` to every string value of a JSON-shaped value (keys untouched). */
export function mapStrings<T>(value: T, f: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return f(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * Builds what sync would send for one session from the reader's draft record.
 * The same draft and options always give the same bytes.
 */
export function buildBody(draft: SessionRecord, opts: BodyOptions): BuiltBody {
  const elide = makeSyncElider(opts.homes);
  // finaliseRecord applies the level (and elides what it keeps); every other string is elided too.
  // The level's cut of the summary's first ask is a clip too: redaction runs before it.
  const pre = redactBeforeClip(opts.homes);
  const leveled = mapStrings(
    pre.runSync(() => finaliseRecord(draft, { detail: opts.detail, elide })),
    elide,
  );
  const redacted = redactRecord(leveled);
  const record = redacted.record;
  const redactions = redacted.redactions + pre.redactions;
  const cap = opts.cap ?? bodyCapBytes;
  const capped = capRecord(record, cap);
  if (capped.body === null)
    return { ok: false, reason: `the body is ${capped.bytes} bytes even cut to its opening turn (the cap is ${cap})`, redactions };
  const body = capped.body;
  try {
    JSON.parse(body);
  } catch {
    return { ok: false, reason: 'the redacted body no longer parses as JSON', redactions };
  }
  const left = findSecrets(body);
  if (left.length > 0) {
    const classes = [...new Set(left.map((f) => f.cls))].join(', ');
    return { ok: false, reason: `the whole-body check still finds ${left.length} secret(s) (${classes})`, redactions };
  }
  return { ok: true, record: capped.record, body, sha256: sha256Hex(body), bytes: Buffer.byteLength(body, 'utf8'), redactions };
}
