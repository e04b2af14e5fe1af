// Where tool output goes while one large record is built for printing: a caller (`show`) may hand
// the parse a sink that stores each clipped output elsewhere and puts a short token in its place, so
// the record in memory holds no output text however large the session (issue 10: ≤ 300 MiB on any
// file). Every reader clips its outputs with `clipOutput`, so no reader needs to know of it.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Stores a text and returns what stands for it in the record until the printer restores it. */
export interface TextSink {
  put(text: string): string;
}

/** Shorter outputs stay in the record: the token and the bookkeeping would not save anything. */
export const minSpillChars = 256;

/** What a caller hands a parse through this scope: where outputs go, and what runs before a clip. */
interface ParseScope {
  sink?: TextSink;
  /**
   * Applied to a text a clip is about to cut, before it is cut (sync redacts there, so a clip never
   * keeps the prefix of a secret it would have cut in two: seed 003 "redaction before clipping").
   */
  beforeClip?: (text: string) => string;
}

const scope = new AsyncLocalStorage<ParseScope>();

/** Runs `fn` (a parse) with tool outputs going to `sink`; parses elsewhere in the process are untouched. */
export function withTextSink<T>(sink: TextSink, fn: () => Promise<T>): Promise<T> {
  return scope.run({ ...scope.getStore(), sink }, fn);
}

/** Runs `fn` (a parse) with `f` applied to every text a clip cuts, before the cut. */
export function withBeforeClip<T>(f: (text: string) => string, fn: () => T): T {
  return scope.run({ ...scope.getStore(), beforeClip: f }, fn);
}

/** True when a parse runs under `withBeforeClip` (a reader that clips without `clip()` then reads whole). */
export function clipsWantWholeText(): boolean {
  return scope.getStore()?.beforeClip !== undefined;
}

/** The text a clip should cut: `beforeClip`'s answer when one is in scope, else the text itself. */
export function beforeClip(text: string): string {
  const f = scope.getStore()?.beforeClip;
  return f === undefined ? text : f(text);
}

/** The text itself, or its token when a sink is in scope and the text is long enough to be worth it. */
export function spillable(text: string): string {
  if (text.length < minSpillChars) return text;
  const sink = scope.getStore()?.sink;
  return sink === undefined ? text : sink.put(text);
}
