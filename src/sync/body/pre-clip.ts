// Seed 003 orders the body pipeline: home elision, then redaction of every string value *before*
// clipping. Readers clip as they read, so sync hands each parse a hook that every clip runs on the
// text it is about to cut: that text is elided and redacted whole first, and a secret the cut would
// have split leaves no prefix behind. Only texts a clip cuts pay for it; the rest are redacted after
// the parse with every other string.
import { withBeforeClip } from '../../record/spill-scope.js';
import { makeSyncElider } from '../home-elide.js';
import { redactText } from '../redact/index.js';

export interface PreClip {
  /** Runs `fn` (a parse, or the level's cuts) with the hook in scope. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  runSync<T>(fn: () => T): T;
  /** Spans replaced by the hook so far. */
  readonly redactions: number;
}

export function redactBeforeClip(homes: readonly string[]): PreClip {
  const elide = makeSyncElider(homes);
  let redactions = 0;
  const hook = (text: string): string => {
    const r = redactText(elide(text));
    redactions += r.redactions;
    return r.text;
  };
  return {
    run: (fn) => withBeforeClip(hook, fn),
    runSync: (fn) => withBeforeClip(hook, fn),
    get redactions() {
      return redactions;
    },
  };
}
