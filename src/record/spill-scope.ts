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

const scope = new AsyncLocalStorage<TextSink>();

/** Runs `fn` (a parse) with tool outputs going to `sink`; parses elsewhere in the process are untouched. */
export function withTextSink<T>(sink: TextSink, fn: () => Promise<T>): Promise<T> {
  return scope.run(sink, fn);
}

/** The text itself, or its token when a sink is in scope and the text is long enough to be worth it. */
export function spillable(text: string): string {
  if (text.length < minSpillChars) return text;
  const sink = scope.getStore();
  return sink === undefined ? text : sink.put(text);
}
