// Reads one Factory Droid session file (its header and messages, in file order) and its sibling
// settings file. Bad lines are counted; a torn final line (Droid still appending) is neither.
import { statSync } from 'node:fs';
import { readRegularFileSync } from '../../fs/read-open.js';
import { isNotFound } from '../../fs/errors.js';
import { asObject, num, str, type JsonObject } from '../../json/narrow.js';
import { emptyTotals, type Totals } from '../../record/types.js';
import { skimJsonl } from '../skim-jsonl.js';
import { messageOf, startOf, type DroidMessage, type DroidStart } from './line.js';

/** One line above this is skipped and counted (a pasted image, a huge tool result). */
export const maxLineBytes = 32 * 1024 * 1024;
/** A settings file is a small document; a larger one is not read. */
const maxSettingsBytes = 4 * 1024 * 1024;

export interface DroidFile {
  start: DroidStart | undefined;
  messages: DroidMessage[];
  badLines: number;
}

export interface DroidSettings {
  model: string | undefined;
  tokens: Totals | undefined;
}

/**
 * A user message holding only tool results carries the tools' whole output; below the full detail
 * level the record needs nothing of it but its time (a result's status and output are dropped), so
 * such a line is read from its opening: Droid writes `type`, `id`, `timestamp` and the role first.
 */
const headBytes = 1024;
const resultsOnly =
  /^\{"type":"message","id":"[^"\\]*","timestamp":"([^"\\]+)",(?:"parentId":"[^"\\]*",)?"message":\{"role":"user","content":\[\{"type":"tool_result"/;
const textValue = Buffer.from(':"text"');
const typeKey = Buffer.from('"type"');

/**
 * Whether `buf[start, end)` holds `"type":"text"` (a quote inside a JSON string is escaped, so only
 * structure matches). It looks for `:"text"` and checks the key before it: a needle that starts
 * with a quote stops at every escaped quote of a tool's output, which made the search cost as much
 * as parsing.
 */
export function hasTextBlock(buf: Buffer, start: number, end: number): boolean {
  // A view of the line: searching `buf` itself would run on through the rest of the read chunk.
  const line = buf.subarray(start, end);
  for (let at = line.indexOf(textValue); at !== -1; at = line.indexOf(textValue, at + 1)) {
    if (at >= typeKey.length && line.compare(typeKey, 0, typeKey.length, at - typeKey.length, at) === 0) return true;
  }
  return false;
}
const ascii = /^[\x00-\x7f]*$/;

/**
 * Reads the header and messages. Without `full`, user messages that hold only tool results are
 * read from their first bytes (their time), never parsed.
 */
export async function readSession(path: string, full = true): Promise<DroidFile> {
  const file: DroidFile = { start: undefined, messages: [], badLines: 0 };
  const skim = (buf: Buffer, start: number, end: number, info: { line: number }): boolean => {
    // Decoded as latin1 (a copy, no UTF-8 decoding): every byte the pattern names is ASCII and a
    // multi-byte character cannot hold a quote or backslash byte, so it matches as the UTF-8 text
    // would; only a timestamp that is not ASCII would read differently, and that line is parsed.
    const m = resultsOnly.exec(buf.toString('latin1', start, Math.min(end, start + headBytes)));
    if (m?.[1] === undefined || !ascii.test(m[1])) return false;
    if (hasTextBlock(buf, start, end)) return false;
    file.messages.push({ line: info.line, id: undefined, at: m[1], role: 'user', model: undefined, blocks: [] });
    return true;
  };
  file.badLines = skimJsonl(
    path,
    {
      ...(full ? {} : { skim }),
      onObject: (o, info) => {
        if (file.start === undefined && file.messages.length === 0) {
          const start = startOf(o);
          if (start !== undefined) {
            file.start = start;
            return;
          }
        }
        const m = messageOf(o, info.line);
        if (m !== undefined) file.messages.push(m);
      },
    },
    { maxLineBytes },
  );
  return file;
}

/**
 * The session's own token usage (`tokenUsage`; `inclusiveTokenUsage` adds its sub-agents', which
 * the record counts from their own files): input, output, cache writes and reads, and thinking
 * stated apart, each counted once as stated.
 */
export function tokensOf(value: unknown): Totals | undefined {
  const u = asObject(value);
  if (u === undefined) return undefined;
  const t = emptyTotals();
  t.input_tokens = num(u, 'inputTokens') ?? 0;
  t.output_tokens = num(u, 'outputTokens') ?? 0;
  t.cache_creation_tokens = num(u, 'cacheCreationTokens') ?? 0;
  t.cache_read_tokens = num(u, 'cacheReadTokens') ?? 0;
  t.reasoning_tokens = num(u, 'thinkingTokens') ?? 0;
  return t;
}

/** The settings beside a session file; empty when there is none or it does not parse. */
export function readSettings(path: string): DroidSettings {
  let doc: JsonObject | undefined;
  try {
    if (statSync(path).size > maxSettingsBytes) return { model: undefined, tokens: undefined };
    doc = asObject(JSON.parse(readRegularFileSync(path)));
  } catch (error) {
    if (!isNotFound(error) && !(error instanceof SyntaxError)) throw error;
    return { model: undefined, tokens: undefined };
  }
  return { model: str(doc, 'model'), tokens: tokensOf(doc?.['tokenUsage']) };
}
